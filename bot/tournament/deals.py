"""Deals: the prizes still to be won split by ICM or by chip-chop (``engine.tournament.icm``),
in whole chips, offered to every remaining player; one applies only if all of them accept.

Bots accept the ICM split (it is their equity by the model) and decline the chip-chop."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from bot.tournament.memory import user_of
from engine.tournament.icm import chip_chop, icm, whole_deal
from engine.tournament.tournament import Tournament

MAX_DEAL_PLAYERS = 9
"""The most players a deal is offered to (ICM is exact up to here)."""


class DealKind(StrEnum):
    """How a deal splits the prizes left."""

    ICM = "icm"
    """By each stack's chance of each place (Malmuth-Harville)."""
    CHIP_CHOP = "chop"
    """The lowest prize left to everyone, the rest in proportion to chips."""


@dataclass(frozen=True, slots=True)
class DealSplit:
    """One way to share the prizes: each remaining entry's amount, in the offer's order."""

    kind: DealKind
    amounts: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DealOffer:
    """The splits offered to the players left, in entry order, with the stacks they came from."""

    entries: tuple[int, ...]
    names: tuple[str, ...]
    user_ids: tuple[int | None, ...]
    stacks: tuple[int, ...]
    splits: tuple[DealSplit, ...]

    @property
    def members(self) -> frozenset[int]:
        """The members whose acceptance the deal needs."""
        return frozenset(user for user in self.user_ids if user is not None)

    def split(self, kind: DealKind) -> DealSplit:
        return next(split for split in self.splits if split.kind is kind)

    def bots_accept(self, kind: DealKind) -> bool:
        """Whether the bots left (if any) accept ``kind``."""
        return kind is DealKind.ICM or all(user is not None for user in self.user_ids)


def deal_offer(engine: Tournament, names: Mapping[str, str]) -> DealOffer:
    """The ICM and chip-chop splits of the prizes left, from the stacks now."""
    alive = engine.alive
    stacks = tuple(entry.stack for entry in alive)
    prizes = engine.remaining_prizes()
    pool = sum(prizes)
    splits = tuple(
        DealSplit(kind, whole_deal(equities, pool) if pool else (0,) * len(stacks))
        for kind, equities in (
            (DealKind.ICM, icm(stacks, prizes, seed=engine.config.seed)),
            (DealKind.CHIP_CHOP, chip_chop(stacks, prizes)),
        )
    )
    return DealOffer(
        tuple(entry.number for entry in alive),
        tuple(names.get(entry.player, entry.player) for entry in alive),
        tuple(user_of(entry.player) for entry in alive),
        stacks,
        splits,
    )
