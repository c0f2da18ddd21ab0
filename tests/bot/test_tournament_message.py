"""The tournament message's and the deal offer's text, from frozen views."""

from __future__ import annotations

from bot.discord.tournament.clock_message import ordinal, tournament_text
from bot.discord.tournament.deal import deal_text, deal_view
from bot.tournament.deals import DealKind, deal_offer
from bot.tournament.news import Standing, TournamentView
from engine.tournament.structure import AnteKind, Level, Structure
from engine.tournament.tournament import Tournament, TournamentConfig


def view(**changes: object) -> TournamentView:
    base = {
        "tournament_id": 7, "name": "Friday", "level": 3, "blinds": "40/80 ante 80 (BB)",
        "next_blinds": "75/150 ante 150 (BB)", "next_change_at": 1_800_000_000.0,
        "on_break": False, "players_left": 12, "entries": 20, "average_stack": 1_666,
        "leaders": (Standing("Alice", 11, 4_000, 2),), "prizes": (1_000, 600, 400),
    }  # fmt: skip
    base.update(changes)
    return TournamentView(**base)  # type: ignore[arg-type]


def test_the_tournament_message_shows_level_next_blinds_countdown_leaders_and_payouts() -> None:
    text = tournament_text(view())
    assert "Level 3: **40/80 ante 80 (BB)**" in text
    assert "Next: 75/150 ante 150 (BB) <t:1800000000:R>" in text
    assert "Players left: 12 of 20 · average stack 1,666" in text
    assert "1. Alice 4,000 (table 2)" in text
    assert "Payouts: 1st 1,000 · 2nd 600 · 3rd 400" in text


def test_a_break_shows_when_play_resumes() -> None:
    text = tournament_text(view(on_break=True))
    assert "On a break — play resumes <t:1800000000:R>" in text


def test_ordinals() -> None:
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st",
    ]  # fmt: skip


def test_a_deal_offer_lists_both_splits_and_offers_chip_chop_only_without_bots() -> None:
    structure = Structure("s", 1_000, (Level(10, 20, hands=5),), AnteKind.BIG_BLIND)
    engine = Tournament(
        TournamentConfig("Friday", structure, 100, max_entries=3, seats_per_table=3)
    )
    for player in ("u1", "u2", "bAda"):
        engine.register(player)
    engine.start(0.0)
    offer = deal_offer(engine, {"u1": "Alice", "u2": "Bob", "bAda": "Ada"})
    assert sum(offer.split(DealKind.ICM).amounts) == sum(engine.remaining_prizes())
    assert "Alice: 1,000 chips → ICM" in deal_text(offer, "Friday")
    labels = [item.item.label for item in deal_view(1, offer).children]  # type: ignore[attr-defined]
    assert labels == ["Accept ICM", "No deal"]
