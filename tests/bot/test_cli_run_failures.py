"""`felt run`: each way the connection to Discord can fail is one line that says what to check."""

from __future__ import annotations

import aiohttp
import discord
import pytest

from bot.config import DiscordConfig, FeltConfig
from bot.discord.errors import StartupError
from bot.discord.runner import QUOTE_LIMIT, AnswerWatch, ForeignAnswer, describe_failure, shorten

BASE = "http://proxy.example/api/v10"
CONFIG = FeltConfig(discord=DiscordConfig(token="token", api_base_url=BASE))


@pytest.mark.parametrize(
    ("error", "line"),
    [
        (TimeoutError(), f"Discord at {BASE} stopped answering while the bot was connecting"),
        (
            aiohttp.ClientOSError(104, "Connection reset by peer"),
            f"the connection to Discord at {BASE} was cut: [Errno 104] Connection reset by peer",
        ),
        (
            aiohttp.ServerDisconnectedError(),
            f"the connection to Discord at {BASE} was cut: Server disconnected",
        ),
        (
            OSError("Network is unreachable"),
            f"cannot talk to Discord at {BASE}: Network is unreachable",
        ),
        (
            discord.LoginFailure(),
            "Discord refused the token (401 Unauthorized): check DISCORD_TOKEN or [discord] token",
        ),
        (
            discord.GatewayNotFound(),  # type: ignore[no-untyped-call]  # discord.py leaves it untyped
            f"Discord at {BASE} did not give a gateway address",
        ),
        (StartupError("already one line"), "already one line"),
    ],
    ids=lambda value: type(value).__name__ if isinstance(value, BaseException) else "",
)
def test_describe_failure_gives_one_line_per_kind(error: BaseException, line: str) -> None:
    described = describe_failure(error, CONFIG, AnswerWatch())

    assert described == line
    assert "\n" not in described


def test_describe_failure_names_an_answer_that_is_not_json_whatever_broke_after() -> None:
    watch = AnswerWatch()
    watch.foreign = ForeignAnswer(404, "text/html")

    described = describe_failure(KeyError("id"), CONFIG, watch)

    assert described == (
        f"{BASE} answered 404 with text/html, not Discord's JSON: check [discord] api_base_url "
        "(a proxy or a wrong address?)"
    )


def test_an_unexpected_failure_is_still_one_line() -> None:
    described = describe_failure(ZeroDivisionError("x"), CONFIG, AnswerWatch())

    assert described == (
        "unexpected failure while connecting to Discord (ZeroDivisionError); see the log"
    )


def test_shorten_keeps_quotes_to_one_short_line() -> None:
    page = "<html>\n" + "x" * 5_000 + "\n</html>"

    assert len(shorten(page)) == QUOTE_LIMIT
    assert "\n" not in shorten(page)
    assert shorten("  short\ttext ") == "short text"
