"""One hand of No-Limit Texas Hold'em as a sans-IO state machine.

The engine's vocabulary, shared with ``engine.blackjack.Round``: constructing the game deals it
(``Hand(stakes, stacks)`` posts antes and blinds and deals at once); ``turn`` says who must act
and what they may do (``None`` when nobody may); ``act(player, action)`` applies one action and
returns the events it caused; ``events`` is everything so far; ``is_complete`` says every chip
is settled, which can already be true at construction (when the forced bets put the players all
in). An illegal or malformed action raises an ``IllegalActionError`` (or a ``MalformedInputError``)
and changes nothing; ``turn.verify(action)`` is the very check ``act`` makes. All public state is
read-only (tuples and properties); ``copy()`` gives an independent copy.

Players are numbered in PHH order: player 0 sits first left of the button (the small blind, or
the big blind heads-up), the last player is the button. The betting rules follow PokerKit
exactly (our differential tests hold us to it), which also are the TDA's: amounts are "to"
totals; the minimum raise is the largest raise increment of the street, at least the minimum bet;
an all-in for less than a full raise does not reopen the betting to players who already acted;
uncalled bets are returned; the odd chip goes to the first winner left of the button.

Home-game options (``HandOptions``) follow PokerKit too. Run it N times: when the players still
in are all in before the river, each of them chooses a run count (``turn`` offers
``ChooseRunCount``, any of them may answer first); only if all choose the same count is the rest
of the board dealt that many times, run after run (burn, street, burn, street...), and every pot
is split evenly between the runs with the odd chips to the first run, then split on each run
between its winners. A double board deals each street to both boards after one burn, and splits
every pot between the boards the same way. A bomb pot skips preflop betting. Once the hand is
complete, ``after_hand(player)`` says what each player may still do: reveal hole cards nobody
saw, or rabbit hunt; neither changes the result, and a 7-2 bounty (``BountyPaid``) is the only
chip movement after ``HandEnded``.
"""

from __future__ import annotations

import random
import secrets
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from operator import sub

from engine.cards import CARD_TEXT, DECK, Card, Rank, format_cards
from engine.errors import ActionNotAllowedError, NotYourTurnError
from engine.evaluate import HandValue, evaluate, evaluate_holes
from engine.holdem.actions import (
    Action,
    ActionKind,
    AfterHandAction,
    AfterHandChoices,
    Call,
    Check,
    ChooseRunCount,
    Fold,
    LegalActions,
    RabbitHunt,
    RaiseTo,
    Reveal,
    Show,
)
from engine.holdem.errors import HandCompleteError, InvalidSetupError
from engine.holdem.events import (
    AntePosted,
    BetReturned,
    BlindPosted,
    BoardDealt,
    BountyPaid,
    CardsMucked,
    CardsShown,
    Event,
    HandEnded,
    HoleCardsDealt,
    HoleCardsRevealed,
    PlayerActed,
    PotAwarded,
    RabbitHunted,
    RunCountChosen,
    RunCountSettled,
)
from engine.holdem.options import PLAIN, HandOptions
from engine.holdem.pots import Pot, build_pots, split, without
from engine.holdem.stakes import Stakes
from engine.holdem.streets import Street

MAX_PLAYERS = 22
"""52 cards hold 22 players' hole cards, three burns and a board."""

BOARD_CARDS_BY_STREET = (0, 3, 1, 1)

# Tables worked out once for the hot path (bench/holdem_engine.py): every action of every hand
# wrote its PHH line with an f-string and walked the table with modular arithmetic, and those
# small costs were a measurable share of a hand.
_FOLD_LINES = tuple(f"p{i + 1} f" for i in range(MAX_PLAYERS))
_CALL_LINES = tuple(f"p{i + 1} cc" for i in range(MAX_PLAYERS))
_ROTATIONS = tuple(
    tuple(tuple((start + k) % n for k in range(n)) for start in range(n))
    for n in range(MAX_PLAYERS + 1)
)
"""``_ROTATIONS[n][start]``: the players of an ``n``-handed hand in turn order from ``start``."""
_OTHERS = tuple(tuple(rotation[1:] for rotation in rotations) for rotations in _ROTATIONS)
"""``_OTHERS[n][player]``: everyone else, in turn order from the player's left."""


def stacked_deck(holes: Sequence[Sequence[Card | None]], board: Sequence[Card] = ()) -> list[Card]:
    """A deck that deals these hole cards (player 0 first) and board; ``None`` or missing
    cards are filled from the unused cards in deck order. Used for replays and tests."""
    known = [card for hole in holes for card in hole if card is not None] + list(board)
    if len(set(known)) != len(known):
        raise InvalidSetupError("the same card is dealt twice")
    if len(board) > 5 or any(len(hole) > 2 for hole in holes):
        raise InvalidSetupError("two hole cards each and at most five board cards")
    used = set(known)
    spare = iter([card for card in DECK if card not in used])
    padded = [list(hole) + [None] * (2 - len(hole)) for hole in holes]
    deck = [padded[p][r] or next(spare) for r in range(2) for p in range(len(holes))]
    position = 0
    for count in BOARD_CARDS_BY_STREET[1:]:
        deck.append(next(spare))  # burn
        for _ in range(count):
            deck.append(board[position] if position < len(board) else next(spare))
            position += 1
    deck.extend(spare)
    return deck


def _board_line(cards: Sequence[Card]) -> str:
    """The PHH line that deals these board cards."""
    return "d db " + "".join([CARD_TEXT[card] for card in cards])


def _phh_line(event: Event) -> str | None:
    """The PHH action line of an event, if it has one."""
    match event:
        case PlayerActed(player=player, kind=kind, bet_to=bet_to):
            if kind is _FOLD:
                return _FOLD_LINES[player]
            if kind is _CHECK or kind is _CALL:
                return _CALL_LINES[player]
            return f"p{player + 1} cbr {bet_to}"
        case BoardDealt(cards=cards):
            return _board_line(cards)
        case CardsShown(player=player, cards=(first, second)):
            return f"p{player + 1} sm {CARD_TEXT[first]}{CARD_TEXT[second]}"
        case CardsMucked(player=player):
            return f"p{player + 1} sm"
        case _:
            return None


def _check_options(options: HandOptions, n: int) -> None:
    if not isinstance(options, HandOptions):
        raise InvalidSetupError(f"options must be HandOptions, not {options!r}")
    if _cards_needed(n, options.boards) > len(DECK):
        raise InvalidSetupError(f"{n} players cannot play {options.boards} boards")


def _check_setup(stakes: Stakes, stacks: Sequence[int]) -> None:
    n = len(stacks)
    if not 2 <= n <= MAX_PLAYERS:
        raise InvalidSetupError(f"a hand needs 2 to {MAX_PLAYERS} players, not {n}")
    if stakes.players != n:
        raise InvalidSetupError(f"the stakes are for {stakes.players} players, not {n}")
    for stack in stacks:
        if type(stack) is int and stack > 0:  # the usual case first: one test per stack
            continue
        if not isinstance(stack, int) or isinstance(stack, bool) or stack <= 0:
            raise InvalidSetupError(f"every starting stack must be a whole number > 0: {stack!r}")


def _cards_needed(players: int, boards: int) -> int:
    """Hole cards, three burns and every board's five cards."""
    return 2 * players + 3 + 5 * boards


def _checked_deck(deck: Sequence[Card], players: int, boards: int) -> list[Card]:
    cards = list(deck)
    if len(set(cards)) != len(cards):
        raise InvalidSetupError("the deck holds the same card twice")
    if len(cards) < _cards_needed(players, boards):
        raise InvalidSetupError(f"{len(cards)} cards are not enough for {players} players")
    return cards


class Phase(Enum):
    """Where the hand stands."""

    BETTING = "betting"
    """Waiting for the player to act to fold, check, call or raise."""
    SHOWDOWN = "showdown"
    """Manual showdown only: waiting for a player to show or muck."""
    RUN_COUNT = "run count"
    """Everyone is all in before the river: each player still in chooses a run count."""
    COMPLETE = "complete"
    """Every pot has been awarded; ``after_hand`` says what players may still do."""


class ShowdownMode(Enum):
    """Who decides whether a hand is shown at showdown."""

    AUTO = "auto"
    """The engine shows every hand that can still win or tie a pot, mucks the rest, and shows
    every hand when players are all-in before the river."""
    MANUAL = "manual"
    """Each player must ``Show`` or ``Muck`` in turn, as a hand history dictates."""


# Enum members as module constants for the hot path: in Python 3.11 reading ``Phase.BETTING``
# costs several times reading a global, and the hand loop asks such questions at every action.
_BETTING = Phase.BETTING
_SHOWDOWN = Phase.SHOWDOWN
_RUN_COUNT = Phase.RUN_COUNT
_COMPLETE = Phase.COMPLETE
_MANUAL = ShowdownMode.MANUAL
_PREFLOP = Street.PREFLOP
_RIVER = Street.RIVER
_NEXT_STREET = (Street.FLOP, Street.TURN, Street.RIVER)
"""The street after each street (``Street(street + 1)`` is a slow enum call)."""
_FOLD = ActionKind.FOLD
_CHECK = ActionKind.CHECK
_CALL = ActionKind.CALL


@dataclass(frozen=True, slots=True)
class _ForcedBets:
    """The forced bets of each player (PHH order) for some stakes."""

    antes: tuple[int, ...]
    blinds: tuple[int, ...]
    blinds_owed: tuple[tuple[int, int, BlindPosted], ...]
    """(player, blind, the event of posting it in full) of every player who owes a blind or
    straddle, in player order: events are values, so every hand can share these."""
    opener: int
    """Who acts first preflop when every blind is posted in full (see ``_preflop_opener``)."""
    biggest_blind: int
    """The biggest bet once every blind is posted in full (0 without blinds)."""


def _preflop_opener(bets: Sequence[int], blinds: Sequence[int]) -> int:
    """The player after the biggest blind posted opens preflop (the last such player on a
    tie; when no blind was posted, player 0)."""
    key = max((bets[i] if blinds[i] > 0 else 0, i) for i in range(len(bets)))
    return (key[1] + 1) % len(bets)


_FORCED_BETS: dict[Stakes, _ForcedBets] = {}
_FORCED_BETS_BY_ID: dict[int, tuple[Stakes, _ForcedBets]] = {}
_FORCED_BETS_KEPT = 256


def _forced_bets(stakes: Stakes) -> _ForcedBets:
    """Each player's nominal ante and blind, worked out once per stakes. A simulation deals
    hand after hand with the same ``Stakes`` object, found by identity at no cost (hashing the
    stakes costs a fifth of a deal); replays and tables make equal ones, found by value. Each
    identity entry keeps its stakes alive, so no other object can take its id while it is
    cached. Both caches forget everything when they are full."""
    entry = _FORCED_BETS_BY_ID.get(id(stakes))
    if entry is not None and entry[0] is stakes:
        return entry[1]
    table = _FORCED_BETS.get(stakes)
    if table is None:
        players = range(stakes.players)
        blinds = tuple(stakes.blind_of(i) for i in players)
        table = _ForcedBets(
            tuple(stakes.ante_of(i) for i in players),
            blinds,
            tuple((i, blind, BlindPosted(i, blind)) for i, blind in enumerate(blinds) if blind),
            _preflop_opener(blinds, blinds),
            max(blinds),
        )
        if len(_FORCED_BETS) >= _FORCED_BETS_KEPT:
            _FORCED_BETS.clear()
        _FORCED_BETS[stakes] = table
    if len(_FORCED_BETS_BY_ID) >= _FORCED_BETS_KEPT:
        _FORCED_BETS_BY_ID.clear()
    _FORCED_BETS_BY_ID[id(stakes)] = (stakes, table)
    return table


_CHOICES: dict[tuple[int, int, int, int, int | None, int | None], LegalActions] = {}
_CHOICES_KEPT = 8_192
"""Betting choices already made, by (player, bet, max bet, to call, min raise-to, max
raise-to), which determine every field. ``LegalActions`` is frozen, so equal choices can be one
value shared by every hand: building one (eleven fields) cost several times finding it, and
about two thirds of the random hand loop's turns find theirs here (bench/holdem_engine.py). The
cache forgets everything when it is full."""


_ACTED: dict[tuple[int, int, int, int, bool], PlayerActed] = {}
_ACTED_KEPT = 8_192
"""``PlayerActed`` events already made, by (kind's index in ``_ACTED_KINDS``, player, added,
bet to, all in): events are frozen values, so every hand can share equal ones, and most actions
(a check, a call of the big blind) repeat one seen before. The kind is keyed by its index
because hashing an enum member is a Python-level call. The cache forgets everything when it is
full."""
_ACTED_KINDS = (
    ActionKind.FOLD,
    ActionKind.CHECK,
    ActionKind.CALL,
    ActionKind.BET,
    ActionKind.RAISE,
)
_FOLDED, _CHECKED, _CALLED, _BET_OPENED, _RAISED = range(len(_ACTED_KINDS))


def _acted(key: tuple[int, int, int, int, bool]) -> PlayerActed:
    """The ``PlayerActed`` event of an ``_ACTED`` key, made once."""
    event = _ACTED.get(key)
    if event is None:
        if len(_ACTED) >= _ACTED_KEPT:
            _ACTED.clear()
        kind, player, added, bet_to, all_in = key
        event = _ACTED[key] = PlayerActed(player, _ACTED_KINDS[kind], added, bet_to, all_in)
    return event


_BIT_LENGTHS = tuple(size.bit_length() for size in range(len(DECK) + 1))
"""``_BIT_LENGTHS[n]``: the bits the stock generator draws to pick one of ``n`` cards."""


def _draws_stock_bits(rng: random.Random | None) -> bool:
    """Whether ``rng.randrange(n)`` is the stock one over ``getrandbits``: a draw of
    ``n.bit_length()`` bits, again while it is ``n`` or more. ``_take`` then makes those very
    draws itself, with no call per card (a sixth of dealing's time went to the calls); the
    same generator deals the same cards. A generator with its own ``randrange`` (tests stack
    decks that way) or without ``getrandbits`` keeps ``randrange``."""
    if rng is None:
        return False
    kind = type(rng)
    stock = random.Random
    return kind.randrange is stock.randrange and getattr(kind, "_randbelow", None) is getattr(
        stock, "_randbelow_with_getrandbits", stock
    )


def _card_source(
    deck: Sequence[Card] | None, rng: random.Random | None, players: int, boards: int
) -> tuple[list[Card], random.Random | None]:
    """The cards a hand deals from, and the generator that draws them (None: a given deck is
    dealt in order). Without a deck, cards are drawn by a Fisher-Yates step each: as uniform as
    shuffling the whole deck first, without the work for the ~30 cards a hand never reaches."""
    if deck is not None:
        return _checked_deck(deck, players, boards), None
    return list(DECK), rng if rng is not None else secrets.SystemRandom()


_MUTABLE = (list, set, deque, dict)
"""The kinds of a hand's state that ``Hand.copy`` copies rather than shares."""


class Hand:
    """A hand of No-Limit Hold'em. See the module docstring for the conventions."""

    # The state every hand has lives in slots. An instance dictionary holds the rest (the
    # home-game options' state, which starts as the class-wide values below): Python keeps at
    # most 30 attribute names in the compact form its attribute lookups are fastest on, and a
    # hand has more than that, so before the slots every hand built a full dictionary and every
    # attribute access was a dictionary lookup (a tenth of a random hand's time in
    # bench/holdem_engine.py).
    __slots__ = (
        "__dict__",
        "_acted",
        "_action_count",
        "_actors",
        "_bets",
        "_board",
        "_contributed",
        "_dead_money",
        "_dealt",
        "_deck",
        "_events",
        "_hole_cards",
        "_legal",
        "_live",
        "_live_count",
        "_max_bet",
        "_min_bet",
        "_opener",
        "_phase",
        "_player_count",
        "_raise_size",
        "_rng",
        "_runout",
        "_short_all_ins",
        "_showdown_mode",
        "_showdown_queue",
        "_shown",
        "_stacks",
        "_stakes",
        "_starting_stacks",
        "_stock_bits",
        "_street",
        "_values",
    )

    def __init__(
        self,
        stakes: Stakes,
        stacks: Sequence[int],
        *,
        deck: Sequence[Card] | None = None,
        rng: random.Random | None = None,
        showdown: ShowdownMode = ShowdownMode.AUTO,
        options: HandOptions = PLAIN,
    ) -> None:
        """Post the forced bets and deal.

        ``deck`` is the order cards come out in: hole cards one at a time round the table from
        player 0, then a burn and the flop, a burn and the turn, a burn and the river (a double
        board deals each street to board 0 then board 1 after one burn; runs follow each other,
        a burn before every street). Without a deck, a fresh one is shuffled from ``rng``
        (default: the OS's secure generator).
        """
        n = len(stacks)
        _check_setup(stakes, stacks)
        if options is not PLAIN:
            _check_options(options, n)
            self._options = options
            if options.boards > 1:
                self._extra_boards = tuple([] for _ in range(options.boards - 1))
        cards, self._rng = _card_source(deck, rng, n, options.boards)
        self._stock_bits = _draws_stock_bits(self._rng)
        self._stakes = stakes
        self._min_bet = stakes.min_bet
        self._player_count = n
        self._showdown_mode = showdown
        self._starting_stacks: tuple[int, ...] = tuple(stacks)
        self._stacks: list[int] = list(stacks)
        self._bets: list[int] = [0] * n
        self._contributed: list[int] = [0] * n
        self._dead_money = 0
        self._live: list[bool] = [True] * n
        self._live_count = n
        self._max_bet = 0
        self._shown: list[bool] = [False] * n
        self._hole_cards: list[tuple[Card, Card]] = []
        self._board: list[Card] = []
        self._street = _PREFLOP
        self._phase = _BETTING
        self._action_count = 0
        self._events: list[Event] = []
        self._deck = cards
        self._dealt = 0
        self._actors: deque[int] = deque()
        self._acted: set[int] = set()
        self._raise_size = 0
        self._short_all_ins: list[int] = []
        self._opener = 0
        self._showdown_queue: deque[int] = deque()
        self._runout = False
        self._values: dict[int, list[HandValue]] = {}
        forced = _forced_bets(stakes)
        self._legal: LegalActions | None = None
        """``turn``'s memo while betting; every action that moves ``_action_count`` drops it."""
        self._start(forced)

    # The state of the home-game options. A plain hand never touches it, so it starts as these
    # class-wide immutable values and a hand replaces (never mutates) them: building it for
    # every hand cost the base game measurable speed (bench/holdem_engine.py).
    _options: HandOptions = PLAIN
    _extra_boards: tuple[list[Card], ...] = ()
    """Board 1 of a double board, or runs 2.. of a board run several times."""
    _run_count = 1
    _run_max = 0
    _run_queue: tuple[int, ...] = ()
    _run_choices: tuple[int, ...] = ()
    _revealed: tuple[tuple[int, ...], ...] = ()
    _rabbit_hunted = False
    _bounty_net: tuple[int, ...] = ()
    _bounty_winners: frozenset[int] = frozenset()
    _after_hand_lines: tuple[str, ...] = ()
    _bomb_pot_lines: tuple[str, ...] = ()
    """The preflop check-around a bomb pot's history records (PokerKit knows no bomb pot)."""
    _showdown_pots: tuple[Pot, ...] = ()
    """The pots during a manual showdown, asked at every show or muck; a muck changes them."""

    # ----------------------------------------------------------------- what the hand says

    @property
    def stakes(self) -> Stakes:
        """The blinds, antes and minimum bet."""
        return self._stakes

    @property
    def player_count(self) -> int:
        """How many players were dealt in."""
        return self._player_count

    @property
    def showdown_mode(self) -> ShowdownMode:
        """Who decides whether hands are shown at showdown."""
        return self._showdown_mode

    @property
    def starting_stacks(self) -> tuple[int, ...]:
        """Each player's stack before the forced bets."""
        return self._starting_stacks

    @property
    def stacks(self) -> tuple[int, ...]:
        """Each player's chips behind (not yet bet)."""
        return tuple(self._stacks)

    @property
    def bets(self) -> tuple[int, ...]:
        """Each player's bet on this street, not yet collected into the pots."""
        return tuple(self._bets)

    @property
    def contributed(self) -> tuple[int, ...]:
        """Chips each player has put into the pots on earlier streets (untrimmed antes aside)."""
        return tuple(self._contributed)

    @property
    def dead_money(self) -> int:
        """Antes that are dead money in the main pot (when the stakes do not trim antes)."""
        return self._dead_money

    @property
    def live(self) -> tuple[bool, ...]:
        """Whether each player can still win (has neither folded nor mucked)."""
        return tuple(self._live)

    @property
    def shown(self) -> tuple[bool, ...]:
        """Whether each player has shown their hole cards."""
        return tuple(self._shown)

    @property
    def hole_cards(self) -> tuple[tuple[Card, Card], ...]:
        """Every player's hole cards (private: fronts show each player only their own)."""
        return tuple(self._hole_cards)

    @property
    def board(self) -> tuple[Card, ...]:
        """The community cards dealt so far (the first board, or the first run)."""
        return tuple(self._board)

    @property
    def boards(self) -> tuple[tuple[Card, ...], ...]:
        """Every board: one, two with a double board, or one per run once the board has run
        several times (each run repeats the cards dealt before the all-in)."""
        return tuple(tuple(board) for board in (self._board, *self._extra_boards))

    @property
    def options(self) -> HandOptions:
        """The home-game options this hand plays with."""
        return self._options

    @property
    def run_count(self) -> int:
        """How many times the board was run (1 until players agreed on more)."""
        return self._run_count

    @property
    def revealed(self) -> tuple[tuple[int, ...], ...]:
        """The indices of each player's hole cards revealed after the hand (``Reveal``)."""
        return self._revealed or ((),) * self._player_count

    @property
    def after_hand_lines(self) -> tuple[str, ...]:
        """Reveals and rabbit hunts after the hand, as PHH-style lines (``p1 sm 7h``,
        ``p2 rh 9s2h``); PHH files keep them in the user-defined field ``_after_hand``."""
        return self._after_hand_lines

    @property
    def stacks_after_bounties(self) -> tuple[int, ...]:
        """``stacks`` with the 7-2 bounties paid so far applied (equal to it without any)."""
        if not self._bounty_net:
            return tuple(self._stacks)
        return tuple(s + b for s, b in zip(self._stacks, self._bounty_net, strict=True))

    @property
    def street(self) -> Street:
        """The betting round the hand is on (the last one dealt)."""
        return self._street

    @property
    def phase(self) -> Phase:
        """Betting, a manual showdown, or complete."""
        return self._phase

    @property
    def action_count(self) -> int:
        """How many player actions have been applied; fronts use it to refuse stale clicks."""
        return self._action_count

    @property
    def events(self) -> tuple[Event, ...]:
        """Everything that has happened in the hand, from the forced bets on."""
        return tuple(self._events)

    @property
    def phh_actions(self) -> tuple[str, ...]:
        """The hand so far as PHH action lines."""
        # Written from the hole cards and the events when asked for: most hands are never
        # written out, and keeping the lines as the hand went was a measurable share of its
        # time (bench/holdem_engine.py). Every line but the deal's and a bomb pot's
        # check-around stands for one event, in the events' order.
        lines = [
            f"d dh p{i + 1} {CARD_TEXT[first]}{CARD_TEXT[second]}"
            for i, (first, second) in enumerate(self._hole_cards)
        ]
        lines.extend(self._bomb_pot_lines)
        for event in self._events:
            line = _phh_line(event)
            if line is not None:
                lines.append(line)
        return tuple(lines)

    @property
    def is_complete(self) -> bool:
        """Whether every pot has been awarded (possibly at construction, when the forced bets
        put every player but one all in, or every player)."""
        return self._phase is _COMPLETE

    @property
    def turn(self) -> LegalActions | None:
        """Who must act now and what they may do, or ``None`` when nobody may act (the hand is
        complete). ``act`` accepts exactly the actions this allows.

        In a manual showdown this is the first player due to show or muck (as in PHH files, any
        player still due may act; ``act`` checks each against its own choices).
        """
        # The memo is only ever made while betting, and every action drops it.
        legal = self._legal
        if legal is not None:
            return legal
        if self._phase is _BETTING:
            if not self._actors:
                return None
            legal = self._legal = self._betting_choices(self._actors[0])
            return legal
        if self._phase is _SHOWDOWN:
            return self._showdown_choices(self._showdown_queue[0])
        if self._phase is _RUN_COUNT:
            return self._run_count_choices(self._run_queue[0])
        return None

    @property
    def pot_total(self) -> int:
        """All chips in the middle: the pots plus this street's bets."""
        return sum(self._contributed) + self._dead_money + sum(self._bets)

    def pots(self) -> list[Pot]:
        """The main pot and side pots collected so far (this street's bets not included)."""
        return build_pots(self._contributed, self._live, self._dead_money)

    def is_all_in(self, player: int) -> bool:
        """Whether the player is still in the hand with no chips behind."""
        return self._live[player] and self._stacks[player] == 0

    def _choices_of(self, player: int) -> LegalActions:
        """What ``player`` may do now; raises the error ``act`` gives if they may do nothing."""
        if self._phase is _COMPLETE:
            raise HandCompleteError("the hand is over")
        if self._phase is _SHOWDOWN:
            # As in PokerKit (and PHH files), any player still due at showdown may show or muck.
            if player not in self._showdown_queue:
                raise NotYourTurnError(f"player {player + 1} has nothing to show or muck")
            return self._showdown_choices(player)
        if self._phase is _RUN_COUNT:
            # Every player asked answers at once (buttons in Discord): any of them may be first.
            if player not in self._run_queue:
                raise NotYourTurnError(f"player {player + 1} has no run count to choose")
            return self._run_count_choices(player)
        turn = self.turn
        assert turn is not None  # betting always has a player to act
        if player != turn.player:
            raise NotYourTurnError(f"it is not player {player + 1}'s turn")
        return turn

    def _showdown_choices(self, player: int) -> LegalActions:
        alone = any(pot.eligible == (player,) for pot in self._showdown_pots)
        return LegalActions(
            player=player,
            can_fold=False,
            can_check=False,
            call_amount=None,
            min_raise_to=None,
            max_raise_to=None,
            bet_so_far=0,
            is_bet=False,
            at_showdown=True,
            can_muck=not alone,
        )

    def _run_count_choices(self, player: int) -> LegalActions:
        return LegalActions(
            player=player,
            can_fold=False,
            can_check=False,
            call_amount=None,
            min_raise_to=None,
            max_raise_to=None,
            bet_so_far=0,
            is_bet=False,
            max_run_count=self._run_max,
        )

    def after_hand(self, player: int) -> AfterHandChoices:
        """What ``player`` may do once the hand is complete; ``act`` accepts exactly that.

        Raises ``ActionNotAllowedError`` while the hand is still being played, and
        ``NotYourTurnError`` for a player not dealt in.
        """
        if self._phase is not _COMPLETE:
            raise ActionNotAllowedError("showing cards or rabbit hunting waits for the hand's end")
        if not isinstance(player, int) or not 0 <= player < self._player_count:
            raise NotYourTurnError(f"{player!r} was not dealt in")
        if self._shown[player]:
            revealable: tuple[int, ...] = ()
        else:
            revealable = tuple(i for i in (0, 1) if i not in self.revealed[player])
        can_hunt = self._options.rabbit_hunt and not self._rabbit_hunted and self._street < _RIVER
        return AfterHandChoices(player, revealable, can_hunt)

    def _betting_choices(self, player: int) -> LegalActions:
        """The choices of ``player``, whose turn it is to bet. One function on purpose: this
        runs at every action, and a call per test costs more than the test."""
        bets, stacks = self._bets, self._stacks
        stack = stacks[player]
        bet = bets[player]
        max_bet = self._max_bet
        owed = max_bet - bet
        to_call = owed if owed < stack else stack
        raise_size = self._raise_size
        short = self._short_all_ins
        # An incomplete all-in raise does not reopen the betting to a player who has acted.
        reopened = not (short and sum(short) < raise_size and player in self._acted)
        can_raise = False
        # A raise needs more than facing only an incomplete all-in raise after a full one,
        # chips beyond a call, the betting open, and someone who can answer it.
        if to_call >= raise_size and stack > to_call and reopened:
            live = self._live
            for i in _OTHERS[self._player_count][player]:
                if live[i] and stacks[i] + bets[i] > max_bet:
                    can_raise = True
                    break
        min_to: int | None = None
        max_to: int | None = None
        if can_raise:
            max_to = stack + bet
            # Conditional expressions: min() and max() calls cost more at every action.
            min_bet = self._min_bet
            step = raise_size if raise_size > min_bet else min_bet
            min_to = max_bet + step if max_bet + step < max_to else max_to
        key = (player, bet, max_bet, to_call, min_to, max_to)
        legal = _CHOICES.get(key)
        if legal is None:
            if len(_CHOICES) >= _CHOICES_KEPT:
                _CHOICES.clear()
            # Positional: keyword arguments are measurably slower.
            legal = _CHOICES[key] = LegalActions(
                player,
                bet < max_bet,  # can_fold
                to_call == 0,  # can_check
                to_call if to_call > 0 else None,  # call_amount
                min_to,
                max_to,
                bet,  # bet_so_far
                max_bet == 0,  # is_bet
                False,  # at_showdown
                False,  # can_muck
            )
        return legal

    def value_of(self, player: int) -> HandValue | None:
        """The player's hand value with the board so far, once five cards are out."""
        if len(self._board) < 3:
            return None
        return evaluate((*self._hole_cards[player], *self._board))

    # ----------------------------------------------------------------------- copying

    def copy(self) -> Hand:
        """An independent copy: acting on one never changes the other.

        A seeded ``random.Random`` is copied with its state, so the copy deals the same cards;
        the default OS generator has no state to copy and is shared.
        """
        twin = object.__new__(Hand)
        for name in _SLOTTED_STATE:
            value = getattr(self, name)
            setattr(twin, name, value.copy() if isinstance(value, _MUTABLE) else value)
        for name, value in self.__dict__.items():
            twin.__dict__[name] = value.copy() if isinstance(value, _MUTABLE) else value
        if self._extra_boards:
            twin._extra_boards = tuple(list(board) for board in self._extra_boards)
        if self._rng is not None and not isinstance(self._rng, secrets.SystemRandom):
            rng = random.Random()
            rng.setstate(self._rng.getstate())
            twin._rng = rng
        return twin

    def __copy__(self) -> Hand:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, object]) -> Hand:
        return self.copy()

    # ----------------------------------------------------------------------- acting

    def act(self, player: int, action: Action | AfterHandAction) -> list[Event]:
        """Apply ``player``'s action and return the events it caused.

        Raises ``NotYourTurnError``, ``ActionNotAllowedError``, ``RaiseAmountError`` or
        ``HandCompleteError`` (leaving the hand unchanged) when the action is not legal now:
        the checks are ``LegalActions.verify`` on the same choices ``turn`` reports.
        """
        first_new = len(self._events)
        actors = self._actors
        if self._phase is _BETTING and actors and player == actors[0]:
            # The usual case: the choices the caller has just read from ``turn``'s memo.
            turn = self._legal or self.turn
        elif self._phase is _COMPLETE and isinstance(action, Reveal | RabbitHunt):
            self._act_after_hand(player, action)
            return self._events[first_new:]
        else:
            turn = self._choices_of(player)
        assert turn is not None
        kind = type(action)
        # A call with something to call and a check with nothing to call are always legal (the
        # first test ``refusal`` makes); skipping the call to it for them is a measurable part
        # of an action's time. Everything else goes through ``refusal``.
        call_amount = turn.call_amount
        if (kind is Call and call_amount is not None) or (kind is Check and turn.can_check):
            self._check_or_call(player, call_amount or 0)
            return self._events[first_new:]
        # So are a fold facing a bet and a raise to a whole number within the bounds.
        if kind is Fold and turn.can_fold:
            self._fold(player)
            return self._events[first_new:]
        if type(action) is RaiseTo:
            amount, low, high = action.amount, turn.min_raise_to, turn.max_raise_to
            if (
                low is not None
                and high is not None
                and type(amount) is int
                and low <= amount <= high
            ):
                self._raise_to(player, amount)
                return self._events[first_new:]
        refusal = turn.refusal(action)
        if refusal is not None:
            raise refusal
        if kind is Fold:
            self._fold(player)
        elif isinstance(action, RaiseTo):
            self._raise_to(player, action.amount)
        elif isinstance(action, ChooseRunCount):
            self._choose_run_count(player, action.count)
        else:
            if kind is Show:
                self._show(player)
            else:
                self._muck(player)
            self._after_showdown_action(player)
        return self._events[first_new:]

    def _act_after_hand(self, player: int, action: AfterHandAction) -> None:
        self.after_hand(player).verify(action)
        if isinstance(action, Reveal):
            self._reveal(player, action.cards)
        else:
            self._rabbit_hunt(player)

    def _fold(self, player: int) -> None:
        self._actors.popleft()
        self._acted.add(player)
        self._live[player] = False
        self._live_count -= 1
        self._action_count += 1
        self._legal = None
        self._events.append(
            _acted((_FOLDED, player, 0, self._bets[player], self._stacks[player] == 0))
        )
        if not self._actors or self._live_count <= 1:
            self._end_betting()

    def _check_or_call(self, player: int, amount: int) -> None:
        self._actors.popleft()
        self._acted.add(player)
        bet = self._bets[player] = self._bets[player] + amount
        stack = self._stacks[player] = self._stacks[player] - amount
        self._action_count += 1
        self._legal = None
        key = (_CALLED if amount else _CHECKED, player, amount, bet, stack == 0)
        self._events.append(_ACTED.get(key) or _acted(key))
        if not self._actors or self._live_count <= 1:
            self._end_betting()

    def _raise_to(self, player: int, amount: int) -> None:
        max_bet = self._max_bet
        increment = amount - max_bet
        added = amount - self._bets[player]
        self._bets[player] = self._max_bet = amount
        stacks, live = self._stacks, self._live
        stacks[player] -= added
        # Everyone else with chips behind acts again, in turn from the raiser's left.
        self._actors = deque(
            [i for i in _OTHERS[self._player_count][player] if live[i] and stacks[i] > 0]
        )
        self._opener = player
        if increment >= self._raise_size:
            self._acted = {player}
        else:
            self._acted.add(player)
        self._raise_size = max(self._raise_size, increment)
        if stacks[player] > 0:
            self._short_all_ins.clear()
        else:
            self._short_all_ins.append(increment)
        if sum(self._short_all_ins) >= self._raise_size:
            self._short_all_ins.clear()
        self._action_count += 1
        self._legal = None
        kind = _BET_OPENED if max_bet == 0 else _RAISED
        self._events.append(_acted((kind, player, added, amount, stacks[player] == 0)))
        if not self._actors or self._live_count <= 1:
            self._end_betting()

    # ------------------------------------------------------------------ hand flow

    def _start(self, forced: _ForcedBets) -> None:
        n = self._player_count
        stacks, bets, events = self._stacks, self._bets, self._events
        if any(forced.antes):
            self._post_antes(forced.antes)
        short = False
        for i, nominal, posted in forced.blinds_owed:
            if stacks[i] >= nominal:
                bets[i] = nominal
                stacks[i] -= nominal
                events.append(posted)
            else:
                short = True
                blind = stacks[i]  # all in for less (nothing, when the ante took it all)
                if blind:
                    bets[i] = blind
                    stacks[i] = 0
                    events.append(BlindPosted(i, blind))
        if short:
            self._max_bet = max(bets)
            self._opener = _preflop_opener(bets, forced.blinds)
        else:
            self._max_bet = forced.biggest_blind
            self._opener = forced.opener
        # Hole cards go one at a time round the table from player 0, twice: player i gets the
        # i-th and the (n + i)-th cards dealt.
        deck = self._take(2 * n)
        hole_cards = self._hole_cards
        for i in range(n):
            cards = deck[i], deck[n + i]
            hole_cards.append(cards)
            events.append(HoleCardsDealt(i, cards))
        self._begin_betting()

    def _post_antes(self, nominal: Sequence[int]) -> None:
        stacks = self._stacks
        antes = [min(ante, stack) for ante, stack in zip(nominal, stacks, strict=True)]
        for i, ante in enumerate(antes):
            if ante:
                stacks[i] -= ante
                self._events.append(AntePosted(i, ante))
        if self._stakes.ante_trimming:
            cutoff = sorted(antes)[-2]
            for i, ante in enumerate(antes):
                if ante > cutoff:
                    stacks[i] += ante - cutoff
                    self._events.append(BetReturned(i, ante - cutoff))
                self._contributed[i] = min(ante, cutoff)
        else:
            self._dead_money = sum(antes)

    def _take(self, count: int) -> tuple[Card, ...]:
        """The next ``count`` cards from the deck: each a Fisher-Yates step with a generator,
        else the given deck's next cards in order."""
        deck = self._deck
        start = self._dealt
        end = self._dealt = start + count
        rng = self._rng
        if rng is not None:
            size = len(deck)
            if self._stock_bits:
                getrandbits = rng.getrandbits
                for i in range(start, end):
                    left = size - i
                    bits = _BIT_LENGTHS[left]
                    j = getrandbits(bits)
                    while j >= left:
                        j = getrandbits(bits)
                    j += i
                    deck[i], deck[j] = deck[j], deck[i]
            else:
                randrange = rng.randrange
                for i in range(start, end):
                    j = i + randrange(size - i)
                    deck[i], deck[j] = deck[j], deck[i]
        return tuple(deck[start:end])

    def _draw(self) -> Card:
        return self._take(1)[0]

    def _begin_betting(self) -> None:
        n = self._player_count
        bets = self._bets
        live, stacks = self._live, self._stacks
        if self._street is _PREFLOP:
            # ``_start`` has found the opener (after the biggest blind). A player whose every
            # chip is covered by nobody else has no one left to bet against.
            second = self._second_biggest_chips()
            order = [
                i
                for i in _ROTATIONS[n][self._opener]
                if live[i] and stacks[i] > 0 and second - bets[i] > 0
            ]
        else:
            # After the flop player 0 opens, nobody has bet yet, and the board is dealt with
            # betting only while two live players have chips: every live player with chips
            # has someone to bet against.
            self._opener = 0
            order = [i for i in _ROTATIONS[n][0] if live[i] and stacks[i] > 0]
        self._actors = actors = deque(order)
        self._raise_size = 0
        self._acted.clear()
        self._short_all_ins.clear()
        if (
            not actors
            or self._live_count <= 1
            or (len(actors) == 1 and bets[actors[0]] >= self._max_bet)
        ):
            self._end_betting()
        elif self._street is _PREFLOP and self._options.bomb_pot:
            # A bomb pot has no preflop betting. PokerKit knows no bomb pot, so the history
            # records the check-around PokerKit would need to reach the flop.
            self._bomb_pot_lines = tuple([_CALL_LINES[i] for i in actors])
            self._end_betting()

    def _second_biggest_chips(self) -> int:
        """The second biggest of the live players' chips (bets and stacks): a loop rather
        than sorting a list, since every hand asks."""
        bets, stacks, live = self._bets, self._stacks, self._live
        first = second = 0
        for i in range(self._player_count):
            if live[i]:
                total = bets[i] + stacks[i]
                if total > second:
                    if total > first:
                        first, second = total, first
                    else:
                        second = total
        return second

    def _end_betting(self) -> None:
        self._actors.clear()
        live_count = self._live_count
        if live_count > 1 and not self._runout:
            # The rest of the board runs out when at most one live player has chips behind.
            live, stacks = self._live, self._stacks
            holding = 0
            for i in range(self._player_count):
                if live[i] and stacks[i]:
                    holding += 1
                    if holding > 1:
                        break
            else:
                self._runout = True
        self._collect_bets()
        if live_count == 1:
            self._award()
        elif self._runout and self._street is not _RIVER and self._offers_runs():
            self._begin_run_count()
        elif self._street is _RIVER or self._runout:
            self._begin_showdown()
        else:
            self._deal_next_street()
            self._begin_betting()

    def _collect_bets(self) -> None:
        bets = self._bets
        if not self._max_bet:
            return
        self._max_bet = 0
        cutoff = sorted(bets)[-2]
        contributed = self._contributed
        for i, bet in enumerate(bets):
            if bet > cutoff:  # only the one biggest bet can be more than anyone could call
                self._stacks[i] += bet - cutoff
                self._events.append(BetReturned(i, bet - cutoff))
                contributed[i] += cutoff
            elif bet:
                contributed[i] += bet
        self._bets = [0] * self._player_count

    def _deal_next_street(self) -> None:
        self._street = street = _NEXT_STREET[self._street]
        count = BOARD_CARDS_BY_STREET[street]
        cards = self._take(1 + count)[1:]  # a burn, then the street
        self._board.extend(cards)
        self._events.append(BoardDealt(street, cards))
        if self._extra_boards:
            self._deal_extra_boards(street, count)

    def _deal_extra_boards(self, street: Street, count: int) -> None:
        """A double board: the same street again, for the next board, without another burn."""
        for index, board in enumerate(self._extra_boards, 1):
            cards = self._take(count)
            board.extend(cards)
            self._events.append(BoardDealt(street, cards, index))

    # ------------------------------------------------------------------ running it N times

    def _offers_runs(self) -> bool:
        """Whether the players all in may choose a run count, and how many runs the deck
        holds (``_run_max``): each run needs a burn and the cards of every street to come."""
        if self._options.max_run_count < 2 or self._run_choices:
            return False
        per_run = sum(1 + BOARD_CARDS_BY_STREET[s] for s in range(self._street + 1, 4))
        self._run_max = min(self._options.max_run_count, (len(self._deck) - self._dealt) // per_run)
        return self._run_max > 1

    def _begin_run_count(self) -> None:
        # PokerKit asks every player still in, in seat order from player 0.
        self._run_queue = tuple(i for i in range(self._player_count) if self._live[i])
        self._phase = _RUN_COUNT

    def _choose_run_count(self, player: int, count: int) -> None:
        self._run_queue = tuple(i for i in self._run_queue if i != player)
        self._run_choices += (count,)
        self._action_count += 1
        self._legal = None
        self._events.append(RunCountChosen(player, count))
        if self._run_queue:
            return
        choices = set(self._run_choices)
        self._run_count = choices.pop() if len(choices) == 1 else 1
        self._events.append(RunCountSettled(self._run_count))
        self._phase = _BETTING
        self._begin_showdown()

    def _deal_runs(self) -> None:
        """Deal the rest of the board ``_run_count`` times, run after run, as PokerKit does."""
        split_street = self._street
        shared = list(self._board)
        runs = [self._board] + [list(shared) for _ in range(1, self._run_count)]
        self._extra_boards = tuple(runs[1:])
        for run, board in enumerate(runs):
            for street in _NEXT_STREET[split_street:]:
                cards = self._take(1 + BOARD_CARDS_BY_STREET[street])[1:]  # a burn, the street
                board.extend(cards)
                self._events.append(BoardDealt(street, cards, run))
        self._street = _RIVER

    # ------------------------------------------------------------------- showdown

    def _begin_showdown(self) -> None:
        live, shown = self._live, self._shown
        self._showdown_queue = queue = deque(
            [i for i in _ROTATIONS[self._player_count][self._opener] if live[i] and not shown[i]]
        )
        if self._showdown_mode is _MANUAL and queue:
            self._phase = _SHOWDOWN
            self._showdown_pots = tuple(self.pots())
            return
        # When anyone is all-in every hand is tabled; otherwise a hand that can no longer win
        # anything is mucked unseen.
        if self._runout or 0 in self._stacks:
            for player in queue:
                self._show(player)
            queue.clear()
        else:
            pots = self.pots()
            if self._is_one_contest(pots):
                mucked = self._show_or_muck_for_one_pot(queue, pots[0])
            else:
                mucked = self._show_or_muck(queue, pots)
            # The board is complete and nobody put in more, so the pots the award needs are
            # these without the mucked hands: no need to build them again.
            self._award(without(pots, mucked) if mucked else pots)
            return
        self._end_showdown()

    def _show_or_muck(self, queue: deque[int], pots: list[Pot]) -> list[int]:
        """Show each queued hand that could still win or tie a pot, in turn, and muck the
        rest; returns the mucked players."""
        boards = self._all_values()
        best = self._best_shown(pots, boards)
        mucked = []
        while queue:
            player = queue.popleft()
            if self._could_win(player, pots, boards, best):
                self._show(player)
                self._raise_best_shown(player, pots, boards, best)
            else:
                self._muck(player)
                mucked.append(player)
        return mucked

    def _is_one_contest(self, pots: list[Pot]) -> bool:
        """Whether the showdown is one pot on one board that every live player can win: most
        showdowns, and then ``_could_win`` and ``_best_shown`` come down to comparing each
        hand with the best one shown (their general form was a tenth of a random hand's time
        in bench/holdem_engine.py)."""
        return (
            len(pots) == 1 and len(pots[0].eligible) == self._live_count and not self._extra_boards
        )

    def _show_or_muck_for_one_pot(self, queue: deque[int], pot: Pot) -> list[int]:
        """``_show_or_muck`` when ``_is_one_contest``: a hand is shown if it ties or beats the
        best hand shown so far."""
        values = self._values_on(0)
        shown = self._shown
        best = max([values[i].strength for i in pot.eligible if shown[i]], default=0)
        mucked = []
        while queue:
            player = queue.popleft()
            strength = values[player].strength
            if strength >= best:
                self._show(player)
                best = strength
            else:
                self._muck(player)
                mucked.append(player)
        return mucked

    def _all_values(self) -> list[list[HandValue]]:
        """Every player's hand value on each board (``_values_on``), board 0 first."""
        return [self._values_on(board) for board in range(1 + len(self._extra_boards))]

    def _best_shown(self, pots: list[Pot], boards: list[list[HandValue]]) -> list[list[int]]:
        """For each board, each pot's strongest shown hand among its eligible players (0 when
        none is shown yet). Worked out once per showdown and raised as hands are shown, so
        whether a hand could still win costs one comparison per pot, not a walk of the pot's
        players for every player."""
        shown = self._shown
        return [
            [max([values[i].strength for i in pot.eligible if shown[i]], default=0) for pot in pots]
            for values in boards
        ]

    def _raise_best_shown(
        self, player: int, pots: list[Pot], boards: list[list[HandValue]], best: list[list[int]]
    ) -> None:
        """``best`` once ``player`` has shown."""
        for values, tops in zip(boards, best, strict=True):
            strength = values[player].strength
            for index, pot in enumerate(pots):
                if strength > tops[index] and player in pot.eligible:
                    tops[index] = strength

    @staticmethod
    def _could_win(
        player: int, pots: list[Pot], boards: list[list[HandValue]], best: list[list[int]]
    ) -> bool:
        """Whether the player ties or beats every shown hand in some pot they can win, on some
        board (PokerKit's test before it kills a hand): ``boards`` are ``_all_values()``, and
        ``best`` is ``_best_shown`` of them."""
        for values, tops in zip(boards, best, strict=True):
            strength = values[player].strength
            for pot, top in zip(pots, tops, strict=True):
                if strength >= top and player in pot.eligible:
                    return True
        return False

    def _values_on(self, board: int) -> list[HandValue]:
        """Every player's hand value on ``board`` (0 is the first board, and usually the only
        one). A showdown needs nearly all of them, so they are worked out together the first
        time one is asked for, and forgotten when the board grows (``_end_showdown``)."""
        values = self._values.get(board)
        if values is None:
            cards = self._board if board == 0 else self._extra_boards[board - 1]
            # The deck was checked for duplicates, so the evaluator need not check again.
            values = evaluate_holes(self._hole_cards, cards)
            self._values[board] = values
        return values

    def _after_showdown_action(self, player: int) -> None:
        self._showdown_queue.remove(player)
        if not self._showdown_queue:
            self._phase = _BETTING
            self._end_showdown()

    def _show(self, player: int) -> None:
        self._shown[player] = True
        cards = self._hole_cards[player]
        description = self._values_on(0)[player].description if len(self._board) >= 3 else ""
        self._events.append(CardsShown(player, cards, description))

    def _muck(self, player: int) -> None:
        self._live[player] = False
        self._live_count -= 1
        if self._phase is _SHOWDOWN:
            self._showdown_pots = tuple(self.pots())
        self._events.append(CardsMucked(player))

    def _end_showdown(self) -> None:
        if self._run_count > 1 or self._street is not _RIVER:
            if self._run_count > 1:
                self._deal_runs()
            while self._street is not _RIVER:
                self._deal_next_street()
            # Values worked out before the board was complete are stale.
            self._values.clear()
        self._award()

    def _award(self, pots: list[Pot] | None = None) -> None:
        """Award every pot; ``pots`` are ``self.pots()`` when the caller has them."""
        live_count = self._live_count
        if pots is None:
            pots = self.pots()
        if live_count > 1 and self._is_one_contest(pots):
            pots = [self._kill_beaten_in_one_pot(pots[0])]
        elif live_count > 1:
            # Kill every hand that cannot win any pot before the pots are built, as PokerKit
            # does: it changes which side pots merge, and so where odd chips go.
            live = self._live
            players = range(self._player_count)
            values = self._all_values()
            best = self._best_shown(pots, values)
            dead = [i for i in players if live[i] and not self._could_win(i, pots, values, best)]
            if dead:
                for player in dead:
                    live[player] = False
                self._live_count -= len(dead)
                pots = without(pots, dead)
        boards = 1 + len(self._extra_boards) if live_count > 1 else 1
        for index, pot in enumerate(pots):
            if not pot.eligible:  # pragma: no cover - mucks that would empty a pot are refused
                raise AssertionError("a pot with no eligible player")
            # Several boards split each pot evenly, the odd chips to board 0 (PokerKit's rule);
            # a part too small to hold a chip is not awarded at all.
            if boards == 1:
                self._award_on(index, pot, pot.amount, 0, live_count)
                continue
            part, odd = divmod(pot.amount, boards)
            for board in range(boards):
                amount = part + odd if board == 0 else part
                if amount:
                    self._award_on(index, pot, amount, board, live_count)
        self._contributed = [0] * self._player_count
        self._dead_money = 0
        self._phase = _COMPLETE
        net = tuple(map(sub, self._stacks, self._starting_stacks))
        self._events.append(HandEnded(tuple(self._stacks), net))
        if self._options.seven_deuce_bounty:
            for player in sorted(self._pot_winners()):
                self._claim_bounty(player)

    def _kill_beaten_in_one_pot(self, pot: Pot) -> Pot:
        """``_award``'s killing of hands that cannot win when ``_is_one_contest``: a hand
        beaten by a shown one is dead. Returns the pot with only the players left in it."""
        values = self._values_on(0)
        shown = self._shown
        eligible = pot.eligible
        best = max([values[i].strength for i in eligible if shown[i]], default=0)
        left = tuple([i for i in eligible if values[i].strength >= best])
        if len(left) == len(eligible):
            return pot
        live = self._live
        for player in eligible:
            if values[player].strength < best:
                live[player] = False
        self._live_count -= len(eligible) - len(left)
        return Pot(pot.amount, left)

    def _award_on(self, index: int, pot: Pot, amount: int, board: int, live_count: int) -> None:
        eligible = pot.eligible
        if live_count == 1:
            # Won unopposed: by folds (nothing to describe) or because the rest mucked.
            winners = list(eligible)
            winner = winners[0]
            shown = self._shown[winner] and len(self._board) == 5
            description = self._values_on(0)[winner].description if shown else ""
        else:
            values = self._values_on(board)
            best = max([values[i].strength for i in eligible])
            winners = [i for i in eligible if values[i].strength == best]
            description = values[winners[0]].description
        shares = split(amount, winners)
        for player, share in shares:
            self._stacks[player] += share
        self._events.append(PotAwarded(index, amount, eligible, tuple(shares), description, board))

    # ------------------------------------------------------------------ after the hand

    def _pot_winners(self) -> set[int]:
        """The players who won chips from some pot (or part of one)."""
        events = self._events
        awards = [event for event in events if isinstance(event, PotAwarded)]
        return {player for award in awards for player, share in award.shares if share}

    def _reveal(self, player: int, indices: tuple[int, ...]) -> None:
        revealed = list(self.revealed)
        revealed[player] = tuple(sorted({*revealed[player], *indices}))
        self._revealed = tuple(revealed)
        hole = self._hole_cards[player]
        cards = tuple(hole[i] for i in sorted(indices))
        self._events.append(HoleCardsRevealed(player, cards))
        self._after_hand_lines += (f"p{player + 1} sm {format_cards(cards, sep='')}",)
        if self._options.seven_deuce_bounty and player in self._pot_winners():
            self._claim_bounty(player)

    def _rabbit_hunt(self, player: int) -> None:
        """Deal on from the same deck, burns included, what the streets left would have been."""
        self._rabbit_hunted = True
        hunted: list[list[Card]] = [[] for _ in range(1 + len(self._extra_boards))]
        for street in range(self._street + 1, 4):
            self._draw()  # burn
            for cards in hunted:
                cards.extend(self._draw() for _ in range(BOARD_CARDS_BY_STREET[street]))
        for board, cards in enumerate(hunted):
            self._events.append(RabbitHunted(player, tuple(cards), board))
            self._after_hand_lines += (f"p{player + 1} rh {format_cards(cards, sep='')}",)

    def _claim_bounty(self, player: int) -> None:
        """The 7-2 game: a pot winner whose 7-2 offsuit everyone has seen collects the bounty
        from every other player dealt in, each paying what they have left, up to the bounty."""
        first, second = self._hole_cards[player]
        seen = self._shown[player] or len(self.revealed[player]) == 2
        seven_deuce = {first.rank, second.rank} == {Rank.SEVEN, Rank.TWO}
        if not seen or not seven_deuce or first.suit == second.suit:
            return
        if player in self._bounty_winners:
            return
        self._bounty_winners |= {player}
        net = list(self._bounty_net or (0,) * self._player_count)
        for payer in range(self._player_count):
            if payer == player:
                continue
            amount = min(self._options.seven_deuce_bounty, self._stacks[payer] + net[payer])
            if amount:
                net[payer] -= amount
                net[player] += amount
                self._events.append(BountyPaid(payer, player, amount))
        self._bounty_net = tuple(net)


_SLOTTED_STATE = tuple(name for name in Hand.__slots__ if name != "__dict__")
"""Every slot of a ``Hand``: ``Hand.copy`` copies them, then the instance dictionary."""
