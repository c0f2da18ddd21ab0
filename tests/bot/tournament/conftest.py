"""Fixtures for the tournament director: real storage in tmp_path and hand-driven time."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.tables.clock import ManualScheduler
from storage import Storage


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    opened = await Storage.open(tmp_path / "felt.db")
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
def scheduler() -> ManualScheduler:
    return ManualScheduler()
