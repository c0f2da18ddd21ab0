"""PHH, the Poker Hand History standard (TOML): reading, writing and replaying hands.

We follow PokerKit's reading of the standard: player 1 (``p1``) sits first left of the button
(heads-up that is the big blind), amounts are "to" totals, ``sm`` without cards mucks, and a
history that leaves out routine checks or folds is completed the way PokerKit completes it (an
action naming a player who is not to act first checks, or else folds, for the skipped players).
An action that is illegal for the player whose turn it is stays an error.

Home-game options have no PHH notation, so Felt writes them as user-defined fields, which
PokerKit keeps and ignores: ``_runout_count = K`` (how many times the board ran, 1 = once; each
run's streets follow as ``d db`` lines, run after run, in PokerKit's dealing order),
``_board_count = 2`` (a double board: each street one ``d db`` line per board), ``_bomb_pot =
true`` (the preflop check-around PokerKit needs is written as ``cc`` actions and skipped on
reading), ``_seven_deuce_bounty = X``, ``_rabbit_hunt = true``, and ``_after_hand``: reveals and
rabbit hunts after the hand (``"p1 sm 7h2c"``, ``"p2 rh 9s2h"``). Straddles need nothing new:
``blinds_or_straddles`` lists them, and the file's ``min_bet`` is used as it is.
"""

from __future__ import annotations

import difflib
import json
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.cards import CARD_TEXT, DECK, Card, format_cards, parse_card
from engine.errors import EngineError, MalformedInputError
from engine.holdem.actions import (
    Action,
    Call,
    Check,
    ChooseRunCount,
    Fold,
    Muck,
    RabbitHunt,
    RaiseTo,
    Reveal,
    Show,
)
from engine.holdem.errors import InvalidSetupError
from engine.holdem.events import BoardDealt, RunCountSettled
from engine.holdem.hand import (
    BOARD_CARDS_BY_STREET,
    MAX_PLAYERS,
    Hand,
    Phase,
    ShowdownMode,
    stacked_deck,
)
from engine.holdem.options import MAX_BOARDS, MAX_RUN_COUNT, HandOptions
from engine.holdem.stakes import Stakes
from engine.values import quick_init

SUPPORTED_VARIANT = "NT"
"""No-limit Texas hold'em, the only PHH variant Felt plays."""

REQUIRED_FIELDS = (
    "variant",
    "antes",
    "blinds_or_straddles",
    "min_bet",
    "starting_stacks",
    "actions",
)


OPTIONAL_FIELDS = frozenset(
    {
        "author",
        "event",
        "url",
        "venue",
        "address",
        "city",
        "region",
        "postal_code",
        "country",
        "time",
        "time_zone",
        "time_zone_abbreviation",
        "day",
        "month",
        "year",
        "hand",
        "level",
        "seats",
        "seat_count",
        "table",
        "players",
        "finishing_stacks",
        "winnings",
        "currency",
        "currency_symbol",
        "ante_trimming_status",
        "time_limit",
        "time_banks",
    }
)
"""The standard's optional fields. Fields whose names start with ``_`` are user-defined."""

OTHER_VARIANT_FIELDS = ("bring_in", "small_bet", "big_bet")
"""Required fields of the stud and fixed-limit variants, which no-limit hold'em must not have."""

_QUOTED_LIMIT = 40


def _quoted(text: str) -> str:
    """``repr`` of a name or line taken from the input, cut short so a message stays one line."""
    if len(text) > _QUOTED_LIMIT:
        text = text[: _QUOTED_LIMIT - 1] + "…"
    return repr(text)


class PhhError(MalformedInputError):
    """A hand history that does not follow the PHH standard."""


class ReplayError(EngineError):
    """A hand history whose actions cannot be played: it names the action and why."""

    def __init__(self, index: int, action: str, reason: str) -> None:
        super().__init__(f"action {index + 1} {_quoted(action)}: {reason}")
        self.index = index
        self.action = action
        self.reason = reason


@dataclass(frozen=True, slots=True)
class HandHistory:
    """One hand in PHH form. ``extra`` keeps every other field (optional and ``_user`` ones)."""

    antes: tuple[int, ...]
    blinds_or_straddles: tuple[int, ...]
    min_bet: int
    starting_stacks: tuple[int, ...]
    actions: tuple[str, ...]
    ante_trimming_status: bool = False
    variant: str = SUPPORTED_VARIANT
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def stakes(self) -> Stakes:
        """The forced bets as the engine takes them."""
        return Stakes(self.antes, self.blinds_or_straddles, self.min_bet, self.ante_trimming_status)

    @property
    def finishing_stacks(self) -> tuple[int, ...] | None:
        """The ``finishing_stacks`` field, if the history has one."""
        value = self.extra.get("finishing_stacks")
        return tuple(value) if value is not None else None

    @property
    def runout_count(self) -> int:
        """How many times the board ran (``_runout_count``; 1 when absent)."""
        value: int = self.extra.get(RUNOUT_COUNT_FIELD, 1)
        return value

    @property
    def after_hand(self) -> tuple[str, ...]:
        """Reveals and rabbit hunts after the hand (``_after_hand``)."""
        return tuple(self.extra.get(AFTER_HAND_FIELD, ()))

    @property
    def hand_options(self) -> HandOptions:
        """The home-game options the user-defined fields describe."""
        extra = self.extra
        return HandOptions(
            max_run_count=self.runout_count,
            bomb_pot=extra.get("_bomb_pot", False),
            boards=extra.get("_board_count", 1),
            seven_deuce_bounty=extra.get("_seven_deuce_bounty", 0),
            rabbit_hunt=extra.get("_rabbit_hunt", False),
        )


# ------------------------------------------------------------------------------ reading


def loads(text: str) -> HandHistory:
    """Parse one hand from PHH text."""
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise PhhError(f"not valid TOML: {error}") from None
    return from_mapping(table)


def loads_all(text: str) -> list[tuple[str, HandHistory]]:
    """Parse a multi-hand ``.phhs`` text: TOML tables ``[1]``, ``[2]``, ... in file order."""
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise PhhError(f"not valid TOML: {error}") from None
    hands = []
    for name, table in hand_tables(document):
        try:
            hands.append((name or "1", from_mapping(table)))
        except PhhError as error:
            raise PhhError(f"hand [{name}]: {error}") from None
    return hands


def read_toml(text: str) -> dict[str, Any]:
    """``tomllib.loads(text)``, read several times faster when the text is laid out as
    ``dumps``/``dumps_all`` write it (``felt replay`` spent a third of its time in ``tomllib``).

    The fast reader takes only a strict subset of TOML whose values read the same as JSON (one
    ``key = value`` per line, bare ASCII keys, ``[name]`` table headers, an ``actions`` array
    with one item per line; no comments, backslashes, inline tables, floats or ``null``) and hands
    anything else to ``tomllib``, so every text gives the same result or the same error."""
    try:
        return _read_dumps_layout(text)
    except ValueError:
        return tomllib.loads(text)


def _read_dumps_layout(text: str) -> dict[str, Any]:
    """The document, if the text is in the subset ``read_toml`` reads fast; else ValueError."""
    if any(mark in text for mark in _TOML_ONLY):
        raise ValueError("escapes, comments, inline tables, CR or DEL: tomllib reads these")
    document: dict[str, Any] = {}
    table = document
    lines = text.split("\n")
    position = 0
    while position < len(lines):
        line = lines[position]
        position += 1
        if not line:
            continue
        if line.startswith("[") and line.endswith("]"):
            name = line[1:-1]
            if not _is_bare_key(name) or name in document:
                raise ValueError(line)
            table = document[name] = {}
            continue
        key, sep, value = line.partition(" = ")
        if not sep or not _is_bare_key(key) or key in table:
            raise ValueError(line)
        if value == "[" and key == "actions":
            end = lines.index("]", position)
            # Every action line ends with a comma (``dumps``): one JSON array reads them all.
            value = "[" + "".join(lines[position:end]).rstrip().removesuffix(",") + "]"
            position = end + 1
        table[key] = _JSON_VALUES.decode(value)
    return document


_TOML_ONLY = ("\\", "#", "{", "\r", "\x7f", "null")
"""Backslash escapes, comments, inline tables, carriage returns, DEL and JSON's ``null``: where
TOML and JSON part ways, so the fast reader leaves any text holding one to ``tomllib``."""


def _is_bare_key(name: str) -> bool:
    return name.isascii() and name.replace("_", "a").isalnum()


def _no_float(text: str) -> Any:
    raise ValueError(f"{text}: TOML and JSON floats differ; tomllib reads it")


_JSON_VALUES = json.JSONDecoder(parse_float=_no_float, parse_constant=_no_float)
"""One decoder for every value (``json.loads`` with options builds a decoder per call)."""


def hand_tables(document: Mapping[str, Any]) -> list[tuple[str | None, Mapping[str, Any]]]:
    """The hands in parsed PHH or PHHS TOML: ``[(None, document)]`` for a single hand (no
    tables at the top level), else ``(table name, table)`` for each hand of a ``.phhs`` file."""
    tables = [
        (name, value)
        for name, value in document.items()
        if isinstance(value, dict) and not name.startswith("_")
    ]
    if not tables:
        return [(None, document)]
    loose = [name for name, value in document.items() if not isinstance(value, dict)]
    if loose:
        raise PhhError(
            f"top-level field {_quoted(loose[0])} sits outside the hand tables: a .phhs file"
            " holds only tables [1], [2], ... and a .phh file holds no tables"
        )
    return [(name, table) for name, table in tables]


def from_mapping(table: Mapping[str, Any]) -> HandHistory:
    """Build and validate a ``HandHistory`` from parsed TOML."""
    _check_field_names(table)
    variant = table["variant"]
    if variant != SUPPORTED_VARIANT:
        raise PhhError(f"variant {variant!r} is not supported (only {SUPPORTED_VARIANT!r})")
    stacks = _int_list(table, "starting_stacks", None)
    players = len(stacks)
    if players < 2:
        raise PhhError("starting_stacks must list at least two players")
    if any(stack <= 0 for stack in stacks):
        raise PhhError("starting_stacks must all be positive")
    antes = _int_list(table, "antes", players)
    blinds = _int_list(table, "blinds_or_straddles", players)
    min_bet = table["min_bet"]
    if not _is_int(min_bet) or min_bet < 1:
        raise PhhError(f"min_bet must be a whole number >= 1, not {min_bet!r}")
    actions = table["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise PhhError("actions must be a list of strings")
    trimming = table.get("ante_trimming_status", False)
    if not isinstance(trimming, bool):
        raise PhhError("ante_trimming_status must be true or false")
    known = {*REQUIRED_FIELDS, "ante_trimming_status"}
    extra = {key: value for key, value in table.items() if key not in known}
    _check_option_fields(extra)
    return HandHistory(antes, blinds, min_bet, stacks, tuple(actions), trimming, variant, extra)


RUNOUT_COUNT_FIELD = "_runout_count"
AFTER_HAND_FIELD = "_after_hand"


def _check_option_fields(extra: Mapping[str, Any]) -> None:
    """Refuse a home-game field Felt would otherwise misread."""
    bounds = {
        RUNOUT_COUNT_FIELD: (1, MAX_RUN_COUNT),
        "_board_count": (1, MAX_BOARDS),
        "_seven_deuce_bounty": (0, None),
    }
    for name, (low, high) in bounds.items():
        if name not in extra:
            continue
        value = extra[name]
        if not _is_int(value) or value < low or (high is not None and value > high):
            top = "" if high is None else f" to {high}"
            raise PhhError(f"{name} must be a whole number {low}{top}, not {value!r}")
    for name in ("_bomb_pot", "_rabbit_hunt"):
        if not isinstance(extra.get(name, False), bool):
            raise PhhError(f"{name} must be true or false")
    lines = extra.get(AFTER_HAND_FIELD, [])
    if not isinstance(lines, list) or not all(isinstance(line, str) for line in lines):
        raise PhhError(f"{AFTER_HAND_FIELD} must be a list of strings")
    if extra.get("_board_count", 1) > 1 and extra.get(RUNOUT_COUNT_FIELD, 1) > 1:
        raise PhhError("a double board runs once: _runout_count must be 1")


def _check_field_names(table: Mapping[str, Any]) -> None:
    """Refuse a missing required field, a field of another variant, or an unknown field."""
    known = {*REQUIRED_FIELDS, *OPTIONAL_FIELDS}
    unknown = [name for name in table if name not in known and not name.startswith("_")]
    missing = [name for name in REQUIRED_FIELDS if name not in table]
    if missing:
        message = f"missing required field(s): {', '.join(missing)}"
        for name in unknown:
            close = difflib.get_close_matches(name, missing, n=1)
            if close:
                message += f" ({_quoted(name)} looks like a misspelling of {close[0]!r})"
                break
        raise PhhError(message)
    for name in unknown:
        if name in OTHER_VARIANT_FIELDS:
            raise PhhError(f"field {name!r} belongs to other variants, not {SUPPORTED_VARIANT!r}")
        raise PhhError(
            f"unknown field {_quoted(name)}: not a PHH field (user-defined fields start with '_')"
        )


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int_list(table: Mapping[str, Any], name: str, length: int | None) -> tuple[int, ...]:
    value = table[name]
    if _is_int(value) and length is not None:
        value = [value] * length
    if not isinstance(value, list) or not all(_is_int(v) and v >= 0 for v in value):
        raise PhhError(f"{name} must be a list of whole numbers >= 0")
    if length is not None and len(value) != length:
        raise PhhError(f"{name} lists {len(value)} players, starting_stacks {length}")
    return tuple(value)


# ------------------------------------------------------------------------------ actions


@quick_init
@dataclass(frozen=True, slots=True)
class _DealHole:
    player: int
    cards: tuple[Card | None, ...]


@quick_init
@dataclass(frozen=True, slots=True)
class _DealBoard:
    cards: tuple[Card, ...]


@quick_init
@dataclass(frozen=True, slots=True)
class _PlayerAction:
    player: int
    verb: str
    amount: int | None = None
    cards: tuple[Card | None, ...] = ()


_Line = _DealHole | _DealBoard | _PlayerAction
_CARD_PAIR = re.compile(r"[2-9TJQKA?][cdhs?]", re.IGNORECASE)


# Lookup tables for the usual spellings (``As``, ``p3``), checked before the general parsers:
# ``felt replay`` parses every card and player of every line, and the regular expressions were
# a tenth of its time. Anything not in a table goes the general way, with its error messages.
_CARD_OF_PAIR = {
    rank + suit: card
    for card, text in zip(DECK, CARD_TEXT, strict=True)
    for rank in {text[0].upper(), text[0].lower()}
    for suit in (text[1], text[1].upper())
}
_PLAYER_OF_LABEL = {f"p{i + 1}": i for i in range(MAX_PLAYERS)}


def _parse_cards(text: str) -> tuple[Card | None, ...]:
    if len(text) % 2 or not _CARD_PAIR.fullmatch(text[:2] or "x"):
        raise PhhError(f"{text!r} is not a card list")
    cards: list[Card | None] = []
    for i in range(0, len(text), 2):
        pair = text[i : i + 2]
        card = _CARD_OF_PAIR.get(pair)
        if card is not None:
            cards.append(card)
        elif "?" in pair:
            cards.append(None)
        else:
            try:
                cards.append(parse_card(pair))
            except EngineError:
                raise PhhError(f"{pair!r} is not a card") from None
    return tuple(cards)


def _parse_player(label: str, players: int) -> int:
    index = _PLAYER_OF_LABEL.get(label)
    if index is None:
        if not re.fullmatch(r"p[1-9][0-9]*", label):
            raise PhhError(f"{label!r} is not a player (p1, p2, ...)")
        index = int(label[1:]) - 1
    if index >= players:
        raise PhhError(f"{label} does not exist in a {players}-player hand")
    return index


def parse_action(text: str, players: int) -> _Line | None:
    """Parse one action line; ``None`` for an empty line or a bare comment."""
    words = (text.split("#", 1)[0] if "#" in text else text).split()
    match words:
        case []:
            return None
        case ["d", "dh", label, cards]:
            return _DealHole(_parse_player(label, players), _parse_cards(cards))
        case ["d", "db", cards]:
            board = _parse_cards(cards)
            if any(card is None for card in board):
                raise PhhError("unknown board cards cannot be replayed")
            return _DealBoard(tuple(card for card in board if card is not None))
        case [label, ("f" | "cc") as verb]:
            return _PlayerAction(_parse_player(label, players), verb)
        case [label, "cbr", amount]:
            if not re.fullmatch(r"[0-9]+", amount):
                raise PhhError(f"{amount!r} is not a whole-number amount")
            return _PlayerAction(_parse_player(label, players), "cbr", int(amount))
        case [label, "sm"]:
            return _PlayerAction(_parse_player(label, players), "muck")
        case [label, "sm", "-"]:
            return _PlayerAction(_parse_player(label, players), "show")
        case [label, "sm", cards]:
            return _PlayerAction(_parse_player(label, players), "show", cards=_parse_cards(cards))
        case _:
            raise PhhError("not a no-limit hold'em PHH action")


# ------------------------------------------------------------------------------ replay


def replay(history: HandHistory) -> Hand:
    """Play the history's actions through the engine and return the finished hand.

    Raises ``PhhError`` for malformed actions and ``ReplayError`` naming the first action that
    is illegal, or when the actions stop before the hand is over. The run count, when players
    choose one, is the history's ``_runout_count``; the ``_after_hand`` lines are played last.
    """
    players = len(history.starting_stacks)
    lines: list[tuple[int, str, _Line]] = []
    for index, text in enumerate(history.actions):
        try:
            line = parse_action(text, players)
        except PhhError as error:
            raise ReplayError(index, text, str(error)) from None
        if line is not None:
            lines.append((index, text, line))
    after = _after_hand_lines(history, players)
    hand = _hand_for(history, [line for _, _, line in lines], after)
    # A bomb pot's check-around is in the history for PokerKit; the engine wrote it already.
    skipped = [text for text in hand.phh_actions if not text.startswith("d ")]
    runs = history.runout_count
    board_seen = 0
    for index, text, line in lines:
        try:
            if hand.phase is _RUN_COUNT:
                _choose_runs(hand, runs)
            if skipped and not board_seen and _skips_check(skipped, line, players):
                continue
            while True:
                action = _engine_action(hand, line, board_seen)
                if action is None:
                    break
                player, move, repaired = action
                hand.act(player, move)
                if hand.phase is _RUN_COUNT:
                    _choose_runs(hand, runs)
                if not repaired:
                    break
        except EngineError as error:
            raise ReplayError(index, text, str(error)) from None
        if isinstance(line, _DealBoard):
            board_seen += len(line.cards)
    last = (len(history.actions) - 1, history.actions[-1] if history.actions else "")
    if hand.phase is Phase.RUN_COUNT:  # the history ends as the players all go all in
        try:
            _choose_runs(hand, history.runout_count)
        except EngineError as error:
            raise ReplayError(*last, str(error)) from None
    if hand.phase is Phase.SHOWDOWN:
        # A history may stop at showdown; the hands still due are shown, as the cards are known.
        while (turn := hand.turn) is not None:
            hand.act(turn.player, Show())
    if not hand.is_complete:
        raise ReplayError(*last, "the actions end before the hand is over")
    if hand.run_count != history.runout_count:
        ran = "once" if hand.run_count == 1 else f"{hand.run_count} times"
        raise ReplayError(*last, f"{RUNOUT_COUNT_FIELD} is {history.runout_count} but it ran {ran}")
    _play_after_hand(hand, history.after_hand, after)
    return hand


def _skips_check(skipped: list[str], line: _Line, players: int) -> bool:
    """Whether ``line`` is the next check of a bomb pot's written check-around (then dropped)."""
    if skipped and isinstance(line, _PlayerAction) and line == parse_action(skipped[0], players):
        skipped.pop(0)
        return True
    return False


def _hand_for(history: HandHistory, lines: Sequence[_Line], after: Sequence[_AfterHand]) -> Hand:
    """The hand the history starts, dealing its known cards, to be played in manual showdown."""
    try:
        options = history.hand_options
        deck = _deck_for(len(history.starting_stacks), lines, after, options)
        return Hand(
            history.stakes,
            history.starting_stacks,
            deck=deck,
            showdown=ShowdownMode.MANUAL,
            options=options,
        )
    except EngineError as error:
        raise PhhError(str(error)) from None


def _choose_runs(hand: Hand, count: int) -> None:
    """Every player asked chooses the history's run count (its ``_runout_count``)."""
    while hand.phase is Phase.RUN_COUNT and (turn := hand.turn) is not None:
        if count > turn.max_run_count:
            raise _OutOfTurn(
                hand, f"{RUNOUT_COUNT_FIELD} is {count}; the deck holds {turn.max_run_count} runs"
            )
        hand.act(turn.player, ChooseRunCount(count))


def _engine_action(hand: Hand, line: _Line, board_seen: int) -> tuple[int, Action, bool] | None:
    """The engine action for a line, or a check/fold for a skipped player (``repaired``)."""
    if type(line) is _DealHole:
        return None  # the hole cards are in the deck already
    turn = hand.turn
    # The betting choices, if any.
    legal = None if turn is None or turn.at_showdown or turn.max_run_count else turn
    match line:
        case _DealHole():
            return None
        case _DealBoard(cards=cards):
            dealt = _board_cards_dealt(hand)
            if dealt[board_seen : board_seen + len(cards)] == list(cards):
                return None
            if legal is None:
                raise _OutOfTurn(hand, "these board cards do not come now")
        case _PlayerAction(player=player, verb=verb, amount=amount):
            if verb in ("show", "muck"):
                if hand.phase is Phase.SHOWDOWN:
                    return player, Show() if verb == "show" else Muck(), False
            elif legal is not None and legal.player == player:
                if verb == "f":
                    return player, _FOLD, False
                if verb == "cc":
                    return player, _CHECK if legal.can_check else _CALL, False
                assert amount is not None
                return player, RaiseTo(amount), False
    if legal is None:
        raise _OutOfTurn(hand, "this action is not possible at this point of the hand")
    # PokerKit's repair: the skipped player checks if they can, else folds.
    return legal.player, _CHECK if legal.can_check else _FOLD, True


# The actions without fields are values: one of each serves every line.
_FOLD, _CHECK, _CALL = Fold(), Check(), Call()


def _board_cards_dealt(hand: Hand) -> list[Card]:
    """Every board card dealt so far, in the order dealt (boards and runs interleave)."""
    if hand.options.boards == 1 and hand.run_count == 1:
        return list(hand.board)  # one board: the usual case, without a walk of the events
    return [card for event in hand.events if isinstance(event, BoardDealt) for card in event.cards]


_RUN_COUNT = Phase.RUN_COUNT


class _OutOfTurn(EngineError):
    def __init__(self, hand: Hand, reason: str) -> None:
        super().__init__("the hand is already over" if hand.is_complete else reason)


@dataclass(frozen=True, slots=True)
class _AfterHand:
    player: int
    rabbit: bool
    cards: tuple[Card, ...]


def _after_hand_lines(history: HandHistory, players: int) -> list[_AfterHand]:
    parsed = []
    for text in history.after_hand:
        match text.split():
            case [label, ("sm" | "rh") as verb, cards]:
                known = _parse_cards(cards)
                if any(card is None for card in known):
                    raise PhhError(f"{AFTER_HAND_FIELD}: {_quoted(text)} names unknown cards")
                player = _parse_player(label, players)
                shown = tuple(card for card in known if card is not None)
                parsed.append(_AfterHand(player, verb == "rh", shown))
            case _:
                raise PhhError(f"{AFTER_HAND_FIELD}: {_quoted(text)} is not 'pN sm|rh CARDS'")
    return parsed


def _play_after_hand(hand: Hand, texts: Sequence[str], lines: Sequence[_AfterHand]) -> None:
    hunted = False
    for text, line in zip(texts, lines, strict=True):
        try:
            if line.rabbit:
                if not hunted:
                    hand.act(line.player, RabbitHunt())
                    hunted = True
                continue
            hole = hand.hole_cards[line.player]
            if not set(line.cards) <= set(hole):
                raise PhhError(f"p{line.player + 1} was not dealt {format_cards(line.cards)}")
            hand.act(line.player, Reveal(tuple(hole.index(card) for card in line.cards)))
        except EngineError as error:
            raise ReplayError(len(hand.phh_actions), text, str(error)) from None
    if tuple(hand.after_hand_lines) != tuple(texts):
        raise ReplayError(
            len(hand.phh_actions), texts[-1], "the rabbit hunt does not match these cards"
        )


def _deck_for(
    players: int, lines: Sequence[_Line], after: Sequence[_AfterHand], options: HandOptions
) -> list[Card]:
    """A deck order that deals the history's known cards; unknown ones come from the rest."""
    holes: list[list[Card | None]] = [[] for _ in range(players)]
    groups: list[tuple[Card, ...]] = []
    for line in lines:
        if isinstance(line, _DealHole):
            holes[line.player].extend(line.cards)
        elif isinstance(line, _DealBoard):
            groups.append(line.cards)
    shown = [(line.player, line.cards) for line in lines if isinstance(line, _PlayerAction)]
    shown += [(line.player, line.cards) for line in after if not line.rabbit]
    for player, cards in shown:
        hole = holes[player]
        for card in cards:
            if card is None or card in hole:
                continue
            if None in hole:
                hole[hole.index(None)] = card
            elif len(hole) < 2:
                hole.append(card)
            else:
                raise PhhError(f"p{player + 1} shows {card}, which was not dealt to them")
    for hole in holes:
        if len(hole) > 2:
            raise PhhError("a hold'em player gets exactly two hole cards")
        hole.extend([None] * (2 - len(hole)))
    rabbit = [line.cards for line in after if line.rabbit]
    try:
        if options.boards > 1:
            return _double_board_deck(holes, groups, rabbit)
        board = [card for cards in groups for card in cards]
        if options.max_run_count > 1:
            return _runs_deck(holes, groups)
        board += [card for cards in rabbit[:1] for card in cards]
        if len(board) > 5:
            raise PhhError("the board has more than five cards")
        return stacked_deck(holes, board)
    except InvalidSetupError as error:
        raise PhhError(str(error)) from None


def _runs_deck(
    holes: Sequence[Sequence[Card | None]], groups: Sequence[Sequence[Card]]
) -> list[Card]:
    """The deck of a board run several times: each ``d db`` line is a street after a burn."""
    return _deck_of(holes, [[cards] for cards in groups])


def _double_board_deck(
    holes: Sequence[Sequence[Card | None]],
    groups: Sequence[Sequence[Card]],
    rabbit: Sequence[Sequence[Card]],
) -> list[Card]:
    """The deck of a double board. The board cards come street by street, board 0's before
    board 1's, however the ``d db`` lines group them (PokerKit writes a street's two boards as
    one line, Felt as two); the rabbit's cards continue each board."""
    dealt = iter([card for cards in groups for card in cards])
    boards: list[list[Card]] = [[], []]
    for count in BOARD_CARDS_BY_STREET[1:]:
        for board in boards:
            board.extend(card for _, card in zip(range(count), dealt, strict=False))
    if next(dealt, None) is not None:
        raise PhhError("a board has more than five cards")
    for board, cards in zip(boards, rabbit, strict=False):
        board.extend(cards)
    if any(len(board) > 5 for board in boards):
        raise PhhError("a board has more than five cards")
    streets: list[list[Sequence[Card]]] = []
    start = 0
    for count in BOARD_CARDS_BY_STREET[1:]:
        streets.append([board[start : start + count] for board in boards])
        start += count
    return _deck_of(holes, streets, cards_per_board=BOARD_CARDS_BY_STREET[1:])


def _deck_of(
    holes: Sequence[Sequence[Card | None]],
    streets: Sequence[Sequence[Sequence[Card]]],
    cards_per_board: Sequence[int] = (),
) -> list[Card]:
    """Holes round the table, then per street a burn and each board's cards; cards a street
    misses (up to ``cards_per_board``) and the burns come from the unused cards in order."""
    known = [card for hole in holes for card in hole if card is not None]
    known += [card for street in streets for cards in street for card in cards]
    if len(set(known)) != len(known):
        raise PhhError("the same card is dealt twice")
    used = set(known)
    spare = iter([card for card in DECK if card not in used])
    deck = [holes[p][r] or next(spare) for r in range(2) for p in range(len(holes))]
    for number, street in enumerate(streets):
        deck.append(next(spare))  # burn
        for cards in street:
            deck.extend(cards)
            if number < len(cards_per_board):
                deck.extend(next(spare) for _ in range(cards_per_board[number] - len(cards)))
    deck.extend(spare)
    return deck


# ------------------------------------------------------------------------------ writing


def from_hand(hand: Hand, /, *, reveal: bool = True, **extra: Any) -> HandHistory:
    """The PHH of a hand played by the engine.

    With ``reveal=False`` the hole cards of players who never showed them are written ``??``,
    which is what may be published to other players. ``extra`` adds optional fields (``hand``,
    ``table``, ``players``, ``time``...); ``finishing_stacks`` is added once the hand is over,
    and the home-game fields (see the module docstring) when the hand used them.
    """
    actions = []
    for text in hand.phh_actions:
        words = text.split()
        player = int(words[2][1:]) - 1 if words[:2] == ["d", "dh"] else -1
        if not reveal and player >= 0 and not hand.shown[player]:
            seen = hand.revealed[player]
            hole = hand.hole_cards[player]
            cards = "".join(str(card) if i in seen else "??" for i, card in enumerate(hole))
            actions.append(f"d dh {words[2]} {cards}")
        else:
            actions.append(text)
    fields = dict(extra)
    if hand.is_complete:
        fields["finishing_stacks"] = list(hand.stacks)
    fields.update(_option_fields(hand))
    stakes = hand.stakes
    return HandHistory(
        stakes.antes,
        stakes.blinds_or_straddles,
        stakes.min_bet,
        hand.starting_stacks,
        tuple(actions),
        stakes.ante_trimming,
        SUPPORTED_VARIANT,
        fields,
    )


def _option_fields(hand: Hand) -> dict[str, Any]:
    options = hand.options
    fields: dict[str, Any] = {}
    if any(isinstance(event, RunCountSettled) for event in hand.events):
        fields[RUNOUT_COUNT_FIELD] = hand.run_count
    if options.boards > 1:
        fields["_board_count"] = options.boards
    if options.bomb_pot:
        fields["_bomb_pot"] = True
    if options.seven_deuce_bounty:
        fields["_seven_deuce_bounty"] = options.seven_deuce_bounty
    if options.rabbit_hunt:
        fields["_rabbit_hunt"] = True
    if hand.after_hand_lines:
        fields[AFTER_HAND_FIELD] = list(hand.after_hand_lines)
    return fields


def dumps(history: HandHistory) -> str:
    """PHH text for one hand, fields in PokerKit's order, one action per line."""
    lines = [
        f"variant = {_toml(history.variant)}",
        f"ante_trimming_status = {_toml(history.ante_trimming_status)}",
        f"antes = {_toml(list(history.antes))}",
        f"blinds_or_straddles = {_toml(list(history.blinds_or_straddles))}",
        f"min_bet = {_toml(history.min_bet)}",
        f"starting_stacks = {_toml(list(history.starting_stacks))}",
        "actions = [",
        *(f"  {_toml(action)}," for action in history.actions),
        "]",
    ]
    for key, value in history.extra.items():
        name = key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else _toml(key)
        lines.append(f"{name} = {_toml(value)}")
    return "\n".join(lines) + "\n"


def dumps_all(histories: Sequence[HandHistory]) -> str:
    """A ``.phhs`` text holding the hands as tables ``[1]``, ``[2]``, ..."""
    return "\n".join(f"[{i}]\n{dumps(history)}" for i, history in enumerate(histories, 1))


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        return f'"{escaped}"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    if isinstance(value, float):
        return repr(value)
    if hasattr(value, "isoformat"):
        return str(value.isoformat())
    raise PhhError(f"cannot write {value!r} as a PHH value")
