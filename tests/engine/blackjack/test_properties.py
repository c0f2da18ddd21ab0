"""Properties of random rounds under random rules: chips add up, refusals change nothing."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.blackjack import (
    Action,
    BlackjackPays,
    DoubleRule,
    Event,
    HandSettled,
    InsuranceSettled,
    Outcome,
    Phase,
    Round,
    RoundEnded,
    Rules,
    Shoe,
    StakeAdded,
    Surrender,
    Ties,
)
from engine.errors import IllegalActionError

rules_strategy = st.builds(
    Rules,
    decks=st.integers(1, 8),
    h17=st.booleans(),
    blackjack_pays=st.sampled_from(BlackjackPays),
    double=st.sampled_from(DoubleRule),
    das=st.booleans(),
    max_hands=st.integers(1, 4),
    resplit_aces=st.booleans(),
    hit_split_aces=st.booleans(),
    peek=st.booleans(),
    surrender=st.sampled_from(Surrender),
    insurance=st.booleans(),
    penetration=st.sampled_from([0.5, 0.75, 1.0]),
    reshuffle_every_round=st.booleans(),
    ties=st.sampled_from(Ties),
)
bets_strategy = st.dictionaries(st.integers(0, 6), st.integers(1, 40), min_size=1, max_size=7)


def observe(game: Round, shoe: Shoe) -> tuple[Any, ...]:
    return (
        game.view(),
        game.to_act,
        game.pending_insurance,
        tuple(game.legal_actions(seat) for seat in range(7)),
        game.results,
        game.insurance_results,
        tuple(game.seat_net(seat) for seat in game.seats),
        shoe.cards_dealt,
    )


def play_randomly(
    rules: Rules, bets: dict[int, int], seed: int, *, probe_refusals: bool
) -> tuple[Round, list[Event]]:
    rng = random.Random(seed)
    shoe = Shoe.for_rules(rules, random.Random(seed + 1))
    for _ in range(rng.randrange(3)):  # start somewhere inside the shoe
        warmup = Round(rules, shoe, {0: 1}, record_events=False)
        while not warmup.is_complete:
            decision = warmup.decision()
            fallback = sorted(decision.legal)[0]
            warmup.act(decision.seat, Action.STAND if Action.STAND in decision.legal else fallback)
    game = Round(rules, shoe, bets)
    events = list(game.events)
    while not game.is_complete:
        if game.phase is Phase.INSURANCE:
            seat = rng.choice(game.pending_insurance)
        else:
            assert game.to_act is not None
            seat = game.to_act[0]
        legal = sorted(game.legal_actions(seat))
        assert legal
        assert game.decision(seat).legal == frozenset(legal)
        if probe_refusals:
            before = observe(game, shoe)
            for action in Action:
                if action not in legal:
                    try:
                        game.act(seat, action)
                    except IllegalActionError:
                        pass
                    else:
                        raise AssertionError(f"{action} was accepted but is not legal")
                    assert observe(game, shoe) == before
        action = rng.choice(legal)
        extra = game.extra_stake(seat, action)
        new = game.act(seat, action)
        assert sum(e.amount for e in new if isinstance(e, StakeAdded)) == extra
        events += new
    return game, events


@settings(max_examples=150, deadline=None)
@given(rules=rules_strategy, bets=bets_strategy, seed=st.integers(0, 2**32))
def test_round_random_play_conserves_chips(rules: Rules, bets: dict[int, int], seed: int) -> None:
    game, events = play_randomly(rules, bets, seed, probe_refusals=False)
    assert isinstance(events[-1], RoundEnded)
    settled = [e.result for e in events if isinstance(e, HandSettled)]
    assert sorted(settled, key=lambda r: (r.seat, r.hand)) == list(game.results)
    hands = [hand for seat in game.view().seats for hand in seat.hands]
    assert len(settled) == len(hands)  # every hand settled exactly once
    insured = [e.result for e in events if isinstance(e, InsuranceSettled)]
    assert insured == list(game.insurance_results)
    for seat, bet in bets.items():
        staked = bet + sum(e.amount for e in events if isinstance(e, StakeAdded) and e.seat == seat)
        paid = sum(r.payout for r in settled if r.seat == seat) + sum(
            r.payout for r in insured if r.seat == seat
        )
        risked = sum(r.stake for r in settled if r.seat == seat) + sum(
            r.stake for r in insured if r.seat == seat
        )
        assert staked == risked
        assert paid - staked == game.seat_net(seat)
    for result in settled:
        allowed = {
            Outcome.BLACKJACK: {rules.blackjack_payout(result.stake)},
            Outcome.EVEN_MONEY: {2 * result.stake},
            Outcome.WIN: {2 * result.stake},
            Outcome.PUSH: {result.stake},
            Outcome.LOSS: {0},
            Outcome.BUST: {0},
            Outcome.SURRENDER: {Rules.surrender_refund(result.stake)},
        }[result.outcome]
        assert result.payout in allowed


@settings(max_examples=60, deadline=None)
@given(rules=rules_strategy, bets=bets_strategy, seed=st.integers(0, 2**32))
def test_round_refused_actions_never_change_the_state(
    rules: Rules, bets: dict[int, int], seed: int
) -> None:
    play_randomly(rules, bets, seed, probe_refusals=True)


@settings(max_examples=25, deadline=None)
@given(rules=rules_strategy, seed=st.integers(0, 2**32))
def test_round_without_events_plays_exactly_like_with_events(rules: Rules, seed: int) -> None:
    # The simulator switches events off; everything else must stay the same.
    outcomes = []
    for record in (True, False):
        shoe = Shoe.for_rules(rules, random.Random(seed))
        rng = random.Random(seed)
        played = []
        for _ in range(40):
            game = Round(rules, shoe, {0: 6, 4: 10}, record_events=record)
            assert (game.events == ()) is not record
            while not game.is_complete:
                decision = game.decision()
                action = rng.choice(sorted(decision.legal))
                game.act(decision.seat, action)
            played.append((game.view(), game.results, game.insurance_results))
        outcomes.append(played)
    assert outcomes[0] == outcomes[1]
