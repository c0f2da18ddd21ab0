"""Settled hands as PokerStars No-Limit Hold'em cash-game text, which trackers import.

One block per hand, in the layout PokerStars writes: the header (hand id, stakes, time), the
table line (name, max seats, the button's seat), the seats with their stacks, antes
(``posts the ante N``) and blinds, ``*** HOLE CARDS ***``, the actions (``raises X to Y``,
``calls``, ``bets``, ``checks``, ``folds``, ``and is all-in``), ``Uncalled bet (X) returned
to``, the streets with their boards, ``*** SHOW DOWN ***``, ``collected X from pot`` (``main
pot`` and ``side pot-1``... when there are side pots) and the ``*** SUMMARY ***`` with the total
pot, ``Rake 0``, the board and every seat's result.

Home games follow PokerStars' own layouts where it has them: a straddle ``posts straddle N``; a
board run twice (or more) deals ``*** FIRST FLOP ***``, ``*** SECOND FLOP ***``... after the
all-in, then ``*** FIRST SHOW DOWN ***`` with the shows and collections on the first board and
``*** SECOND SHOW DOWN ***`` on the second, and the summary says ``Hand was run twice`` with a
``FIRST Board [...]`` line per board and each part a player won. PokerStars has no double board
and no bomb pot: a double board is written as two boards the same way (each street's ``FIRST``
and ``SECOND`` lines together, before its betting), and a bomb pot as its antes and no preflop
action; its header names half the minimum bet and the minimum bet as the blinds (a bomb pot
posts none).

Choices of ours, which the README repeats: amounts are whole chips with no currency symbol
(PokerStars' play-money layout), times are UTC, and the hand id is ``table id × 10⁹ + hand
number`` (unique in a database and stable, since ids never change). Only the hero's hole cards
are dealt face up (``Dealt to``); anyone else's appear only where they were shown. Player names
lose the characters that the format uses as punctuation (``: [ ] ( ) # '``), and a name that
would read as an action or clash with another seat's gets the seat number added, so every
line parses back to the right player. Every hand this writes is read back by PokerKit's own
``PokerStarsParser`` to the same finishing stacks (``tests/engine/holdem/test_pokerstars*``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from engine.cards import Card
from engine.errors import MalformedInputError
from engine.evaluate import evaluate
from engine.holdem.story import HandStory, PotResult, Step, StepKind
from engine.holdem.streets import Street

HAND_ID_FACTOR = 1_000_000_000
"""A hand's id is ``table id * HAND_ID_FACTOR + hand number``."""
HAND_SEPARATOR = "\n\n\n"
"""PokerStars leaves blank lines between hands; PokerKit's parser splits on two or more."""
NAME_LIMIT = 32

_PUNCTUATION = re.compile(r"[\x00-\x1f\x7f:\[\]()#'\"]")
# A name starting with one of these would read as that player's action (``X: folds``).
_ACTION_WORDS = frozenset(
    {"folds", "calls", "checks", "bets", "raises", "shows", "posts", "mucks", "collected"}
)
_STREET_NAMES = {Street.FLOP: "FLOP", Street.TURN: "TURN", Street.RIVER: "RIVER"}
_FOLDED_ON = {
    Street.PREFLOP: "before Flop",
    Street.FLOP: "on the Flop",
    Street.TURN: "on the Turn",
    Street.RIVER: "on the River",
}
_POSTS = {
    StepKind.ANTE: "posts the ante",
    StepKind.SMALL_BLIND: "posts small blind",
    StepKind.BIG_BLIND: "posts big blind",
    StepKind.STRADDLE: "posts straddle",
}


class ExportError(MalformedInputError):
    """A hand that cannot be exported (an id out of range, a history without a finish)."""


@dataclass(frozen=True, slots=True)
class HandLabel:
    """What a stored hand is called outside Felt: its id, table and time."""

    hand_id: int
    """Unique and stable: see ``hand_id_of``."""
    table_name: str
    started_at: datetime
    practice: bool = False
    """A seeded practice game: the table name says so."""

    @property
    def shown_table(self) -> str:
        """The table name as written, marked when the hand was practice."""
        base = " ".join(_PUNCTUATION.sub("", self.table_name).split()) or "Felt"
        return f"{base} (practice)" if self.practice else base


def hand_id_of(table_id: int, hand_number: int) -> int:
    """The exported id of hand ``hand_number`` of table ``table_id``."""
    if not 1 <= hand_number < HAND_ID_FACTOR or table_id < 0:
        raise ExportError(f"hand {hand_number} of table {table_id} has no exportable id")
    return table_id * HAND_ID_FACTOR + hand_number


def player_names(story: HandStory) -> list[str]:
    """Each player's name as the export writes it: safe for the format and unique."""
    names: list[str] = []
    for player in story.players:
        name = " ".join(_PUNCTUATION.sub("", player.name).split())[:NAME_LIMIT].strip()
        first = name.split(" ", 1)[0].lower() if name else ""
        if not name or first in _ACTION_WORDS or first == "seat":
            name = f"Player {player.seat_no}"
        names.append(name)
    seen: dict[str, int] = {}
    for name in names:
        seen[name] = seen.get(name, 0) + 1
    return [
        f"{name} {player.seat_no}" if seen[name] > 1 else name
        for name, player in zip(names, story.players, strict=True)
    ]


def _cards(cards: Iterable[Card]) -> str:
    return " ".join(map(str, cards))


def _time(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y/%m/%d %H:%M:%S UTC")


def dumps(story: HandStory, label: HandLabel, *, hero: int | None = None) -> str:
    """One hand as PokerStars text (ending in a newline). ``hero`` is the PHH index of the
    player whose hole cards are dealt face up, or None for a hand seen from the rail."""
    names = player_names(story)
    stakes = story.stakes
    small, big = stakes.blinds_or_straddles[0], stakes.blinds_or_straddles[1]
    if not small and not big:  # a bomb pot posts no blinds
        small, big = max(1, stakes.min_bet // 2), stakes.min_bet
    button = story.button
    lines = [
        f"PokerStars Hand #{label.hand_id}:  Hold'em No Limit ({small}/{big}) - "
        f"{_time(label.started_at)}",
        f"Table '{label.shown_table}' {story.seat_count}-max Seat #{button.seat_no} is the button",
    ]
    for player in sorted(story.players, key=lambda p: p.seat_no):
        lines.append(
            f"Seat {player.seat_no}: {names[player.number]} ({player.starting_stack} in chips)"
        )
    _actions(story, names, hero, lines)
    if story.board_pots:
        _showdowns(story, names, lines)
    else:
        _collections(story, names, lines)
    _summary(story, names, hero, lines)
    return "\n".join(lines) + "\n"


def dumps_all(hands: Iterable[tuple[HandStory, HandLabel, int | None]]) -> str:
    """Several hands, separated as PokerStars separates them."""
    return HAND_SEPARATOR.join(dumps(story, label, hero=hero) for story, label, hero in hands)


def _actions(story: HandStory, names: list[str], hero: int | None, lines: list[str]) -> None:
    dealt = False
    showdown = False
    for step in story.steps:
        kind = step.kind
        name = names[step.player] if step.player >= 0 else ""
        all_in = " and is all-in" if step.all_in else ""
        if kind in _POSTS:
            lines.append(f"{name}: {_POSTS[kind]} {step.amount}{all_in}")
            continue
        if not dealt and kind is not StepKind.RETURNED:
            dealt = True
            lines.append("*** HOLE CARDS ***")
            if hero is not None:
                hole = story.players[hero].hole
                if hole is not None:
                    lines.append(f"Dealt to {names[hero]} [{_cards(hole)}]")
        if kind is StepKind.FOLD:
            lines.append(f"{name}: folds")
        elif kind is StepKind.CHECK:
            lines.append(f"{name}: checks")
        elif kind is StepKind.CALL:
            lines.append(f"{name}: calls {step.amount}{all_in}")
        elif kind is StepKind.BET:
            lines.append(f"{name}: bets {step.amount}{all_in}")
        elif kind is StepKind.RAISE:
            lines.append(f"{name}: raises {step.raised_by} to {step.bet_to}{all_in}")
        elif kind is StepKind.RETURNED:
            lines.append(f"Uncalled bet ({step.amount}) returned to {name}")
        elif kind is StepKind.BOARD:
            lines.append(_board_step_line(story, step))
        elif story.board_pots:
            continue  # several boards: the shows go with each board's showdown (``_showdowns``)
        else:
            if not showdown and len(story.board) == 5 and step.street is Street.RIVER:
                showdown = True
                lines.append("*** SHOW DOWN ***")
            lines.append(_reveal_line(story, names, step.player, kind is StepKind.SHOW))
    if not dealt:
        lines.append("*** HOLE CARDS ***")
        if hero is not None and story.players[hero].hole is not None:
            lines.append(f"Dealt to {names[hero]} [{_cards(story.players[hero].hole or ())}]")
    if not showdown and not story.board_pots and sum(1 for p in story.players if p.shown) > 0:
        lines.append("*** SHOW DOWN ***")


def _board_line(street: Street, board: tuple[Card, ...]) -> str:
    title = _STREET_NAMES[street]
    if street is Street.FLOP:
        return f"*** {title} *** [{_cards(board[:3])}]"
    seen = 3 if street is Street.TURN else 4
    return f"*** {title} *** [{_cards(board[:seen])}] [{_cards(board[seen : seen + 1])}]"


ORDINALS = ("FIRST", "SECOND", "THIRD", "FOURTH")
_TIMES = {2: "twice", 3: "three times", 4: "four times"}


def _board_step_line(story: HandStory, step: Step) -> str:
    """A street's line; with several boards, named for its board (``*** SECOND TURN ***``)."""
    if not story.boards:
        return _board_line(step.street, story.board)
    board = story.boards[step.board]
    runs_from = 5 - sum(
        len(s.cards) for s in story.steps if s.kind is StepKind.BOARD and s.board == 1
    )
    shared = story.runs > 1 and step.board == 0 and len(_board_until(story, step)) <= runs_from
    line = _board_line(step.street, board)
    if shared:
        return line  # dealt before the all-in: every run shares it
    return line.replace("*** ", f"*** {ORDINALS[step.board]} ", 1)


def _board_until(story: HandStory, step: Step) -> tuple[Card, ...]:
    """Board 0 as it stood once ``step`` was dealt."""
    seen: list[Card] = []
    for earlier in story.steps:
        if earlier.kind is StepKind.BOARD and earlier.board == 0:
            seen.extend(earlier.cards)
        if earlier is step:
            break
    return tuple(seen)


def _showdowns(story: HandStory, names: list[str], lines: list[str]) -> None:
    """With several boards: a showdown per board, its shows and what each part paid."""
    reveals = [s for s in story.steps if s.kind in (StepKind.SHOW, StepKind.MUCK)]
    for board, cards in enumerate(story.boards):
        lines.append(f"*** {ORDINALS[board]} SHOW DOWN ***")
        for step in reveals:
            hole = story.players[step.player].hole
            if step.kind is StepKind.MUCK or hole is None:
                lines.append(f"{names[step.player]}: mucks hand")
                continue
            description = evaluate((*hole, *cards)).description
            lines.append(f"{names[step.player]}: shows [{_cards(hole)}] ({description})")
        parts = [pot for pot in story.board_pots if pot.board == board]
        count = len(story.pots)
        for pot in reversed(parts):
            for player, share in pot.shares:
                if share:
                    where = _pot_name(pot.number, count)
                    lines.append(f"{names[player]} collected {share} from {where}")


def _board_parts(story: HandStory, player: int) -> list[PotResult]:
    return [pot for pot in story.board_pots if any(p == player and s for p, s in pot.shares)]


def _reveal_line(story: HandStory, names: list[str], player: int, shown: bool) -> str:
    who = story.players[player]
    if not shown or who.hole is None:
        return f"{names[player]}: mucks hand"
    # The parser wants a description; a hand shown before the board is out gets its final one.
    description = who.value.description if who.value is not None else "showed"
    return f"{names[player]}: shows [{_cards(who.hole)}] ({description})"


def _pot_name(number: int, pots: int) -> str:
    if pots == 1:
        return "pot"
    return "main pot" if number == 0 else f"side pot-{number}"


def _collections(story: HandStory, names: list[str], lines: list[str]) -> None:
    count = len(story.pots)
    for pot in reversed(story.pots):
        for player, share in pot.shares:
            if share:
                where = _pot_name(pot.number, count)
                lines.append(f"{names[player]} collected {share} from {where}")


def _summary(story: HandStory, names: list[str], hero: int | None, lines: list[str]) -> None:
    lines.append("*** SUMMARY ***")
    total = sum(pot.amount for pot in story.pots)
    if len(story.pots) > 1:
        parts = [f"Main pot {story.pots[0].amount}."]
        parts += [f"Side pot-{pot.number} {pot.amount}." for pot in story.pots[1:]]
        lines.append(f"Total pot {total} {' '.join(parts)} | Rake 0")
    else:
        lines.append(f"Total pot {total} | Rake 0")
    if story.boards:
        lines.append(f"Hand was run {_TIMES[len(story.boards)]}")
        for board, cards in enumerate(story.boards):
            lines.append(f"{ORDINALS[board]} Board [{_cards(cards)}]")
    elif story.board:
        lines.append(f"Board [{_cards(story.board)}]")
    invested = _voluntary(story)
    for player in sorted(story.players, key=lambda p: p.seat_no):
        lines.append(
            f"Seat {player.seat_no}: {names[player.number]}{_tags(story, player.number)} "
            f"{_result(story, player.number, hero, invested)}"
        )


def _voluntary(story: HandStory) -> set[int]:
    """Players who put chips in beyond the antes (blinds count, as PokerStars counts them)."""
    return {
        step.player
        for step in story.steps
        if step.amount and step.kind not in (StepKind.ANTE, StepKind.RETURNED)
    }


def _tags(story: HandStory, player: int) -> str:
    tags = ""
    if player == story.button.number:
        tags += " (button)"
    kind = story.blind_kind(player)
    if kind is StepKind.SMALL_BLIND:
        tags += " (small blind)"
    elif kind is StepKind.BIG_BLIND:
        tags += " (big blind)"
    return tags


def _result(story: HandStory, index: int, hero: int | None, invested: set[int]) -> str:
    player = story.players[index]
    won = story.won_by(index)
    if player.folded_on is not None:
        text = f"folded {_FOLDED_ON[player.folded_on]}"
        if player.folded_on is Street.PREFLOP and index not in invested:
            text += " (didn't bet)"
        return text
    if player.shown and player.hole is not None and story.board_pots:
        parts = _board_parts(story, index)
        if not parts:
            return f"showed [{_cards(player.hole)}] and lost"
        wins = [
            f"won ({dict(pot.shares)[index]}) with {pot.description}" if pot.description else
            f"won ({dict(pot.shares)[index]})"
            for pot in parts
        ]  # fmt: skip
        return f"showed [{_cards(player.hole)}] and " + ", and ".join(wins)
    if player.shown and player.hole is not None:
        cards = _cards(player.hole)
        description = player.value.description if player.value is not None else ""
        with_hand = f" with {description}" if description else ""
        if won:
            return f"showed [{cards}] and won ({won}){with_hand}"
        return f"showed [{cards}] and lost{with_hand}"
    if player.mucked:
        own = player.hole if index == hero else None
        return f"mucked [{_cards(own)}]" if own else "mucked"
    return f"collected ({won})" if won else "did not show"
