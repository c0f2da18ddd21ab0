"""The economy commands end to end: /balance, /daily, /give, /history (and every command's
apology when the database is closed).

Each test drives the unmodified bot through the fake Discord and checks what every member can
see, and what the database holds afterwards (a refusal changes nothing).
"""

from __future__ import annotations

import asyncio
import logging
import re
from pathlib import Path
from typing import Any

import pytest

from bot.discord.client import FeltBot
from storage import (
    DailyClaim,
    DatabaseFailure,
    RoundOutcome,
    SeatResult,
    Storage,
    Transfer,
)
from tests.e2e.fakediscord import FakeDiscord, FakeInteraction, FakeMember
from tests.e2e.support.bot_world import StartBot, World, open_storage

ERROR_ID = re.compile(r"error id: `([0-9a-f]{8})`")
DAY = 24 * 60 * 60


async def use(
    fake: FakeDiscord, who: FakeMember | Any, channel: Any, command: str, **options: Any
) -> FakeInteraction:
    interaction = await fake.slash(who, channel, command, **options)
    await answered(fake, interaction)
    assert interaction.errors == []
    return interaction


async def answered(fake: FakeDiscord, interaction: FakeInteraction) -> None:
    """Wait for the answer; a refusal after a public deferral deletes the "thinking..." message
    and comes as an ephemeral followup."""
    await fake.wait_until(
        lambda: interaction.answered or bool(interaction.followups) or bool(interaction.errors),
        what=f"interaction {interaction.id} to be answered",
        interaction_id=interaction.id,
    )


def assert_private(fake: FakeDiscord, interaction: FakeInteraction, world: World) -> None:
    """Only the member who asked saw anything."""
    for message in interaction.messages:
        assert message.ephemeral_for is interaction.user
    assert fake.channel_messages(world.channel) == []


async def balances(storage: Storage, world: World) -> dict[str, int | None]:
    found = {}
    for name, member in (("alice", world.alice), ("bob", world.bob)):
        account = await storage.get_account(world.guild.id, member.id)
        found[name] = None if account is None else account.balance
    return found


# ----- /balance ---------------------------------------------------------------------------------


async def test_balance_opens_the_account_with_the_starting_chips_privately(
    fake_discord: FakeDiscord, felt_bot: FeltBot, world: World
) -> None:
    first = await use(fake_discord, world.alice, world.channel, "balance")
    again = await use(fake_discord, world.alice, world.channel, "balance")

    assert first.reply.content == (
        "Welcome to Felt! Your account is open with 1,000 chips to start.\nYou have 1,000 chips."
    )
    assert again.reply.content == "You have 1,000 chips."
    assert_private(fake_discord, first, world)
    assert fake_discord.visible_to(world.bob) == []
    assert await felt_bot.storage.balance(world.guild.id, world.alice.id) == 1_000


async def test_balance_of_another_member_shows_theirs_and_opens_nothing(
    fake_discord: FakeDiscord, felt_bot: FeltBot, world: World
) -> None:
    unknown = await use(fake_discord, world.alice, world.channel, "balance", member=world.bob)
    await felt_bot.storage.ensure_account(world.guild.id, world.admin.id)
    known = await use(fake_discord, world.alice, world.channel, "balance", member=world.admin)

    assert unknown.reply.content == f"<@{world.bob.id}> has no chips here yet."
    assert unknown.reply.ephemeral
    assert known.reply.content == f"<@{world.admin.id}> has 1,000 chips."
    assert await balances(felt_bot.storage, world) == {"alice": None, "bob": None}
    assert fake_discord.visible_to(world.bob) == []


async def test_balance_counts_chips_at_tables_and_in_play(
    fake_discord: FakeDiscord, felt_bot: FeltBot, world: World
) -> None:
    storage, guild = felt_bot.storage, world.guild.id
    await storage.ensure_account(guild, world.alice.id)
    table = await storage.open_table(guild, world.channel.id, settings={}, key="t")
    await storage.buy_in(table.table_id, 1, world.alice.id, 300, key="b")
    await storage.open_round(guild, world.channel.id, {world.alice.id: 50}, key="r")

    reply = (await use(fake_discord, world.alice, world.channel, "balance")).reply

    assert reply.content == "You have 650 chips (plus 300 at tables, 50 in play)."


async def test_bots_and_outsiders_have_no_balance(
    fake_discord: FakeDiscord, felt_bot: FeltBot, world: World
) -> None:
    robot = fake_discord.create_member(
        world.guild, "Robo", user=fake_discord.create_user("Robo", bot=True)
    )
    outsider = fake_discord.create_user("Mallory")

    bot_reply = await use(fake_discord, world.alice, world.channel, "balance", member=robot)
    outsider_reply = await use(fake_discord, world.alice, world.channel, "balance", member=outsider)

    assert bot_reply.reply.content == "Bots do not hold chips."
    assert outsider_reply.reply.content == "Mallory is not a member of this server."
    assert bot_reply.reply.ephemeral and outsider_reply.reply.ephemeral
    assert await felt_bot.storage.get_account(world.guild.id, world.alice.id) is None


async def test_economy_commands_in_a_dm_are_refused(
    fake_discord: FakeDiscord, felt_bot: FeltBot, world: World
) -> None:
    # Commands are guild-only; a client that sends one from a DM anyway gets a refusal.
    interaction = await use(fake_discord, world.alice, None, "daily")

    assert interaction.reply.content.startswith("Felt's chips and games belong to a server")
    assert interaction.reply.ephemeral
    assert await felt_bot.storage.get_account(world.guild.id, world.alice.id) is None


# ----- /daily -----------------------------------------------------------------------------------


async def test_daily_pays_once_a_day_and_grows_with_the_streak(
    fake_discord: FakeDiscord, felt_bot: FeltBot, world: World
) -> None:
    first = await use(fake_discord, world.alice, world.channel, "daily")
    twice = await use(fake_discord, world.alice, world.channel, "daily")
    fake_discord.clock.advance(DAY)
    next_day = await use(fake_discord, world.alice, world.channel, "daily")

    assert first.reply.content.startswith(
        "Welcome to Felt! Your account is open.\n"
        "You claimed **200 chips** (day 1 of a new streak). You now have 1,200 chips.\n"
        "Come back <t:"
    )
    assert twice.reply.content.startswith("You already claimed today's chips.")
    assert re.search(r"<t:\d+:R>", twice.reply.content)
    assert next_day.reply.content.startswith(
        "You claimed **250 chips** (day 2 of your streak 🔥). You now have 1,450 chips."
    )
    for interaction in (first, twice, next_day):
        assert interaction.reply.ephemeral_for is world.alice.user
    assert fake_discord.channel_messages(world.channel) == []
    assert await felt_bot.storage.balance(world.guild.id, world.alice.id) == 1_450


class SlowStorage(Storage):
    """A storage whose daily claim waits until the test lets it go."""

    entered: asyncio.Event
    gate: asyncio.Event

    async def claim_daily(self, guild_id: int, user_id: int, *, key: str) -> DailyClaim:
        self.entered.set()
        await self.gate.wait()
        return await super().claim_daily(guild_id, user_id, key=key)


async def test_slow_database_defers_instead_of_missing_the_deadline(
    fake_discord: FakeDiscord, start_bot: StartBot, world: World, tmp_path: Path
) -> None:
    from tests.e2e.support.bot_world import bot_config

    config = bot_config(fake_discord, tmp_path / "felt.db")
    slow = await open_storage(fake_discord, config, SlowStorage)
    slow.entered, slow.gate = asyncio.Event(), asyncio.Event()
    await start_bot(config=config, storage=slow)

    interaction = await fake_discord.slash(world.alice, world.channel, "daily")
    await slow.entered.wait()
    assert interaction.acknowledged
    assert interaction.original is not None
    assert interaction.original.loading
    assert interaction.original.ephemeral
    fake_discord.clock.advance(60)  # a minute of database trouble, far past 3 s
    slow.gate.set()
    await interaction.wait_answered()

    assert interaction.errors == []
    assert fake_discord.unacknowledged() == []
    assert interaction.reply.content.startswith("Welcome to Felt!")
    assert interaction.reply.ephemeral


# ----- /give ------------------------------------------------------------------------------------


async def test_give_moves_chips_and_tells_the_channel(
    fake_discord: FakeDiscord, felt_bot: FeltBot, world: World
) -> None:
    await felt_bot.storage.ensure_account(world.guild.id, world.bob.id)

    interaction = await fake_discord.slash(
        world.alice, world.channel, "give", member=world.bob, amount=150
    )
    await interaction.wait_for_followups(1)

    private = interaction.reply
    assert private.content == f"You gave 150 chips to <@{world.bob.id}>. You have 850 chips left."
    assert private.ephemeral_for is world.alice.user
    [public] = fake_discord.channel_messages(world.channel)
    assert public.content == f"<@{world.alice.id}> gave 150 chips to <@{world.bob.id}>."
    assert public.mentions == [world.alice.id, world.bob.id]
    assert public in fake_discord.visible_to(world.bob)
    assert private not in fake_discord.visible_to(world.bob)
    assert await balances(felt_bot.storage, world) == {"alice": 850, "bob": 1_150}


@pytest.mark.parametrize(
    ("options", "refusal"),
    [
        ({"amount": 0}, "The amount must be at least 1 chip."),
        ({"amount": -20}, "The amount must be at least 1 chip."),
        ({"amount": 2**60}, "The amount cannot be more than 9,007,199,254,740,991 chips."),
        ({"amount": "lots"}, "The amount must be a whole number of chips."),
    ],
)
async def test_give_refuses_amounts_a_real_client_would_not_send(
    fake_discord: FakeDiscord,
    felt_bot: FeltBot,
    world: World,
    options: dict[str, Any],
    refusal: str,
) -> None:
    storage = felt_bot.storage
    await storage.ensure_account(world.guild.id, world.alice.id)
    await storage.ensure_account(world.guild.id, world.bob.id)

    interaction = await fake_discord.slash(
        world.alice, world.channel, "give", member=world.bob, unchecked=True, **options
    )
    await interaction.wait_answered()

    assert interaction.reply.content == refusal
    assert_private(fake_discord, interaction, world)
    assert await balances(storage, world) == {"alice": 1_000, "bob": 1_000}


async def test_give_refusals_change_nothing(
    fake_discord: FakeDiscord, felt_bot: FeltBot, world: World
) -> None:
    storage = felt_bot.storage
    robot = fake_discord.create_member(
        world.guild, "Robo", user=fake_discord.create_user("Robo", bot=True)
    )
    await storage.ensure_account(world.guild.id, world.alice.id)

    no_account = await use(
        fake_discord, world.alice, world.channel, "give", member=world.bob, amount=10
    )
    await storage.ensure_account(world.guild.id, world.bob.id)
    to_self = await use(
        fake_discord, world.alice, world.channel, "give", member=world.alice, amount=10
    )
    to_bot = await use(fake_discord, world.alice, world.channel, "give", member=robot, amount=10)
    too_much = await use(
        fake_discord, world.alice, world.channel, "give", member=world.bob, amount=5_000
    )
    await storage.set_setting(world.guild.id, "transfers_enabled", False)
    disabled = await use(
        fake_discord, world.alice, world.channel, "give", member=world.bob, amount=10
    )

    assert no_account.reply.content == f"<@{world.bob.id}> does not have any chips here yet."
    assert to_self.reply.content == "You cannot give chips to yourself."
    assert to_bot.reply.content == "Bots do not hold chips."
    assert too_much.reply.content == (
        f"Not enough chips: <@{world.alice.id}> has 1,000, and this needs 5,000."
    )
    assert disabled.reply.content == "Chip transfers are turned off in this server."
    for interaction in (no_account, to_self, to_bot, too_much, disabled):
        assert interaction.reply.ephemeral_for is world.alice.user
    assert fake_discord.channel_messages(world.channel) == []
    assert fake_discord.visible_to(world.bob) == []
    assert await balances(storage, world) == {"alice": 1_000, "bob": 1_000}


# ----- the database unavailable -----------------------------------------------------------------


class FailingStorage(Storage):
    """A storage whose disk fails on transfers."""

    async def transfer(
        self, guild_id: int, sender_id: int, recipient_id: int, amount: int, *, key: str
    ) -> Transfer:
        raise DatabaseFailure("disk I/O error")


async def test_a_failing_database_gets_an_apology_with_an_error_id_and_changes_nothing(
    fake_discord: FakeDiscord,
    start_bot: StartBot,
    world: World,
    tmp_path: Any,
    caplog: pytest.LogCaptureFixture,
) -> None:
    from tests.e2e.support.bot_world import bot_config

    caplog.set_level(logging.ERROR, logger="felt")
    config = bot_config(fake_discord, tmp_path / "felt.db")
    failing = await open_storage(fake_discord, config, FailingStorage)
    await failing.ensure_account(world.guild.id, world.alice.id)
    await failing.ensure_account(world.guild.id, world.bob.id)
    await start_bot(config=config, storage=failing)

    interaction = await use(
        fake_discord, world.alice, world.channel, "give", member=world.bob, amount=10
    )

    match = ERROR_ID.search(interaction.reply.content)
    assert match is not None, interaction.reply.content
    assert interaction.reply.content.startswith("Sorry, something went wrong on our side")
    assert_private(fake_discord, interaction, world)
    [record] = [r for r in caplog.records if getattr(r, "error_id", None)]
    assert record.error_id == match.group(1)  # type: ignore[attr-defined]
    assert await balances(failing, world) == {"alice": 1_000, "bob": 1_000}


@pytest.mark.parametrize("command", ["balance", "daily", "stats", "history", "leaderboard"])
async def test_a_closed_database_gets_an_apology_and_changes_nothing(
    fake_discord: FakeDiscord,
    felt_bot: FeltBot,
    world: World,
    tmp_path: Any,
    command: str,
) -> None:
    from tests.e2e.support.bot_world import bot_config

    await felt_bot.storage.close()

    interaction = await use(fake_discord, world.alice, world.channel, command)

    assert ERROR_ID.search(interaction.reply.content), interaction.reply.content
    assert_private(fake_discord, interaction, world)
    reopened = await open_storage(
        fake_discord, bot_config(fake_discord, tmp_path / "felt.db"), Storage
    )
    try:
        assert await reopened.get_account(world.guild.id, world.alice.id) is None
    finally:
        await reopened.close()


async def play_a_round_and_a_hand(storage: Storage, world: World) -> None:
    """Alice wins a blackjack round (+100) and Bob loses it; Alice wins a Hold'em pot of 40."""
    guild, channel = world.guild.id, world.channel.id
    alice, bob = world.alice.id, world.bob.id
    for member in (alice, bob):
        await storage.ensure_account(guild, member)
    state = await storage.open_round(guild, channel, {alice: 100, bob: 100}, key="round")
    await storage.settle_round(
        state.round_id,
        {
            alice: RoundOutcome(payout=200, hands_won=1),
            bob: RoundOutcome(payout=0),
        },
        history="{}",
        key="round:settle",
    )
    table = await storage.open_table(guild, channel, settings={}, key="table")
    await storage.buy_in(table.table_id, 1, alice, 200, key="alice:in")
    await storage.buy_in(table.table_id, 2, bob, 200, key="bob:in")
    await storage.start_hand(table.table_id, 1, {1: 200, 2: 200}, key="hand")
    await storage.settle_hand(
        table.table_id,
        1,
        {1: 220, 2: 180},
        phh="variant = 'NT'",
        results={1: SeatResult(won=True, pot_won=40), 2: SeatResult()},
        key="hand:settle",
    )


# ----- /history ----------------------------------------------------------------------------------


async def test_history_lists_your_hands_and_rounds_newest_first(
    fake_discord: FakeDiscord, felt_bot: FeltBot, world: World
) -> None:
    empty = await use(fake_discord, world.alice, world.channel, "history")
    await play_a_round_and_a_hand(felt_bot.storage, world)
    filled = await use(fake_discord, world.bob, world.channel, "history")

    assert empty.reply.embed is not None
    assert empty.reply.embed["description"] == "You have not played a hand or a round here yet."
    embed = filled.reply.embed
    assert embed is not None
    lines = embed["description"].splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("🃏 Hold'em · table ")
    assert " hand #1 · -20 · <t:" in lines[0]
    assert re.match(r"🂡 Blackjack · round \d+ · -100 · <t:\d+:R>", lines[1])
    assert embed["footer"]["text"] == "See a hand move by move with /holdem history."
    assert_private(fake_discord, filled, world)
    assert await felt_bot.storage.balance(world.guild.id, world.bob.id) == 700
