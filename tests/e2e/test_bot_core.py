"""The bot core end to end: startup, sync, /ping and /about, error routing, deferral, shutdown."""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from bot.discord.client import FeltBot
from bot.discord.errors import Refusal
from bot.discord.replies import defer_first
from bot.discord.tree import FeltModal, FeltView, route_errors
from tests.e2e.fakediscord import FakeDiscord, ResponseKind
from tests.e2e.support.bot_world import StartBot, World

ERROR_ID = re.compile(r"error id: `([0-9a-f]{8})`")


class AmountModal(FeltModal, title="Raise"):
    amount: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Amount", max_length=12)

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        if not self.amount.value.isdigit():
            raise Refusal(f"{self.amount.value!r} is not a number of chips.")
        await interaction.response.send_message(f"Raised to {self.amount.value}.", ephemeral=True)


class ProbeView(FeltView):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Explode", custom_id="probe:explode")
    async def explode(self, interaction: discord.Interaction[Any], button: Any) -> None:
        raise ZeroDivisionError("view bug")

    @discord.ui.button(label="Refuse", custom_id="probe:refuse")
    async def refuse(self, interaction: discord.Interaction[Any], button: Any) -> None:
        raise Refusal("It is not your turn.")

    @discord.ui.button(label="Raise", custom_id="probe:raise")
    async def raise_(self, interaction: discord.Interaction[Any], button: Any) -> None:
        await interaction.response.send_modal(AmountModal())


class Probe(commands.Cog):
    """Commands that misbehave on purpose, to check the core's safety nets."""

    chips = app_commands.Group(name="probe-admin", description="Nested commands")
    grants = app_commands.Group(name="chips", description="Chip commands", parent=chips)

    def __init__(self, bot: FeltBot) -> None:
        self.bot = bot
        self.entered = asyncio.Event()
        self.gate = asyncio.Event()

    @app_commands.command(name="boom", description="Fails unexpectedly")
    async def boom(self, interaction: discord.Interaction[Any]) -> None:
        raise RuntimeError("kaboom")

    @app_commands.command(name="refuse", description="Refuses")
    async def refuse(self, interaction: discord.Interaction[Any]) -> None:
        raise Refusal("You cannot do that right now.")

    @app_commands.command(name="slow", description="Takes long, deferred first")
    @defer_first(ephemeral=True)
    async def slow(self, interaction: discord.Interaction[Any]) -> None:
        self.entered.set()
        await self.gate.wait()
        await interaction.followup.send("Finished the slow work.")

    @app_commands.command(name="slow-public", description="Takes long, deferred publicly")
    @defer_first()
    async def slow_public(self, interaction: discord.Interaction[Any]) -> None:
        self.entered.set()
        await self.gate.wait()
        raise Refusal("Only you should read this.")

    @app_commands.command(name="dawdle", description="Takes long without deferring")
    async def dawdle(self, interaction: discord.Interaction[Any]) -> None:
        self.entered.set()
        await self.gate.wait()
        await interaction.response.send_message("too late")

    @app_commands.command(name="silent", description="Forgets to answer")
    async def silent(self, interaction: discord.Interaction[Any]) -> None:
        return None

    @app_commands.command(name="buttons", description="A view with buttons")
    async def buttons(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("Pick one", view=ProbeView())

    @grants.command(name="grant", description="Grant chips")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def grant(
        self,
        interaction: discord.Interaction[Any],
        member: discord.Member,
        amount: app_commands.Range[int, 1, 1_000_000],
        note: str | None = None,
    ) -> None:
        await interaction.response.send_message(
            f"Granted {amount} to {member.display_name} ({member.id}); note={note}",
            ephemeral=True,
        )


async def start_with_probe(start_bot: StartBot, **options: Any) -> tuple[FeltBot, Probe]:
    probes: list[Probe] = []

    def make(bot: FeltBot) -> Probe:
        probes.append(Probe(bot))
        return probes[-1]

    bot = await start_bot(cogs=[make], **options)
    return bot, probes[0]


# ----- startup and the demo cog ---------------------------------------------------------------


async def test_bot_connects_without_privileged_intents_and_syncs_globally(
    fake_discord: FakeDiscord, felt_bot: FeltBot, world: World
) -> None:
    session = fake_discord.gateway.current[0]
    assert session.intents == discord.Intents(guilds=True).value
    assert fake_discord.command_syncs == [None]
    names = {command["name"] for command in fake_discord.registered_commands()}
    assert {"ping", "about"} <= names
    assert fake_discord.unknown_routes == []
    assert fake_discord.stats.errors == 0


async def test_ping_answers_only_the_member_who_asked(
    fake_discord: FakeDiscord, felt_bot: FeltBot, world: World
) -> None:
    interaction = await fake_discord.slash(world.alice, world.channel, "ping")
    await interaction.wait_answered()

    assert interaction.reply.content.startswith("Pong!")
    assert interaction.reply.ephemeral
    assert fake_discord.ephemerals(world.alice) == [interaction.reply]
    assert fake_discord.ephemerals(world.bob) == []
    assert fake_discord.channel_messages(world.channel) == []


async def test_about_is_a_public_embed_listing_the_commands(
    fake_discord: FakeDiscord, felt_bot: FeltBot, world: World
) -> None:
    interaction = await fake_discord.slash(world.bob, world.channel, "about")
    await interaction.wait_answered()

    message = fake_discord.last_message(world.channel)
    assert message is interaction.reply
    assert message.embed is not None
    assert message.embed["title"] == "Felt"
    assert "`/ping`" in message.text
    assert message in fake_discord.visible_to(world.alice)


# ----- error routing --------------------------------------------------------------------------


async def test_unexpected_error_gets_an_apology_with_the_logged_error_id(
    fake_discord: FakeDiscord, start_bot: StartBot, world: World, caplog: pytest.LogCaptureFixture
) -> None:
    await start_with_probe(start_bot)
    caplog.set_level(logging.ERROR, logger="felt")

    interaction = await fake_discord.slash(world.alice, world.channel, "boom")
    await interaction.wait_answered()

    reply = interaction.reply
    assert reply.ephemeral
    match = ERROR_ID.search(reply.content)
    assert match is not None, reply.content
    [record] = [r for r in caplog.records if getattr(r, "error_id", None)]
    assert record.error_id == match.group(1)  # type: ignore[attr-defined]
    assert record.command == "boom"  # type: ignore[attr-defined]
    assert record.user_id == world.alice.id  # type: ignore[attr-defined]
    assert record.exc_info is not None
    assert "kaboom" in str(record.exc_info[1])
    assert fake_discord.channel_messages(world.channel) == []


async def test_refusal_is_ephemeral_without_error_id(
    fake_discord: FakeDiscord, start_bot: StartBot, world: World, caplog: pytest.LogCaptureFixture
) -> None:
    await start_with_probe(start_bot)
    caplog.set_level(logging.DEBUG, logger="felt")

    interaction = await fake_discord.slash(world.alice, world.channel, "refuse")
    await interaction.wait_answered()

    assert interaction.reply.content == "You cannot do that right now."
    assert interaction.reply.ephemeral
    assert not any(r.levelno >= logging.ERROR for r in caplog.records)
    assert fake_discord.channel_messages(world.channel) == []


async def test_member_option_naming_a_non_member_is_refused(
    fake_discord: FakeDiscord, start_bot: StartBot, world: World
) -> None:
    await start_with_probe(start_bot)
    outsider = fake_discord.create_user("Mallory")

    interaction = await fake_discord.slash(
        world.admin, world.channel, "probe-admin chips grant", member=outsider, amount=5
    )
    await interaction.wait_answered()

    assert interaction.reply.ephemeral
    assert interaction.reply.content == "Mallory is not a member of this server."


async def test_range_limits_are_only_checked_by_discord_clients(
    fake_discord: FakeDiscord, start_bot: StartBot, world: World
) -> None:
    # discord.py trusts Discord for app_commands.Range: a modified client gets 0 through, so
    # commands that move chips must check amounts themselves (storage refuses them too).
    await start_with_probe(start_bot)

    interaction = await fake_discord.slash(
        world.admin,
        world.channel,
        "probe-admin chips grant",
        member=world.bob,
        amount=0,
        unchecked=True,
    )
    await interaction.wait_answered()

    assert interaction.reply.content.startswith("Granted 0 ")


async def test_view_and_modal_errors_are_answered_not_failed(
    fake_discord: FakeDiscord, start_bot: StartBot, world: World
) -> None:
    await start_with_probe(start_bot)
    shown = await fake_discord.slash(world.alice, world.channel, "buttons")
    await shown.wait_answered()
    message = shown.reply

    explode = await fake_discord.click(world.bob, message, label="Explode")
    refuse = await fake_discord.click(world.bob, message, label="Refuse")
    await explode.wait_answered()
    await refuse.wait_answered()
    assert ERROR_ID.search(explode.reply.content)
    assert explode.reply.ephemeral_for is world.bob.user
    assert refuse.reply.content == "It is not your turn."

    opened = await fake_discord.click(world.alice, message, label="Raise")
    await opened.wait_answered()
    assert opened.response_kind is ResponseKind.MODAL
    bad = await fake_discord.submit_modal(world.alice, opened, {"Amount": "lots"})
    await bad.wait_answered()
    assert bad.reply.content == "'lots' is not a number of chips."
    assert bad.reply.ephemeral

    again = await fake_discord.click(world.alice, message, label="Raise")
    await again.wait_answered()
    good = await fake_discord.submit_modal(world.alice, again, {"Amount": "250"})
    await good.wait_answered()
    assert good.reply.content == "Raised to 250."
    assert fake_discord.stats.errors == 0
    assert fake_discord.unacknowledged() == []


async def test_command_that_forgets_to_answer_still_gets_an_answer(
    fake_discord: FakeDiscord, start_bot: StartBot, world: World, caplog: pytest.LogCaptureFixture
) -> None:
    await start_with_probe(start_bot)
    caplog.set_level(logging.ERROR, logger="felt")

    interaction = await fake_discord.slash(world.alice, world.channel, "silent")
    await interaction.wait_answered()

    assert interaction.reply.content == "Done."
    assert any("without answering" in r.getMessage() for r in caplog.records)


# ----- options ----------------------------------------------------------------------------------


async def test_member_option_in_a_subcommand_group_reaches_the_command(
    fake_discord: FakeDiscord, start_bot: StartBot, world: World
) -> None:
    await start_with_probe(start_bot)

    interaction = await fake_discord.slash(
        world.admin, world.channel, "probe-admin chips grant", member=world.bob, amount=500
    )
    await interaction.wait_answered()

    assert interaction.reply.content == f"Granted 500 to Bob ({world.bob.id}); note=None"


async def test_permission_check_uses_the_permissions_discord_sends(
    fake_discord: FakeDiscord, start_bot: StartBot, world: World
) -> None:
    await start_with_probe(start_bot)

    interaction = await fake_discord.slash(
        world.alice, world.channel, "probe-admin chips grant", member=world.bob, amount=5
    )
    await interaction.wait_answered()

    assert interaction.reply.ephemeral
    assert interaction.reply.content == "You need the Manage Server permission for this."


# ----- the 3 s deadline -----------------------------------------------------------------------


async def test_slow_command_defers_first_and_answers_after_the_deadline(
    fake_discord: FakeDiscord, start_bot: StartBot, world: World
) -> None:
    _bot, probe = await start_with_probe(start_bot)

    interaction = await fake_discord.slash(world.alice, world.channel, "slow")
    await probe.entered.wait()
    assert interaction.acknowledged
    assert interaction.original is not None
    assert interaction.original.loading
    assert interaction.original.ephemeral

    fake_discord.clock.advance(60)  # a minute of "work", well past 3 s
    probe.gate.set()
    await interaction.wait_answered()

    assert interaction.errors == []
    assert interaction.reply.content == "Finished the slow work."
    assert interaction.reply.ephemeral


async def test_command_that_does_not_defer_misses_the_deadline(
    fake_discord: FakeDiscord, start_bot: StartBot, world: World
) -> None:
    # The control for the test above: the fake really enforces the deadline on the real bot.
    _bot, probe = await start_with_probe(start_bot)

    interaction = await fake_discord.slash(world.alice, world.channel, "dawdle")
    await probe.entered.wait()
    fake_discord.clock.advance(3.5)
    probe.gate.set()
    await fake_discord.wait_until(lambda: bool(interaction.errors))

    assert interaction.error_codes[0] == 10062
    assert not interaction.acknowledged
    assert fake_discord.unacknowledged() == [interaction]


async def test_refusal_after_a_public_deferral_is_shown_only_to_the_member(
    fake_discord: FakeDiscord, start_bot: StartBot, world: World
) -> None:
    _bot, probe = await start_with_probe(start_bot)

    interaction = await fake_discord.slash(world.alice, world.channel, "slow-public")
    await probe.entered.wait()
    loading = interaction.original
    assert loading is not None
    assert not loading.ephemeral
    probe.gate.set()
    await interaction.wait_for_followups(1)

    assert loading.deleted
    assert fake_discord.channel_messages(world.channel) == []
    [refusal] = fake_discord.ephemerals(world.alice)
    assert refusal.content == "Only you should read this."
    assert interaction.errors == []


# ----- shutdown -------------------------------------------------------------------------------


async def test_shutdown_runs_hooks_refuses_new_commands_and_disconnects(
    fake_discord: FakeDiscord, felt_bot: FeltBot, world: World
) -> None:
    hook_started = asyncio.Event()
    release = asyncio.Event()
    finished: list[str] = []

    async def void_games() -> None:
        hook_started.set()
        await release.wait()
        finished.append("games voided")

    felt_bot.add_shutdown_hook(void_games)
    shutdown = asyncio.create_task(felt_bot.shutdown("SIGTERM"))
    await hook_started.wait()

    refused = await fake_discord.slash(world.alice, world.channel, "ping")
    await refused.wait_answered()
    assert refused.reply.content == "Felt is restarting. Please try again in a minute."
    assert not felt_bot.is_closed()

    release.set()
    await shutdown
    assert finished == ["games voided"]
    assert felt_bot.is_closed()


async def test_shutdown_cancels_hooks_that_overrun_the_grace_period(
    fake_discord: FakeDiscord, start_bot: StartBot, world: World
) -> None:
    bot = await start_bot(shutdown_grace_seconds=0.05)
    cancelled: list[bool] = []

    async def stuck() -> None:
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            cancelled.append(True)
            raise

    bot.add_shutdown_hook(stuck)
    await bot.shutdown("SIGINT")

    assert cancelled == [True]
    assert bot.is_closed()


# ----- persistent buttons and other layers' refusals -------------------------------------------


class NotYourTurnError(Exception):
    """Stands for an error of another layer (the table host) that carries a player message."""


class SeatButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"seat:(?P<seat>\d+)"):
    """A button that survives restarts: its custom_id carries everything needed."""

    def __init__(self, seat: int) -> None:
        super().__init__(discord.ui.Button(label=f"Seat {seat}", custom_id=f"seat:{seat}"))
        self.seat = seat

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: Any, match: re.Match[str], /
    ) -> SeatButton:
        return cls(int(match["seat"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async with route_errors(interaction, "seat button"):
            if self.seat == 2:
                raise NotYourTurnError("Seat 2 is taken.")
            await interaction.response.send_message(f"You sat in seat {self.seat}.", ephemeral=True)


class Seats(commands.Cog):
    def __init__(self, bot: FeltBot) -> None:
        bot.add_dynamic_items(SeatButton)
        bot.error_router.register_refusal(NotYourTurnError)

    @app_commands.command(name="seats", description="Post the seat buttons")
    async def seats(self, interaction: discord.Interaction[Any]) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(SeatButton(1))
        view.add_item(SeatButton(2))
        await interaction.response.send_message("Pick a seat", view=view)


async def test_persistent_buttons_work_after_a_restart_and_route_refusals(
    fake_discord: FakeDiscord, start_bot: StartBot, world: World
) -> None:
    first = await start_bot(cogs=[Seats])
    posted = await fake_discord.slash(world.alice, world.channel, "seats")
    await posted.wait_answered()
    await first.close()
    await start_bot(cogs=[Seats])

    sat = await fake_discord.click(world.bob, posted.reply, label="Seat 1")
    taken = await fake_discord.click(world.alice, posted.reply, label="Seat 2")
    await sat.wait_answered()
    await taken.wait_answered()

    assert sat.reply.content == "You sat in seat 1."
    assert taken.reply.content == "Seat 2 is taken."
    assert taken.reply.ephemeral_for is world.alice.user
    assert fake_discord.channel_messages(world.channel) == [posted.reply]
