"""Expected values of Blackjack decisions, the basic strategy they give, and its house edge.

Everything is worked out from a full shoe for the rule set, the way published basic strategy is:

- The dealer's chances (17-21, bust, blackjack) are exact for the shoe less the player's first two
  cards and the dealer's up card, with the dealer drawing without replacement; under ``peek`` they
  are conditioned on the dealer not having a blackjack, since the player only decides then.
- Three decks or more (``_Position``): the player's stand, hit and double values use those dealer
  chances, with the player's own draws taken at that shoe's proportions. The few cards a player
  draws barely change a big shoe, and this reproduces the published 4-8 deck charts exactly.
- One and two decks (``_Removal``): the player's cards are drawn without replacement, and each
  card the player draws changes the dealer's chances by its own effect of removal (first order).
  Without this, close single-deck split decisions come out wrong (2,2 against a 3 is worth
  -0.096 in the simple model, -0.068 here, and about -0.071 by simulation).
- Splits are valued per hand, with resplits counted by the expected number of hands they make, and
  each split hand plays with the rule set's split rules (DAS, one card to split aces, ...).
- The *total-dependent* strategy for each row of the chart (hard 12, soft 18, ...) against each up
  card takes the action with the best expected value averaged over the two-card hands making that
  total, weighted by how often each is dealt; pairs are decided on their own composition (which
  is how published single-deck charts stand on 7,7 against a ten).

Tests check the 4-8 deck S17 and H17 charts, DAS on and off, surrender, no-hole-card and the
one- and two-deck charts. A chart takes about 0.6 s to work out for 3+ decks and 4-5 s for one or
two decks, once per rule set (cached). The same numbers give the house edge of the strategy
(``house_edge``) to a few hundredths of a percent.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from engine.blackjack.actions import Action
from engine.blackjack.rules import BlackjackPays, DoubleRule, Rules, Surrender, Ties

_RANKS = range(1, 11)  # card values, 1 = ace, 10 = any ten
_REMOVAL_DECKS = 2
"""Shoes of at most this many decks are valued card by card (``_Removal``)."""

# Dealer outcome slots: index total-17 for 17..21, then bust, then blackjack.
_BUST = 5
_BLACKJACK = 6

_S = Action.STAND
_H = Action.HIT
_D = Action.DOUBLE
_P = Action.SPLIT
_R = Action.SURRENDER


def full_shoe(decks: int) -> list[int]:
    """Counts of each card value (index 1-10; index 0 unused) in ``decks`` full decks."""
    return [0] + [4 * decks] * 9 + [16 * decks]


def dealer_outcomes(
    counts: Sequence[int],
    up: int,
    *,
    h17: bool,
    no_blackjack: bool,
    memo: dict[tuple[int, ...], tuple[float, ...]] | None = None,
) -> tuple[float, ...]:
    """Chances of the dealer's final hand: ``(17, 18, 19, 20, 21, bust, blackjack)``.

    ``counts`` is the shoe the dealer draws from (the up card already removed); with
    ``no_blackjack`` the hole card is conditioned on not making a blackjack (a peek game after the
    peek). ``memo`` may be shared between calls with the same ``up``, ``h17`` and
    ``no_blackjack``: its keys are the dealer's hand and the cards left.
    """
    shoe = list(counts)
    if memo is None:
        memo = {}
    excluded = 0
    if no_blackjack:
        excluded = 10 if up == 1 else 1 if up == 10 else 0

    return _DealerDraws(shoe, memo, excluded, h17).play(up, up == 1, 1, sum(shoe))


class _DealerDraws:
    """The dealer's draws from one shoe, as ``dealer_outcomes`` counts them. A method rather
    than a closure that calls itself: that would be a reference cycle, holding ``memo``'s
    thousands of tuples until the cyclic garbage collector ran (in ``felt run``, until the
    hourly thaw: ``bot/discord/collector``)."""

    __slots__ = ("excluded", "h17", "memo", "shoe")

    def __init__(
        self,
        shoe: list[int],
        memo: dict[tuple[int, ...], tuple[float, ...]],
        excluded: int,
        h17: bool,
    ) -> None:
        self.shoe = shoe
        self.memo = memo
        self.excluded = excluded
        self.h17 = h17

    def play(self, hard: int, ace: bool, cards: int, left: int) -> tuple[float, ...]:
        """The dealer's chances from a hand that must still draw (``cards`` so far)."""
        shoe, memo, excluded, h17 = self.shoe, self.memo, self.excluded, self.h17
        key = (hard, ace, cards == 1, *shoe)
        found = memo.get(key)
        if found is not None:
            return found
        result = [0.0] * 7
        first = cards == 1
        denominator = left - (shoe[excluded] if first and excluded else 0)
        drawn = cards + 1
        for value in _RANKS:
            count = shoe[value]
            if not count or (first and value == excluded):
                continue
            chance = count / denominator
            new_hard = hard + value
            new_ace = ace or value == 1
            total = new_hard + 10 if new_ace and new_hard <= 11 else new_hard
            # A finished hand is counted here rather than in a call of its own.
            if total > 21:
                result[_BUST] += chance
                continue
            if total >= 17 and not (h17 and total == 17 and new_ace and new_hard == 7):
                result[_BLACKJACK if drawn == 2 and total == 21 else total - 17] += chance
                continue
            shoe[value] = count - 1
            sub = self.play(new_hard, new_ace, drawn, left - 1)
            shoe[value] = count
            result = [mine + chance * theirs for mine, theirs in zip(result, sub, strict=True)]
        outcome = tuple(result)
        memo[key] = outcome
        return outcome


_BUST_ONLY = (0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0)
_BLACKJACK_ONLY = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0)
_STAND_ON = {
    total: tuple(1.0 if slot == total - 17 else 0.0 for slot in range(7)) for total in range(17, 22)
}


@dataclass(frozen=True, slots=True)
class HandValues:
    """Expected values (in opening bets) of each first decision on one two-card hand."""

    stand: float
    hit: float
    double: float | None
    surrender: float | None
    split: float | None

    def of(self, action: Action) -> float | None:
        """The value of ``action``, or None where the rules do not allow it."""
        return {
            _S: self.stand,
            _H: self.hit,
            _D: self.double,
            _R: self.surrender,
            _P: self.split,
        }.get(action)

    def ranked(self) -> tuple[Action, ...]:
        """The allowed actions, best first."""
        pairs = [
            (value, action)
            for action in (_S, _H, _D, _R, _P)
            if (value := self.of(action)) is not None
        ]
        pairs.sort(key=lambda pair: -pair[0])
        return tuple(action for _, action in pairs)


def _best(hard: int, ace: bool) -> int:
    return hard + 10 if ace and hard <= 11 else hard


def _double_allowed(rules: Rules, hard: int, ace: bool) -> bool:
    soft = ace and hard <= 11
    if rules.double is DoubleRule.ANY:
        return True
    if rules.double is DoubleRule.NONE or soft:
        return False
    low = 9 if rules.double is DoubleRule.NINE_TO_ELEVEN else 10
    return low <= hard <= 11


class _Position:
    """Stand/hit/double values of every player hand for one shoe and dealer up card."""

    def __init__(self, rules: Rules, shoe: list[int], up: int) -> None:
        left = sum(shoe)
        self.draw = [shoe[value] / left for value in range(11)]
        outcomes = dealer_outcomes(shoe, up, h17=rules.h17, no_blackjack=rules.peek)
        self.dealer_blackjack = outcomes[_BLACKJACK]
        bust = outcomes[_BUST]
        push_counts = rules.ties is Ties.PUSH
        stand = [0.0] * 32
        for total in range(22):
            win = bust + sum(outcomes[dealer - 17] for dealer in range(17, 22) if dealer < total)
            push = outcomes[total - 17] if 17 <= total <= 21 and push_counts else 0.0
            stand[total] = win - (1.0 - win - push)
        for total in range(22, 32):
            stand[total] = -1.0
        self.stand_by_total = stand
        # hit[hard][ace] and best[hard][ace] (stand or hit, whichever is better), hard up to 31.
        self.hit = [[0.0, 0.0] for _ in range(32)]
        self.best = [[-1.0, -1.0] for _ in range(32)]
        self.double = [[0.0, 0.0] for _ in range(32)]
        draw = self.draw
        for hard in range(21, 1, -1):
            for ace in (False, True):
                hit_value = 0.0
                double_value = 0.0
                for value in _RANKS:
                    chance = draw[value]
                    if not chance:
                        continue
                    new_hard = hard + value
                    new_ace = ace or value == 1
                    hit_value += chance * self.best[new_hard][new_ace]
                    double_value += chance * stand[_best(new_hard, new_ace)]
                self.hit[hard][ace] = hit_value
                self.double[hard][ace] = 2.0 * double_value
                self.best[hard][ace] = max(stand[_best(hard, ace)], hit_value)

    def stand(self, hard: int, ace: bool) -> float:
        return self.stand_by_total[_best(hard, ace)]

    def surrender(self) -> float:
        # Without a peek a dealer blackjack takes the whole surrendered bet.
        return -0.5 - 0.5 * self.dealer_blackjack


def _split_value(rules: Rules, position: _Position, pair: int) -> float:
    """Value of splitting a pair of ``pair`` (in opening bets, all hands together)."""
    one_card_aces = pair == 1 and not rules.hit_split_aces
    can_double = rules.das and rules.double is not DoubleRule.NONE
    values = [0.0] * 11
    for second in _RANKS:
        hard = pair + second
        ace = pair == 1 or second == 1
        if one_card_aces:
            values[second] = position.stand(hard, ace)
            continue
        best = position.best[hard][ace]
        if can_double and _double_allowed(rules, hard, ace):
            best = max(best, position.double[hard][ace])
        values[second] = best
    return _split_total(rules, pair, position.draw, values)


def _split_total(rules: Rules, pair: int, draw: Sequence[float], values: Sequence[float]) -> float:
    """All split hands together, from the value of one split hand by its second card.

    Resplits are counted by the expected number of hands that end with another card and that
    end holding the pair because no more splits were allowed.
    """
    same = draw[pair]
    any_value = sum(draw[value] * values[value] for value in _RANKS if draw[value])
    resplit = rules.max_hands > 2 and (pair != 1 or rules.resplit_aces)
    if not resplit or same == 0.0:
        return 2.0 * any_value
    other = (any_value - same * values[pair]) / (1.0 - same)
    as_pair = values[pair]

    others, pairs = _expected_hands(2, 2, same, rules.max_hands, {})
    return others * other + pairs * as_pair


def _expected_hands(
    pending: int,
    hands: int,
    same: float,
    max_hands: int,
    memo: dict[tuple[int, int], tuple[float, float]],
) -> tuple[float, float]:
    """Expected (hands finished with another card, hands finished holding the pair), with
    ``pending`` split hands still to draw, ``hands`` in all so far and ``same`` the chance of
    drawing the pair's card again. ``memo`` keeps the answers (not a cached closure: one that
    calls itself is a reference cycle holding its cache)."""
    if pending == 0:
        return 0.0, 0.0
    found = memo.get((pending, hands))
    if found is not None:
        return found
    others, pairs = _expected_hands(pending - 1, hands, same, max_hands, memo)
    others += 1.0
    if hands < max_hands:
        more_others, more_pairs = _expected_hands(pending + 1, hands + 1, same, max_hands, memo)
    else:
        more_others, more_pairs = _expected_hands(pending - 1, hands, same, max_hands, memo)
        more_pairs += 1.0
    expected = (
        (1.0 - same) * others + same * more_others,
        (1.0 - same) * pairs + same * more_pairs,
    )
    memo[pending, hands] = expected
    return expected


def hand_values(rules: Rules, first: int, second: int, up: int) -> HandValues:
    """Expected values of the first decision on ``first``+``second`` against ``up`` (values).

    Under ``peek`` the values are given the dealer has no blackjack; without it they include the
    chance of one. Card values are 1 (ace) to 10.
    """
    shoe = full_shoe(rules.decks)
    for value in (first, second, up):
        shoe[value] -= 1
    return _hand_values(rules, shoe, first, second, up)


def first_decision_values(rules: Rules, first: int, second: int, up: int) -> HandValues:
    """``hand_values`` from the table worked out once per rule set (the chart's own numbers):
    instant after the first call, where ``hand_values`` works each hand out again."""
    low, high = min(first, second), max(first, second)
    return _all_hand_values(_strategy_key(rules))[low, high, up][0]


def _stand_values(outcomes: Sequence[float], ties_push: bool) -> list[float]:
    """Value of standing on each total 0-21 against dealer ``outcomes`` (linear in them, so a
    difference of two outcome vectors gives the difference of the values)."""
    total_weight = sum(outcomes)
    values = [0.0] * 22
    below = outcomes[_BUST]
    for total in range(22):
        push = outcomes[total - 17] if 17 <= total <= 21 and ties_push else 0.0
        values[total] = 2.0 * below + push - total_weight
        if 17 <= total <= 21:
            below += outcomes[total - 17]
    return values


class _Removal:
    """Values of hands drawn from one small shoe, card by card without replacement.

    The dealer's chances after the player's own draws are taken to first order: the change each
    drawn card makes on its own (its effect of removal) is added up. In one- and two-deck games
    this is what moves split and double decisions to the published charts; the plain model in
    ``_Position`` would get a few close split decisions wrong (2,2 against a 3, one deck).
    """

    def __init__(self, rules: Rules, shoe: list[int], up: int, memo: dict[Any, Any]) -> None:
        self.rules = rules
        self.shoe = shoe
        self.left = sum(shoe)
        ties_push = rules.ties is Ties.PUSH
        base = dealer_outcomes(shoe, up, h17=rules.h17, no_blackjack=rules.peek, memo=memo)
        self.dealer_blackjack = base[_BLACKJACK]
        self.base = _stand_values(base, ties_push)
        self.effect: list[list[float] | None] = [None] * 11
        for value in _RANKS:
            if shoe[value] <= 0:
                continue
            shoe[value] -= 1
            after = dealer_outcomes(shoe, up, h17=rules.h17, no_blackjack=rules.peek, memo=memo)
            shoe[value] += 1
            difference = [a - b for a, b in zip(after, base, strict=True)]
            self.effect[value] = _stand_values(difference, ties_push)

    def stand(self, drawn: tuple[int, ...], hard: int, ace: bool) -> float:
        total = hard + 10 if ace and hard <= 11 else hard
        if total > 21:
            return -1.0
        value = self.base[total]
        effect = self.effect
        for card in _RANKS:
            if drawn[card]:
                change = effect[card]
                if change is not None:
                    value += drawn[card] * change[total]
        return value

    def tree(self, hard: int, ace: bool) -> _Tree:
        """Hands that start from ``hard``/``ace`` (cards already out of ``shoe``)."""
        return _Tree(self, hard, ace)


class _Tree:
    """Best stand-or-hit values of every hand grown from one start, memoized by cards drawn."""

    def __init__(self, removal: _Removal, hard: int, ace: bool) -> None:
        self.removal = removal
        self.hard = hard
        self.ace = ace
        self.memo: dict[tuple[int, ...], float] = {}

    def _state(self, drawn: tuple[int, ...]) -> tuple[int, bool]:
        hard = self.hard + sum(value * count for value, count in enumerate(drawn))
        return hard, self.ace or drawn[1] > 0

    def stand(self, drawn: tuple[int, ...]) -> float:
        hard, ace = self._state(drawn)
        return self.removal.stand(drawn, hard, ace)

    def best(self, drawn: tuple[int, ...]) -> float:
        """The better of standing and hitting with ``drawn`` cards added to the start."""
        hard, ace = self._state(drawn)
        return self._best(drawn, hard, ace, sum(drawn))

    def hit(self, drawn: tuple[int, ...]) -> float:
        hard, ace = self._state(drawn)
        return self._hit(drawn, hard, ace, sum(drawn))

    def double(self, drawn: tuple[int, ...]) -> float:
        hard, ace = self._state(drawn)
        shoe = self.removal.shoe
        left = self.removal.left - sum(drawn)
        stand = self.removal.stand
        value = 0.0
        for card in _RANKS:
            count = shoe[card] - drawn[card]
            if count > 0:
                more = (*drawn[:card], drawn[card] + 1, *drawn[card + 1 :])
                value += count / left * stand(more, hard + card, ace or card == 1)
        return 2.0 * value

    def _best(self, drawn: tuple[int, ...], hard: int, ace: bool, used: int) -> float:
        found = self.memo.get(drawn)
        if found is None:
            total = hard + 10 if ace and hard <= 11 else hard
            if total > 21:
                found = -1.0
            else:
                found = self.removal.stand(drawn, hard, ace)
                if total < 21:
                    found = max(found, self._hit(drawn, hard, ace, used))
            self.memo[drawn] = found
        return found

    def _hit(self, drawn: tuple[int, ...], hard: int, ace: bool, used: int) -> float:
        shoe = self.removal.shoe
        left = self.removal.left - used
        value = 0.0
        for card in _RANKS:
            count = shoe[card] - drawn[card]
            if count > 0:
                new_hard = hard + card
                if new_hard > 21:
                    value -= count / left  # bust: no call, no memo entry
                    continue
                more = (*drawn[:card], drawn[card] + 1, *drawn[card + 1 :])
                value += count / left * self._best(more, new_hard, ace or card == 1, used + 1)
        return value


_NONE_DRAWN = (0,) * 11


def _removal_hand_values(
    rules: Rules, shoe: list[int], first: int, second: int, up: int, memo: dict[Any, Any]
) -> HandValues:
    removal = _Removal(rules, shoe, up, memo)
    hard = first + second
    ace = first == 1 or second == 1
    tree = removal.tree(hard, ace)
    double = tree.double(_NONE_DRAWN) if _double_allowed(rules, hard, ace) else None
    surrender = None
    if rules.surrender is Surrender.LATE:
        surrender = -0.5 - 0.5 * removal.dealer_blackjack
    split = None
    if first == second and rules.max_hands >= 2:
        split = _removal_split_value(rules, removal, first)
    return HandValues(
        stand=tree.stand(_NONE_DRAWN),
        hit=tree.hit(_NONE_DRAWN),
        double=double,
        surrender=surrender,
        split=split,
    )


def _removal_split_value(rules: Rules, removal: _Removal, pair: int) -> float:
    one_card_aces = pair == 1 and not rules.hit_split_aces
    can_double = rules.das and rules.double is not DoubleRule.NONE
    tree = removal.tree(pair, pair == 1)
    values = [0.0] * 11
    for second in _RANKS:
        if removal.shoe[second] <= 0:
            continue
        drawn = (*_NONE_DRAWN[:second], 1, *_NONE_DRAWN[second + 1 :])
        if one_card_aces:
            values[second] = tree.stand(drawn)
            continue
        best = tree.best(drawn)
        if can_double and _double_allowed(rules, pair + second, pair == 1 or second == 1):
            best = max(best, tree.double(drawn))
        values[second] = best
    draw = [removal.shoe[value] / removal.left for value in range(11)]
    return _split_total(rules, pair, draw, values)


def _hand_values(
    rules: Rules,
    shoe: list[int],
    first: int,
    second: int,
    up: int,
    memo: dict[Any, Any] | None = None,
) -> HandValues:
    if rules.decks <= _REMOVAL_DECKS:
        return _removal_hand_values(rules, shoe, first, second, up, {} if memo is None else memo)
    position = _Position(rules, shoe, up)
    hard = first + second
    ace = first == 1 or second == 1
    double = position.double[hard][ace] if _double_allowed(rules, hard, ace) else None
    surrender = position.surrender() if rules.surrender is Surrender.LATE else None
    split = None
    if first == second and rules.max_hands >= 2:
        split = _split_value(rules, position, first)
    return HandValues(
        stand=position.stand(hard, ace),
        hit=position.hit[hard][ace],
        double=double,
        surrender=surrender,
        split=split,
    )


# ------------------------------------------------------------------------------------ the chart

RowKind = str  # "hard", "soft" or "pair"


@dataclass(frozen=True, slots=True)
class BasicChart:
    """Total-dependent basic strategy for one rule set.

    ``hard[total][up]``, ``soft[total][up]`` and ``pair[value][up]`` hold the actions in order of
    preference (take the first one allowed); ``up`` is the dealer's card value, 1 for an ace.
    """

    rules: Rules
    hard: tuple[tuple[tuple[Action, ...], ...], ...]
    soft: tuple[tuple[tuple[Action, ...], ...], ...]
    pair: tuple[tuple[tuple[Action, ...], ...], ...]
    take_even_money: bool

    def preferences(self, kind: RowKind, row: int, up: int) -> tuple[Action, ...]:
        """The actions for a row, best first: ``"hard"`` 4-21, ``"soft"`` 12-21, ``"pair"`` 1-10."""
        table = {"hard": self.hard, "soft": self.soft, "pair": self.pair}[kind]
        return table[row][up]

    def code(self, kind: RowKind, row: int, up: int) -> str:
        """The chart code a published table prints: ``H``, ``S``, ``Dh``, ``Ds``, ``P``, ``Rh``,
        ``Rs``, ``Rp`` (double/surrender if allowed, otherwise the lower-case fallback)."""
        preferences = self.preferences(kind, row, up)
        first = preferences[0]
        letter = _CODE_LETTER[first]
        if first in (_D, _R):
            fallback = next(action for action in preferences if action in (_H, _S, _P))
            return letter + _CODE_LETTER[fallback].lower()
        return letter

    def render(self) -> str:
        """The chart as text, rows of hard totals, soft totals and pairs against 2-A."""
        ups = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)
        header = "        " + "".join(f"{'A' if up == 1 else up:>4}" for up in ups)
        lines = [self.rules.describe(), header]
        for total in range(5, 21):
            lines.append(
                f"hard {total:<3}" + "".join(f"{self.code('hard', total, u):>4}" for u in ups)
            )
        for total in range(13, 21):
            lines.append(
                f"soft {total:<3}" + "".join(f"{self.code('soft', total, u):>4}" for u in ups)
            )
        for value in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10):
            name = "A,A" if value == 1 else "T,T" if value == 10 else f"{value},{value}"
            lines.append(f"{name:<8}" + "".join(f"{self.code('pair', value, u):>4}" for u in ups))
        return "\n".join(lines)


_CODE_LETTER = {_S: "S", _H: "H", _D: "D", _R: "R", _P: "P"}


def _strategy_key(rules: Rules) -> Rules:
    """The rules with every option that cannot change a playing decision set to the default."""
    return dataclasses.replace(
        rules,
        blackjack_pays=BlackjackPays.THREE_TO_TWO,
        insurance=True,
        penetration=0.75,
        reshuffle_every_round=False,
        side_21_3=None,
        perfect_pairs=False,
    )


def basic_chart(rules: Rules) -> BasicChart:
    """The basic strategy chart for ``rules`` (computed once per playing-relevant rule set)."""
    chart = _chart_for(_strategy_key(rules))
    even_money = _even_money_is_better(rules)
    return dataclasses.replace(chart, rules=rules, take_even_money=even_money)


@lru_cache(maxsize=32)
def _all_hand_values(rules: Rules) -> dict[tuple[int, int, int], tuple[HandValues, float, float]]:
    """Values of every two-card hand (``first <= second``) against every up card, with the
    chance of that deal given the up card and the chance the dealer has a blackjack."""
    table: dict[tuple[int, int, int], tuple[HandValues, float, float]] = {}
    for up in _RANKS:
        shoe = full_shoe(rules.decks)
        shoe[up] -= 1
        left = sum(shoe)
        memo: dict[Any, Any] = {}  # dealer chances, shared by every hand against this up card
        for first in _RANKS:
            for second in range(first, 11):
                chance = shoe[first] / left * (shoe[second] - (first == second)) / (left - 1)
                if first != second:
                    chance *= 2
                if chance <= 0:
                    continue
                rest = list(shoe)
                rest[first] -= 1
                rest[second] -= 1
                rest_left = left - 2
                blackjack = 0.0
                if up == 1:
                    blackjack = rest[10] / rest_left
                elif up == 10:
                    blackjack = rest[1] / rest_left
                if first == 1 and second == 10:
                    values = HandValues(0.0, 0.0, None, None, None)  # a natural: no decision
                else:
                    values = _hand_values(rules, rest, first, second, up, memo)
                table[first, second, up] = (values, chance, blackjack)
    return table


def _average(entries: list[tuple[HandValues, float]]) -> HandValues:
    weight = sum(chance for _, chance in entries)

    def mean(action: Action) -> float | None:
        values = [(values.of(action), chance) for values, chance in entries]
        if any(value is None for value, _ in values):
            return None
        return sum(value * chance for value, chance in values if value is not None) / weight

    stand = mean(_S)
    hit = mean(_H)
    assert stand is not None
    assert hit is not None
    return HandValues(stand, hit, mean(_D), mean(_R), None)


_Rows = dict[tuple[str, int, int], list[tuple[HandValues, float]]]


@lru_cache(maxsize=32)
def _chart_for(rules: Rules) -> BasicChart:
    rows = _chart_rows(rules)

    def total_row(kind: str, total: int, up: int) -> tuple[Action, ...]:
        entries = rows.get((kind, total, up)) or rows.get(("pair-" + kind, total, up))
        if entries is None:
            return (_S, _H) if total >= 17 else (_H, _S)
        return _average(entries).ranked()

    empty: tuple[Action, ...] = ()
    hard_table = [[empty] * 11 for _ in range(32)]
    soft_table = [[empty] * 11 for _ in range(32)]
    pair_table = [[empty] * 11 for _ in range(11)]
    for up in _RANKS:
        for total in range(2, 32):
            if total >= 21:
                hard_table[total][up] = (_S, _H)
            else:
                hard_table[total][up] = total_row("hard", total, up)
        for total in range(12, 22):
            soft_table[total][up] = (_S, _H) if total == 21 else total_row("soft", total, up)
        for value in _RANKS:
            entries = rows.get(("pair", value, up))
            if not entries:
                pair_table[value][up] = (
                    soft_table[12][up] if value == 1 else hard_table[2 * value][up]
                )
            else:
                pair_table[value][up] = _pair_row(entries[0][0])
    return BasicChart(
        rules=rules,
        hard=tuple(tuple(row) for row in hard_table),
        soft=tuple(tuple(row) for row in soft_table),
        pair=tuple(tuple(row) for row in pair_table),
        take_even_money=False,
    )


def _chart_rows(rules: Rules) -> _Rows:
    """Every two-card start's values and weight, grouped by chart row: ``(kind, total, up)``
    with kind hard, soft, pair (by card value), or pair-hard/pair-soft (a pair by its total)."""
    rows: _Rows = {}
    for (first, second, up), (hand, chance, blackjack) in _all_hand_values(rules).items():
        if first == 1 and second == 10:
            continue
        weight = chance * (1.0 - blackjack) if rules.peek else chance
        hard = first + second
        if first == second:
            kind, row = ("soft", 12) if first == 1 else ("hard", hard)
            rows.setdefault(("pair", first, up), []).append((hand, weight))
            rows.setdefault(("pair-" + kind, row, up), []).append((hand, weight))
        elif first == 1:
            kind, row = "soft", hard + 10
        else:
            kind, row = "hard", hard
        if first != second:
            rows.setdefault((kind, row, up), []).append((hand, weight))
    return rows


def _pair_row(hand: HandValues) -> tuple[Action, ...]:
    """A pair's actions, best first: split (or surrender, then split) when splitting beats
    playing the hand, else the pair played on its own values."""
    prefix: list[Action] = []
    if hand.split is not None:
        playing = [value for value in (hand.stand, hand.hit, hand.double) if value is not None]
        if hand.split > max(playing):
            if hand.surrender is not None and hand.surrender > hand.split:
                prefix.append(_R)
            prefix.append(_P)
    # Not splitting (or not allowed to): play the pair on its own values, which catches the few
    # composition effects published charts print (7,7 against a ten, 1 deck).
    return tuple(prefix) + tuple(
        action for action in hand.ranked() if action is not _P and action not in prefix
    )


def dealer_blackjack_chance_behind_ace(rules: Rules, *, player_cards: Sequence[int]) -> float:
    """The chance the dealer's hole card is a ten under an ace, given the player's cards."""
    shoe = full_shoe(rules.decks)
    shoe[1] -= 1
    for value in player_cards:
        shoe[value] -= 1
    return shoe[10] / sum(shoe)


def _even_money_is_better(rules: Rules) -> bool:
    """Whether even money beats keeping a natural against an ace (never at 3:2)."""
    numerator, denominator = rules.blackjack_pays.ratio
    blackjack = dealer_blackjack_chance_behind_ace(rules, player_cards=(1, 10))
    keep = (1.0 - blackjack) * numerator / denominator
    return keep < 1.0


# ------------------------------------------------------------------------------------ house edge


@lru_cache(maxsize=64)
def house_edge(rules: Rules) -> float:
    """The house edge in percent of the opening bet for basic strategy under ``rules``.

    Worked out, not simulated: every first decision follows the chart, and the value of playing
    on follows the best play for the hand. Deterministic and accurate to a few hundredths of a
    percent for a freshly shuffled shoe (``felt sim blackjack`` measures the rest, such as a cut
    card). Negative when the player has the edge.
    """
    chart = basic_chart(rules)
    values = _all_hand_values(_strategy_key(rules))
    numerator, denominator = rules.blackjack_pays.ratio
    shoe = full_shoe(rules.decks)
    size = sum(shoe)
    expected = 0.0
    for (first, second, up), (hand, chance, blackjack) in values.items():
        weight = shoe[up] / size * chance
        if first == 1 and second == 10:
            if up == 1 and rules.insurance and chart.take_even_money:
                value = 1.0
            else:
                value = (1.0 - blackjack) * numerator / denominator
            expected += weight * value
            continue
        if first == second:
            preferences = chart.pair[first][up]
        elif first == 1:
            preferences = chart.soft[second + 11][up]
        else:
            preferences = chart.hard[first + second][up]
        action = next(a for a in preferences if hand.of(a) is not None)
        chosen = hand.of(action)
        assert chosen is not None
        if rules.peek:
            chosen = blackjack * -1.0 + (1.0 - blackjack) * chosen
        expected += weight * chosen
    return -100.0 * expected
