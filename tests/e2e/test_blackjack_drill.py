"""``/blackjack drill`` and ``/blackjack count`` through Discord: ephemeral streams of questions
answered with buttons, scored with a streak, explained after a miss (the chart cell and each
action's value; each card's tag); no chips move; counting is opt-in per server."""

from __future__ import annotations

import re

from bot.blackjack.counting import CountSystem, count_question
from bot.blackjack.drill import question
from bot.blackjack.grading import Grader
from bot.discord.blackjack import ids
from engine.blackjack import CASINO, Action
from storage import Storage
from tests.e2e.fakediscord import FakeMessage
from tests.e2e.support.blackjack import Factory, answered
from tests.e2e.support.bot_world import World

DRILL = re.compile(ids.DRILL_TEMPLATE)
COUNT = re.compile(ids.COUNT_TEMPLATE)


def asked(message: FakeMessage) -> tuple[int, dict[Action, str]]:
    """The seed of the question on ``message`` and its answer buttons' labels by action."""
    refs = [DRILL.fullmatch(button.custom_id or "") for button in message.buttons]
    seeds = {int(ref["seed"]) for ref in refs if ref is not None}
    assert len(seeds) == 1, message.buttons
    pairs = zip(refs, message.buttons, strict=True)
    labels = {Action(ref["action"]): str(button.label) for ref, button in pairs if ref}
    return seeds.pop(), labels


async def test_the_drill_scores_answers_with_a_streak_and_explains_a_miss(
    world: World, start_blackjack: Factory
) -> None:
    h = await start_blackjack()
    alice = world.alice
    started = await h.fake.slash(alice, h.channel, "blackjack drill", rules="casino")
    await answered(h.fake, started)
    drill = started.reply
    assert drill.ephemeral and "Basic-strategy drill" in drill.content

    seed, labels = asked(drill)
    right = Grader(CASINO).best(question(CASINO, seed).decision)
    first = await h.fake.click(alice, drill, label=labels[right])
    await first.wait_answered()
    assert drill.content.startswith(f"✅ {right.label} on ")
    assert "Score 1/1 (100%) · streak 1" in drill.content

    seed, labels = asked(drill)
    best = Grader(CASINO).best(question(CASINO, seed).decision)
    wrong = next(action for action in labels if action is not best)
    second = await h.fake.click(alice, drill, label=labels[wrong])
    await second.wait_answered()
    assert drill.content.startswith(f"❌ {wrong.label} on ")
    assert f"basic strategy: {best.label.lower()} (" in drill.content
    assert "Chart: " in drill.content
    assert "Score 1/2 (50%) · streak 0" in drill.content
    storage: Storage = h.bot.storage
    assert await storage.ledger(world.guild.id) == []  # no chips involved


async def test_counting_practice_is_opt_in_per_server_and_scored(
    world: World, start_blackjack: Factory
) -> None:
    h = await start_blackjack()
    alice = world.alice
    off = await h.fake.slash(alice, h.channel, "blackjack count")
    await answered(h.fake, off)
    assert off.reply.content == "Counting practice is off on this server."
    assert off.reply.ephemeral
    on = await h.fake.slash(world.admin, h.channel, "felt-admin config blackjack", counting=True)
    await answered(h.fake, on)

    started = await h.fake.slash(alice, h.channel, "blackjack count", system="ko", cards=6)
    await answered(h.fake, started)
    drill = started.reply
    assert drill.ephemeral and drill.content.startswith("**Counting drill** (KO, 6 cards")
    ref = COUNT.fullmatch(drill.buttons[0].custom_id or "")
    assert ref is not None
    right = count_question(CountSystem.KO, 6, int(ref["seed"])).count
    clicked = await h.fake.click(alice, drill, label=f"{right:+d}")
    await clicked.wait_answered()
    assert drill.content.startswith(f"✅ {right:+d}: correct.\nScore 1/1 (100%) · streak 1")
