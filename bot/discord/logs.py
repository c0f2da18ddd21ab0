"""Structured logging: one line per record, with the record's context as fields.

Code logs the message for people and the facts as ``extra`` fields::

    _log.info("table opened", extra={"guild_id": guild.id, "table_id": table.id})

The text format appends them as ``key=value``; the JSON format makes them keys of the object.
``[logging] level`` applies to Felt's loggers (everything but discord.py's), ``discord_level``
to discord.py's. discord.py's network errors are logged in one line, without their traceback.
"""

from __future__ import annotations

import asyncio
import datetime
import json
import logging
import sys
from typing import Any, TextIO

import aiohttp

from bot.config import LogFormat, LoggingConfig

# Attributes every LogRecord has; anything else on a record came from ``extra``.
_STANDARD = frozenset(
    logging.LogRecord("", 0, "", 0, "", None, None).__dict__.keys()
    | {"message", "asctime", "taskName"}
)


def record_fields(record: logging.LogRecord) -> dict[str, Any]:
    """The ``extra`` fields of a record."""
    return {key: value for key, value in record.__dict__.items() if key not in _STANDARD}


def _timestamp(record: logging.LogRecord) -> str:
    moment = datetime.datetime.fromtimestamp(record.created, tz=datetime.UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _field_text(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, default=str)
    if text == "" or any(character.isspace() or character in '"=' for character in text):
        return json.dumps(text)
    return text


class TextFormatter(logging.Formatter):
    """``2026-01-02T03:04:05.678Z INFO    felt.discord: message key=value ...``"""

    def format(self, record: logging.LogRecord) -> str:
        line = f"{_timestamp(record)} {record.levelname:<7} {record.name}: {record.getMessage()}"
        fields = record_fields(record)
        if fields:
            line += " " + " ".join(f"{key}={_field_text(value)}" for key, value in fields.items())
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, the fields, and any traceback."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": _timestamp(record),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry.update(record_fields(record))
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str, ensure_ascii=False)


def configure_logging(config: LoggingConfig, *, stream: TextIO | None = None) -> logging.Handler:
    """Install one handler on the root logger as configured; returns it (tests remove it).

    ``stream`` overrides where records go when ``config.file`` is empty (default stderr).
    """
    handler: logging.Handler
    if config.file:
        handler = logging.FileHandler(config.file, encoding="utf-8")
    else:
        handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter() if config.format is LogFormat.JSON else TextFormatter())
    handler.addFilter(NetworkErrorsInOneLine())
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(config.level.value)
    logging.getLogger("discord").setLevel(config.discord_level.value)
    # discord.py warns at import about voice support we never use.
    logging.getLogger("discord.client").addFilter(_VOICE_WARNING_FILTER)
    return handler


class _VoiceWarningFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return "voice will NOT be supported" not in record.getMessage()


_VOICE_WARNING_FILTER = _VoiceWarningFilter()


NETWORK_ERRORS = (OSError, asyncio.TimeoutError, aiohttp.ClientError)


class NetworkErrorsInOneLine(logging.Filter):
    """discord.py logs each failed connection attempt with a traceback, every few seconds while
    Discord is unreachable. For a network error the error's own line says everything, so its
    records keep the message and the error, without the traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if record.name.startswith("discord.") and isinstance(error, NETWORK_ERRORS):
            record.msg = f"{record.getMessage()} ({type(error).__name__}: {error})"
            record.args = None
            record.exc_info = None
            record.exc_text = None
        return True
