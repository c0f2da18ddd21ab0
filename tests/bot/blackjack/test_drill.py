"""The basic-strategy drill: questions made from seeds (the same seed, the same question, with the
table's own legal actions), answers graded and explained, the score and streak, and refusals of
answers a client could forge."""

from __future__ import annotations

import pytest

from bot.blackjack.drill import Score, answer, next_seed, question
from bot.blackjack.grading import Grader
from bot.discord.blackjack.drill import answered, start
from bot.discord.blackjack.ids import DrillRef
from bot.discord.errors import Refusal
from engine.blackjack import CASINO, Action, Phase, preset


def test_a_seed_always_makes_the_same_question_with_the_tables_legal_actions() -> None:
    seeds = [1]
    for _ in range(199):
        seeds.append(next_seed(seeds[-1]))
    questions = [question(CASINO, seed) for seed in seeds]

    assert [q.decision for q in questions] == [question(CASINO, s).decision for s in seeds]
    assert all(q.legal for q in questions)
    assert any(q.decision.phase is Phase.INSURANCE for q in questions)
    assert any(Action.SPLIT in q.legal for q in questions)
    assert len({seed for seed in seeds}) == len(seeds)


def test_an_answer_is_graded_against_the_chart_and_explained() -> None:
    asked = question(CASINO, 427944442)  # 5-6 against an 8
    graded = answer(CASINO, asked, Action.HIT)

    assert Grader(CASINO).best(asked.decision) is Action.DOUBLE
    assert graded.grade.text == (
        "basic strategy: double down (hard 11 vs 8), cost ~0.12 bets in expectation"
    )
    assert graded.advice.code == "Dh"
    assert graded.values[Action.DOUBLE] > graded.values[Action.HIT] > graded.values[Action.STAND]


def test_the_score_counts_right_answers_and_a_miss_ends_the_streak() -> None:
    score = Score().after(True).after(True).after(False).after(True)
    assert (score.asked, score.right, score.streak) == (4, 3, 1)
    assert score.text == "Score 3/4 (75%) · streak 1"


def test_a_miss_shows_the_chart_cell_and_every_actions_value() -> None:
    content, _view = answered(DrillRef("casino", 427944442, 3, 3, 3), Action.STAND)

    assert content.startswith("❌ Stand on 5♦ 6♦ (11) against 8♦: basic strategy: double down")
    assert "Chart: Double down (hard 11 against an Eight; chart: Dh)." in content
    assert "Expected value per bet: hit +" in content and "double down +" in content
    assert "Score 3/4 (75%) · streak 0" in content


def test_the_first_message_names_the_rules_and_offers_only_legal_answers() -> None:
    content, view = start("classic", 1)
    labels = [getattr(getattr(item, "item", None), "label", None) for item in view.children]

    assert content.startswith("**Basic-strategy drill** (classic: ")
    assert set(labels) == {action.label for action in question_legal("classic", 1)}


def question_legal(preset_name: str, seed: int) -> frozenset[Action]:
    return question(preset(preset_name), seed).legal


@pytest.mark.parametrize(
    ("ref", "action", "message"),
    [
        (DrillRef("casino", 427944442, 0, 0, 0), Action.SPLIT, "Split is not a choice"),
        (DrillRef("vegas", 1, 0, 0, 0), Action.HIT, "no longer offered"),
    ],
)
def test_a_forged_answer_is_refused(ref: DrillRef, action: Action, message: str) -> None:
    with pytest.raises(Refusal, match=message):
        answered(ref, action)
