"""Main and side pots from what each player put in, and how a pot splits between winners."""

from __future__ import annotations

from collections.abc import Collection, Sequence
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
    # The same layers, merged as they are found. The players eligible for a layer are the live
    # players who put in at least its level, and that set changes only just above a level a
    # live player put in; so the merged pots end exactly at the live players' contributions,
    # and each holds every chip put in between its floor and its top. (A showdown builds the
    # pots up to three times: this is a third of the work of going layer by layer.)
    levels = sorted({c for c, alive in zip(contributions, live, strict=True) if alive})
    if len(levels) == 1:
        return _one_level_pots(contributions, live, dead_money, levels[0])
    pots: list[Pot] = []
    floor_chips = 0  # chips put in up to the previous pot's top
    extra = dead_money
    for top in levels:
        chips = sum([c if c < top else top for c in contributions])
        amount = extra + chips - floor_chips
        if amount:
            eligible = [i for i, c in enumerate(contributions) if c >= top and live[i]]
            pots.append(Pot(amount, tuple(eligible)))
        floor_chips, extra = chips, 0
    # Chips above every live player's contribution (or all of them, when nobody is live) make
    # a pot nobody can win, as the layers would.
    rest = extra + sum(contributions) - floor_chips
    if rest:
        pots.append(Pot(rest, ()))
    return pots


def _one_level_pots(
    contributions: Sequence[int], live: Sequence[bool], dead_money: int, top: int
) -> list[Pot]:
    """``build_pots`` when every live player put in ``top``, as in most showdowns: one pot
    of everything up to ``top`` and, when a folded player put in more, a pot nobody can win.
    One pass instead of a pass for the chips and another for the players."""
    chips = 0
    eligible = []
    for player, put_in in enumerate(contributions):
        if put_in < top:
            chips += put_in
        else:
            chips += top
            if live[player]:
                eligible.append(player)
    pots = [Pot(dead_money + chips, tuple(eligible))] if dead_money + chips else []
    rest = sum(contributions) - chips
    if rest:
        pots.append(Pot(rest, ()))
    return pots


def without(pots: Sequence[Pot], players: Collection[int]) -> list[Pot]:
    """The pots once ``players`` can no longer win any of them (their hands were killed):
    ``build_pots`` with those players no longer live, worked out from the pots as they were.
    Each pot drops them from its eligible players, and neighbours left with the same players
    merge (the boundary between them was one of those players' contributions)."""
    merged: list[tuple[int, tuple[int, ...]]] = []
    for pot in pots:
        eligible = tuple([i for i in pot.eligible if i not in players])
        if merged and merged[-1][1] == eligible:
            merged[-1] = (merged[-1][0] + pot.amount, eligible)
        else:
            merged.append((pot.amount, eligible))
    return [Pot(amount, eligible) for amount, eligible in merged]


def split(amount: int, winners: Sequence[int]) -> list[tuple[int, int]]:
    """Share ``amount`` equally between ``winners`` (ascending PHH indices).

    Whole chips only: the remainder goes to the first winner left of the button, as PokerKit
    does and the TDA rules say.
    """
    share, odd = divmod(amount, len(winners))
    return [(player, share + (odd if n == 0 else 0)) for n, player in enumerate(winners)]
