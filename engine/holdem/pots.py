"""Main and side pots from what each player put in, and how a pot splits between winners."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.values import quick_init


@quick_init  # built at every showdown: see engine.values
@dataclass(frozen=True, slots=True)
class Pot:
    """A pot and the players (PHH indices, ascending) still able to win it."""

    amount: int
    eligible: tuple[int, ...]


def build_pots(
    contributions: Sequence[int], live: Sequence[bool], dead_money: int = 0
) -> list[Pot]:
    """Layer ``contributions`` into a main pot and side pots.

    Each distinct contribution level makes a layer that every player who put in at least that
    much pays into; only ``live`` players (not folded or mucked) are eligible for it. Adjacent
    layers with the same eligible players merge. ``dead_money`` (untrimmed antes) goes into the
    first pot. This is PokerKit's construction, so results match it chip for chip.
    """
    # Layers are merged as (amount, eligible) pairs and become ``Pot`` values at the end: a
    # showdown builds the pots up to three times, and most layers merge.
    layers: list[tuple[int, tuple[int, ...]]] = []
    amount = dead_money
    previous = 0
    for level in sorted(set(contributions)):
        payers = [i for i, contribution in enumerate(contributions) if contribution >= level]
        amount += (level - previous) * len(payers)
        eligible = tuple([i for i in payers if live[i]])
        while layers and layers[-1][1] == eligible:
            amount += layers.pop()[0]
        if amount:
            layers.append((amount, eligible))
        amount = 0
        previous = level
    return [Pot(amount, eligible) for amount, eligible in layers]


def split(amount: int, winners: Sequence[int]) -> list[tuple[int, int]]:
    """Share ``amount`` equally between ``winners`` (ascending PHH indices).

    Whole chips only: the remainder goes to the first winner left of the button, as PokerKit
    does and the TDA rules say.
    """
    share, odd = divmod(amount, len(winners))
    return [(player, share + (odd if n == 0 else 0)) for n, player in enumerate(winners)]
