"""How late registration reads in Discord: the lobby message before and after the start, the
tournament message, and the lobby's buttons (Register alone once it runs)."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime

from bot.discord.tournament.clock_message import tournament_text
from bot.discord.tournament.formatting import lobby_text
from bot.discord.tournament.lobby_buttons import lobby_view
from bot.tournament.late import LateRegistration
from engine.tournament.structure import Format, preset
from storage.tournaments import TournamentEntry, TournamentKind, TournamentRow, TournamentStatus
from tests.bot.test_tournament_message import view

START = datetime(2030, 1, 1, 20, tzinfo=UTC)


def mtt(**changes: object) -> TournamentRow:
    row = TournamentRow(
        tournament_id=7, guild_id=1, channel_id=2, created_by=3, name="Sunday",
        kind=TournamentKind.MULTI_TABLE, buy_in=100, fee=0,
        structure_json=json.dumps(preset("hyper", Format.MULTI_TABLE).to_mapping()),
        seats_per_table=9, max_entries=50, starts_at=START, bots_fill=False,
        status=TournamentStatus.REGISTERING, entries=2, prize_pool=300, fees=0,
        lobby_message_id=None, created_at=START, started_at=None, ended_at=None,
    )  # fmt: skip
    return replace(row, **changes)  # type: ignore[arg-type]


def entry(user_id: int, re_entries: int = 0) -> TournamentEntry:
    paid = 100 * (1 + re_entries)
    return TournamentEntry(user_id, 7, user_id, None, True, paid, 0, 0, 0, 0, re_entries, None, 0)


def test_the_lobby_says_until_which_level_and_when_late_registration_closes() -> None:
    text = lobby_text(mtt(), [entry(11), entry(12, re_entries=1)])
    closes = int(START.timestamp()) + 3 * 3 * 60  # three hyper levels of 3 minutes
    assert f"Late registration open until the end of level 3 (closes <t:{closes}:R>)." in text
    assert "Entries: 3/50" in text, "a re-entry counts in the field"
    assert "late registration to the end of level 3 · 1 re-entry" in text


def test_a_running_lobby_shows_late_registration_while_open_and_closed_after() -> None:
    running = mtt(status=TournamentStatus.RUNNING)
    open_text = lobby_text(running, [entry(11)], LateRegistration(True, 3, 1_900_000_000.0))
    assert "Running.\nLate registration open until the end of level 3" in open_text
    assert "<t:1900000000:R>" in open_text
    closed = lobby_text(running, [entry(11)], LateRegistration(False, 3, None))
    assert "Running: registration is closed." in closed and "Late registration" not in closed


def test_the_tournament_message_shows_late_registration_only_while_open() -> None:
    opened = tournament_text(view(late=LateRegistration(True, 4, 1_800_000_600.0)))
    assert "Late registration open until the end of level 4 (closes <t:1800000600:R>)." in opened
    by_hands = tournament_text(view(late=LateRegistration(True, 4, None)))
    assert "Late registration open until the end of level 4." in by_hands
    assert "Late registration" not in tournament_text(view(late=LateRegistration(False, 4, None)))


def labels(started: bool, taking: bool = True) -> list[str]:
    shown = lobby_view(7, open_for_registration=taking, started=started)
    return [] if shown is None else [item.item.label for item in shown.children]  # type: ignore[attr-defined]


def test_the_lobby_offers_register_alone_during_late_registration_and_nothing_after() -> None:
    assert labels(started=False) == ["Register", "Unregister"]
    assert labels(started=True) == ["Register"]
    assert labels(started=True, taking=False) == []
