"""A settled Blackjack round told per player, and the history text stored with it.

``summarise`` turns a finished round's hand and insurance results into one ``PlayerSummary``
per seat (chips staked and paid, hands won, one line per hand); ``dumps`` and ``loads`` write
and read the round's history (the rules, the dealer's cards, each player's hands and lines) as
the JSON stored with the round, as ``engine.holdem.phh`` does for a Hold'em hand. Pure.

>>> from engine.blackjack.actions import HandResult, Outcome
>>> summary = summarise([HandResult(0, 0, Outcome.WIN, 100, 200)], [], seats=[0])
>>> summary[0].lines
('Hand 1: win (+100)',)
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.blackjack.actions import HandResult, InsuranceResult, Outcome
from engine.cards import Card, parse_cards

OUTCOME_WORDS = {
    Outcome.BLACKJACK: "blackjack",
    Outcome.EVEN_MONEY: "even money",
    Outcome.WIN: "win",
    Outcome.PUSH: "push",
    Outcome.LOSS: "loss",
    Outcome.BUST: "bust",
    Outcome.SURRENDER: "surrender",
}
"""How each outcome reads in a result line."""


class HistoryError(ValueError):
    """A stored history that is not one ``dumps`` wrote."""


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """One seat's round: chips at risk and paid back, hands played and won, a line per hand."""

    seat: int
    staked: int = 0
    payout: int = 0
    hands: int = 0
    won: int = 0
    blackjacks: int = 0
    lines: tuple[str, ...] = ()

    @property
    def net(self) -> int:
        """Chips won (positive) or lost (negative) over the round."""
        return self.payout - self.staked


@dataclass(frozen=True, slots=True)
class PlayerHistory:
    """What the stored history keeps of one player."""

    user_id: int
    name: str
    hands: tuple[tuple[Card, ...], ...]
    results: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RoundHistory:
    """A settled round as stored: the rules, the dealer's cards and total, each player."""

    rules: str
    dealer: tuple[Card, ...]
    dealer_total: int
    players: tuple[PlayerHistory, ...]


def summarise(
    results: Iterable[HandResult], insurance: Iterable[InsuranceResult], *, seats: Sequence[int]
) -> dict[int, PlayerSummary]:
    """Each seat's summary (seats with no result still get an empty one)."""
    staked = dict.fromkeys(seats, 0)
    payout = dict.fromkeys(seats, 0)
    hands = dict.fromkeys(seats, 0)
    won = dict.fromkeys(seats, 0)
    naturals = dict.fromkeys(seats, 0)
    lines: dict[int, list[str]] = {seat: [] for seat in seats}
    for result in results:
        staked[result.seat] += result.stake
        payout[result.seat] += result.payout
        hands[result.seat] += 1
        won[result.seat] += result.net > 0
        naturals[result.seat] += result.outcome is Outcome.BLACKJACK
        words = OUTCOME_WORDS[result.outcome]
        lines[result.seat].append(f"Hand {result.hand + 1}: {words} ({result.net:+,})")
    for bet in insurance:
        staked[bet.seat] += bet.stake
        payout[bet.seat] += bet.payout
        lines[bet.seat].append(f"Insurance ({bet.net:+,})")
    return {
        seat: PlayerSummary(
            seat,
            staked[seat],
            payout[seat],
            hands[seat],
            won[seat],
            naturals[seat],
            tuple(lines[seat]),
        )
        for seat in seats
    }


def dumps(history: RoundHistory) -> str:
    """The history as stored with the round (JSON)."""
    return json.dumps(
        {
            "rules": history.rules,
            "dealer": [str(card) for card in history.dealer],
            "dealer_total": history.dealer_total,
            "players": {
                str(player.user_id): {
                    "name": player.name,
                    "hands": [[str(card) for card in hand] for hand in player.hands],
                    "results": list(player.results),
                }
                for player in history.players
            },
        },
        ensure_ascii=False,
    )


def loads(text: str) -> RoundHistory:
    """Read a history ``dumps`` wrote; ``HistoryError`` names what is wrong."""
    try:
        data = json.loads(text)
        players = tuple(
            PlayerHistory(
                int(user_id),
                str(entry["name"]),
                tuple(tuple(parse_cards(" ".join(hand))) for hand in entry["hands"]),
                tuple(str(line) for line in entry["results"]),
            )
            for user_id, entry in data["players"].items()
        )
        return RoundHistory(
            str(data["rules"]),
            tuple(parse_cards(" ".join(data["dealer"]))),
            int(data["dealer_total"]),
            players,
        )
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        raise HistoryError(f"not a Blackjack round history: {error}") from None
