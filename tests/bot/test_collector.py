"""The garbage collector's pauses stay short (``bot/discord/collector``): what survives a full
collection is frozen, and everything is thawed once a while so garbage cycles are freed."""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator

import pytest

from bot.discord.collector import SWITCH_SECONDS, THRESHOLDS, Freezer, short_pauses


@pytest.fixture
def thawed() -> Iterator[None]:
    gc.unfreeze()
    yield
    gc.unfreeze()


def test_collector_freezes_what_survives_a_middle_collection_and_thaws_after_a_while(
    thawed: None,
) -> None:
    now = [100.0]
    freezer = Freezer(clock=lambda: now[0], thaw_seconds=60.0)
    freezer("start", {"generation": 1})
    freezer("stop", {"generation": 0})  # a young collection: nothing frozen
    assert gc.get_freeze_count() == 0
    freezer("stop", {"generation": 1})
    assert gc.get_freeze_count() > 0 and freezer.freezes == 1
    now[0] = 160.0
    freezer("stop", {"generation": 1})
    assert gc.get_freeze_count() == 0 and freezer.thaws == 1
    # Thawed, nothing is frozen again until a full collection has walked it all once.
    freezer("stop", {"generation": 1})
    assert gc.get_freeze_count() == 0 and freezer.freezes == 1
    freezer("stop", {"generation": 2})
    assert gc.get_freeze_count() > 0 and freezer.freezes == 2 and not freezer.thawing


def test_collector_can_freeze_after_full_collections_only(thawed: None) -> None:
    freezer = Freezer(thaw_seconds=3600.0, from_generation=2)
    freezer("stop", {"generation": 1})
    assert gc.get_freeze_count() == 0
    freezer("stop", {"generation": 2})
    assert gc.get_freeze_count() > 0 and freezer.freezes == 1


def test_collector_leaves_frozen_objects_out_of_the_next_full_collection(thawed: None) -> None:
    gc.collect()
    freezer = Freezer(thaw_seconds=3600.0)
    freezer("stop", {"generation": 2})
    frozen = gc.get_freeze_count()
    assert frozen > 0
    before = len(gc.get_objects(generation=2))
    assert before < frozen  # the old generation holds only what came since


def test_collector_short_pauses_end_with_everything_thawed_and_the_callback_gone(
    thawed: None,
) -> None:
    with short_pauses() as freezer:
        assert freezer in gc.callbacks
        gc.collect()
        assert gc.get_freeze_count() > 0
    assert freezer not in gc.callbacks and gc.get_freeze_count() == 0


def test_collector_short_pauses_switch_threads_every_millisecond_and_restore_the_interval() -> None:
    before = sys.getswitchinterval()
    with short_pauses():
        assert sys.getswitchinterval() == pytest.approx(SWITCH_SECONDS)
    assert sys.getswitchinterval() == before


def test_collector_short_pauses_set_the_collection_thresholds_and_restore_them() -> None:
    before = gc.get_threshold()
    with short_pauses():
        assert gc.get_threshold() == THRESHOLDS
    with short_pauses(thresholds=(700, 10, 10)):
        assert gc.get_threshold() == (700, 10, 10)
    assert gc.get_threshold() == before
