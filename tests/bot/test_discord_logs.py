"""Structured logging: context fields in text and JSON lines, tracebacks kept."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest

from bot.config import LogFormat, LoggingConfig, LogLevel
from bot.discord.logs import configure_logging


@pytest.fixture
def restore_logging() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    discord_level = logging.getLogger("discord").level
    yield
    for handler in root.handlers[:]:
        if handler not in handlers:
            root.removeHandler(handler)
    root.setLevel(level)
    logging.getLogger("discord").setLevel(discord_level)


def test_logs_text_lines_carry_fields(restore_logging: None) -> None:
    stream = io.StringIO()
    configure_logging(LoggingConfig(), stream=stream)

    logging.getLogger("felt.test").info("table opened", extra={"guild_id": 42, "note": "two words"})

    line = stream.getvalue().strip()
    assert line.endswith('INFO    felt.test: table opened guild_id=42 note="two words"')


def test_logs_json_lines_are_objects_with_fields_and_traceback(restore_logging: None) -> None:
    stream = io.StringIO()
    configure_logging(LoggingConfig(format=LogFormat.JSON), stream=stream)

    try:
        raise ValueError("bad chip count")
    except ValueError:
        logging.getLogger("felt.test").exception("failed", extra={"error_id": "ab12cd34"})

    entry = json.loads(stream.getvalue())
    assert entry["level"] == "ERROR"
    assert entry["logger"] == "felt.test"
    assert entry["message"] == "failed"
    assert entry["error_id"] == "ab12cd34"
    assert "ValueError: bad chip count" in entry["exception"]
    assert entry["time"].endswith("Z")


def test_logs_levels_apply_to_felt_and_discord_separately(restore_logging: None) -> None:
    stream = io.StringIO()
    configure_logging(
        LoggingConfig(level=LogLevel.DEBUG, discord_level=LogLevel.ERROR), stream=stream
    )

    logging.getLogger("felt.test").debug("felt debug")
    logging.getLogger("discord.gateway").warning("discord warning")

    assert "felt debug" in stream.getvalue()
    assert "discord warning" not in stream.getvalue()
