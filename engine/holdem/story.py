"""A settled hand told step by step from its PHH: what the exporters and the replayer read.

``tell(history)`` walks a PHH history that Felt's engine wrote (every action present, as
``Hand.phh_actions`` writes them) and returns a ``HandStory``: the forced bets, every action with
the chips it added and what it raised to, uncalled bets returned, boards, shows and mucks in the
order they happened, and the pots with their winners. It is a fast reading of a history that is
already known to be legal, not a second rules engine: it checks nothing, so a history written by
hand goes through ``phh.replay`` first. Pots are built and split by ``engine.holdem.pots``, and
the hands killed before the award are the ones ``Hand`` kills, so the results are the engine's
(the tests compare both on random hands).

``read_history(text)`` parses PHH text quickly when it is laid out as ``phh.dumps`` writes it
(one field per line, one action per line) and falls back to ``phh.loads`` for anything else.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from engine.cards import DECK, Card
from engine.evaluate import HandValue, evaluate
from engine.holdem import phh
from engine.holdem.phh import HandHistory, PhhError
from engine.holdem.pots import Pot, build_pots, split
from engine.holdem.stakes import Stakes
from engine.holdem.streets import Street

_CARD_IDS = {str(card): card for card in DECK}


class StepKind(StrEnum):
    """What one step of a story is."""

    ANTE = "ante"
    SMALL_BLIND = "small blind"
    BIG_BLIND = "big blind"
    STRADDLE = "straddle"
    """Any forced bet after the big blind's position."""
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    RETURNED = "returned"
    """An uncalled bet (or an ante above everyone else's) went back to the player."""
    BOARD = "board"
    """Community cards came (``cards``; ``street`` is the street they open)."""
    SHOW = "show"
    MUCK = "muck"


FORCED = frozenset({StepKind.ANTE, StepKind.SMALL_BLIND, StepKind.BIG_BLIND, StepKind.STRADDLE})
"""The steps the dealer takes from a player before anyone acts."""


class Step(NamedTuple):
    """One thing that happened. ``player`` is a PHH index (-1 for the board).

    A named tuple rather than a frozen dataclass: a hand has a few dozen steps and an export
    makes thousands of hands a second, and a tuple is built several times faster.

    ``amount`` is the chips this step moved (added by a bet, call or forced bet; given back by a
    return). ``bet_to`` is the player's bet on the street afterwards and ``raised_by`` how far it
    went above the street's highest bet before it (bets and raises only). ``pot`` is every chip
    in the middle after the step, this street's bets included.
    """

    kind: StepKind
    street: Street
    player: int = -1
    amount: int = 0
    bet_to: int = 0
    raised_by: int = 0
    all_in: bool = False
    cards: tuple[Card, ...] = ()
    pot: int = 0
    board: int = 0
    """For a ``BOARD`` step: the board (double board) or run (run it N times) it deals to."""


@dataclass(frozen=True, slots=True)
class PotResult:
    """A pot (0 = main), who could win it, and each winner's share."""

    number: int
    amount: int
    eligible: tuple[int, ...]
    shares: tuple[tuple[int, int], ...]
    description: str
    """The winning hand, or "" when the pot was won without a showdown."""
    board: int = 0
    """In ``HandStory.board_pots``: the board or run this part of the pot was won on."""


class StoryPlayer(NamedTuple):
    """One player of the hand, in PHH order (0 is first left of the button). A named tuple for
    the same reason as ``Step``."""

    number: int
    """The PHH index (0 first left of the button)."""
    name: str
    seat_no: int
    """The table's seat number as stored (Felt's tables number seats from 1); PHH index + 1
    when the history has no seats."""
    starting_stack: int
    final_stack: int
    hole: tuple[Card, ...] | None
    """The hole cards, or None where the history hides them (``????``)."""
    shown: bool
    mucked: bool
    folded_on: Street | None
    """The street the player folded on, if they folded."""
    value: HandValue | None
    """The made hand of a player who showed with the whole board out."""


@dataclass(frozen=True, slots=True)
class HandStory:
    """A whole settled hand, ready to be written in any format."""

    stakes: Stakes
    players: tuple[StoryPlayer, ...]
    steps: tuple[Step, ...]
    board: tuple[Card, ...]
    pots: tuple[PotResult, ...]
    hand_number: int | None
    table: str | None
    seat_count: int
    boards: tuple[tuple[Card, ...], ...] = ()
    """Every board when there are several (a double board, or a board run N times), board 0
    (``board``) first; empty for one board."""
    board_pots: tuple[PotResult, ...] = ()
    """With several boards, each pot's part won on each board (``pots`` add them up)."""
    runs: int = 1
    """How many times the board was run (1: once, or a double board)."""
    bomb_pot: bool = False
    """A bomb pot: antes from everyone and no preflop betting."""

    @property
    def button(self) -> StoryPlayer:
        """The player on the button (the last in PHH order)."""
        return self.players[-1]

    def won_by(self, player: int) -> int:
        """Chips ``player`` collected from the pots."""
        return sum(share for pot in self.pots for who, share in pot.shares if who == player)

    def blind_kind(self, player: int) -> StepKind | None:
        """The blind ``player`` owed by position (small, big, straddle), or None."""
        position = (1 - player) if len(self.players) == 2 else player
        if self.stakes.blinds_or_straddles[position] == 0:
            return None
        return _BLIND_KINDS[min(position, 2)]


_BLIND_KINDS = (StepKind.SMALL_BLIND, StepKind.BIG_BLIND, StepKind.STRADDLE)


# ---------------------------------------------------------------------------- reading PHH


def read_history(text: str) -> HandHistory:
    """Parse one hand of PHH text: fast for ``phh.dumps`` layout, ``phh.loads`` otherwise."""
    try:
        table = _fast_fields(text)
    except (ValueError, KeyError):
        return phh.loads(text)
    return phh.from_mapping(table)


def _fast_fields(text: str) -> dict[str, object]:
    """The fields of ``phh.dumps`` text read as one JSON object (TOML's basic values are JSON
    as Felt writes them); ``ValueError`` for anything laid out otherwise."""
    parts = []
    lines = text.splitlines()
    position = 0
    while position < len(lines):
        line = lines[position]
        position += 1
        if not line:
            continue
        key, sep, value = line.partition(" = ")
        if not sep or not key.replace("_", "a").isalnum():
            raise ValueError(line)
        if value == "[" and key == "actions":
            end = lines.index("]", position)
            # Every action line ends with a comma (``phh.dumps``): one JSON array reads them all.
            value = "[" + "".join(lines[position:end]).rstrip().removesuffix(",") + "]"
            position = end + 1
        parts.append(f'"{key}":{value}')
    table = json.loads("{" + ",".join(parts) + "}")
    if not isinstance(table, dict) or len(table) != len(parts):
        raise ValueError("a field is repeated")
    return table


# ---------------------------------------------------------------------------- the walk


class _Walk:
    """The chips and cards as the history's lines move them."""

    def __init__(self, history: HandHistory) -> None:
        stakes = history.stakes
        n = len(history.starting_stacks)
        self.n = n
        self.stakes = stakes
        self.stacks = list(history.starting_stacks)
        self.bets = [0] * n
        self.contributed = [0] * n
        self.dead = 0
        self.live = [True] * n
        self.shown = [False] * n
        self.mucked = [False] * n
        self.folded_on: list[Street | None] = [None] * n
        self.holes: list[tuple[Card, ...] | None] = [None] * n
        self.board: list[Card] = []
        self.street = Street.PREFLOP
        self.steps: list[Step] = []
        self.max_bet = 0
        self.open = True  # the betting round whose bets are not collected yet
        self.pot = 0  # every chip in the middle
        self.runs = history.runout_count
        self.double = history.extra.get("_board_count", 1) > 1
        self.boards: list[list[Card]] = [self.board]
        """Every board: a double board's second, or each run after the first."""
        self.run_base = -1  # the cards every run shares, once the runs began
        self.bomb_pot = bool(history.extra.get("_bomb_pot", False))
        self.second_next = False  # a double board's next line deals board 1

    def add(
        self,
        kind: StepKind,
        player: int = -1,
        amount: int = 0,
        bet_to: int = 0,
        raised_by: int = 0,
        all_in: bool = False,
        cards: tuple[Card, ...] = (),
        board: int = 0,
    ) -> None:
        """Record a step; chips it moved in (or, returned, out) change the pot."""
        self.pot += -amount if kind is StepKind.RETURNED else amount
        self.steps.append(
            Step(
                kind, self.street, player, amount, bet_to, raised_by, all_in, cards, self.pot, board
            )
        )

    def post_forced_bets(self) -> None:
        """Antes (trimmed or dead, as the stakes say), then blinds: ``Hand._start``'s order."""
        stakes, stacks, n = self.stakes, self.stacks, self.n
        antes = [min(stakes.ante_of(i), stacks[i]) for i in range(n)]
        for i, ante in enumerate(antes):
            if ante:
                stacks[i] -= ante
                self.contributed[i] += ante
                self.add(StepKind.ANTE, i, amount=ante, all_in=stacks[i] == 0)
        if stakes.ante_trimming:
            cutoff = sorted(antes)[-2]
            for i, ante in enumerate(antes):
                if ante > cutoff:
                    stacks[i] += ante - cutoff
                    self.contributed[i] -= ante - cutoff
                    self.add(StepKind.RETURNED, i, amount=ante - cutoff)
        else:
            self.dead = sum(self.contributed)
            self.contributed = [0] * n
        for i in range(n):
            blind = min(stakes.blind_of(i), stacks[i])
            if blind:
                position = (1 - i) if n == 2 else i
                stacks[i] -= blind
                self.bets[i] = blind
                kind = _BLIND_KINDS[min(position, 2)]
                self.add(kind, i, amount=blind, bet_to=blind, all_in=stacks[i] == 0)
        self.max_bet = max(self.bets)

    def close_betting(self) -> None:
        """Return the uncalled part of the top bet and collect the bets (``_collect_bets``)."""
        if not self.open:
            return
        self.open = False
        bets = self.bets
        if not any(bets):
            return
        cutoff = sorted(bets)[-2]
        for i, bet in enumerate(bets):
            if bet > cutoff:
                self.stacks[i] += bet - cutoff
                bets[i] = cutoff
                self.add(StepKind.RETURNED, i, amount=bet - cutoff)
        for i, bet in enumerate(bets):
            self.contributed[i] += bet
            bets[i] = 0
        self.max_bet = 0

    def deal_board(self, cards: tuple[Card, ...]) -> None:
        if self.double and self.second_next:
            # A double board: the same street again, for board 1, without new betting.
            self.second_next = False
            if len(self.boards) == 1:
                self.boards.append([])
            self.boards[1].extend(cards)
            self.add(StepKind.BOARD, cards=cards, board=1)
            return
        if self.runs > 1 and any(self.shown):
            self._deal_run(cards)
            return
        self.close_betting()
        self.street = Street(min(self.street + 1, Street.RIVER))
        self.board.extend(cards)
        self.open = True
        self.second_next = self.double
        self.add(StepKind.BOARD, cards=cards)

    def _deal_run(self, cards: tuple[Card, ...]) -> None:
        """A board run N times: each run deals the streets left after the shared cards, run
        after run (the shows came first, as ``Hand._deal_runs`` writes them)."""
        self.close_betting()
        if self.run_base < 0:
            self.run_base = len(self.board)
        if len(self.boards[-1]) == 5:
            self.boards.append(list(self.board[: self.run_base]))
        board = self.boards[-1]
        board.extend(cards)
        self.street = {3: Street.FLOP, 4: Street.TURN}.get(len(board), Street.RIVER)
        self.add(StepKind.BOARD, cards=cards, board=len(self.boards) - 1)

    def act(self, player: int, verb: str, amount: int) -> None:
        stacks, bets = self.stacks, self.bets
        if verb == "f":
            self.live[player] = False
            self.folded_on[player] = self.street
            self.add(StepKind.FOLD, player, bet_to=bets[player])
        elif verb == "cc":
            paid = min(stacks[player], self.max_bet - bets[player])
            if self.bomb_pot and self.street is Street.PREFLOP:
                return  # PHH checks a bomb pot's preflop round through; nobody decided it
            stacks[player] -= paid
            bets[player] += paid
            kind = StepKind.CALL if paid else StepKind.CHECK
            self.add(kind, player, amount=paid, bet_to=bets[player], all_in=stacks[player] == 0)
        else:
            added = amount - bets[player]
            stacks[player] -= added
            bets[player] = amount
            kind = StepKind.BET if self.max_bet == 0 else StepKind.RAISE
            raised_by = amount - self.max_bet
            self.max_bet = amount
            self.add(kind, player, added, amount, raised_by, stacks[player] == 0)

    def reveal(self, player: int, cards: tuple[Card, ...] | None) -> None:
        self.close_betting()
        if cards is None:
            self.live[player] = False
            self.mucked[player] = True
            self.add(StepKind.MUCK, player)
            return
        self.holes[player] = cards
        self.shown[player] = True
        self.add(StepKind.SHOW, player, cards=cards)


@functools.cache
def _cards(text: str) -> tuple[Card, ...] | None:
    """Cards written together (``AcKd``); None if any is unknown (``????``). Cached: a few
    thousand distinct strings come back in every export."""
    if "?" in text:
        return None
    return tuple(_CARD_IDS[text[i : i + 2]] for i in range(0, len(text), 2))


def tell(history: HandHistory) -> HandStory:
    """The story of a complete hand from its PHH history (as Felt's engine writes them)."""
    walk = _Walk(history)
    walk.post_forced_bets()
    for line in history.actions:
        words = (line.split("#", 1)[0] if "#" in line else line).split()
        if not words:
            continue
        if words[0] == "d":
            cards = _cards(words[-1])
            if words[1] == "dh":
                walk.holes[int(words[2][1:]) - 1] = cards
            elif cards is not None:
                walk.deal_board(cards)
            else:
                raise PhhError("unknown board cards cannot be told")
            continue
        player = int(words[0][1:]) - 1
        verb = words[1]
        if verb == "sm":
            shown = words[2] if len(words) > 2 else ""
            walk.reveal(player, _cards(shown) if shown and shown != "-" else None)
        else:
            walk.act(player, verb, int(words[2]) if verb == "cbr" else 0)
    walk.close_betting()
    return _finish(history, walk)


def _finish(history: HandHistory, walk: _Walk) -> HandStory:
    board_values = [_values(walk, board) for board in walk.boards]
    values = board_values[0]
    pots, parts = _award(walk, board_values)
    extra = history.extra
    names = extra.get("players")
    seats = extra.get("seats")
    players = []
    for i in range(walk.n):
        players.append(
            StoryPlayer(
                number=i,
                name=str(names[i]) if isinstance(names, list) else f"Player {i + 1}",
                seat_no=int(seats[i]) if isinstance(seats, list) else i + 1,
                starting_stack=history.starting_stacks[i],
                final_stack=walk.stacks[i],
                hole=walk.holes[i],
                shown=walk.shown[i],
                mucked=walk.mucked[i],
                folded_on=walk.folded_on[i],
                value=values.get(i),
            )
        )
    hand = extra.get("hand")
    table = extra.get("table")
    seat_count = extra.get("seat_count")
    highest_seat = max(player.seat_no for player in players)
    return HandStory(
        stakes=walk.stakes,
        players=tuple(players),
        steps=tuple(walk.steps),
        board=tuple(walk.board),
        pots=tuple(pots),
        hand_number=hand if isinstance(hand, int) else None,
        table=table if isinstance(table, str) else None,
        seat_count=max(seat_count if isinstance(seat_count, int) else 0, highest_seat),
        boards=tuple(tuple(board) for board in walk.boards) if len(walk.boards) > 1 else (),
        board_pots=tuple(parts) if len(walk.boards) > 1 else (),
        runs=walk.runs if walk.run_base >= 0 else 1,
        bomb_pot=bool(extra.get("_bomb_pot", False)),
    )


def _values(walk: _Walk, board: list[Card]) -> dict[int, HandValue]:
    """The made hands of the players who showed, on a complete ``board``."""
    values: dict[int, HandValue] = {}
    if len(board) == 5:
        for i in range(walk.n):
            hole = walk.holes[i]
            if walk.shown[i] and hole is not None:
                values[i] = evaluate((*hole, *board))
    return values


def _award(
    walk: _Walk, board_values: list[dict[int, HandValue]]
) -> tuple[list[PotResult], list[PotResult]]:
    """Award the pots as ``Hand._award`` does, paying the players' stacks: the whole pots, and
    with several boards each pot's part on each board (split evenly, odd chips to board 0)."""
    live = walk.live
    live_count = sum(live)
    pots = build_pots(walk.contributed, live, walk.dead)
    if live_count > 1:
        dead = [i for i in range(walk.n) if live[i] and not _could_win(i, pots, board_values)]
        for player in dead:
            live[player] = False
        if dead:
            pots = build_pots(walk.contributed, live, walk.dead)
    boards = len(board_values) if live_count > 1 else 1
    results, parts = [], []
    for number, pot in enumerate(pots):
        part, odd = divmod(pot.amount, boards)
        won: dict[int, int] = {}
        descriptions = []
        for board, values in enumerate(board_values[:boards]):
            amount = part + odd if board == 0 else part
            if not amount:
                continue
            if live_count == 1:
                winners: Sequence[int] = pot.eligible
                value = values.get(winners[0])
                description = value.description if value is not None else ""
            else:
                best = max(values[i] for i in pot.eligible)
                winners = [i for i in pot.eligible if values[i] == best]
                description = best.description
            descriptions.append(description)
            shares = split(amount, winners)
            for player, share in shares:
                walk.stacks[player] += share
                won[player] = won.get(player, 0) + share
            parts.append(PotResult(number, amount, pot.eligible, tuple(shares), description, board))
        shares_total = tuple(won.items())
        results.append(PotResult(number, pot.amount, pot.eligible, shares_total, descriptions[0]))
    return results, parts if boards > 1 else []


def _could_win(player: int, pots: Sequence[Pot], board_values: list[dict[int, HandValue]]) -> bool:
    """Whether ``player`` ties or beats every shown hand in some pot they can win, on some
    board (``Hand._could_win``)."""
    for values in board_values:
        value = values[player]
        for pot in pots:
            if player in pot.eligible:
                shown = [values[i] for i in pot.eligible if i in values]
                if not shown or value >= max(shown):
                    return True
    return False


# ---------------------------------------------------------------------------- masking


def masked_history(history: HandHistory, hero: int | None = None) -> HandHistory:
    """The history with every hole card written ``????`` except ``hero``'s (a PHH index) and
    those shown at showdown: what one player, or anyone with ``hero=None``, may read."""
    shown = set()
    for line in history.actions:
        words = line.split()
        if len(words) == 3 and words[1] == "sm" and words[2] != "-":
            shown.add(words[0])
    keep = shown | ({f"p{hero + 1}"} if hero is not None else set())
    actions = []
    for line in history.actions:
        words = line.split() if line.startswith("d dh ") else []
        hidden = bool(words) and words[2] not in keep
        actions.append(f"d dh {words[2]} ????" if hidden else line)
    return HandHistory(
        history.antes,
        history.blinds_or_straddles,
        history.min_bet,
        history.starting_stacks,
        tuple(actions),
        history.ante_trimming_status,
        history.variant,
        history.extra,
    )
