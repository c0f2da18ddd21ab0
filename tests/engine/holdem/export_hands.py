"""Random settled hands as a table host stores them, and PokerKit's PokerStars parser, for the
export tests: awkward player names, seats with gaps, a random hero or none."""

from __future__ import annotations

import dataclasses
import random
import re
import warnings
from dataclasses import dataclass
from datetime import UTC, datetime

from pokerkit import HandHistory as PkHistory
from pokerkit.notation import PokerStarsParser

from engine.holdem import Hand, phh
from engine.holdem.phh import HandHistory
from engine.holdem.pokerstars import HandLabel
from tests.engine.holdem.pokerkit_hands import Setup, play_ours, random_setup

NAMES = (
    "Alice",
    "bob the builder",
    "Carol: folds",
    "folds",
    "Dave (the shark)",
    "Eve [AA]",
    "#1 Fan",
    "Ölaf",
    "Alice",
    "Seat 3",
    "O'Brien",
    "",
)
LABEL = HandLabel(7_000_000_042, "Main 7", datetime(2025, 1, 31, 20, 5, 9, tzinfo=UTC))


class AnteParser(PokerStarsParser):
    """PokerKit 0.7.7's parser reads no antes; this subclass changes only that pattern."""

    ANTE_POSTING = re.compile(r"(?P<player>.+): posts the ante \D?(?P<ante>[0-9.]+)")


@dataclass(frozen=True, slots=True)
class StoredHand:
    """A finished random hand and its stored PHH (with names, seats and seat count)."""

    setup: Setup
    hand: Hand
    history: HandHistory
    text: str


def stored_hand(rng: random.Random, number: int = 1) -> StoredHand:
    setup = random_setup(rng)
    hand = play_ours(setup, rng)
    seat_count = min(10, setup.players + rng.randint(0, 3))
    seats = sorted(rng.sample(range(1, seat_count + 1), setup.players))
    shift = rng.randrange(setup.players)  # the button is not always the highest seat
    seats = seats[shift:] + seats[:shift]
    names = [rng.choice(NAMES) for _ in range(setup.players)]
    text = phh.dumps(
        phh.from_hand(
            hand, hand=number, table="Main", players=names, seats=seats, seat_count=seat_count
        )
    )
    return StoredHand(setup, hand, phh.loads(text), text)


def parse_pokerstars(text: str, *, antes: bool) -> list[PkHistory]:
    """Every hand PokerKit's parser reads from ``text`` (it raises on a hand it cannot read).

    PokerKit 0.7.7's parser itself emits a field PHH does not define (``time_zone_abbreviation``)
    and warns about it; that warning is PokerKit's and is not about our text.
    """
    parser = AnteParser() if antes else PokerStarsParser()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", message=".*time_zone_abbreviation")
        return list(parser(text, error_status=True))


def pokerkit_stacks(history: PkHistory, ante_trimming: bool) -> dict[str, int]:
    """Each player's finishing stack when PokerKit replays a parsed hand.

    PokerStars text cannot say whether short antes are trimmed (it matters only when a stack is
    smaller than the ante), so the replay is told, as a PHH file would tell it.
    """
    replay = dataclasses.replace(history, ante_trimming_status=ante_trimming)
    state = list(replay)[-1]
    assert not state.status, "PokerKit did not finish the hand"
    return dict(zip(replay.players or (), state.stacks, strict=True))
