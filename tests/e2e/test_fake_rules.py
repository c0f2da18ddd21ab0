"""The fake Discord enforces Discord's rules: a tiny discord.py client breaks each one on purpose.

The client here is plain discord.py (not Felt), so these tests check the fake against the library
the bot uses: each broken rule must surface in discord.py as the exception and error code a real
Discord would cause.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest

from bot.config import DiscordConfig
from bot.discord.client import apply_endpoints
from tests.e2e.fakediscord import (
    FakeClock,
    FakeDiscord,
    FakeMessage,
    Permission,
    RateLimitRule,
    ResponseKind,
)
from tests.e2e.support.bot_world import World
from tests.e2e.support.probe import Probe, connect_probe

# ----- acknowledgement rules --------------------------------------------------------------------


async def test_answer_after_three_seconds_is_unknown_interaction(probe: Probe) -> None:
    sent, interaction = await probe.command()
    probe.fake.clock.advance(3.01)

    with pytest.raises(discord.NotFound) as caught:
        await interaction.response.send_message("too late")

    assert caught.value.code == 10062
    assert sent.error_codes == [10062]
    assert not sent.acknowledged
    assert probe.fake.ephemerals(probe.world.alice) == []
    assert probe.fake.channel_messages(probe.world.channel) == []


async def test_answer_just_inside_three_seconds_is_accepted(probe: Probe) -> None:
    sent, interaction = await probe.command()
    probe.fake.clock.advance(2.9)

    await interaction.response.send_message("in time")

    assert sent.reply.content == "in time"
    assert sent.errors == []


async def test_second_acknowledgement_is_refused(probe: Probe) -> None:
    sent, interaction = await probe.command()
    await interaction.response.defer()

    with pytest.raises(discord.HTTPException) as caught:
        await probe.request(
            "POST",
            "/interactions/{interaction_id}/{token}/callback",
            interaction_id=interaction.id,
            token=interaction.token,
            json={"type": 4, "data": {"content": "again"}},
        )

    assert caught.value.code == 40060
    assert sent.response_kind is ResponseKind.DEFERRED_CHANNEL_MESSAGE
    assert sent.original is not None
    assert sent.original.loading  # the second answer changed nothing


async def test_followup_before_acknowledging_is_unknown_webhook(probe: Probe) -> None:
    sent, interaction = await probe.command()

    with pytest.raises(discord.NotFound) as caught:
        await interaction.followup.send("early")

    assert caught.value.code == 10015
    assert sent.messages == []


async def test_token_expires_after_fifteen_minutes(probe: Probe) -> None:
    sent, interaction = await probe.command()
    await interaction.response.defer(ephemeral=True)
    probe.fake.clock.advance(15 * 60 + 1)

    with pytest.raises(discord.HTTPException) as followup:
        await interaction.followup.send("an hour later")
    with pytest.raises(discord.HTTPException) as edit:
        await interaction.edit_original_response(content="an hour later")

    assert (followup.value.status, followup.value.code) == (401, 50027)
    assert edit.value.code == 50027
    assert sent.original is not None
    assert sent.original.loading


async def test_first_followup_after_public_deferral_is_public_whatever_its_flags(
    probe: Probe,
) -> None:
    sent, interaction = await probe.command()
    await interaction.response.defer(thinking=True)

    await interaction.followup.send("meant to be private", ephemeral=True)
    await interaction.followup.send("second followup", ephemeral=True)

    [public] = probe.fake.channel_messages(probe.world.channel)
    assert public.content == "meant to be private"
    assert public is sent.original
    assert not public.loading
    assert [m.content for m in probe.fake.ephemerals(probe.world.alice)] == ["second followup"]


async def test_modal_cannot_answer_a_modal_submit(probe: Probe) -> None:
    sent, interaction = await probe.command()
    modal = discord.ui.Modal(title="Amount")
    modal.add_item(discord.ui.TextInput(label="Chips", custom_id="chips"))
    await interaction.response.send_modal(modal)
    submitted = await probe.fake.submit_modal(probe.world.alice, sent, {"chips": "10"})
    answer = await asyncio.wait_for(probe.received.get(), 10)

    with pytest.raises(discord.HTTPException) as caught:
        await answer.response.send_modal(discord.ui.Modal(title="Again"))

    assert caught.value.code == 50035
    assert "type" in str(caught.value)
    assert not submitted.acknowledged


async def test_ephemeral_message_cannot_be_fetched_through_the_channel(probe: Probe) -> None:
    _sent, interaction = await probe.command()
    await interaction.response.send_message("secret", ephemeral=True)
    message = await interaction.original_response()

    with pytest.raises(discord.NotFound) as caught:
        await probe.client.http.get_message(probe.world.channel.id, message.id)

    assert caught.value.code == 10008
    assert message.content == "secret"


async def test_callback_response_carries_the_created_message(probe: Probe) -> None:
    sent, interaction = await probe.command()

    callback = await interaction.response.send_message("with a message id")

    assert callback.message_id == sent.reply.id
    assert isinstance(callback.resource, discord.InteractionMessage)


# ----- direct messages --------------------------------------------------------------------------


async def test_closed_dms_are_refused_with_50007(probe: Probe) -> None:
    probe.fake.set_dms_open(probe.world.bob, False)
    user = await probe.client.fetch_user(probe.world.bob.id)

    with pytest.raises(discord.Forbidden) as caught:
        await user.send("your cards")

    assert caught.value.code == 50007
    assert probe.fake.dms(probe.world.bob) == []


async def test_a_dm_to_a_member_with_open_dms_arrives_with_its_file(probe: Probe) -> None:
    user = await probe.client.fetch_user(probe.world.alice.id)

    await user.send("your cards", file=discord.File(io.BytesIO(b"png"), "cards.png"))

    [dm] = probe.fake.dms(probe.world.alice)
    assert dm.content == "your cards"
    assert dm.filenames == ["cards.png"]
    assert probe.fake.dms(probe.world.bob) == []


async def test_dm_to_a_user_sharing_no_guild_is_refused(probe: Probe) -> None:
    stranger = probe.fake.create_user("Stranger")
    user = await probe.client.fetch_user(stranger.id)

    with pytest.raises(discord.Forbidden) as caught:
        await user.send("hello")

    assert caught.value.code == 50278


# ----- payload limits ---------------------------------------------------------------------------


def _embed(**fields: Any) -> dict[str, Any]:
    return {"embeds": [fields]}


def _buttons(count: int, **extra: Any) -> list[dict[str, Any]]:
    return [
        {"type": 2, "style": 1, "label": f"b{index}", "custom_id": f"b{index}", **extra}
        for index in range(count)
    ]


TOO_BIG: dict[str, tuple[dict[str, Any], str]] = {
    "content": ({"content": "x" * 2001}, "content"),
    "embed count": ({"embeds": [{"title": "t"}] * 11}, "embeds"),
    "embed title": (_embed(title="t" * 257), "embeds.0.title"),
    "embed description": (_embed(description="d" * 4097), "embeds.0.description"),
    "embed fields": (
        _embed(fields=[{"name": "n", "value": "v"}] * 26),
        "embeds.0.fields",
    ),
    "field name": (_embed(fields=[{"name": "n" * 257, "value": "v"}]), "embeds.0.fields.0.name"),
    "field value": (
        _embed(fields=[{"name": "n", "value": "v" * 1025}]),
        "embeds.0.fields.0.value",
    ),
    "footer": (_embed(footer={"text": "f" * 2049}), "embeds.0.footer.text"),
    "embeds total": (
        {"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]},
        "embeds",
    ),
    "action rows": (
        {"components": [{"type": 1, "components": _buttons(1)} for _ in range(6)]},
        "components",
    ),
    "buttons in a row": (
        {"components": [{"type": 1, "components": _buttons(6)}]},
        "components.0.components",
    ),
    "button label": (
        {"components": [{"type": 1, "components": _buttons(1, label="l" * 81)}]},
        "components.0.components.0.label",
    ),
    "custom id": (
        {"components": [{"type": 1, "components": _buttons(1, custom_id="c" * 101)}]},
        "components.0.components.0.custom_id",
    ),
    "select options": (
        {
            "components": [
                {
                    "type": 1,
                    "components": [
                        {
                            "type": 3,
                            "custom_id": "pick",
                            "options": [{"label": str(i), "value": str(i)} for i in range(26)],
                        }
                    ],
                }
            ]
        },
        "components.0.components.0.options",
    ),
}


@pytest.mark.parametrize("case", sorted(TOO_BIG))
async def test_message_over_a_limit_is_invalid_form_body(probe: Probe, case: str) -> None:
    payload, path = TOO_BIG[case]

    with pytest.raises(discord.HTTPException) as caught:
        await probe.request(
            "POST",
            "/channels/{channel_id}/messages",
            channel_id=probe.world.channel.id,
            json=payload,
        )

    assert (caught.value.status, caught.value.code) == (400, 50035)
    assert f"In {path}" in str(caught.value)
    assert probe.fake.channel_messages(probe.world.channel) == []


async def test_message_at_every_limit_is_accepted(probe: Probe) -> None:
    payload = {
        "content": "x" * 2000,
        "embeds": [
            {
                "title": "t" * 256,
                "description": "d" * 1000,
                "fields": [{"name": "n" * 10, "value": "v" * 100}] * 25,
                "footer": {"text": "f" * 100},
            }
        ],
        "components": [{"type": 1, "components": _buttons(5, label="l" * 80)} for _ in range(1)],
    }

    await probe.request(
        "POST", "/channels/{channel_id}/messages", channel_id=probe.world.channel.id, json=payload
    )

    [message] = probe.fake.channel_messages(probe.world.channel)
    assert len(message.buttons) == 5
    assert message.embed is not None
    assert len(message.embed["fields"]) == 25


async def test_empty_message_is_refused(probe: Probe) -> None:
    with pytest.raises(discord.HTTPException) as caught:
        await probe.request(
            "POST", "/channels/{channel_id}/messages", channel_id=probe.world.channel.id, json={}
        )

    assert caught.value.code == 50006


MODALS: dict[str, tuple[dict[str, Any], str]] = {
    "title": (
        {
            "title": "t" * 46,
            "custom_id": "m",
            "components": [
                {"type": 1, "components": [{"type": 4, "custom_id": "a", "label": "A", "style": 1}]}
            ],
        },
        "data.title",
    ),
    "no inputs": ({"title": "t", "custom_id": "m", "components": []}, "data.components"),
    "six inputs": (
        {
            "title": "t",
            "custom_id": "m",
            "components": [
                {
                    "type": 1,
                    "components": [{"type": 4, "custom_id": f"a{i}", "label": "A", "style": 1}],
                }
                for i in range(6)
            ],
        },
        "data.components",
    ),
}


@pytest.mark.parametrize("case", sorted(MODALS))
async def test_modal_over_a_limit_is_invalid_form_body(probe: Probe, case: str) -> None:
    modal, path = MODALS[case]
    sent, interaction = await probe.command()

    with pytest.raises(discord.HTTPException) as caught:
        await probe.request(
            "POST",
            "/interactions/{interaction_id}/{token}/callback",
            interaction_id=interaction.id,
            token=interaction.token,
            json={"type": 9, "data": modal},
        )

    assert caught.value.code == 50035
    assert f"In {path}" in str(caught.value)
    assert sent.modal is None
    assert not sent.acknowledged


async def test_attachment_over_the_size_limit_is_too_large(probe: Probe) -> None:
    probe.fake.attachment_size_limit = 1024
    channel = probe.client.get_partial_messageable(probe.world.channel.id)

    with pytest.raises(discord.HTTPException) as caught:
        await channel.send(file=discord.File(io.BytesIO(b"x" * 1025), "table.png"))

    assert (caught.value.status, caught.value.code) == (413, 40005)
    assert probe.fake.channel_messages(probe.world.channel) == []


async def test_multipart_message_keeps_files_and_embeds_referring_to_them(probe: Probe) -> None:
    channel = probe.client.get_partial_messageable(probe.world.channel.id)
    embed = discord.Embed(title="Table").set_image(url="attachment://table.png")

    sent = await channel.send(
        embed=embed, file=discord.File(io.BytesIO(b"\x89PNG"), "table.png", description="Board")
    )
    await sent.edit(content="edited", attachments=[discord.File(io.BytesIO(b"2"), "board.png")])

    [message] = probe.fake.channel_messages(probe.world.channel)
    assert message.content == "edited"
    assert message.filenames == ["board.png"]
    assert message.attachments[0].data == b"2"
    assert message.embed is not None
    assert message.embed["image"]["url"] == "attachment://table.png"
    assert message.edits == 1


# ----- rate limits ------------------------------------------------------------------------------


@pytest.fixture
async def frozen_fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(clock=FakeClock(follow_real_time=False)) as fake:
        yield fake


async def test_sixth_message_in_five_seconds_is_rate_limited(frozen_fake: FakeDiscord) -> None:
    guild = frozen_fake.create_guild()
    channel = frozen_fake.create_channel(guild, "poker")
    url = f"{frozen_fake.api_base_url}/channels/{channel.id}/messages"
    headers = {"Authorization": f"Bot {frozen_fake.token}"}
    async with aiohttp.ClientSession() as session:
        statuses = []
        for index in range(6):
            async with session.post(url, json={"content": str(index)}, headers=headers) as answer:
                statuses.append(answer.status)
                last_headers, last_body = answer.headers, await answer.json()
        frozen_fake.clock.advance(5)
        async with session.post(url, json={"content": "later"}, headers=headers) as answer:
            after_window = answer.status

    assert statuses == [200] * 5 + [429]
    assert last_headers["Content-Type"] == "application/json"
    assert last_headers["Via"]
    assert float(last_headers["Retry-After"]) >= 1
    assert last_headers["X-RateLimit-Remaining"] == "0"
    assert last_body["retry_after"] > 0
    assert last_body["global"] is False
    assert after_window == 200
    assert frozen_fake.stats.rate_limited == 1
    assert frozen_fake.stats.invalid == 1
    assert len(frozen_fake.channel_messages(channel)) == 6


async def test_global_rate_limit_is_flagged_global(frozen_fake: FakeDiscord) -> None:
    frozen_fake.rate_limiter.global_per_second = 3
    url = f"{frozen_fake.api_base_url}/users/@me"
    headers = {"Authorization": f"Bot {frozen_fake.token}"}
    async with aiohttp.ClientSession() as session:
        statuses = []
        for _ in range(4):
            async with session.get(url, headers=headers) as answer:
                statuses.append(answer.status)
                body, global_header = await answer.json(), answer.headers.get("X-RateLimit-Global")

    assert statuses == [200, 200, 200, 429]
    assert body["global"] is True
    assert global_header == "true"


async def test_requests_without_the_bot_token_are_unauthorized(frozen_fake: FakeDiscord) -> None:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"{frozen_fake.api_base_url}/users/@me") as answer,
    ):
        status, content_type = answer.status, answer.headers["Content-Type"]

    assert status == 401
    assert content_type == "application/json"
    assert frozen_fake.stats.invalid == 1


async def test_discord_py_paces_itself_from_the_rate_limit_headers(
    fake_discord: FakeDiscord, world: World
) -> None:
    fake_discord.rate_limiter.rules["POST /channels/{channel_id}/messages"] = RateLimitRule(
        2, 0.2, "msg-create"
    )
    restore = apply_endpoints(
        DiscordConfig(api_base_url=fake_discord.api_base_url, gateway_url=fake_discord.gateway_url)
    )
    try:
        probe = await connect_probe(fake_discord, world)
        channel = probe.client.get_partial_messageable(world.channel.id)
        await asyncio.gather(*(channel.send(f"line {index}") for index in range(5)))
        await probe.close()
    finally:
        restore()

    assert sorted(m.content for m in fake_discord.channel_messages(world.channel)) == [
        f"line {index}" for index in range(5)
    ]
    assert fake_discord.stats.rate_limited == 0


# ----- the gateway ------------------------------------------------------------------------------


async def test_privileged_intents_are_refused(fake_discord: FakeDiscord, world: World) -> None:
    restore = apply_endpoints(
        DiscordConfig(api_base_url=fake_discord.api_base_url, gateway_url=fake_discord.gateway_url)
    )
    client = discord.Client(intents=discord.Intents.all())
    try:
        with pytest.raises(discord.PrivilegedIntentsRequired):
            await asyncio.wait_for(client.start(fake_discord.token), 10)
    finally:
        await client.close()
        restore()

    assert 4014 in fake_discord.gateway.close_codes


async def test_identify_with_a_wrong_token_is_closed_with_4004(fake_discord: FakeDiscord) -> None:
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(fake_discord.gateway_url) as ws,
    ):
        hello = await ws.receive_json()
        await ws.send_json({"op": 2, "d": {"token": "wrong", "intents": 1, "properties": {}}})
        closing = await ws.receive()

    assert hello["op"] == 10
    assert closing.type is aiohttp.WSMsgType.CLOSE
    assert closing.data == 4004


# ----- component responses and webhook messages -------------------------------------------------


async def post_with_button(probe: Probe) -> FakeMessage:
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Fold", custom_id="fold"))
    await probe.request(
        "POST",
        "/channels/{channel_id}/messages",
        channel_id=probe.world.channel.id,
        json={"content": "Your turn", "components": view.to_components()},
    )
    message = probe.fake.last_message(probe.world.channel)
    assert message is not None
    return message


async def test_deferred_update_then_edit_original_edits_the_clicked_message(
    probe: Probe,
) -> None:
    message = await post_with_button(probe)
    clicked = await probe.fake.click(probe.world.bob, message, label="Fold")
    interaction = await asyncio.wait_for(probe.received.get(), 10)

    await interaction.response.defer()
    await interaction.edit_original_response(content="Bob folded", view=None)

    assert clicked.response_kind is ResponseKind.DEFERRED_UPDATE_MESSAGE
    assert clicked.original is message
    assert message.content == "Bob folded"
    assert message.buttons == []
    assert message.edits == 1
    assert probe.fake.channel_messages(probe.world.channel) == [message]


async def test_update_message_response_edits_the_clicked_message(probe: Probe) -> None:
    message = await post_with_button(probe)
    await probe.fake.click(probe.world.bob, message, label="Fold")
    interaction = await asyncio.wait_for(probe.received.get(), 10)

    await interaction.response.edit_message(content="Folded")

    assert message.content == "Folded"
    assert message.button_labels == ["Fold"]


async def test_update_message_is_refused_for_a_slash_command(probe: Probe) -> None:
    sent, interaction = await probe.command()

    with pytest.raises(discord.HTTPException) as caught:
        await probe.request(
            "POST",
            "/interactions/{interaction_id}/{token}/callback",
            interaction_id=interaction.id,
            token=interaction.token,
            json={"type": 7, "data": {"content": "no message to update"}},
        )

    assert caught.value.code == 50035
    assert not sent.acknowledged


async def test_followups_can_be_edited_and_deleted_by_id(probe: Probe) -> None:
    sent, interaction = await probe.command()
    await interaction.response.send_message("first")
    followup = await interaction.followup.send("second", wait=True)

    await followup.edit(content="second, edited")
    assert sent.followups[0].content == "second, edited"
    await followup.delete()
    await interaction.delete_original_response()

    assert sent.messages == []
    assert probe.fake.channel_messages(probe.world.channel) == []


async def test_channel_message_delete_and_edit_of_a_deleted_message(probe: Probe) -> None:
    channel = probe.client.get_partial_messageable(probe.world.channel.id)
    sent = await channel.send("to be deleted")

    await sent.delete()
    with pytest.raises(discord.NotFound) as caught:
        await sent.edit(content="too late")

    assert caught.value.code == 10008
    assert probe.fake.channel_messages(probe.world.channel) == []


async def test_missing_send_permission_is_forbidden(probe: Probe) -> None:
    probe.fake.deny_bot(probe.world.channel, Permission.SEND_MESSAGES)
    channel = probe.client.get_partial_messageable(probe.world.channel.id)

    with pytest.raises(discord.Forbidden) as caught:
        await channel.send("hello")

    assert caught.value.code == 50013
    assert probe.fake.channel_messages(probe.world.channel) == []


async def test_threads_can_be_created_and_posted_in(probe: Probe) -> None:
    channel = probe.client.get_partial_messageable(probe.world.channel.id)
    starter = await channel.send("Table 1 opens")

    thread = await probe.client.http.start_thread_with_message(
        channel.id, starter.id, name="Table 1", auto_archive_duration=1440, rate_limit_per_user=0
    )
    await probe.client.get_partial_messageable(int(thread["id"])).send("Hand #1")

    fake_thread = probe.fake.channels[int(thread["id"])]
    assert fake_thread.is_thread
    assert fake_thread.parent_id == probe.world.channel.id
    assert [m.content for m in probe.fake.channel_messages(fake_thread)] == ["Hand #1"]
    assert any(m.content == "Hand #1" for m in probe.fake.visible_to(probe.world.bob))


# ----- guild channels -----------------------------------------------------------------------------


def allow_manage_channels(probe: Probe) -> None:
    probe.world.guild.bot_permissions |= Permission.MANAGE_CHANNELS


async def test_a_text_channel_is_created_in_a_category_and_deleted(probe: Probe) -> None:
    allow_manage_channels(probe)
    category = probe.fake.create_category(probe.world.guild, "Tournaments")
    guild = probe.client.get_guild(probe.world.guild.id)
    assert guild is not None

    made = await probe.client.http.create_channel(
        guild.id, 0, name="T12 Table 3", parent_id=category.id
    )
    channel = probe.fake.channels[int(made["id"])]
    await probe.client.get_partial_messageable(channel.id).send("Hand #1")
    await probe.client.http.delete_channel(channel.id)

    assert (channel.name, channel.parent_id) == ("t12-table-3", category.id)
    assert channel.id not in probe.fake.channels and probe.fake.deleted_channels == [channel]
    with pytest.raises(discord.NotFound) as caught:
        await probe.client.get_partial_messageable(channel.id).send("Hand #2")
    assert caught.value.code == 10003


async def test_creating_or_deleting_a_channel_without_manage_channels_is_forbidden(
    probe: Probe,
) -> None:
    with pytest.raises(discord.Forbidden) as caught:
        await probe.client.http.create_channel(probe.world.guild.id, 0, name="table-1")
    assert caught.value.code == 50013
    with pytest.raises(discord.Forbidden) as deleting:
        await probe.client.http.delete_channel(probe.world.channel.id)
    assert deleting.value.code == 50013
    assert probe.world.channel.id in probe.fake.channels


@pytest.mark.parametrize("case", ["empty name", "long name", "parent is a text channel"])
async def test_a_bad_channel_is_invalid_form_body(probe: Probe, case: str) -> None:
    allow_manage_channels(probe)
    options: dict[str, Any] = {"name": "table-1"}
    if case == "empty name":
        options["name"] = ""
    elif case == "long name":
        options["name"] = "x" * 101
    else:
        options["parent_id"] = probe.world.channel.id
    before = dict(probe.fake.channels)

    with pytest.raises(discord.HTTPException) as caught:
        await probe.client.http.create_channel(probe.world.guild.id, 0, **options)

    assert (caught.value.status, caught.value.code) == (400, 50035)
    assert probe.fake.channels == before


async def test_a_category_holds_at_most_fifty_channels(probe: Probe) -> None:
    allow_manage_channels(probe)
    category = probe.fake.create_category(probe.world.guild, "Full")
    for number in range(50):
        probe.fake.create_channel(probe.world.guild, f"c{number}", category=category)

    with pytest.raises(discord.HTTPException) as caught:
        await probe.client.http.create_channel(
            probe.world.guild.id, 0, name="one-more", parent_id=category.id
        )

    assert caught.value.code == 50035


async def test_deleting_a_channel_deletes_its_threads(probe: Probe) -> None:
    allow_manage_channels(probe)
    thread = probe.fake.create_thread(probe.world.channel, "Table 1")

    await probe.client.http.delete_channel(probe.world.channel.id)

    assert probe.fake.deleted_channels == [thread, probe.world.channel]
