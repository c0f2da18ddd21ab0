"""Home-game hands in the PokerStars and OHH exports and in the statistics: straddles, a board
run twice, a double board, a bomb pot."""

from __future__ import annotations

import json
from random import Random

from engine.cards import parse_cards
from engine.holdem import (
    Call,
    Check,
    ChooseRunCount,
    Hand,
    HandOptions,
    Phase,
    RaiseTo,
    Stakes,
    ohh,
    phh,
    stacked_deck,
)
from engine.holdem.pokerstars import dumps
from engine.holdem.stats import hand_stats
from engine.holdem.story import tell
from tests.engine.holdem.export_hands import LABEL

AA, KK = parse_cards("AhAd"), parse_cards("KhKd")


def _finish(hand: Hand, runs: int = 1) -> Hand:
    while not hand.is_complete:
        legal = hand.turn
        assert legal is not None
        if hand.phase is Phase.RUN_COUNT:
            hand.act(legal.player, ChooseRunCount(runs))
        elif legal.can_check:
            hand.act(legal.player, Check())
        else:
            hand.act(legal.player, Call())
    return hand


def run_twice() -> Hand:
    """Heads-up, all in preflop, run twice: aces hold on one board, kings hit the other."""
    deck = stacked_deck([AA, KK], parse_cards("2c7d9s3hJc"))
    hand = Hand(Stakes.standard(2, 1, 2), [100, 100], deck=deck, options=HandOptions(2))
    legal = hand.turn
    assert legal is not None and legal.max_raise_to is not None
    hand.act(legal.player, RaiseTo(legal.max_raise_to))
    return _finish(hand, runs=2)


def test_pokerstars_run_twice_has_first_and_second_boards_and_showdowns() -> None:
    hand = run_twice()
    assert hand.run_count == 2
    text = dumps(tell(phh.from_hand(hand)), LABEL, hero=0)
    lines = text.splitlines()
    first_flop = next(i for i, line in enumerate(lines) if line.startswith("*** FIRST FLOP ***"))
    second_flop = next(i for i, line in enumerate(lines) if line.startswith("*** SECOND FLOP"))
    first_show = lines.index("*** FIRST SHOW DOWN ***")
    second_show = lines.index("*** SECOND SHOW DOWN ***")
    assert first_flop < second_flop < first_show < second_show < lines.index("*** SUMMARY ***")
    assert "*** SHOW DOWN ***" not in lines and "*** FLOP ***" not in text
    assert "Hand was run twice" in lines
    boards = [line for line in lines if line.endswith("]") and " Board [" in line]
    assert [b.split(" ", 1)[0] for b in boards] == ["FIRST", "SECOND"]
    collected = [line for line in lines if " collected " in line]
    assert len(collected) >= 2
    assert sum(int(line.split(" collected ")[1].split()[0]) for line in collected) == 200


def test_pokerstars_straddle_and_bomb_pot_lines() -> None:
    straddled = _finish(Hand(Stakes.straddled(4, 1, 2, straddles=2), [100] * 4))
    text = dumps(tell(phh.from_hand(straddled)), LABEL)
    assert ": posts straddle 4" in text and ": posts straddle 8" in text
    assert "Hold'em No Limit (1/2)" in text

    bomb = _finish(Hand(Stakes.bomb_pot(3, 5, 2), [100] * 3, options=HandOptions(bomb_pot=True)))
    text = dumps(tell(phh.from_hand(bomb)), LABEL)
    lines = text.splitlines()
    assert "Hold'em No Limit (1/2)" in lines[0]
    assert sum(1 for line in lines if line.endswith(": posts the ante 5")) == 3
    hole = lines.index("*** HOLE CARDS ***")
    assert lines[hole + 1].startswith("*** FLOP ***")  # no preflop action


def test_pokerstars_double_board_names_both_boards_each_street() -> None:
    options = HandOptions(bomb_pot=True, boards=2)
    # A seeded deck whose showdown is contested on both boards.
    hand = _finish(Hand(Stakes.bomb_pot(3, 5, 2), [100] * 3, rng=Random(0), options=options))
    text = dumps(tell(phh.from_hand(hand)), LABEL)
    for street in ("FLOP", "TURN", "RIVER"):
        assert f"*** FIRST {street} ***" in text and f"*** SECOND {street} ***" in text
    assert "FIRST SHOW DOWN" in text and "SECOND Board [" in text


def test_ohh_flags_and_rounds_of_home_hands() -> None:
    hand = run_twice()
    body = ohh.document(tell(phh.from_hand(hand)), LABEL, hero=0)["ohh"]
    assert "Run_It_Twice" in body["flags"]
    flops = [r for r in body["rounds"] if r["street"] == "Flop"]
    assert len(flops) == 2 and [r["id"] for r in body["rounds"]] == list(range(len(body["rounds"])))
    assert sum(w["win_amount"] for p in body["pots"] for w in p["player_wins"]) == 200
    bomb = _finish(Hand(Stakes.bomb_pot(3, 5, 2), [100] * 3, options=HandOptions(bomb_pot=True)))
    body = ohh.document(tell(phh.from_hand(bomb)), LABEL)["ohh"]
    assert "Bomb_Pot" in body["flags"]
    straddled = _finish(Hand(Stakes.straddled(4, 1, 2), [100] * 4))
    text = ohh.dumps(tell(phh.from_hand(straddled)), LABEL)
    actions = [a["action"] for r in json.loads(text)["ohh"]["rounds"] for a in r["actions"]]
    assert actions[:3] == ["Post SB", "Post BB", "Straddle"]


def test_stats_a_straddle_is_forced_and_a_bomb_pot_has_no_preflop() -> None:
    straddled = _finish(Hand(Stakes.straddled(4, 1, 2), [100] * 4))
    counts = hand_stats(straddled)
    straddler = counts[2]
    assert straddler.vpip == 0 and straddler.pfr == 0  # checked his option: nothing voluntary
    # The blinds called the straddle and the button called: voluntary; the straddler checked.
    assert [c.vpip for c in counts] == [1, 1, 0, 1]
    # bb/100 is measured in the table's big blind (2), not the straddle (4).
    assert straddler.net_bb_hundredths == straddler.net * 100 // 2

    bomb = _finish(Hand(Stakes.bomb_pot(3, 5, 2), [100] * 3, options=HandOptions(bomb_pot=True)))
    counts = hand_stats(bomb)
    assert all(c.vpip == 0 and c.pfr == 0 and c.saw_flop == 1 for c in counts)
    assert all(c.cbet_chances == 0 and c.three_bet_chances == 0 for c in counts)


def test_stats_biggest_pot_of_a_run_twice_is_the_whole_pot() -> None:
    hand = run_twice()
    counts = hand_stats(hand)
    winners = [c for c in counts if c.hands_won]
    assert winners and all(c.biggest_pot == 200 for c in winners)
