"""Example table views for previews, tests and the benchmark.

``python -m bot.render.samples [DIR]`` writes every sample as a PNG (and its text) to ``DIR``
(default ``/tmp``) so the renders can be looked at.
"""

from __future__ import annotations

import sys
from pathlib import Path

from bot.render.blackjack import render_blackjack_table
from bot.render.cards import render_cards
from bot.render.holdem import render_holdem_table
from bot.render.models import (
    BlackjackHandView,
    BlackjackPhase,
    BlackjackResultLabel,
    BlackjackSeatView,
    BlackjackTableView,
    HoldemSeatView,
    HoldemTableView,
    SeatStatus,
    Stage,
)
from bot.render.text import blackjack_table_text, holdem_table_text
from engine.cards import Card, parse_cards


def _cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def six_max_mid_hand() -> HoldemTableView:
    """6 seats on the turn: a bet to call, one fold, one bot all in, a seat to act."""
    return HoldemTableView(
        table_name="#poker-night",
        hand_number=42,
        street=Stage.TURN,
        board=_cards("Ah 7c 7d Qs"),
        pots=(1_350,),
        small_blind=10,
        big_blind=20,
        seats=(
            HoldemSeatView(1, "Alice", stack=2_480, bet=300, last_action="Bet 300"),
            HoldemSeatView(2, "Bluff Bot", stack=0, bet=180, status=SeatStatus.ALL_IN,
                           is_bot=True, last_action="All in 180"),
            HoldemSeatView(3, "bob_the_builder", stack=1_920, status=SeatStatus.FOLDED,
                           is_button=True),
            HoldemSeatView(4, "Carol", stack=5_105, is_small_blind=True, is_to_act=True),
            HoldemSeatView(5, "Calling Station", stack=830, status=SeatStatus.FOLDED,
                           is_bot=True, is_big_blind=True),
            HoldemSeatView(6, "Dave", stack=1_000, status=SeatStatus.SITTING_OUT),
        ),
    )  # fmt: skip


def ten_seat_showdown() -> HoldemTableView:
    """10 seats at showdown with a main pot and two side pots; long names; an empty seat."""
    return HoldemTableView(
        table_name="High Rollers Friday Night Extravaganza Table Number One",
        hand_number=1_207,
        street=Stage.SHOWDOWN,
        board=_cards("Kh 9s 9d 4c 2h"),
        pots=(4_800, 2_400, 600),
        small_blind=50,
        big_blind=100,
        seats=(
            HoldemSeatView(1, "Maximilian Alexander von Hohenzollern-Sigmaringen", stack=7_200,
                           shown_cards=_cards("Ks Kd"), amount_won=7_800,
                           hand_description="Full House, Kings full of Nines"),
            HoldemSeatView(2, "Ada", stack=0, status=SeatStatus.ALL_IN,
                           shown_cards=_cards("9c 8c"), hand_description="Three of a Kind, Nines"),
            HoldemSeatView(3, "Turing Bot", stack=0, status=SeatStatus.ALL_IN, is_bot=True,
                           shown_cards=_cards("Ah Qh"),
                           hand_description="Two Pair, Nines and Twos"),
            HoldemSeatView(4, "Grace Hopper", stack=3_300, status=SeatStatus.FOLDED,
                           is_button=True),
            HoldemSeatView(5, "", status=SeatStatus.EMPTY),
            HoldemSeatView(6, "🎲 Lucky 🍀 Lucy 🎰", stack=12_050, status=SeatStatus.FOLDED,
                           is_small_blind=True),
            HoldemSeatView(7, "Rock Bot", stack=900, status=SeatStatus.FOLDED, is_bot=True,
                           is_big_blind=True),
            HoldemSeatView(8, "Émile Zola", stack=2_000, status=SeatStatus.FOLDED),
            HoldemSeatView(9, "Shark Bot", stack=15_000, status=SeatStatus.SITTING_OUT,
                           is_bot=True),
            HoldemSeatView(10, "Xx_NoLimitDestroyer_xX", stack=640, status=SeatStatus.WAITING),
        ),
    )  # fmt: skip


def heads_up_preflop() -> HoldemTableView:
    """Heads-up pre-flop: the button posts the small blind and is to act."""
    return HoldemTableView(
        table_name="Heads-up",
        hand_number=3,
        street=Stage.PREFLOP,
        small_blind=5,
        big_blind=10,
        seats=(
            HoldemSeatView(1, "You Know Who", stack=995, bet=5, is_button=True,
                           is_small_blind=True, is_to_act=True),
            HoldemSeatView(2, "Nit Bot", stack=990, bet=10, is_bot=True, is_big_blind=True),
        ),
    )  # fmt: skip


def blackjack_splits() -> BlackjackTableView:
    """Four players: a split into three hands (one to act), a double, a blackjack; the
    dealer's hole card still face down."""
    return BlackjackTableView(
        table_name="#blackjack",
        round_number=17,
        phase=BlackjackPhase.PLAYERS,
        dealer_cards=_cards("Td"),
        dealer_hole_hidden=True,
        min_bet=10,
        max_bet=500,
        seats=(
            BlackjackSeatView(0, "Alice", bet=50, hands=(
                BlackjackHandView(_cards("As Kd"), total="blackjack", bet=50),
            )),
            BlackjackSeatView(1, "Bob the Splitter", bet=100, hand_to_act=1, hands=(
                BlackjackHandView(_cards("8s 3c Th"), total="21", bet=100),
                BlackjackHandView(_cards("8d 5h"), total="13", bet=100),
                BlackjackHandView(_cards("8c"), total="8", bet=100),
            )),
            BlackjackSeatView(2, "Basic Strategy Bot", bet=25, is_bot=True, hands=(
                BlackjackHandView(_cards("6h 5s"), total="11", bet=25),
            )),
            BlackjackSeatView(3, "Carol", bet=200, hands=(
                BlackjackHandView(_cards("Ah 6c"), total="soft 17", bet=200),
            )),
        ),
    )  # fmt: skip


def blackjack_settled() -> BlackjackTableView:
    """A settled round: every result label, four split hands, the dealer's total shown."""
    return BlackjackTableView(
        table_name="#blackjack",
        round_number=18,
        phase=BlackjackPhase.SETTLED,
        dealer_cards=_cards("Td 7h"),
        dealer_total="17",
        seats=(
            BlackjackSeatView(0, "Alice", bet=50, hands=(
                BlackjackHandView(_cards("As Kd"), total="blackjack", bet=50,
                                  result=BlackjackResultLabel.BLACKJACK, net=75),
            )),
            BlackjackSeatView(1, "Bob the Splitter", bet=100, hands=(
                BlackjackHandView(_cards("8s 3c Th"), total="21", bet=100,
                                  result=BlackjackResultLabel.WIN, net=100),
                BlackjackHandView(_cards("8d 5h 9c"), total="bust", bet=100,
                                  result=BlackjackResultLabel.LOSE, net=-100),
                BlackjackHandView(_cards("8c 9h"), total="17", bet=100,
                                  result=BlackjackResultLabel.PUSH, net=0),
                BlackjackHandView(_cards("8h 2d 9s"), total="19", bet=200, is_doubled=True,
                                  result=BlackjackResultLabel.WIN, net=200),
            )),
            BlackjackSeatView(2, "Basic Strategy Bot", bet=25, is_bot=True, hands=(
                BlackjackHandView(_cards("Ts 6d"), total="16", bet=25,
                                  result=BlackjackResultLabel.SURRENDER, net=-13),
            )),
        ),
    )  # fmt: skip


def blackjack_betting() -> BlackjackTableView:
    """The betting window: bets placed, nothing dealt."""
    return BlackjackTableView(
        table_name="#blackjack",
        round_number=19,
        phase=BlackjackPhase.BETTING,
        min_bet=10,
        max_bet=500,
        seats=(
            BlackjackSeatView(0, "Alice", bet=50),
            BlackjackSeatView(1, "Bob the Splitter", bet=100),
        ),
    )


HOLDEM_SAMPLES = {
    "holdem-6max-turn": six_max_mid_hand,
    "holdem-10seat-showdown": ten_seat_showdown,
    "holdem-headsup-preflop": heads_up_preflop,
}
BLACKJACK_SAMPLES = {
    "blackjack-splits-hidden": blackjack_splits,
    "blackjack-settled": blackjack_settled,
    "blackjack-betting": blackjack_betting,
}


def write_samples(directory: Path) -> list[Path]:
    """Render every sample into ``directory`` as ``felt-<name>.png`` and ``.txt``."""
    written = []
    for name, build in HOLDEM_SAMPLES.items():
        view = build()
        written.append(directory / f"felt-{name}.png")
        written[-1].write_bytes(render_holdem_table(view))
        (directory / f"felt-{name}.txt").write_text(holdem_table_text(view) + "\n")
    for name, build_blackjack in BLACKJACK_SAMPLES.items():
        table = build_blackjack()
        written.append(directory / f"felt-{name}.png")
        written[-1].write_bytes(render_blackjack_table(table))
        (directory / f"felt-{name}.txt").write_text(blackjack_table_text(table) + "\n")
    written.append(directory / "felt-hole-cards.png")
    written[-1].write_bytes(render_cards(_cards("Ah Td")))
    return written


if __name__ == "__main__":
    for path in write_samples(Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp")):
        print(path)
