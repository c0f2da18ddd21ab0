"""Files attached to Felt's messages, made so that reference counting frees them once sent.

discord.py stubs out a file's ``close`` while it sends (a request may be retried) and, once
done, puts back the bytes' own bound ``close`` as an attribute of the bytes: a reference cycle,
which holds the whole picture until the cyclic garbage collector finds it. In ``felt run`` a
cycle that lived through a full collection waits for the hourly thaw (``collector``), and a
thousand tables send pictures every second. ``attachment`` wraps the bytes so that putting its
own ``close`` back leaves nothing behind.
"""

from __future__ import annotations

import io
from typing import Any

import discord


class _SentBytes(io.BytesIO):
    """Bytes whose own ``close``, set back on them, is not stored (the class's is the same)."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "close" and getattr(value, "__self__", None) is self:
            self.__dict__.pop("close", None)  # its own close: the class's serves, no cycle
            return
        super().__setattr__(name, value)


def attachment(data: bytes, filename: str, description: str | None = None) -> discord.File:
    """A ``discord.File`` of ``data`` named ``filename`` (``description``: its alt text)."""
    return discord.File(_SentBytes(data), filename=filename, description=description)
