"""A finished Blackjack round as storage settles it and the channel reads it. Pure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.blackjack.events import PlayerResult
from bot.blackjack.grading import tally
from bot.blackjack.seats import Bettor
from engine.blackjack import Round
from engine.blackjack.hand import hand_value
from engine.blackjack.history import PlayerHistory, RoundHistory, dumps, summarise
from storage import DecisionGrades, RoundOutcome


@dataclass(frozen=True, slots=True)
class Settlement:
    """What a finished round pays (by member), tells the channel, and stores as history."""

    outcomes: Mapping[int, RoundOutcome]
    results: tuple[PlayerResult, ...]
    history: str
    grades: Mapping[int, DecisionGrades]
    """The members' graded decisions, stored with the settlement."""


def settle(game: Round, bettors: Sequence[Bettor], rules: str) -> Settlement:
    """The settlement of ``game``, finished, for ``bettors`` (in seat order), with the
    members' graded decisions."""
    players = [bettor.player for bettor in bettors]
    members = [bettor for bettor in bettors if not bettor.bot]
    texts = {b.user_id: tuple(f"{g.action.label}: {g.text}" for g in b.grades) for b in members}
    grades = {b.user_id: tally(b.grades) for b in members if b.grades}
    summary = summarise(game.results, game.insurance_results, seats=[p.seat for p in players])
    outcomes = {
        p.user_id: RoundOutcome(
            payout=summary[p.seat].payout,
            hands_played=max(1, summary[p.seat].hands),
            hands_won=summary[p.seat].won,
            blackjacks=summary[p.seat].blackjacks,
        )
        for p in players
    }
    results = tuple(
        PlayerResult(
            p.user_id,
            p.name,
            summary[p.seat].staked,
            summary[p.seat].payout,
            summary[p.seat].net,
            summary[p.seat].lines,
            texts.get(p.user_id, ()),
            p.bot,
        )
        for p in players
    )
    view = game.view()
    history = RoundHistory(
        rules,
        tuple(view.dealer.cards),
        hand_value(view.dealer.cards).total,
        tuple(
            PlayerHistory(
                p.user_id,
                p.name,
                tuple(
                    tuple(hand.cards)
                    for seat in view.seats
                    if seat.seat == p.seat
                    for hand in seat.hands
                ),
                summary[p.seat].lines,
            )
            for p in players
        ),
    )
    return Settlement(outcomes, results, dumps(history), grades)
