"""A local fake Discord for end-to-end tests: the real gateway websocket and REST API, Discord's
rules enforced, and a test API to act as members and read what each of them sees.

    async with FakeDiscord() as fake:
        guild = fake.create_guild()
        channel = fake.create_channel(guild, "poker")
        alice = fake.create_member(guild, "Alice")
        # start the bot with api_base_url=fake.api_base_url, gateway_url=fake.gateway_url
        await fake.wait_for_bot()
        interaction = await fake.slash(alice, channel, "ping")
        await interaction.wait_answered()
        assert "Pong" in interaction.reply.content
"""

from .clock import FakeClock
from .model import (
    ApiError,
    Button,
    ChannelKind,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeInteraction,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    InteractionKind,
    MessageFlag,
    Permission,
    ResponseKind,
    Select,
)
from .ratelimits import DEFAULT_RULES, RateLimitRule
from .rest import RecordedRequest
from .server import FakeDiscord, FakeStats, FakeUsageError

__all__ = [
    "DEFAULT_RULES",
    "ApiError",
    "Button",
    "ChannelKind",
    "FakeAttachment",
    "FakeChannel",
    "FakeClock",
    "FakeDiscord",
    "FakeGuild",
    "FakeInteraction",
    "FakeMember",
    "FakeMessage",
    "FakeRole",
    "FakeStats",
    "FakeUsageError",
    "FakeUser",
    "InteractionKind",
    "MessageFlag",
    "Permission",
    "RateLimitRule",
    "RecordedRequest",
    "ResponseKind",
    "Select",
]
