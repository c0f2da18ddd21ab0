"""House bots at a Blackjack table (dealt in at the deal, funded by the house, basic strategy at a
human pace, seats left to members), the trainer's grades of every member decision, and the shoe's
public state, all on real storage."""

from __future__ import annotations

import random

import pytest

from bot.blackjack.errors import NoDecisionError
from bot.blackjack.events import RoundFinished, RoundRefunded, ShoeReshuffled, TablePhase
from bot.blackjack.host import BlackjackSettings, BlackjackTable
from bot.tables.clock import ManualScheduler
from engine.blackjack import CASINO, Action, Phase, Rules, Shoe, StackedShoe
from storage import DecisionGrades, Storage, bot_player_id
from tests.bot.recorder import BlackjackRecorder

GUILD, CHANNEL = 1000, 3000
ALICE, BOB, CAROL = 21, 22, 23
DELAY = 1.5


def table(
    storage: Storage,
    scheduler: ManualScheduler,
    recorder: BlackjackRecorder,
    *,
    bots: int,
    shoe: Shoe,
    rules: Rules = CASINO,
) -> BlackjackTable:
    return BlackjackTable(
        storage=storage,
        guild_id=GUILD,
        channel_id=CHANNEL,
        name="#blackjack",
        settings=BlackjackSettings(
            rules=rules,
            min_bet=10,
            max_bet=500,
            betting_seconds=10,
            turn_seconds=20,
            bot_seats=bots,
            bot_delay_seconds=DELAY,
        ),
        scheduler=scheduler,
        presenter=recorder,
        shoe=shoe,
    )


async def house(storage: Storage) -> int:
    rows = await storage._read(  # the house has no member id: read it directly
        lambda tx: tx.all("SELECT balance FROM accounts WHERE kind = 'house'")
    )
    return int(rows[0][0])


async def act(game: BlackjackTable, user_id: int, action: Action) -> None:
    snapshot = game.snapshot()
    assert snapshot.round_id is not None
    await game.act(user_id, snapshot.round_id, snapshot.step, action)


# Alice (seat 0) 6-5 against the dealer's 6; the bot (seat 6) T-7; hole 9; Alice's hit 2;
# the dealer draws a ten and busts.
HARD_11_VS_6 = "6h Th 6d 5c 7s 9c 2h Ts 4d 4c"


async def test_a_bot_is_dealt_in_with_a_bet_from_the_house_and_plays_after_a_pause(
    storage: Storage,
) -> None:
    scheduler, recorder = ManualScheduler(), BlackjackRecorder()
    game = table(storage, scheduler, recorder, bots=1, shoe=StackedShoe.of(HARD_11_VS_6))
    await game.bet(ALICE, "Alice", 10)
    await scheduler.advance(10)

    players = game.snapshot().players
    assert [(p.seat, p.user_id, p.bot) for p in players] == [
        (0, ALICE, False),
        (6, bot_player_id(6), True),
    ]
    assert await house(storage) == -10
    await act(game, ALICE, Action.HIT)
    await act(game, ALICE, Action.STAND)
    await scheduler.advance(DELAY - 0.1)
    assert game.phase is TablePhase.PLAYING  # the bot is still "thinking"
    await scheduler.advance(0.1)

    [finished] = recorder.of(RoundFinished)
    by_name = {result.name: result for result in finished.results}
    assert by_name["Dijkstra Bot"].bot and by_name["Dijkstra Bot"].net == 10
    assert by_name["Alice"].net == 10
    # The bot's win is the house's own money coming back: only Alice's win costs the house.
    assert await house(storage) == -10
    assert await storage.balance(GUILD, ALICE) == 1010
    assert (await storage.check()).ok


async def test_every_member_decision_is_graded_and_stored_with_the_settlement(
    storage: Storage,
) -> None:
    scheduler, recorder = ManualScheduler(), BlackjackRecorder()
    game = table(storage, scheduler, recorder, bots=1, shoe=StackedShoe.of(HARD_11_VS_6))
    await game.bet(ALICE, "Alice", 10)
    await scheduler.advance(10)
    await act(game, ALICE, Action.HIT)
    await act(game, ALICE, Action.STAND)
    await scheduler.advance(DELAY)

    [finished] = recorder.of(RoundFinished)
    alice = next(result for result in finished.results if result.user_id == ALICE)
    assert alice.grades == (
        "Hit: basic strategy: double down (hard 11 vs 6), cost ~0.34 bets in expectation",
        "Stand: correct",
    )
    grades = await storage.decision_grades(GUILD, ALICE)
    assert (grades.decisions, grades.correct) == (2, 1)
    assert 3.3 < grades.expected_loss < 3.5  # 0.34 of a 10-chip bet
    assert await storage.decision_grades(GUILD, bot_player_id(6)) == DecisionGrades()


async def test_a_member_cannot_decide_for_a_bot(storage: Storage) -> None:
    scheduler, recorder = ManualScheduler(), BlackjackRecorder()
    game = table(storage, scheduler, recorder, bots=1, shoe=StackedShoe.of(HARD_11_VS_6))
    await game.bet(ALICE, "Alice", 10)
    await scheduler.advance(10)
    await act(game, ALICE, Action.STAND)
    snapshot = game.snapshot()
    assert snapshot.to_act_user == bot_player_id(6)
    assert snapshot.offers == {}

    with pytest.raises(NoDecisionError):
        game.check_offer(ALICE, snapshot.round_id or 0, snapshot.step, Action.HIT)


async def test_members_take_the_bots_seats_at_the_next_round(storage: Storage) -> None:
    scheduler, recorder = ManualScheduler(), BlackjackRecorder()
    game = table(storage, scheduler, recorder, bots=6, shoe=Shoe(6, rng=random.Random(5)))
    await game.bet(ALICE, "Alice", 10)
    await game.bet(BOB, "Bob", 10)
    first = game.round_id
    await scheduler.advance(10)
    await game.suspend("test")
    game._suspended = False  # the same table plays on, as after a restart
    for member in (ALICE, BOB, CAROL):
        await game.bet(member, str(member), 10)
    second = game.round_id
    await scheduler.advance(10)

    assert await bot_seats(storage, first) == [2, 3, 4, 5, 6]
    assert await bot_seats(storage, second) == [3, 4, 5, 6]


async def bot_seats(storage: Storage, round_id: int | None) -> list[int]:
    """The seats of the bots stored as playing ``round_id``."""
    record = await storage.get_round(round_id or 0)
    assert record is not None
    return sorted(-1 - p.user_id for p in record.players if p.bot_name is not None)


async def test_a_round_with_bots_cut_short_gives_the_house_its_chips_back(
    storage: Storage,
) -> None:
    scheduler, recorder = ManualScheduler(), BlackjackRecorder()
    game = table(
        storage, scheduler, recorder, bots=3, shoe=StackedShoe.of(f"{HARD_11_VS_6} {HARD_11_VS_6}")
    )
    await game.bet(ALICE, "Alice", 10)
    await scheduler.advance(10)
    assert await house(storage) == -30

    await game.suspend("Felt is restarting")

    assert recorder.of(RoundRefunded)
    assert await house(storage) == 0
    assert await storage.balance(GUILD, ALICE) == 1000
    assert (await storage.check()).ok


async def play_out(game: BlackjackTable, scheduler: ManualScheduler, user_id: int) -> None:
    """Stand on everything (and decline insurance) until the round is settled."""
    while game.round is not None and not game.round.is_complete:
        decides = game.snapshot().offers.get(user_id)
        if decides:
            insurance = game.round.phase is Phase.INSURANCE
            await act(game, user_id, Action.NO_INSURANCE if insurance else Action.STAND)
        else:
            await scheduler.advance(DELAY)


SHOE_SEED = 3


async def test_the_shoe_state_is_public_and_a_reshuffle_is_announced(storage: Storage) -> None:
    scheduler, recorder = ManualScheduler(), BlackjackRecorder()
    rules = Rules(decks=1, penetration=0.1)
    # A seeded shoe: unseeded, a blackjack could end the first round at its deal (a flaky test).
    shoe = Shoe.for_rules(rules, rng=random.Random(SHOE_SEED))
    game = table(storage, scheduler, recorder, bots=2, shoe=shoe, rules=rules)
    await game.bet(ALICE, "Alice", 10)
    await scheduler.advance(10)
    first_round = game.round_id
    dealt = game.snapshot().shoe
    await play_out(game, scheduler, ALICE)
    await game.bet(ALICE, "Alice", 10)
    await scheduler.advance(10)

    assert dealt is not None and dealt.shuffled_round == first_round
    assert dealt.size == 52 and dealt.cards_left == 52 - 8  # three players and the dealer
    assert [event.round_id for event in recorder.of(ShoeReshuffled)] == [
        first_round,
        game.round_id,  # the cut card (5 cards in) came out during the first round
    ]
