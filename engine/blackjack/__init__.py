"""Blackjack: rules, shoe, the round state machine, strategies, analysis and the simulator.

    import random
    from engine.blackjack import CASINO, BasicStrategy, Round, Shoe

    shoe = Shoe.for_rules(CASINO)                # secure shuffle; pass rng= to reproduce
    game = Round(CASINO, shoe, {0: 10, 2: 25})   # seat -> opening bet (already escrowed); deals
    basic = BasicStrategy(CASINO)
    while (decision := game.turn) is not None:   # who, which hand, cards, totals, legal actions
        events = game.act(decision.seat, basic.choose(decision, random.Random()))
    assert game.is_complete

Modules: ``rules`` (the rule set and presets), ``shoe``, ``round`` (the state machine),
``actions``/``events``/``views`` (its values), ``hand`` (totals), ``strategy``, ``analysis``
(basic strategy charts and the house edge), ``exact`` (exact enumeration), ``sidebets`` (21+3
and Perfect Pairs, with exact house edges), ``sim`` and ``parallel`` (the simulator).
"""

from __future__ import annotations

from engine.blackjack.actions import (
    INSURANCE_ACTIONS,
    PLAY_ACTIONS,
    Action,
    HandResult,
    InsuranceResult,
    Outcome,
    Phase,
)
from engine.blackjack.analysis import BasicChart, basic_chart, hand_values, house_edge
from engine.blackjack.errors import (
    BadRuleValueError,
    BetError,
    MalformedActionError,
    RoundStateError,
    RulesError,
    ShoeExhaustedError,
    UnknownRuleError,
)
from engine.blackjack.events import (
    CardDealt,
    DealerBusted,
    DealerCardDealt,
    DealerPeeked,
    DealerStood,
    EvenMoneyTaken,
    Event,
    HandBusted,
    HandDoubled,
    HandSettled,
    HandSplit,
    HandStood,
    HandSurrendered,
    HoleCardDealt,
    HoleCardRevealed,
    InsuranceDeclined,
    InsuranceOffered,
    InsuranceSettled,
    InsuranceTaken,
    RoundEnded,
    ShoeShuffled,
    StakeAdded,
    TurnStarted,
)
from engine.blackjack.hand import HandTotal, card_value, hand_value
from engine.blackjack.round import SEATS, Round
from engine.blackjack.rules import (
    CASINO,
    CLASSIC,
    PRESETS,
    RULE_NAMES,
    BlackjackPays,
    DoubleRule,
    Rules,
    Surrender,
    Ties,
    preset,
)
from engine.blackjack.shoe import Shoe, StackedShoe
from engine.blackjack.sidebets import (
    TwentyOneThreePaytable,
    perfect_pairs_house_edge,
    perfect_pairs_payout,
    twenty_one_three_house_edge,
    twenty_one_three_payout,
)
from engine.blackjack.strategy import (
    STRATEGIES,
    Advice,
    BasicStrategy,
    BlackjackStrategy,
    DealerStrategy,
    RandomBlackjackStrategy,
    SimpleStrategy,
    strategy_named,
)
from engine.blackjack.views import (
    BlackjackHandStatus,
    DealerView,
    Decision,
    HandView,
    RoundSeatView,
    RoundView,
)
from engine.errors import ActionNotAllowedError, NotYourTurnError, UnknownStrategyError

__all__ = [
    "CASINO",
    "CLASSIC",
    "INSURANCE_ACTIONS",
    "PLAY_ACTIONS",
    "PRESETS",
    "RULE_NAMES",
    "SEATS",
    "STRATEGIES",
    "Action",
    "ActionNotAllowedError",
    "Advice",
    "BadRuleValueError",
    "BasicChart",
    "BasicStrategy",
    "BetError",
    "BlackjackHandStatus",
    "BlackjackPays",
    "BlackjackStrategy",
    "CardDealt",
    "DealerBusted",
    "DealerCardDealt",
    "DealerPeeked",
    "DealerStood",
    "DealerStrategy",
    "DealerView",
    "Decision",
    "DoubleRule",
    "EvenMoneyTaken",
    "Event",
    "HandBusted",
    "HandDoubled",
    "HandResult",
    "HandSettled",
    "HandSplit",
    "HandStood",
    "HandSurrendered",
    "HandTotal",
    "HandView",
    "HoleCardDealt",
    "HoleCardRevealed",
    "InsuranceDeclined",
    "InsuranceOffered",
    "InsuranceResult",
    "InsuranceSettled",
    "InsuranceTaken",
    "MalformedActionError",
    "NotYourTurnError",
    "Outcome",
    "Phase",
    "RandomBlackjackStrategy",
    "Round",
    "RoundEnded",
    "RoundSeatView",
    "RoundStateError",
    "RoundView",
    "Rules",
    "RulesError",
    "Shoe",
    "ShoeExhaustedError",
    "ShoeShuffled",
    "SimpleStrategy",
    "StackedShoe",
    "StakeAdded",
    "Surrender",
    "Ties",
    "TurnStarted",
    "TwentyOneThreePaytable",
    "UnknownRuleError",
    "UnknownStrategyError",
    "basic_chart",
    "card_value",
    "hand_value",
    "hand_values",
    "house_edge",
    "perfect_pairs_house_edge",
    "perfect_pairs_payout",
    "preset",
    "strategy_named",
    "twenty_one_three_house_edge",
    "twenty_one_three_payout",
]
