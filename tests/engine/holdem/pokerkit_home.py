"""Random home-game hands (straddles, run it N times, bomb pots, double boards) played by
PokerKit or by our engine, and PokerKit replaying Felt's PHH of them, for differential tests.

PokerKit's PHH reader knows no run count and no board count, so ``pokerkit_finishing_stacks``
replays a history the way ``HandHistory`` does, but selects the file's ``_runout_count`` for
every player asked and plays ``_board_count`` boards.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass
from typing import Any

from pokerkit import Automation, HandHistory, Mode, NoLimitTexasHoldem, parse_action
from pokerkit import Card as PkCard

from engine.cards import Card
from engine.holdem import Hand, Phase, Stakes, phh
from engine.holdem.actions import ChooseRunCount
from engine.holdem.options import MAX_RUN_COUNT, HandOptions
from tests.engine.holdem.pokerkit_hands import AUTOMATIONS, _pick_amount, random_action, rigged_deck

HOME_AUTOMATIONS = tuple(a for a in AUTOMATIONS if a is not Automation.RUNOUT_COUNT_SELECTION)


@dataclass(frozen=True, slots=True)
class HomeSetup:
    """The table and options for one random home-game hand."""

    stakes: Stakes
    options: HandOptions
    stacks: tuple[int, ...]
    deck: tuple[Card, ...]


def random_home_setup(
    rng: random.Random, *, straddles: bool, runs: bool, bombs: bool = False
) -> HomeSetup:
    """A random table: straddled (UTG with re-straddles, or the button) when ``straddles``,
    run-it-N allowed when ``runs`` (short stacks, so all-ins are common), sometimes a bomb pot
    with one or two boards when ``bombs``."""
    players = rng.randint(3, 10) if straddles else rng.randint(2, 10)
    big_blind = rng.choice((2, 2, 4, 10))
    small_blind = rng.choice((big_blind // 2, 1, big_blind))
    ante = rng.choice((0, 0, 1, big_blind // 2))
    trimming = rng.random() < 0.5
    bomb = bombs and rng.random() < 0.5
    boards = 2 if bomb and rng.random() < 0.5 else 1
    if bomb:
        stakes = Stakes.bomb_pot(players, rng.choice((1, big_blind, 3 * big_blind)), big_blind)
    elif straddles and rng.random() < 0.85:
        button = rng.random() < 0.3
        count = 1 if button else rng.randint(1, min(3, players - 2))
        stakes = Stakes.straddled(
            players, small_blind, big_blind, ante, straddles=count, button=button,
            ante_trimming=trimming,
        )  # fmt: skip
    else:
        stakes = Stakes.standard(players, small_blind, big_blind, ante, ante_trimming=trimming)
    top = max(stakes.big_blind, stakes.min_bet) + max(stakes.antes)
    short = runs or rng.random() < 0.3
    stacks = tuple(
        rng.randint(1, 30 * top) if short and rng.random() < 0.7 else rng.randint(top, 200 * top)
        for _ in range(players)
    )
    options = HandOptions(
        max_run_count=rng.randint(2, MAX_RUN_COUNT) if runs and boards == 1 else 1,
        bomb_pot=bomb,
        boards=boards,
    )
    return HomeSetup(stakes, options, stacks, tuple(rigged_deck(rng, players)))


def _run_choice(rng: random.Random, agreed: int, most: int) -> int:
    """Mostly the count the table agrees on; sometimes a player declines or asks otherwise."""
    return agreed if rng.random() < 0.8 else rng.randint(1, most)


def play_pokerkit_home(setup: HomeSetup, rng: random.Random) -> tuple[str, tuple[int, ...]]:
    """Play random legal actions in PokerKit; return Felt-readable PHH and the finishing stacks."""
    stakes, options = setup.stakes, setup.options
    game = NoLimitTexasHoldem(
        HOME_AUTOMATIONS,
        stakes.ante_trimming,
        stakes.antes,
        stakes.blinds_or_straddles,
        stakes.min_bet,
        mode=Mode.CASH_GAME,
        starting_board_count=options.boards,
    )
    state = game(list(setup.stacks), len(setup.stacks))
    state.deck_cards = deque(PkCard.parse("".join(map(str, setup.deck))))
    agreed = rng.randint(1, options.max_run_count)
    selected = False
    while state.status:
        if state.can_deal_hole():
            state.deal_hole()
        elif state.can_deal_board():
            state.deal_board()
        elif state.can_select_runout_count():
            state.select_runout_count(_run_choice(rng, agreed, options.max_run_count))
            selected = True
        elif state.actor_index is not None:
            if options.bomb_pot and state.street_index == 0:
                state.check_or_call()  # a bomb pot has no preflop betting
                continue
            _pokerkit_random_action(state, rng)
        else:  # pragma: no cover - PokerKit automates everything else
            raise AssertionError("PokerKit is waiting for something unexpected")
    fields: dict[str, Any] = {}
    if selected:
        fields["_runout_count"] = state.runout_count or 1
    if options.boards > 1:
        fields["_board_count"] = options.boards
    if options.bomb_pot:
        fields["_bomb_pot"] = True
    history = HandHistory.from_game_state(
        game,
        state,
        finishing_stacks=list(state.stacks),
        ante_trimming_status=stakes.ante_trimming,
        **fields,
    )
    return history.dumps(), tuple(state.stacks)


def _pokerkit_random_action(state: object, rng: random.Random) -> None:
    choices = []
    # Cash-game mode (which run counts need) lets a player fold with nothing to call; we do not.
    if state.can_fold() and state.checking_or_calling_amount:  # type: ignore[attr-defined]
        choices.append("f")
    if state.can_check_or_call():  # type: ignore[attr-defined]
        choices.extend(["cc", "cc"])
    if state.can_complete_bet_or_raise_to():  # type: ignore[attr-defined]
        choices.append("cbr")
    choice = rng.choice(choices)
    if choice == "f":
        state.fold()  # type: ignore[attr-defined]
    elif choice == "cc":
        state.check_or_call()  # type: ignore[attr-defined]
    else:
        low = state.min_completion_betting_or_raising_to_amount  # type: ignore[attr-defined]
        high = state.max_completion_betting_or_raising_to_amount  # type: ignore[attr-defined]
        state.complete_bet_or_raise_to(_pick_amount(rng, low, high))  # type: ignore[attr-defined]


def play_ours_home(setup: HomeSetup, rng: random.Random) -> Hand:
    """Play random legal actions through our engine, run counts included."""
    hand = Hand(setup.stakes, setup.stacks, deck=setup.deck, options=setup.options)
    agreed = rng.randint(1, setup.options.max_run_count)
    while not hand.is_complete:
        legal = hand.turn
        assert legal is not None
        if hand.phase is Phase.RUN_COUNT:
            most = legal.max_run_count
            hand.act(legal.player, ChooseRunCount(_run_choice(rng, min(agreed, most), most)))
            continue
        hand.act(legal.player, random_action(legal, rng))
    return hand


def pokerkit_finishing_stacks(phh_text: str) -> tuple[int, ...]:
    """Replay Felt's PHH text in PokerKit, honouring ``_runout_count`` and ``_board_count``."""
    history = HandHistory.loads(phh_text)
    fields = history.user_defined_fields
    runs = fields.get("_runout_count")
    game = history.create_game()
    # As HandHistory replays: burns are played as unknown cards, and the run count is ours.
    manual = (Automation.CARD_BURNING, Automation.RUNOUT_COUNT_SELECTION)
    game.automations = tuple(a for a in history.automations if a not in manual)
    game.mode = Mode.CASH_GAME
    game.starting_board_count = fields.get("_board_count", 1)
    state = game(list(history.starting_stacks), len(history.starting_stacks))
    actions = deque(history.actions)
    while state.status or actions:
        if actions:
            action = actions.popleft()
            try:
                parse_action(state, action, history.parse_value)
                continue
            except ValueError:
                actions.appendleft(action)
        if state.can_post_ante():
            state.post_ante()
        elif state.can_collect_bets():
            state.collect_bets()
        elif state.can_post_blind_or_straddle():
            state.post_blind_or_straddle()
        elif state.can_burn_card():
            state.burn_card("??")
        elif state.can_deal_hole():
            state.deal_hole("??")
        elif state.can_select_runout_count():
            state.select_runout_count(runs)
        elif actions and not state.checking_or_calling_amount and state.can_check_or_call():
            state.check_or_call()
        elif actions and state.can_fold():
            state.fold()
        elif state.status and state.can_show_or_muck_hole_cards(()):
            state.show_or_muck_hole_cards(())
        elif state.can_kill_hand():
            state.kill_hand()
        elif state.can_push_chips():
            state.push_chips()
        elif state.can_pull_chips():
            state.pull_chips()
        else:
            break
    assert not actions, f"PokerKit could not play {actions[0]!r}"
    assert not state.status, "PokerKit did not finish the hand"
    return tuple(state.stacks)


def felt_text(hand: Hand) -> str:
    """Our PHH of a hand."""
    return phh.dumps(phh.from_hand(hand))
