"""Every custom_id the Blackjack front puts on Discord components, in one place.

Buttons carry the storage round id (unique across the bot) and, for decisions, the step they
were offered at, so a click after a restart is understood and a stale or repeated click is
recognised:

- ``blackjack:act:{round}:{step}:{action}`` with an ``engine.blackjack.Action`` value (``hit``,
  ``stand``, ``double``, ``split``, ``surrender``, ``insure``, ``even_money``, ``no_insurance``);
- ``blackjack:deal:{round}`` for "Deal now" during the betting window;
- ``blackjack:hint:{round}`` for "Hint" (basic strategy, ephemerally);
- ``blackjack:drill:{preset}:{seed}:{asked}:{right}:{streak}:{action}`` for an answer in the
  basic-strategy drill, which carries the whole drill (the question is made from its seed);
- ``blackjack:count:{system}:{cards}:{seed}:{asked}:{right}:{streak}:{answer}`` for an answer
  in the counting drill, likewise;
- ``blackjack:live:{question}:{answer}`` for an answer to a table's live count question: the
  question's number only, never its right answer (kept in memory, so a client that reads
  custom_ids learns nothing), and ``blackjack:live-again:{system}:{asked}:{right}:{streak}`` to
  be asked again, carrying the score.

All are far below Discord's 100-character limit (ids are at most 20 digits).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.blackjack import Action

_ACTIONS = "|".join(action.value for action in Action)
ACTION_TEMPLATE = (
    r"blackjack:act:(?P<round>[0-9]{1,20}):(?P<step>[0-9]{1,20}):" rf"(?P<action>{_ACTIONS})"
)
DEAL_TEMPLATE = r"blackjack:deal:(?P<round>[0-9]{1,20})"
HINT_TEMPLATE = r"blackjack:hint:(?P<round>[0-9]{1,20})"
DRILL_TEMPLATE = (
    r"blackjack:drill:(?P<preset>[a-z]{1,12}):(?P<seed>[0-9]{1,9}):(?P<asked>[0-9]{1,6}):"
    rf"(?P<right>[0-9]{{1,6}}):(?P<streak>[0-9]{{1,6}}):(?P<action>{_ACTIONS})"
)


@dataclass(frozen=True, slots=True)
class ActionRef:
    """Which offer a decision button answers: the round and the step it was offered at."""

    round_id: int
    step: int


def action_id(ref: ActionRef, action: Action) -> str:
    return f"blackjack:act:{ref.round_id}:{ref.step}:{action.value}"


def deal_id(round_id: int) -> str:
    return f"blackjack:deal:{round_id}"


def hint_id(round_id: int) -> str:
    return f"blackjack:hint:{round_id}"


COUNT_TEMPLATE = (
    r"blackjack:count:(?P<system>[a-z0-9]{1,8}):(?P<cards>[0-9]{1,2}):(?P<seed>[0-9]{1,9}):"
    r"(?P<asked>[0-9]{1,6}):(?P<right>[0-9]{1,6}):(?P<streak>[0-9]{1,6}):(?P<answer>-?[0-9]{1,3})"
)


@dataclass(frozen=True, slots=True)
class CountRef:
    """Where a counting drill stands: its system, sequence length, question seed and score."""

    system: str
    cards: int
    seed: int
    asked: int
    right: int
    streak: int


def count_id(ref: CountRef, answer: int) -> str:
    return (
        f"blackjack:count:{ref.system}:{ref.cards}:{ref.seed}:{ref.asked}:{ref.right}:"
        f"{ref.streak}:{answer}"
    )


@dataclass(frozen=True, slots=True)
class DrillRef:
    """Where a drill stands when a member answers: its rules, its question, its score."""

    preset: str
    seed: int
    asked: int
    right: int
    streak: int


def drill_id(ref: DrillRef, action: Action) -> str:
    return (
        f"blackjack:drill:{ref.preset}:{ref.seed}:{ref.asked}:{ref.right}:{ref.streak}:"
        f"{action.value}"
    )


LIVE_TEMPLATE = r"blackjack:live:(?P<question>[0-9]{1,12}):(?P<answer>-?[0-9]{1,4})"
LIVE_AGAIN_TEMPLATE = (
    r"blackjack:live-again:(?P<system>[a-z0-9]{1,8}):(?P<asked>[0-9]{1,6}):(?P<right>[0-9]{1,6}):"
    r"(?P<streak>[0-9]{1,6})"
)


def live_id(question: int, answer: int) -> str:
    return f"blackjack:live:{question}:{answer}"


def live_again_id(system: str, asked: int, right: int, streak: int) -> str:
    return f"blackjack:live-again:{system}:{asked}:{right}:{streak}"
