"""The counting drill: the published tags (a full deck sums to 0 for the balanced systems and +4
for KO), sequences made from seeds, answers scored and explained, forged answers refused."""

from __future__ import annotations

import pytest

from bot.blackjack.counting import CountSystem, count_question, running_count
from bot.discord.blackjack.count import answered, start
from bot.discord.blackjack.ids import CountRef
from bot.discord.errors import Refusal
from engine.cards import DECK, parse_cards


@pytest.mark.parametrize(
    ("system", "deck_sum"), [(CountSystem.HILO, 0), (CountSystem.KO, 4), (CountSystem.OMEGA_II, 0)]
)
def test_a_full_deck_counts_to_the_systems_published_total(
    system: CountSystem, deck_sum: int
) -> None:
    assert running_count(DECK, system) == deck_sum


def test_tags_follow_the_published_tables() -> None:
    cards = parse_cards("2c 5d 7h 9s Tc Ah")
    assert running_count(cards, CountSystem.HILO) == 1 + 1 + 0 + 0 - 1 - 1
    assert running_count(cards, CountSystem.KO) == 1 + 1 + 1 + 0 - 1 - 1
    assert running_count(cards, CountSystem.OMEGA_II) == 1 + 2 + 1 - 1 - 2 + 0


def test_a_question_offers_the_count_among_four_answers_and_repeats_by_seed() -> None:
    asked = count_question(CountSystem.HILO, 12, 77)
    assert asked == count_question(CountSystem.HILO, 12, 77)
    assert len(asked.cards) == 12 and len(asked.choices) == 4
    assert asked.count in asked.choices


def test_a_right_answer_scores_and_a_wrong_one_shows_every_cards_tag() -> None:
    asked = count_question(CountSystem.OMEGA_II, 6, 5)
    wrong = next(choice for choice in asked.choices if choice != asked.count)
    ref = CountRef("omega2", 6, 5, 1, 1, 1)

    right_text, _ = answered(ref, asked.count)
    wrong_text, _ = answered(ref, wrong)

    assert right_text.startswith(f"✅ {asked.count:+d}: correct.\nScore 2/2 (100%) · streak 2")
    assert wrong_text.startswith(f"❌ {wrong:+d}: the count was **{asked.count:+d}** (")
    assert asked.explanation() in wrong_text
    assert "Score 1/2 (50%) · streak 0" in wrong_text


def test_the_first_message_shows_the_cards_and_the_answers() -> None:
    content, view = start(CountSystem.KO, 8, 3)
    assert content.startswith("**Counting drill** (KO, 8 cards")
    assert len(view.children) == 4


@pytest.mark.parametrize(
    ("ref", "answer", "message"),
    [
        (CountRef("hilo", 6, 5, 0, 0, 0), 99, "not one of the answers"),
        (CountRef("zen", 6, 5, 0, 0, 0), 0, "no longer offered"),
        (CountRef("hilo", 99, 5, 0, 0, 0), 0, "no longer offered"),
    ],
)
def test_a_forged_answer_is_refused(ref: CountRef, answer: int, message: str) -> None:
    with pytest.raises(Refusal, match=message):
        answered(ref, answer)
