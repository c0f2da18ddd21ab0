"""One hand of No-Limit Texas Hold'em as a sans-IO state machine.

Create a ``Hand`` with the stakes, the starting stacks and (optionally) the deck; it posts antes
and blinds and deals at once. Then call ``act(player, action)`` for the player to act; each call
returns the events it caused. ``legal_actions()`` says what the player to act may do. An illegal
or malformed action raises a ``HoldemError`` (or ``MalformedInputError``) and changes nothing.

Players are numbered in PHH order: player 0 sits first left of the button (the small blind, or
the big blind heads-up), the last player is the button. The betting rules follow PokerKit
exactly (our differential tests hold us to it), which also are the TDA's: amounts are "to"
totals; the minimum raise is the largest raise increment of the street, at least the minimum bet;
an all-in for less than a full raise does not reopen the betting to players who already acted;
uncalled bets are returned; the odd chip goes to the first winner left of the button.
"""

from __future__ import annotations

import random
import secrets
from collections import deque
from collections.abc import Sequence
from enum import Enum, IntEnum

from engine.cards import DECK, Card, format_cards
from engine.errors import MalformedInputError
from engine.evaluate import HandValue, evaluate
from engine.holdem.actions import (
    Action,
    ActionKind,
    Call,
    Check,
    Fold,
    LegalActions,
    Muck,
    RaiseTo,
    Show,
)
from engine.holdem.errors import (
    ActionNotAllowedError,
    HandCompleteError,
    InvalidSetupError,
    NotYourTurnError,
    RaiseAmountError,
)
from engine.holdem.events import (
    AntePosted,
    BetReturned,
    BlindPosted,
    BoardDealt,
    CardsMucked,
    CardsShown,
    Event,
    HandEnded,
    HoleCardsDealt,
    PlayerActed,
    PotAwarded,
)
from engine.holdem.pots import Pot, build_pots, split
from engine.holdem.stakes import Stakes

MAX_PLAYERS = 22
"""52 cards hold 22 players' hole cards, three burns and a board."""

BOARD_CARDS_BY_STREET = (0, 3, 1, 1)


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


class Street(IntEnum):
    """A betting round."""

    PREFLOP = 0
    """Hole cards only."""
    FLOP = 1
    """Three board cards."""
    TURN = 2
    """Four board cards."""
    RIVER = 3
    """Five board cards; after its betting comes the showdown."""


class Phase(Enum):
    """Where the hand stands."""

    BETTING = "betting"
    """Waiting for the player to act to fold, check, call or raise."""
    SHOWDOWN = "showdown"
    """Manual showdown only: waiting for a player to show or muck."""
    COMPLETE = "complete"
    """Every pot has been awarded."""


class ShowdownMode(Enum):
    """Who decides whether a hand is shown at showdown."""

    AUTO = "auto"
    """The engine shows every hand that can still win or tie a pot, mucks the rest, and shows
    every hand when players are all-in before the river."""
    MANUAL = "manual"
    """Each player must ``Show`` or ``Muck`` in turn, as a hand history dictates."""


class Hand:
    """A hand of No-Limit Hold'em. See the module docstring for the conventions."""

    def __init__(
        self,
        stakes: Stakes,
        stacks: Sequence[int],
        *,
        deck: Sequence[Card] | None = None,
        rng: random.Random | None = None,
        showdown: ShowdownMode = ShowdownMode.AUTO,
    ) -> None:
        """Post the forced bets and deal.

        ``deck`` is the order cards come out in: hole cards one at a time round the table from
        player 0, then a burn and the flop, a burn and the turn, a burn and the river. Without a
        deck, a fresh one is shuffled from ``rng`` (default: the OS's secure generator).
        """
        n = len(stacks)
        if not 2 <= n <= MAX_PLAYERS:
            raise InvalidSetupError(f"a hand needs 2 to {MAX_PLAYERS} players, not {n}")
        if stakes.players != n:
            raise InvalidSetupError(f"the stakes are for {stakes.players} players, not {n}")
        for stack in stacks:
            if not isinstance(stack, int) or isinstance(stack, bool) or stack <= 0:
                raise InvalidSetupError(
                    f"every starting stack must be a whole number > 0: {stack!r}"
                )
        if deck is not None:
            cards = list(deck)
            if len(set(cards)) != len(cards):
                raise InvalidSetupError("the deck holds the same card twice")
            if len(cards) < 2 * n + 8:
                raise InvalidSetupError(f"{len(cards)} cards are not enough for {n} players")
            self._rng: random.Random | None = None
        else:
            # Cards are drawn by a Fisher-Yates step each: as uniform as shuffling the whole
            # deck first, without the work for the ~30 cards a hand never reaches.
            cards = list(DECK)
            self._rng = rng if rng is not None else secrets.SystemRandom()

        self.stakes = stakes
        self.player_count = n
        self.showdown_mode = showdown
        self.starting_stacks: tuple[int, ...] = tuple(stacks)
        self.stacks: list[int] = list(stacks)
        self.bets: list[int] = [0] * n
        self.contributed: list[int] = [0] * n
        """Chips each player has put into the pots on earlier streets (untrimmed antes aside)."""
        self.dead_money = 0
        """Antes that are dead money in the main pot (when the stakes do not trim antes)."""
        self.live: list[bool] = [True] * n
        """Whether each player can still win (has neither folded nor mucked)."""
        self.shown: list[bool] = [False] * n
        self.hole_cards: list[tuple[Card, Card]] = []
        self.board: list[Card] = []
        self.street = Street.PREFLOP
        self.phase = Phase.BETTING
        self.action_count = 0
        """How many player actions have been applied; fronts use it to refuse stale clicks."""
        self.events: list[Event] = []
        self.phh_actions: list[str] = []
        """The hand so far as PHH action lines."""

        self._deck = cards
        self._dealt = 0
        self._actors: deque[int] = deque()
        self._acted: set[int] = set()
        self._raise_size = 0
        self._short_all_ins: list[int] = []
        self._opener = 0
        self._showdown_queue: deque[int] = deque()
        self._runout = False
        self._values: dict[int, HandValue] = {}
        self._blinds = [stakes.blind_of(i) for i in range(n)]
        self._legal: tuple[int, LegalActions] | None = None
        self._start()

    # ----------------------------------------------------------------- what the hand says

    @property
    def is_complete(self) -> bool:
        """Whether every pot has been awarded."""
        return self.phase is Phase.COMPLETE

    @property
    def to_act(self) -> int | None:
        """The player who must act now (bet or, in a manual showdown, show/muck), if any."""
        if self.phase is Phase.BETTING:
            return self._actors[0] if self._actors else None
        if self.phase is Phase.SHOWDOWN:
            return self._showdown_queue[0]
        return None

    @property
    def pot_total(self) -> int:
        """All chips in the middle: the pots plus this street's bets."""
        return sum(self.contributed) + self.dead_money + sum(self.bets)

    def pots(self) -> list[Pot]:
        """The main pot and side pots collected so far (this street's bets not included)."""
        return build_pots(self.contributed, self.live, self.dead_money)

    def is_all_in(self, player: int) -> bool:
        """Whether the player is still in the hand with no chips behind."""
        return self.live[player] and self.stacks[player] == 0

    def legal_actions(self) -> LegalActions | None:
        """What the player to act may do now, or ``None`` if nobody is to bet."""
        if self.phase is not Phase.BETTING or not self._actors:
            return None
        cached = self._legal
        if cached is not None and cached[0] == self.action_count:
            return cached[1]
        legal = self._compute_legal_actions()
        self._legal = (self.action_count, legal)
        return legal

    def _compute_legal_actions(self) -> LegalActions:
        player = self._actors[0]
        bets = self.bets
        stack = self.stacks[player]
        bet = bets[player]
        max_bet = max(bets)
        to_call = min(stack, max_bet - bet)
        min_to: int | None = None
        max_to: int | None = None
        if self._can_raise(player, to_call, max_bet):
            max_to = stack + bet
            min_to = min(max_to, max(self._raise_size, self.stakes.min_bet) + max_bet)
        return LegalActions(
            player=player,
            can_fold=bet < max_bet,
            can_check=to_call == 0,
            call_amount=to_call if to_call > 0 else None,
            min_raise_to=min_to,
            max_raise_to=max_to,
            bet_so_far=bet,
            is_bet=max_bet == 0,
        )

    def _can_raise(self, player: int, to_call: int, max_bet: int) -> bool:
        if to_call < self._raise_size:
            return False  # facing only an incomplete all-in raise after a full one
        if (
            self._short_all_ins
            and sum(self._short_all_ins) < self._raise_size
            and player in self._acted
        ):
            return False  # an incomplete all-in raise does not reopen the betting
        if self.stacks[player] <= max_bet - self.bets[player]:
            return False  # all-in just to call
        stacks, bets, live = self.stacks, self.bets, self.live
        for i in range(self.player_count):
            if i != player and live[i] and stacks[i] + bets[i] > max_bet:
                return True
        return False

    def value_of(self, player: int) -> HandValue | None:
        """The player's hand value with the board so far, once five cards are out."""
        if len(self.board) < 3:
            return None
        return evaluate((*self.hole_cards[player], *self.board))

    # ----------------------------------------------------------------------- acting

    def act(self, player: int, action: Action) -> list[Event]:
        """Apply ``player``'s action and return the events it caused.

        Raises ``NotYourTurnError``, ``ActionNotAllowedError``, ``RaiseAmountError`` or
        ``HandCompleteError`` (leaving the hand unchanged) when the action is not legal now.
        """
        first_new = len(self.events)
        if self.phase is Phase.COMPLETE:
            raise HandCompleteError("the hand is over")
        if self.phase is Phase.SHOWDOWN:
            self._showdown_action(player, action)
            return self.events[first_new:]
        actor = self._actors[0]
        if player != actor:
            raise NotYourTurnError(f"it is not player {player + 1}'s turn")
        behind = max(self.bets) - self.bets[player]
        match action:
            case Fold():
                if behind <= 0:
                    raise ActionNotAllowedError("there is no bet to fold to: check instead")
                self._fold(player)
            case Check():
                if behind > 0:
                    call = min(behind, self.stacks[player])
                    raise ActionNotAllowedError(f"you must call {call} or fold")
                self._check_or_call(player)
            case Call():
                if behind <= 0:
                    raise ActionNotAllowedError("there is nothing to call: check instead")
                self._check_or_call(player)
            case RaiseTo(amount=amount):
                if not isinstance(amount, int) or isinstance(amount, bool):
                    raise MalformedInputError(f"a raise amount must be a whole number: {amount!r}")
                legal = self.legal_actions()
                assert legal is not None
                if legal.min_raise_to is None or legal.max_raise_to is None:
                    raise ActionNotAllowedError("you cannot bet or raise now")
                if not legal.min_raise_to <= amount <= legal.max_raise_to:
                    word = "bet" if legal.is_bet else "raise"
                    if legal.min_raise_to == legal.max_raise_to:
                        allowed = f"only all-in for {legal.max_raise_to}"
                    else:
                        allowed = f"from {legal.min_raise_to} to {legal.max_raise_to}"
                    raise RaiseAmountError(f"you can {word} to {allowed}, not {amount}")
                self._raise_to(player, amount)
            case Show() | Muck():
                raise ActionNotAllowedError("showing or mucking happens only at showdown")
            case _:
                raise MalformedInputError(f"{action!r} is not a Hold'em action")
        return self.events[first_new:]

    def _fold(self, player: int) -> None:
        self._actors.popleft()
        self._acted.add(player)
        self.live[player] = False
        self.action_count += 1
        self.events.append(
            PlayerActed(player, ActionKind.FOLD, 0, self.bets[player], self.stacks[player] == 0)
        )
        self.phh_actions.append(f"p{player + 1} f")
        self._after_action()

    def _check_or_call(self, player: int) -> None:
        amount = min(self.stacks[player], max(self.bets) - self.bets[player])
        self._actors.popleft()
        self._acted.add(player)
        self.bets[player] += amount
        self.stacks[player] -= amount
        self.action_count += 1
        kind = ActionKind.CALL if amount else ActionKind.CHECK
        self.events.append(
            PlayerActed(player, kind, amount, self.bets[player], self.stacks[player] == 0)
        )
        self.phh_actions.append(f"p{player + 1} cc")
        self._after_action()

    def _raise_to(self, player: int, amount: int) -> None:
        max_bet = max(self.bets)
        increment = amount - max_bet
        added = amount - self.bets[player]
        self._actors.popleft()
        self._acted.add(player)
        self.bets[player] = amount
        self.stacks[player] -= added
        n = self.player_count
        self._actors = deque(
            i
            for i in ((player + k) % n for k in range(1, n))
            if self.live[i] and self.stacks[i] > 0
        )
        self._opener = player
        if increment >= self._raise_size:
            self._acted = {player}
        self._raise_size = max(self._raise_size, increment)
        if self.stacks[player] > 0:
            self._short_all_ins.clear()
        else:
            self._short_all_ins.append(increment)
        if sum(self._short_all_ins) >= self._raise_size:
            self._short_all_ins.clear()
        self.action_count += 1
        kind = ActionKind.BET if max_bet == 0 else ActionKind.RAISE
        self.events.append(PlayerActed(player, kind, added, amount, self.stacks[player] == 0))
        self.phh_actions.append(f"p{player + 1} cbr {amount}")
        self._after_action()

    def _after_action(self) -> None:
        if not self._actors or sum(self.live) <= 1:
            self._end_betting()

    # ------------------------------------------------------------------ hand flow

    def _start(self) -> None:
        n = self.player_count
        stakes = self.stakes
        antes = [min(stakes.ante_of(i), self.stacks[i]) for i in range(n)]
        for i, ante in enumerate(antes):
            if ante:
                self.stacks[i] -= ante
                self.events.append(AntePosted(i, ante))
        if stakes.ante_trimming:
            cutoff = sorted(antes)[-2]
            for i, ante in enumerate(antes):
                if ante > cutoff:
                    self.stacks[i] += ante - cutoff
                    self.events.append(BetReturned(i, ante - cutoff))
                self.contributed[i] = min(ante, cutoff)
        else:
            self.dead_money = sum(antes)
        for i in range(n):
            blind = min(stakes.blind_of(i), self.stacks[i])
            if blind:
                self.bets[i] = blind
                self.stacks[i] -= blind
                self.events.append(BlindPosted(i, blind))
        holes: list[list[Card]] = [[] for _ in range(n)]
        for _ in range(2):
            for i in range(n):
                holes[i].append(self._draw())
        for i, (first, second) in enumerate(holes):
            self.hole_cards.append((first, second))
            self.events.append(HoleCardsDealt(i, (first, second)))
            self.phh_actions.append(f"d dh p{i + 1} {first!s}{second!s}")
        self._begin_betting()

    def _draw(self) -> Card:
        deck = self._deck
        i = self._dealt
        if self._rng is not None:
            j = i + self._rng.randrange(len(deck) - i)
            deck[i], deck[j] = deck[j], deck[i]
        self._dealt = i + 1
        return deck[i]

    def _begin_betting(self) -> None:
        n = self.player_count
        bets = self.bets
        # The player after the biggest blind opens preflop; after the flop, player 0 does.
        if self.street is Street.PREFLOP:
            blinds = self._blinds
            key = max((bets[i] if blinds[i] > 0 else 0, i) for i in range(n))
            self._opener = (key[1] + 1) % n
        else:
            self._opener = 0
        live, stacks = self.live, self.stacks
        # A player whose every chip is covered by nobody else has no one left to bet against.
        totals = sorted(bets[i] + stacks[i] for i in range(n) if live[i])
        second = totals[-2] if len(totals) > 1 else 0
        self._actors = deque(
            i
            for i in ((self._opener + k) % n for k in range(n))
            if live[i] and stacks[i] > 0 and second - bets[i] > 0
        )
        self._raise_size = 0
        self._acted.clear()
        self._short_all_ins.clear()
        if (
            not self._actors
            or sum(self.live) <= 1
            or (len(self._actors) == 1 and bets[self._actors[0]] >= max(bets))
        ):
            self._end_betting()

    def _end_betting(self) -> None:
        self._actors.clear()
        live_count = sum(self.live)
        if live_count > 1:
            with_chips = sum(1 for i in range(self.player_count) if self.live[i] and self.stacks[i])
            if with_chips <= 1:
                self._runout = True
        self._collect_bets()
        if live_count == 1:
            self._award()
        elif self.street is Street.RIVER or self._runout:
            self._begin_showdown()
        else:
            self._deal_next_street()
            self._begin_betting()

    def _collect_bets(self) -> None:
        bets = self.bets
        if not any(bets):
            return
        cutoff = sorted(bets)[-2]
        for i, bet in enumerate(bets):
            if bet > cutoff:
                self.stacks[i] += bet - cutoff
                self.events.append(BetReturned(i, bet - cutoff))
                bets[i] = cutoff
        for i, bet in enumerate(bets):
            self.contributed[i] += bet
            bets[i] = 0

    def _deal_next_street(self) -> None:
        self.street = Street(self.street + 1)
        self._draw()  # burn
        cards = tuple(self._draw() for _ in range(BOARD_CARDS_BY_STREET[self.street]))
        self.board.extend(cards)
        self.events.append(BoardDealt(int(self.street), cards))
        self.phh_actions.append(f"d db {''.join(map(str, cards))}")

    # ------------------------------------------------------------------- showdown

    def _begin_showdown(self) -> None:
        n = self.player_count
        self._showdown_queue = deque(
            i
            for i in ((self._opener + k) % n for k in range(n))
            if self.live[i] and not self.shown[i]
        )
        if self.showdown_mode is ShowdownMode.MANUAL and self._showdown_queue:
            self.phase = Phase.SHOWDOWN
            return
        # When anyone is all-in every hand is tabled; otherwise a hand that can no longer win
        # anything is mucked unseen.
        show_all = self._runout or 0 in self.stacks
        pots = self.pots()
        while self._showdown_queue:
            player = self._showdown_queue.popleft()
            if show_all or self._could_win(player, pots):
                self._show(player)
            else:
                self._muck(player)
        self._end_showdown()

    def _could_win(self, player: int, pots: list[Pot]) -> bool:
        """Whether the player ties or beats every shown hand in some pot they can win."""
        value = self._value(player)
        for pot in pots:
            if player not in pot.eligible:
                continue
            shown = [self._value(i) for i in pot.eligible if self.shown[i]]
            if not shown or value >= max(shown):
                return True
        return False

    def _value(self, player: int) -> HandValue:
        value = self._values.get(player)
        if value is None:
            value = evaluate((*self.hole_cards[player], *self.board))
            self._values[player] = value
        return value

    def _showdown_action(self, player: int, action: Action) -> None:
        # As in PokerKit (and PHH files), any player still due at showdown may show or muck.
        if player not in self._showdown_queue:
            raise NotYourTurnError(f"player {player + 1} has nothing to show or muck")
        match action:
            case Show():
                self._show(player)
            case Muck():
                for pot in self.pots():
                    if pot.eligible == (player,):
                        raise ActionNotAllowedError("the last player in a pot cannot muck")
                self._muck(player)
            case _:
                raise ActionNotAllowedError("at showdown you can only show or muck")
        self._showdown_queue.remove(player)
        if not self._showdown_queue:
            self.phase = Phase.BETTING
            self._end_showdown()

    def _show(self, player: int) -> None:
        self.shown[player] = True
        cards = self.hole_cards[player]
        description = self._value(player).description if len(self.board) >= 3 else ""
        self.events.append(CardsShown(player, cards, description))
        self.phh_actions.append(f"p{player + 1} sm {format_cards(cards, sep='')}")

    def _muck(self, player: int) -> None:
        self.live[player] = False
        self.events.append(CardsMucked(player))
        self.phh_actions.append(f"p{player + 1} sm")

    def _end_showdown(self) -> None:
        while self.street is not Street.RIVER:
            self._deal_next_street()
        # Values computed before the board was complete are stale.
        self._values.clear()
        self._award()

    def _award(self) -> None:
        live_count = sum(self.live)
        if live_count > 1:
            # Kill every hand that cannot win any pot before the pots are built, as PokerKit
            # does: it changes which side pots merge, and so where odd chips go.
            pots = self.pots()
            dead = [
                i for i in range(self.player_count) if self.live[i] and not self._could_win(i, pots)
            ]
            for player in dead:
                self.live[player] = False
        for index, pot in enumerate(self.pots()):
            if not pot.eligible:  # pragma: no cover - mucks that would empty a pot are refused
                raise AssertionError("a pot with no eligible player")
            if live_count == 1:
                # Won unopposed: by folds (nothing to describe) or because the rest mucked.
                winners = list(pot.eligible)
                winner = winners[0]
                shown = self.shown[winner] and len(self.board) == 5
                description = self._value(winner).description if shown else ""
            else:
                values = {i: self._value(i) for i in pot.eligible}
                best = max(values.values())
                winners = [i for i in pot.eligible if values[i] == best]
                description = best.description
            shares = split(pot.amount, winners)
            for player, share in shares:
                self.stacks[player] += share
            self.events.append(
                PotAwarded(index, pot.amount, pot.eligible, tuple(shares), description)
            )
        self.contributed = [0] * self.player_count
        self.dead_money = 0
        self.phase = Phase.COMPLETE
        net = tuple(s - s0 for s, s0 in zip(self.stacks, self.starting_stacks, strict=True))
        self.events.append(HandEnded(tuple(self.stacks), net))
