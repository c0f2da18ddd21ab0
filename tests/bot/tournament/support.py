"""What director tests share: a front that records and checks every step, quick bots, and a
tournament created in real storage with members registered."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from bot.holdem.events import TableEvent
from bot.holdem.seating import BOT_NAMES
from bot.tournament.director import TableHome, TournamentDirector
from bot.tournament.news import ClockChanged, TournamentNews
from bot.tournament.table import TournamentTable
from engine.bots import Personality
from engine.holdem import Action, Call, Check, Fold, Hand, RaiseTo
from engine.tournament.structure import Structure
from storage import Storage
from storage.tournaments import TournamentKind, TournamentRow
from tests.bot.recorder import Recorder

GUILD, LOBBY = 1000, 2000
ALICE, BOB = 11, 12
_SOON = datetime(2030, 1, 1, tzinfo=UTC)


class Pusher:
    """A bot that moves all in a third of the time and otherwise checks or calls: quick
    tournaments that still see showdowns, side pots and busts."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def decide(self, hand: Hand, player: int) -> Action:
        legal = hand.turn
        assert legal is not None and legal.player == player
        if legal.max_raise_to is not None and self.rng.random() < 0.3:
            return RaiseTo(legal.max_raise_to)
        if legal.can_check:
            return Check()
        return Call() if self.rng.random() < 0.7 else Fold()


def pushers(
    name: str, strategy: str, rng: random.Random, personality: Personality | None = None
) -> Pusher:
    return Pusher(rng)


Check_ = Callable[[TournamentDirector], None]


@dataclass
class RecordingFront:
    """A front that keeps every table's events and the news, and runs ``check`` on the
    director at every redraw of the tournament message (after every hand and clock step)."""

    tournament_id: int
    check: Check_ | None = None
    director: TournamentDirector | None = None
    tables: dict[int, Recorder[TableEvent]] = field(default_factory=dict)
    news: list[TournamentNews] = field(default_factory=list)
    checks: int = 0
    hosts: dict[int, TournamentTable] = field(default_factory=dict)

    async def open_table(self, table_no: int, known: tuple[int, int] | None) -> TableHome:
        recorder = self.tables.setdefault(table_no, Recorder())
        table_id = self.tournament_id * 100 + table_no
        return TableHome(table_id, 9000 + table_id, recorder)

    def hosted(self, table: TournamentTable) -> None:
        self.hosts[table.table_no] = table

    async def publish(self, news: TournamentNews) -> None:
        self.news.append(news)
        if isinstance(news, ClockChanged) and self.check and self.director is not None:
            self.check(self.director)
            self.checks += 1


async def new_tournament(
    storage: Storage,
    structure: Structure,
    *,
    kind: TournamentKind = TournamentKind.SIT_AND_GO,
    buy_in: int = 100,
    fee: int = 10,
    seats: int = 6,
    max_entries: int = 6,
    members: tuple[int, ...] = (ALICE, BOB),
    bots_fill: bool = True,
) -> TournamentRow:
    """A tournament in #LOBBY with ``members`` registered (each granted 1,000 chips first)."""
    row = await storage.create_tournament(
        GUILD,
        LOBBY,
        ALICE,
        "Friday",
        kind,
        buy_in,
        fee,
        json.dumps(structure.to_mapping()),
        seats,
        max_entries,
        None if kind is TournamentKind.SIT_AND_GO else _SOON,
        bots_fill,
        key="create-1",
    )
    for member in members:
        await storage.admin_grant(GUILD, member, 1_000, actor_id=ALICE, key=f"grant-{member}")
        await storage.register_tournament(row.tournament_id, member, key=f"register-{member}")
    return row


async def start_in_storage(storage: Storage, tournament_id: int) -> None:
    """What the lobby does at the start: freeze the field, bots filling it when allowed."""
    row = await storage.get_tournament(tournament_id)
    assert row is not None
    count = row.max_entries - row.entries if row.bots_fill else 0
    names = [f"{BOT_NAMES[i % len(BOT_NAMES)]} {i // len(BOT_NAMES) + 1}" for i in range(count)]
    await storage.start_tournament(tournament_id, bots=names)
