"""The fake's test API refuses what a Discord client cannot do, and shows each member their view."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, cast

import discord
import pytest

from bot.config import DiscordConfig
from bot.discord.client import apply_endpoints
from tests.e2e.fakediscord import FakeDiscord, FakeUsageError, Permission
from tests.e2e.support.bot_world import World
from tests.e2e.support.probe import Probe

if TYPE_CHECKING:  # discord.types is for type checkers only (it cannot be imported alone)
    from discord.types.interactions import ButtonMessageComponentInteractionData


async def post(probe: Probe, **payload: Any) -> Any:
    await probe.request(
        "POST", "/channels/{channel_id}/messages", channel_id=probe.world.channel.id, json=payload
    )
    return probe.fake.last_message(probe.world.channel)


def buttons(*specs: tuple[str, bool]) -> list[dict[str, Any]]:
    return [
        {
            "type": 1,
            "components": [
                {"type": 2, "style": 1, "label": label, "custom_id": label.lower(), "disabled": off}
                for label, off in specs
            ],
        }
    ]


async def test_slash_needs_a_synced_command_and_valid_options(probe: Probe) -> None:
    fake, world = probe.fake, probe.world
    sent_before = len(fake.interactions)

    with pytest.raises(FakeUsageError, match="not a synced command"):
        await fake.slash(world.alice, world.channel, "nope")
    with pytest.raises(FakeUsageError, match="no option 'amount'"):
        await fake.slash(world.alice, world.channel, "probe", amount=5)

    assert len(fake.interactions) == sent_before


async def test_disabled_and_unknown_buttons_cannot_be_clicked(probe: Probe) -> None:
    message = await post(probe, content="Act", components=buttons(("Call", False), ("Raise", True)))

    with pytest.raises(FakeUsageError, match="disabled"):
        await probe.fake.click(probe.world.alice, message, label="Raise")
    with pytest.raises(FakeUsageError, match="no button 'Fold'"):
        await probe.fake.click(probe.world.alice, message, label="Fold")
    clicked = await probe.fake.click(probe.world.alice, message, custom_id="call")
    interaction = await asyncio.wait_for(probe.received.get(), 10)

    assert interaction.data is not None
    data = cast("ButtonMessageComponentInteractionData", interaction.data)  # a button was pressed
    assert data["custom_id"] == "call"
    assert interaction.message is not None
    assert interaction.message.id == message.id
    assert clicked.message is message


async def test_ephemeral_messages_are_seen_and_clicked_only_by_their_member(probe: Probe) -> None:
    fake, world = probe.fake, probe.world
    sent, interaction = await probe.command()
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="My cards", custom_id="cards"))
    await interaction.response.send_message("Ah Kd", ephemeral=True, view=view)
    private = sent.reply

    with pytest.raises(FakeUsageError, match="ephemeral to someone else"):
        await fake.click(world.bob, private, label="My cards")
    assert private in fake.visible_to(world.alice)
    assert private not in fake.visible_to(world.bob)
    assert all("Ah Kd" not in message.text for message in fake.visible_to(world.bob))
    assert fake.channel_messages(world.channel) == []


async def test_members_only_see_their_own_guilds(probe: Probe) -> None:
    fake, world = probe.fake, probe.world
    other = fake.create_guild("Elsewhere")
    elsewhere = fake.create_channel(other, "general")
    channel = probe.client.get_partial_messageable(elsewhere.id)
    await channel.send("only for Elsewhere")

    assert [m.content for m in fake.channel_messages(elsewhere)] == ["only for Elsewhere"]
    assert fake.visible_to(world.alice) == []


async def test_modal_is_submitted_once_with_its_required_inputs(probe: Probe) -> None:
    fake, world = probe.fake, probe.world
    sent, interaction = await probe.command()
    modal = discord.ui.Modal(title="Raise")
    modal.add_item(discord.ui.TextInput(label="Amount", custom_id="amount", max_length=6))
    await interaction.response.send_modal(modal)

    with pytest.raises(FakeUsageError, match="required"):
        await fake.submit_modal(world.alice, sent, {})
    with pytest.raises(FakeUsageError, match="0 to 6 characters"):
        await fake.submit_modal(world.alice, sent, {"amount": "1234567"})
    with pytest.raises(FakeUsageError, match="only the member"):
        await fake.submit_modal(world.bob, sent, {"amount": "100"})
    submitted = await fake.submit_modal(world.alice, sent, {"Amount": "100"})
    answer = await asyncio.wait_for(probe.received.get(), 10)
    with pytest.raises(FakeUsageError, match="already submitted"):
        await fake.submit_modal(world.alice, sent, {"amount": "100"})

    assert answer.data is not None
    # The raw rows the fake sent, read the way discord.py's modal code reads them.
    rows: list[dict[str, Any]] = cast(dict[str, Any], answer.data)["components"]
    [row] = rows
    values = [c.get("value") for c in row.get("components", [row.get("component", {})])]
    assert values == ["100"]
    assert submitted.kind.name == "MODAL_SUBMIT"


async def test_member_permissions_follow_roles(fake_discord: FakeDiscord, world: World) -> None:
    assert world.admin.has(Permission.MANAGE_GUILD)
    assert not world.admin.has(Permission.ADMINISTRATOR)
    assert not world.alice.has(Permission.MANAGE_GUILD)
    boss = fake_discord.create_member(world.guild, "Boss", permissions=Permission.ADMINISTRATOR)
    assert boss.has(Permission.MANAGE_GUILD)


async def test_snowflakes_are_unique_and_increasing(fake_discord: FakeDiscord) -> None:
    ids = [fake_discord.next_id() for _ in range(1000)]

    assert ids == sorted(set(ids))


async def test_expired_interactions_can_be_forgotten_messages_stay(probe: Probe) -> None:
    sent, interaction = await probe.command()
    await interaction.response.send_message("posted")
    probe.fake.clock.advance(15 * 60 + 1)

    assert probe.fake.forget_expired_interactions() == 1
    assert sent.id not in probe.fake.interactions
    assert probe.fake.channel_messages(probe.world.channel) == [sent.reply]


async def test_guild_members_come_with_the_members_intent_only(
    fake_discord: FakeDiscord, world: World
) -> None:
    fake_discord.privileged_intents = 1 << 1
    restore = apply_endpoints(
        DiscordConfig(api_base_url=fake_discord.api_base_url, gateway_url=fake_discord.gateway_url)
    )
    intents = discord.Intents(guilds=True, members=True)
    client = discord.Client(intents=intents, chunk_guilds_at_startup=False)
    try:
        ready = asyncio.Event()
        client.event(_set_on_guild_available(ready))
        task = asyncio.create_task(client.start(fake_discord.token))
        await asyncio.wait_for(ready.wait(), 10)
        guild = client.get_guild(world.guild.id)
        assert guild is not None
        assert guild.get_member(world.alice.id) is not None
        await client.close()
        await task
    finally:
        restore()


def _set_on_guild_available(ready: asyncio.Event) -> Any:
    async def on_guild_available(guild: discord.Guild) -> None:
        ready.set()

    return on_guild_available
