"""Random legal No-Limit Hold'em hands, played by PokerKit or by our engine, for differential tests.

Stacks are often short (all-ins on the antes and blinds), antes and trimming vary, and about half
the decks are rigged so that boards play for everyone or players hold the same ranks, which
forces split pots and odd chips.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass

from pokerkit import Automation, HandHistory, NoLimitTexasHoldem
from pokerkit import Card as PkCard

from engine.cards import DECK, Card, parse_cards
from engine.holdem import Action, Call, Check, Fold, Hand, LegalActions, RaiseTo, Stakes

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
    Automation.RUNOUT_COUNT_SELECTION,
)

BOARDS_THAT_PLAY = ("AsKsQsJsTs", "AhKdQcJsTh", "2c2d2h2sAh", "KcKdKhAsAd", "9s8s7s6s5s")


@dataclass(frozen=True, slots=True)
class Setup:
    """The table for one random hand."""

    players: int
    small_blind: int
    big_blind: int
    ante: int
    ante_trimming: bool
    stacks: tuple[int, ...]
    deck: tuple[Card, ...]


def random_setup(rng: random.Random) -> Setup:
    players = rng.randint(2, 10)
    big_blind = rng.choice((2, 2, 4, 10, 3))
    small_blind = rng.choice((big_blind // 2, big_blind // 2, 1, big_blind))
    ante = rng.choice((0, 0, 0, 1, big_blind // 2, big_blind))
    stacks = []
    for _ in range(players):
        roll = rng.random()
        if roll < 0.2:
            stacks.append(rng.randint(1, max(1, ante + big_blind)))  # all-in on the forced bets
        elif roll < 0.55:
            stacks.append(rng.randint(1, 20 * big_blind))
        else:
            stacks.append(rng.randint(20 * big_blind, 300 * big_blind))
    return Setup(
        players,
        small_blind,
        big_blind,
        ante,
        rng.random() < 0.5,
        tuple(stacks),
        tuple(rigged_deck(rng, players)),
    )


def rigged_deck(rng: random.Random, players: int) -> list[Card]:
    """A deck order (holes round-robin, then burn/flop/burn/turn/burn/river), often rigged."""
    holes: list[list[Card | None]] = [[None, None] for _ in range(players)]
    board: list[Card | None] = [None] * 5
    roll = rng.random()
    if roll < 0.25:
        board = list(parse_cards(rng.choice(BOARDS_THAT_PLAY)))
        rng.shuffle(board)
    elif roll < 0.5:
        # Several players hold the same two ranks in different suits.
        ranks = rng.sample(range(13), 2)
        suits = [0, 1, 2, 3]
        rng.shuffle(suits)
        chosen = rng.sample(range(players), min(players, rng.randint(2, 4)))
        for n, player in enumerate(chosen):
            holes[player] = [DECK[ranks[0] * 4 + suits[n]], DECK[ranks[1] * 4 + suits[(n + 1) % 4]]]
    used = {card for hole in holes for card in hole if card} | {c for c in board if c}
    rest = [card for card in DECK if card not in used]
    rng.shuffle(rest)
    spare = iter(rest)
    deck = [holes[p][r] or next(spare) for r in range(2) for p in range(players)]
    for street, count in ((0, 3), (3, 1), (4, 1)):
        deck.append(next(spare))
        deck.extend(board[street + i] or next(spare) for i in range(count))
    deck.extend(spare)
    return deck


def random_action(legal: LegalActions, rng: random.Random) -> Action:
    """A legal action at random, checks and calls twice as likely as a fold or a raise."""
    choices: list[Action] = []
    if legal.can_fold:
        choices.append(Fold())
    if legal.can_check:
        choices.extend([Check(), Check()])
    if legal.can_call:
        choices.extend([Call(), Call()])
    if legal.min_raise_to is not None and legal.max_raise_to is not None:
        choices.append(RaiseTo(_pick_amount(rng, legal.min_raise_to, legal.max_raise_to)))
    return rng.choice(choices)


def _pick_amount(rng: random.Random, low: int, high: int) -> int:
    roll = rng.random()
    if roll < 0.3:
        return low
    if roll < 0.5:
        return high
    return rng.randint(low, high)


def play_pokerkit(setup: Setup, rng: random.Random) -> tuple[str, tuple[int, ...]]:
    """Play random legal actions in PokerKit; return the PHH text and the finishing stacks."""
    game = NoLimitTexasHoldem(
        AUTOMATIONS,
        setup.ante_trimming,
        setup.ante,
        (setup.small_blind, setup.big_blind),
        setup.big_blind,
    )
    state = game(list(setup.stacks), setup.players)
    state.deck_cards = deque(PkCard.parse("".join(map(str, setup.deck))))
    while state.status:
        if state.can_deal_hole():
            state.deal_hole()
        elif state.can_deal_board():
            state.deal_board()
        elif state.actor_index is not None:
            choices = []
            if state.can_fold():
                choices.append("f")
            if state.can_check_or_call():
                choices.extend(["cc", "cc"])
            if state.can_complete_bet_or_raise_to():
                choices.append("cbr")
            choice = rng.choice(choices)
            if choice == "f":
                state.fold()
            elif choice == "cc":
                state.check_or_call()
            else:
                low = state.min_completion_betting_or_raising_to_amount
                high = state.max_completion_betting_or_raising_to_amount
                assert low is not None and high is not None  # a bet or raise is allowed here
                state.complete_bet_or_raise_to(_pick_amount(rng, low, high))
        else:  # pragma: no cover - PokerKit automates everything else
            raise AssertionError("PokerKit is waiting for something unexpected")
    # from_game_state does not carry the ante trimming status over, so name it.
    history = HandHistory.from_game_state(
        game,
        state,
        finishing_stacks=list(state.stacks),
        ante_trimming_status=setup.ante_trimming,
    )
    return history.dumps(), tuple(state.stacks)


def play_ours(setup: Setup, rng: random.Random) -> Hand:
    """Play random legal actions through our engine."""
    stakes = Stakes.standard(
        setup.players,
        setup.small_blind,
        setup.big_blind,
        setup.ante,
        ante_trimming=setup.ante_trimming,
    )
    hand = Hand(stakes, setup.stacks, deck=setup.deck)
    while not hand.is_complete:
        legal = hand.turn
        assert legal is not None
        hand.act(legal.player, random_action(legal, rng))
    return hand


def pokerkit_finishing_stacks(phh_text: str) -> tuple[int, ...]:
    """Replay PHH text in PokerKit and return where the chips ended."""
    states = list(HandHistory.loads(phh_text))
    state = states[-1]
    assert not state.status, "PokerKit did not finish the hand"
    return tuple(state.stacks)
