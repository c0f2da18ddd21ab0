"""Every custom_id the Hold'em front puts on Discord components, in one place.

Action buttons carry the table id, the hand id and the action number they were offered for, so
a click after a restart still finds its table, and a stale or repeated click is recognised:

- ``holdem:act:{table}:{hand}:{count}:{move}`` with move ``fold``, ``check``, ``call`` or
  ``raise`` (opens the amount modal);
- ``holdem:act:{table}:{hand}:{count}:to:{amount}`` for the quick raise buttons;
- ``holdem:cards:{table}`` for "My cards" (valid for the whole life of the table);
- ``holdem:pre:{table}:{choice}`` for the private panel under "My cards": a pre-action to tick
  or untick (``check_fold``, ``check``, ``call_any``), or ``away`` / ``back``;
- ``holdem:raise:{table}:{hand}:{count}`` for the raise modal, and ``amount`` for its input;
- ``holdem:replay:{table}:{hand}:{user}:{frame}:{step}`` for the replayer's buttons (``/holdem
  hand``): the frame to show, and which button (``prev`` or ``next``) so that ids stay unique;
- ``holdem:runs:{table}:{hand}:{count}`` for a run-count answer (run it ``count`` times);
- ``holdem:after:{table}:{hand}:{what}`` for the after-hand buttons, ``what`` one of
  ``hunt`` (rabbit hunt), ``show0``/``show1`` (one hole card) or ``both``.

All are far below Discord's 100-character limit (ids are at most 20 digits).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

ACTION_TEMPLATE = (
    r"holdem:act:(?P<table>[0-9]{1,20}):(?P<hand>[0-9]{1,20}):(?P<count>[0-9]{1,20}):"
    r"(?P<move>fold|check|call|raise|to)(?::(?P<amount>[0-9]{1,20}))?"
)
CARDS_TEMPLATE = r"holdem:cards:(?P<table>[0-9]{1,20})"
PRE_ACTION_TEMPLATE = (
    r"holdem:pre:(?P<table>[0-9]{1,20}):(?P<choice>check_fold|check|call_any|away|back)"
)
RAISE_MODAL_PREFIX = "holdem:raise:"
RAISE_MODAL_TEMPLATE = (
    r"holdem:raise:(?P<table>[0-9]{1,20}):(?P<hand>[0-9]{1,20}):(?P<count>[0-9]{1,20})"
)
AMOUNT_INPUT = "amount"
REPLAY_TEMPLATE = (
    r"holdem:replay:(?P<table>[0-9]{1,20}):(?P<hand>[0-9]{1,20}):(?P<user>[0-9]{1,20}):"
    r"(?P<frame>[0-9]{1,3}):(?P<step>prev|next)"
)

RUNS_TEMPLATE = r"holdem:runs:(?P<table>[0-9]{1,20}):(?P<hand>[0-9]{1,20}):(?P<count>[1-9])"
AFTER_TEMPLATE = (
    r"holdem:after:(?P<table>[0-9]{1,20}):(?P<hand>[0-9]{1,20}):(?P<what>hunt|show0|show1|both)"
)


class AfterHand(enum.StrEnum):
    """What an after-hand button does."""

    RABBIT_HUNT = "hunt"
    SHOW_FIRST = "show0"
    SHOW_SECOND = "show1"
    SHOW_BOTH = "both"

    @property
    def cards(self) -> tuple[int, ...]:
        """The hole-card indices a show button reveals."""
        return {"show0": (0,), "show1": (1,), "both": (0, 1)}.get(self.value, ())


def runs_id(table_id: int, hand_id: int, count: int) -> str:
    return f"holdem:runs:{table_id}:{hand_id}:{count}"


def after_id(table_id: int, hand_id: int, what: AfterHand) -> str:
    return f"holdem:after:{table_id}:{hand_id}:{what.value}"


class Move(enum.StrEnum):
    """What an action button does."""

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    RAISE = "raise"
    """Opens the modal that asks for the amount."""
    RAISE_TO = "to"
    """A quick raise to the amount in the custom_id."""


@dataclass(frozen=True, slots=True)
class ActionRef:
    """Which offer a button or modal answers: table, hand and action number."""

    table_id: int
    hand_id: int
    action_count: int


def action_id(ref: ActionRef, move: Move, amount: int | None = None) -> str:
    base = f"holdem:act:{ref.table_id}:{ref.hand_id}:{ref.action_count}:{move.value}"
    if move is Move.RAISE_TO:
        if amount is None:
            raise ValueError("a quick raise needs its amount")
        return f"{base}:{amount}"
    return base


def cards_id(table_id: int) -> str:
    return f"holdem:cards:{table_id}"


def pre_action_id(table_id: int, choice: str) -> str:
    return f"holdem:pre:{table_id}:{choice}"


def raise_modal_id(ref: ActionRef) -> str:
    return f"{RAISE_MODAL_PREFIX}{ref.table_id}:{ref.hand_id}:{ref.action_count}"


@dataclass(frozen=True, slots=True)
class ReplayRef:
    """A replayer button: whose replay of which hand, and the frame it shows."""

    table_id: int
    hand_id: int
    user_id: int
    frame: int


def replay_id(ref: ReplayRef, step: str) -> str:
    return f"holdem:replay:{ref.table_id}:{ref.hand_id}:{ref.user_id}:{ref.frame}:{step}"
