"""Fixtures for the Blackjack table host: real storage in tmp_path."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import Storage


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    opened = await Storage.open(tmp_path / "felt.db")
    try:
        yield opened
    finally:
        await opened.close()
