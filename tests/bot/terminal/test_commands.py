"""What the terminal player types: read case-insensitively, checked against what is legal now,
and refused with one line of help that says what would work."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.holdem.events import Offer
from bot.terminal.commands import (
    Back,
    Bet,
    Hint,
    InputError,
    PlayBlackjack,
    PlayHoldem,
    Quit,
    Rebuy,
    ShowHelp,
    ShowTable,
    blackjack_choices,
    blackjack_help,
    parse_blackjack,
    parse_chips,
    parse_holdem,
)
from engine.blackjack import Action
from engine.holdem import Call, Check, Fold, RaiseTo

FACING_BET = Offer(
    seat_no=0,
    can_fold=True,
    can_check=False,
    call_amount=10,
    min_raise_to=20,
    max_raise_to=990,
    bet_so_far=0,
    is_bet=False,
)
FREE = Offer(0, False, True, None, 10, 990, 0, True)
SHORT = Offer(0, True, False, 40, None, None, 0, False)
"""Facing an all-in bigger than the stack: fold or call, no raise."""
PLAY = frozenset({Action.HIT, Action.STAND, Action.DOUBLE})
INSURANCE = frozenset({Action.INSURE, Action.NO_INSURANCE})
EVEN_MONEY = frozenset({Action.EVEN_MONEY, Action.NO_INSURANCE})


@pytest.mark.parametrize(
    ("typed", "legal", "action"),
    [
        ("f", FACING_BET, Fold()),
        ("FOLD", FACING_BET, Fold()),
        ("c", FACING_BET, Call()),
        ("Call", FACING_BET, Call()),
        ("check", FACING_BET, Call()),
        ("c", FREE, Check()),
        ("  check ", FREE, Check()),
        ("r 100", FACING_BET, RaiseTo(100)),
        ("RAISE 1,000", Offer(0, True, False, 10, 20, 1000, 0, False), RaiseTo(1000)),
        ("r 20", FACING_BET, RaiseTo(20)),
        ("bet 10", FREE, RaiseTo(10)),
        ("a", FACING_BET, RaiseTo(990)),
        ("All-In", FREE, RaiseTo(990)),
        ("a", SHORT, Call()),
    ],
)
def test_parse_holdem_actions(typed: str, legal: Offer, action: object) -> None:
    assert parse_holdem(typed, legal) == PlayHoldem(action)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("typed", "legal", "message"),
    [
        ("zz", FACING_BET, "Unknown command 'zz'. Type f (fold), c (check or call)"),
        ("r 5", FACING_BET, "Raise to between 20 and 990 (r 20); a is all-in."),
        ("r 991", FACING_BET, "Raise to between 20 and 990"),
        ("r 5", FREE, "Bet to between 10 and 990"),
        ("r", FACING_BET, "Raise how much? r 20 (to between 20 and 990)."),
        ("r ten", FACING_BET, "'ten' is not a whole number of chips."),
        ("r -50", FACING_BET, "An amount of chips cannot be negative, not '-50'."),
        ("r ²", FACING_BET, "'²' is not a whole number of chips."),
        ("r " + "9" * 10_000, FACING_BET, "(10,000 characters) is not a whole number of chips"),
        ("rebuy ²", None, "'²' is not a whole number of chips."),
        ("r 50", SHORT, "You cannot raise now: f (fold) or c (call)."),
        ("f", FREE, "There is no bet to fold to: c checks for free."),
        ("c", None, "It is not your turn yet (q leaves)."),
        ("rebuy some", None, "'some' is not a whole number of chips."),
    ],
)
def test_parse_holdem_refusals(typed: str, legal: Offer | None, message: str) -> None:
    with pytest.raises(InputError) as refused:
        parse_holdem(typed, legal)
    assert message in str(refused.value)
    assert "\n" not in str(refused.value)


@pytest.mark.parametrize(
    ("typed", "command"),
    [
        ("q", Quit()),
        ("QUIT", Quit()),
        ("?", ShowHelp()),
        ("", ShowTable()),
        ("   ", ShowTable()),
        ("rebuy", Rebuy(None)),
        ("rebuy 500", Rebuy(500)),
        ("Back", Back()),
    ],
)
def test_parse_holdem_commands_any_time(typed: str, command: object) -> None:
    assert parse_holdem(typed, None) == command
    assert parse_holdem(typed, FACING_BET) == command


@pytest.mark.parametrize(
    ("typed", "legal", "action"),
    [
        ("h", PLAY, Action.HIT),
        ("HIT", PLAY, Action.HIT),
        ("s", PLAY, Action.STAND),
        (" Stand ", PLAY, Action.STAND),
        ("d", PLAY, Action.DOUBLE),
        ("p", frozenset({Action.SPLIT}), Action.SPLIT),
        ("u", frozenset({Action.SURRENDER}), Action.SURRENDER),
        ("i", INSURANCE, Action.INSURE),
        ("y", INSURANCE, Action.INSURE),
        ("n", INSURANCE, Action.NO_INSURANCE),
        ("yes", EVEN_MONEY, Action.EVEN_MONEY),
        ("even money", EVEN_MONEY, Action.EVEN_MONEY),
    ],
)
def test_parse_blackjack_actions(typed: str, legal: frozenset[Action], action: Action) -> None:
    assert parse_blackjack(typed, legal) == PlayBlackjack(action)


@pytest.mark.parametrize(
    ("typed", "legal", "message"),
    [
        ("p", PLAY, "Split is not possible now: h hit · s stand · d double down."),
        ("i", PLAY, "Insurance is not possible now"),
        ("h", INSURANCE, "Hit is not possible now: i insurance · n no insurance."),
        ("h", frozenset(), "There is no decision to make now. Type a bet, or q."),
        ("²", frozenset(), "'²' is not a whole number of chips."),
        ("-10", frozenset(), "An amount of chips cannot be negative, not '-10'."),
        ("9" * 10_000, frozenset(), "(10,000 characters) is not a whole number of chips"),
        ("50", PLAY, "Finish this round first."),
        ("bet x", frozenset(), "'x' is not a whole number of chips."),
        ("zz", PLAY, "Unknown command 'zz'. Type h (hit)"),
    ],
)
def test_parse_blackjack_refusals(typed: str, legal: frozenset[Action], message: str) -> None:
    with pytest.raises(InputError) as refused:
        parse_blackjack(typed, legal)
    assert message in str(refused.value)


@pytest.mark.parametrize(
    ("typed", "command"),
    [("50", Bet(50)), ("bet 1,000", Bet(1000)), ("bet", Bet(None)), ("hint", Hint())],
)
def test_parse_blackjack_bets_and_hints(typed: str, command: object) -> None:
    assert parse_blackjack(typed, frozenset()) == command


def test_parse_chips_accepts_separators_only() -> None:
    assert parse_chips(" 1_000 ") == 1000
    for text in ("", "1.5", "1e3", "-1", "ten"):
        with pytest.raises(InputError):
            parse_chips(text)


def test_blackjack_choices_in_table_order() -> None:
    legal = frozenset({Action.SPLIT, Action.STAND, Action.HIT})
    assert blackjack_choices(legal) == "h hit · s stand · p split"


BET_HELP = "Enter bets 10, or type an amount from 10 to 500 (bet 100 works too); q leaves."


@pytest.mark.parametrize("typed", ["zz", "h", "hit me"])
def test_parse_blackjack_answers_a_wrong_entry_at_the_bet_prompt_with_the_bet_help(
    typed: str,
) -> None:
    with pytest.raises(InputError) as refused:
        parse_blackjack(typed, frozenset(), betting=BET_HELP)
    assert BET_HELP in str(refused.value)
    assert "Enter shows the table" not in str(refused.value)


def test_blackjack_help_lists_only_what_the_rules_allow() -> None:
    from engine.blackjack import preset

    classic, casino = blackjack_help(preset("classic")), blackjack_help(preset("casino"))
    assert "surrender" not in classic and "insurance" not in classic
    assert "h (hit)" in classic and "s (stand)" in classic
    assert "u (surrender)" in casino or preset("casino").surrender.value == "none"
    assert "i/e/n (insurance" in casino


@pytest.mark.parametrize(
    "parse",
    [
        lambda text: parse_holdem(text, FACING_BET),
        lambda text: parse_holdem("r " + text, FACING_BET),
        lambda text: parse_blackjack(text, PLAY),
        lambda text: parse_blackjack(text, frozenset(), betting=BET_HELP),
        lambda text: parse_blackjack("bet " + text, frozenset()),
    ],
)
@pytest.mark.parametrize("line", ["x" * 3000, "9" * 3000, "²" * 3000, "-" + "1" * 3000])
def test_a_3000_character_line_is_refused_without_being_echoed_whole(
    parse: Callable[[str], object], line: str
) -> None:
    with pytest.raises(InputError) as refused:
        parse(line)
    message = str(refused.value)
    assert line[:200] not in message
    assert len(message) < 400  # the quote is cut; the help around it is fixed text
    assert "\n" not in message


@given(st.text(max_size=200))
def test_parsers_raise_only_input_error_on_any_line(text: str) -> None:
    for parse in (
        lambda: parse_holdem(text, FACING_BET),
        lambda: parse_holdem(text, None),
        lambda: parse_blackjack(text, PLAY),
        lambda: parse_blackjack(text, frozenset(), betting=BET_HELP),
    ):
        with contextlib.suppress(InputError):
            parse()
