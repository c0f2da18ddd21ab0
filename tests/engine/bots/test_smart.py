"""The smart strategy in hand-picked spots: strength, price, reads, sizing and difficulty."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from engine.bots.smart import SETTINGS, Difficulty, SmartStrategy, Tendencies
from engine.bots.stats import NO_STATS, PlayerStats
from engine.bots.usual import FULL, USUAL
from engine.bots.view import SeatView
from engine.holdem import Action, Call, Check, Fold, Hand, RaiseTo
from tests.engine.bots.helpers import act_all, spots, stacked

NORMAL, HARD = SmartStrategy(Difficulty.NORMAL), SmartStrategy(Difficulty.HARD)

# Opponent profiles as a table would have recorded them over 200 hands.
ROCK = PlayerStats(
    hands=200, vpip=30, pfr=20, three_bets=4, faced_raises=60, folded_to_raises=45,
    faced_big_raises=40, folded_to_big_raises=34, aggressive=30, calls=40, checks=80,
    faced_bets=60, folded_to_bets=36, faced_big_bets=30, folded_to_big_bets=22,
    showdowns=25, shown=25, shown_percentile_sum=2.5,
)  # fmt: skip
MANIAC = PlayerStats(
    hands=200, vpip=190, pfr=180, three_bets=110, faced_raises=150, folded_to_raises=10,
    faced_big_raises=100, folded_to_big_raises=8, aggressive=400, calls=30, checks=5,
    faced_bets=90, folded_to_bets=6, faced_big_bets=60, folded_to_big_bets=5,
    showdowns=100, shown=100, shown_percentile_sum=48.0,
)  # fmt: skip
STATION = PlayerStats(
    hands=200, vpip=150, pfr=5, faced_raises=120, folded_to_raises=10, faced_big_raises=80,
    folded_to_big_raises=8, aggressive=5, calls=200, checks=150, faced_bets=200,
    folded_to_bets=10, faced_big_bets=120, folded_to_big_bets=8, showdowns=100, shown=100,
    shown_percentile_sum=50.0,
)  # fmt: skip
FOLDER = PlayerStats(
    hands=200, vpip=40, pfr=10, faced_raises=60, folded_to_raises=50, faced_big_raises=40,
    folded_to_big_raises=38, aggressive=10, calls=20, checks=150, faced_bets=100,
    folded_to_bets=85, faced_big_bets=60, folded_to_big_bets=56, showdowns=10, shown=10,
    shown_percentile_sum=1.5,
)  # fmt: skip


def choices(
    strategy: SmartStrategy, hand: Hand, stats: tuple[PlayerStats, ...] | None, runs: int = 40
) -> Counter[str]:
    turn = hand.turn
    assert turn is not None
    player = turn.player
    view = SeatView.from_hand(hand, player, stats=stats)
    out: Counter[str] = Counter()
    for seed in range(runs):
        action = strategy.decide(view, random.Random(seed))
        assert view.legal.allows(action)
        out[type(action).__name__] += 1
    return out


def only(
    strategy: SmartStrategy, hand: Hand, stats: tuple[PlayerStats, ...] | None = None
) -> Action:
    turn = hand.turn
    assert turn is not None
    player = turn.player
    return strategy.decide(SeatView.from_hand(hand, player, stats=stats), random.Random(1))


@pytest.mark.parametrize("strategy", [NORMAL, HARD], ids=repr)
def test_smart_plays_aces_for_a_raise(strategy: SmartStrategy) -> None:
    hand = stacked(["7c2d", "8s3h", "AsAh", "KdQc", "9h9c", "Js4s"])
    assert isinstance(only(strategy, hand), RaiseTo)
    act_all(hand, RaiseTo(6))  # now the player after the aces must decide...
    hand = stacked(["7c2d", "8s3h", "QdJh", "KdQc", "AsAh", "Js4s"])
    act_all(hand, RaiseTo(6), Fold())
    assert isinstance(only(strategy, hand, (ROCK,) * 6), RaiseTo)  # ...and aces re-raise


@pytest.mark.parametrize("strategy", [NORMAL, HARD], ids=repr)
def test_smart_folds_junk_first_to_act_at_a_full_table(strategy: SmartStrategy) -> None:
    hand = stacked(["AsAh", "KdKc", "7c2d", "QdQc", "JsJh", "TsTh", "9s9h", "8s8h", "6s6h"])
    assert only(strategy, hand) == Fold()  # strangers: nothing is known about them yet
    assert only(strategy, hand, (STATION,) * 9) == Fold()


def test_smart_never_folds_the_nuts_on_the_river() -> None:
    # Heads-up: player 1 (the button) holds a royal flush and faces a river bet.
    hand = stacked(["QsQd", "AhKh"], "QhJhTh2c3d")
    act_all(hand, Call(), Check(), Check(), Check(), Check(), Check(), RaiseTo(40))
    assert hand.turn is not None and hand.turn.player == 1
    for strategy in (NORMAL, HARD):
        counts = choices(strategy, hand, (ROCK, ROCK))
        assert counts["Fold"] == 0
        assert counts["RaiseTo"] > counts["Call"]  # raise for value


def test_smart_folds_air_to_a_big_river_bet_from_a_rock() -> None:
    hand = stacked(["Ks9s", "7c2d"], "Ad8h4c3sJd")  # king high, no draw left
    act_all(hand, Call(), Check(), Check(), Check(), Check(), Check(), RaiseTo(12))
    assert hand.turn is not None and hand.turn.player == 1
    counts = choices(HARD, hand, (ROCK, ROCK))
    assert counts["Fold"] >= 38


def test_smart_calls_a_maniac_lighter_than_a_rock() -> None:
    # Middle pair on the river facing a bet of twice the pot.
    hand = stacked(["AsQd", "8h7h"], "8c4d2s Kc 3h")
    act_all(hand, Call(), Check(), Check(), Check(), Check(), Check(), RaiseTo(8))
    assert hand.turn is not None and hand.turn.player == 1
    against_rock = choices(HARD, hand, (ROCK, ROCK))
    against_maniac = choices(HARD, hand, (MANIAC, MANIAC))
    assert against_rock["Fold"] >= 30
    assert against_maniac["Fold"] <= 10


def test_smart_bluffs_folders_more_than_calling_stations() -> None:
    # Nothing on the river, checked to: a bluff can only win if the opponent folds.
    hand = stacked(["Ts9s", "7c2d"], "Ad8h4c3sKd")
    act_all(hand, Call(), Check(), Check(), Check(), Check(), Check(), Check())
    assert hand.turn is not None and hand.turn.player == 1
    against_folder = choices(HARD, hand, (FOLDER, FOLDER), runs=60)
    against_station = choices(HARD, hand, (STATION, STATION), runs=60)
    assert against_folder["RaiseTo"] > against_station["RaiseTo"]
    assert against_station["RaiseTo"] <= 6


def test_smart_bets_are_sized_from_the_pot_and_legal() -> None:
    sizes = []
    for _hand, view in spots(400, seed=13):
        action = NORMAL.decide(view, random.Random(2))
        assert view.legal.allows(action)
        if not isinstance(action, RaiseTo) or not view.legal.is_bet or view.street == 0:
            continue
        if action.amount < 0.67 * view.stack:  # bigger bets go all-in on purpose
            sizes.append(action.amount / view.pot_total)
    assert sizes
    assert all(0.0 < size <= 1.6 for size in sizes)


def test_smart_difficulties_differ_in_samples_noise_and_reads() -> None:
    easy, normal, hard = (SETTINGS[level] for level in Difficulty)
    assert easy.samples < normal.samples < hard.samples
    assert easy.noise > normal.noise > hard.noise == 0.0
    assert easy.reading < normal.reading < hard.reading
    assert easy.exploit < normal.exploit < hard.exploit


def test_tendencies_start_from_priors_and_follow_observations() -> None:
    unknown = Tendencies.of(NO_STATS, 1.0)
    maniac = Tendencies.of(MANIAC, 1.0)
    ignored = Tendencies.of(MANIAC, 0.0)
    assert dataclasses.astuple(ignored) == pytest.approx(dataclasses.astuple(unknown))
    assert maniac.aggression > 0.8 > unknown.aggression
    assert maniac.fold_to_bet < unknown.fold_to_bet
    assert maniac.shown_width > 0.8 and maniac.informative < 0.2
    rock = Tendencies.of(ROCK, 1.0)
    assert rock.fold_chance(False, 0.45) > rock.fold_chance(False, 0.15)


def heads_up(stats: PlayerStats) -> PlayerStats:
    """``stats`` as recorded at a heads-up table (every hand two-handed)."""
    return dataclasses.replace(
        stats,
        wider_vpip_sum=stats.hands * (USUAL[2].vpip - FULL.vpip),
        wider_shown_sum=stats.shown * (USUAL[2].shown - FULL.shown),
    )


# A heads-up regular: plays 75% of hands and shows down hands around the 38th percentile.
HEADS_UP_REGULAR = heads_up(
    dataclasses.replace(ROCK, vpip=150, pfr=90, shown=60, shown_percentile_sum=60 * 0.38)
)


def test_a_heads_up_regular_is_read_as_a_regular_not_as_a_loose_player() -> None:
    regular = Tendencies.of(HEADS_UP_REGULAR, 1.0)
    # The same showdowns and VPIP at 6-max would be a loose, careless player's.
    at_six_max = Tendencies.of(dataclasses.replace(HEADS_UP_REGULAR, wider_vpip_sum=0.0,
                                                   wider_shown_sum=0.0), 1.0)  # fmt: skip
    assert regular.shown_width == pytest.approx(at_six_max.shown_width)
    assert regular.shown_width > 0.6  # the ranges are wide all the same
    assert at_six_max.informative < 0.25 and at_six_max.full_vpip > 0.7
    assert regular.informative > 0.4 and regular.full_vpip < 0.3
    # A heads-up maniac, who shows down any two cards, is still read as one.
    maniac = Tendencies.of(heads_up(MANIAC), 1.0)
    assert maniac.informative < 0.25 and maniac.full_vpip > 0.35


def test_smart_reads_a_heads_up_regulars_reraise_as_a_range_not_any_two_cards() -> None:
    # The button (player 1) opens with K-T and the big blind re-raises to 20. A heads-up
    # regular re-raises from a range, so K-T calls; a maniac re-raises any two cards, so K-T
    # moves in over it.
    hand = stacked(["7c2d", "KsTh"])
    act_all(hand, RaiseTo(5), RaiseTo(20))
    regular = choices(HARD, hand, (HEADS_UP_REGULAR, NO_STATS))
    maniac = choices(HARD, hand, (heads_up(MANIAC), NO_STATS))
    assert regular == Counter(Call=40)
    assert maniac == Counter(RaiseTo=40)


def test_smart_calls_all_in_for_the_big_blind_when_it_cannot_raise() -> None:
    # First to act with exactly a big blind behind: raising is impossible, and aces call.
    hand = stacked(["7c2d", "8s3h", "AsAh"], stacks=[200, 200, 2])
    view = SeatView.from_hand(hand, 2)
    assert not view.legal.can_raise
    assert only(NORMAL, hand) == Call()


@pytest.mark.parametrize("strategy", [NORMAL, HARD], ids=repr)
def test_smart_opens_strong_hands_into_maniacs_who_reraise_any_two_cards(
    strategy: SmartStrategy,
) -> None:
    # A maniac's re-raise is any two cards, so it is called, not feared; junk still folds.
    for hole in ("QsQh", "AsKh", "TsTh"):
        hand = stacked(["7c2d", "8s3h", hole, "KdQc", "9h9c", "Js4s"])
        assert isinstance(only(strategy, hand, (MANIAC,) * 6), RaiseTo), hole
    hand = stacked(["7c2d", "8s3h", "8d3c", "KdQc", "9h9c", "Js4s"])
    assert only(strategy, hand, (MANIAC,) * 6) == Fold()


def test_hard_flats_a_three_bet_only_with_hands_in_its_flat_range() -> None:
    # Six-handed: the cutoff (player 4) opens, the button 3-bets, the blinds fold. King-jack
    # offsuit (about the top 12% of hands) is outside hard's range for flatting a 3-bet out of
    # position (``FLAT_RERAISE``), so it always folds; king-queen suited (top 5%) may call.
    def facing_three_bet(cutoff: str) -> Hand:
        hand = stacked(["7c2d", "8s3h", "9d4c", "6h2s", cutoff, "AdTc"])
        act_all(hand, Fold(), Fold(), RaiseTo(6), RaiseTo(18), Fold(), Fold())
        assert hand.turn is not None and hand.turn.player == 4
        return hand

    stats = (ROCK,) * 6
    assert choices(HARD, facing_three_bet("KhJd"), stats) == Counter({"Fold": 40})
    assert choices(HARD, facing_three_bet("KsQs"), stats)["Fold"] < 40


def test_normal_raises_an_overpair_facing_a_turn_bet_more_often_than_it_calls() -> None:
    # Kings on a dry board facing a half-pot turn bet from a rock: the prices alone mostly
    # call (a rock's calls of a raise are strong), but a regular raises such a hand for value
    # far more often than it slow-plays it (``PostflopStyle.value_raise``); it never folds it.
    hand = stacked(["QsJd", "KhKc"], "9d5s2c3h4d")
    act_all(hand, RaiseTo(6), Call(), RaiseTo(6), Call(), RaiseTo(12))
    assert hand.turn is not None and hand.turn.player == 1
    counts = choices(NORMAL, hand, (ROCK, ROCK))
    assert counts["Fold"] == 0
    assert counts["RaiseTo"] > 3 * counts["Call"]


def test_hard_steals_with_any_two_cards_only_from_a_big_blind_who_folds_to_opens() -> None:
    # Heads-up, the button (player 1) holds the worst hand, outside hard's opening chart: it
    # opens against a big blind seen folding to most raises (the folds alone pay), and
    # folds against one seen defending.
    defender = dataclasses.replace(FOLDER, folded_to_raises=12, folded_to_big_raises=8)
    hand = stacked(["AsKd", "7c2d"])
    assert hand.turn is not None and hand.turn.player == 1
    assert choices(HARD, hand, (FOLDER, FOLDER)) == Counter({"RaiseTo": 40})
    assert choices(HARD, hand, (defender, defender)) == Counter({"Fold": 40})


# Blinds seen folding to three opens in four: more than the priors expect (about five in
# eight), not enough for any two cards to open from the button (over about four in five each).
SLIGHT_FOLDER = dataclasses.replace(
    FOLDER, faced_raises=60, folded_to_raises=44, faced_big_raises=40, folded_to_big_raises=30
)


def button_first_in(button: str) -> Hand:
    """A 6-max hand folded round to the button (player 5), who holds ``button``."""
    hand = stacked(["8s3h", "9c4d", "7s2h", "Kd3c", "Qh2s", button])
    act_all(hand, Fold(), Fold(), Fold())
    assert hand.turn is not None and hand.turn.player == 5
    return hand


def test_hard_widens_its_button_opens_only_as_far_as_the_blinds_folds_pay() -> None:
    # T7o is just outside the button's chart (percentile 0.53 against 0.46): folded against
    # blinds nothing is known of (the chart is for them), opened against blinds who fold to
    # opens more than the priors expect. 72o, the worst of hands, still folds against them:
    # only clear over-folders are stolen from with any two cards.
    unknown = button_first_in("Th7c")
    assert choices(HARD, unknown, None) == Counter({"Fold": 40})
    stats = (SLIGHT_FOLDER, SLIGHT_FOLDER, ROCK, ROCK, ROCK, ROCK)
    assert choices(HARD, button_first_in("Th7c"), stats) == Counter({"RaiseTo": 40})
    assert choices(HARD, button_first_in("7h2c"), stats) == Counter({"Fold": 40})
    over_folders = (FOLDER, FOLDER, ROCK, ROCK, ROCK, ROCK)
    assert choices(HARD, button_first_in("7h2c"), over_folders) == Counter({"RaiseTo": 40})


def test_hard_opens_only_its_chart_from_the_cutoff_even_against_folding_blinds() -> None:
    # With three players left to fold, a hand outside the chart does not open, however much
    # the players behind fold: people steal from the button and the small blind.
    hand = stacked(["8s3h", "9c4d", "7s2h", "Kd3c", "Th7c", "Qh2s"])
    act_all(hand, Fold(), Fold())
    assert hand.turn is not None and hand.turn.player == 4
    stats = (FOLDER, FOLDER, ROCK, ROCK, ROCK, FOLDER)
    assert choices(HARD, hand, stats) == Counter({"Fold": 40})
