"""A finished Blackjack round as storage settles it and the channel reads it. Pure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from bot.blackjack.events import PlayerResult
from bot.blackjack.grading import tally
from bot.blackjack.seats import SIDE_BET_NAMES, Bettor
from engine.blackjack import Round
from engine.blackjack.hand import hand_value
from engine.blackjack.history import PlayerHistory, RoundHistory, dumps, summarise
from engine.blackjack.sidebets import (
    pair_kind,
    perfect_pairs_payout,
    three_card_hand,
    twenty_one_three_payout,
)
from storage import BetReason, DecisionGrades, RoundOutcome


@dataclass(frozen=True, slots=True)
class Settlement:
    """What a finished round pays (by member), tells the channel, and stores as history."""

    outcomes: Mapping[int, RoundOutcome]
    results: tuple[PlayerResult, ...]
    history: str
    grades: Mapping[int, DecisionGrades]
    """The members' graded decisions, stored with the settlement."""


def settle(game: Round, bettors: Sequence[Bettor], rules: str) -> Settlement:
    """The settlement of ``game``, finished, for ``bettors`` (in seat order): the main bets,
    the side bets on the opening cards, and the members' graded decisions."""
    players = [bettor.player for bettor in bettors]
    members = [bettor for bettor in bettors if not bettor.bot]
    texts = {b.user_id: tuple(f"{g.action.label}: {g.text}" for g in b.grades) for b in members}
    grades = {b.user_id: tally(b.grades) for b in members if b.grades}
    summary = summarise(game.results, game.insurance_results, seats=[p.seat for p in players])
    sides = {b.user_id: side_bet_results(game, b) for b in bettors}
    outcomes = {
        p.user_id: RoundOutcome(
            payout=summary[p.seat].payout + sides[p.user_id].payout,
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
            summary[p.seat].staked + sides[p.user_id].staked,
            summary[p.seat].payout + sides[p.user_id].payout,
            summary[p.seat].net + sides[p.user_id].net,
            summary[p.seat].lines + sides[p.user_id].lines,
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
                summary[p.seat].lines + sides[p.user_id].lines,
            )
            for p in players
        ),
    )
    return Settlement(outcomes, results, dumps(history), grades)


def paid_results(
    results: Sequence[PlayerResult], paid: Mapping[int, int]
) -> tuple[PlayerResult, ...]:
    """``results`` as storage paid them: a member whose wallet reached the chip limit was paid
    only up to it (the rest went to the house), and their result says so."""
    adjusted = []
    for result in results:
        payout = paid.get(result.user_id, result.payout)
        short = result.payout - payout
        if short > 0:
            note = f"{short:,} chips not paid: the wallet is at the chip limit"
            lines = (*result.lines, note)
            adjusted.append(replace(result, payout=payout, net=result.net - short, lines=lines))
        else:
            adjusted.append(result)
    return tuple(adjusted)


@dataclass(frozen=True, slots=True)
class SideBetResults:
    """A player's side bets settled on the opening cards."""

    staked: int = 0
    payout: int = 0
    lines: tuple[str, ...] = ()

    @property
    def net(self) -> int:
        return self.payout - self.staked


def side_bet_results(game: Round, bettor: Bettor) -> SideBetResults:
    """What ``bettor``'s side bets pay on their first two cards and the dealer's up card: a
    win pays the "to one" multiple and returns the stake."""
    if not bettor.side_bets:
        return SideBetResults()
    cards = game.opening_cards(bettor.seat)
    up = game.dealer_up
    payout, lines = 0, []
    for reason in SIDE_BET_NAMES:  # in the order tables name them
        stake = bettor.side_bets.get(reason, 0)
        if not stake:
            continue
        if reason is BetReason.SIDE_21_3:
            assert game.rules.side_21_3 is not None
            multiple = twenty_one_three_payout(cards, up, game.rules.side_21_3)
            label = three_card_hand([*cards, up]).label
        else:
            multiple = perfect_pairs_payout(cards)
            label = pair_kind(cards).label
        won = stake * (multiple + 1) if multiple else 0
        payout += won
        result = f"+{stake * multiple:,}" if multiple else f"-{stake:,}"
        lines.append(f"{SIDE_BET_NAMES[reason]}: {label} ({result})")
    return SideBetResults(sum(bettor.side_bets.values()), payout, tuple(lines))
