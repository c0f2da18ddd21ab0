"""A Hold'em session end to end: two members and bots over many hands, through the fake Discord.

Each test opens the same table (Alice with two bots, Bob joining during hand 1 with his DMs
closed; hand 2 splits a royal flush, hand 3 makes a side pot) and plays only as far as what it
asserts.

The fake Discord here runs its per-route rate limits ten times faster (same counts, shorter
windows) so a dozen hands take seconds; ``test_holdem_limits.py`` plays under Discord's real
limits. Every payload the bot sent is checked for hole cards at the end.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import AsyncIterator

import pytest

from bot.holdem.events import (
    ActionTaken,
    HandDealt,
    HandFinished,
    HandsTabled,
    HoldemTableClosed,
    PlayerSatOut,
)
from bot.holdem.host import STALE_BUTTON
from engine.cards import Card
from storage import Storage
from tests.e2e.fakediscord import FakeDiscord, FakeMember, FakeMessage, ResponseKind
from tests.e2e.support.bot_world import World, scaled_rules
from tests.e2e.support.decks import dealing_order, deck
from tests.e2e.support.holdem import Factory, HoldemWorld, button, passive
from tests.e2e.support.privacy import check_privacy

ROYAL_BOARD = "As Ks Qs Js Ts"
SPLIT_HAND = 2
SIDE_POT_HAND = 3


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(rate_limits=scaled_rules(10)) as fake:
        yield fake


async def refused(h: HoldemWorld, member: FakeMember, message: FakeMessage, label: str) -> str:
    clicked = await h.fake.click(member, message, label=label)
    await clicked.wait_answered()
    reply = clicked.reply
    assert reply.ephemeral and reply.ephemeral_for is member.user
    return reply.content


@dataclasses.dataclass
class Session:
    """The table every test here plays at."""

    h: HoldemWorld
    fake: FakeDiscord
    world: World

    @property
    def alice(self) -> FakeMember:
        return self.world.alice

    @property
    def bob(self) -> FakeMember:
        return self.world.bob

    async def play_to(self, hands: int) -> None:
        """Alice and Bob check or call until ``hands`` hands are finished."""
        await self.h.play([self.alice, self.bob], until=lambda: self.h.hands_finished() >= hands)


async def open_session(fake: FakeDiscord, world: World, start_holdem: Factory) -> Session:
    """Alice opens a 4-seat table with two bots; Bob (DMs closed) joins during hand 1 and plays
    from hand 2. Returns once Alice is offered her first action and has her cards by DM."""
    fake.set_dms_open(world.bob, False)
    holes = ["2c 7d", "3c 8d", "4c 9d", "5c 2d"]  # nobody beats the royal flush on the board
    box: list[HoldemWorld] = []

    def side_pot_deck() -> list[Card]:
        # Hand 3 (seats 1-4 all dealt in): Bob (seat 4) holds aces, Alice (seat 1) kings.
        previous = [e for e in box[0].of(HandDealt) if e.hand_id == SIDE_POT_HAND - 1]
        order = dealing_order([1, 2, 3, 4], previous[0].button_seat)
        cards = {1: "Kh Kd", 2: "7c 2d", 3: "Qc 4d", 4: "Ah Ad"}
        return deck([cards[seat] for seat in order], "9s 5c 3h Jd 8c")

    h = await start_holdem(
        decks={SPLIT_HAND: deck(holes, ROYAL_BOARD), SIDE_POT_HAND: side_pot_deck}
    )
    box.append(h)
    opened = await fake.slash(world.alice, world.channel, "holdem start", seats=4, bots=2)
    await opened.wait_answered()
    assert opened.reply.ephemeral and "Your table is open" in opened.reply.content
    await fake.wait_for_message(world.channel, lambda m: "opened a Hold'em table" in m.text)
    await h.wait_offer(world.alice)
    joined = await fake.slash(world.bob, world.channel, "holdem join", buy_in=200)
    await joined.wait_answered()
    assert "seat 4 with 200 chips" in joined.reply.content and joined.reply.ephemeral
    await fake.wait_until(
        lambda: any(
            m.content.startswith("**Alice's table** · Hand #1") for m in fake.dms(world.alice)
        ),
        what="Alice's cards by DM",
    )
    return Session(h, fake, world)


@pytest.fixture
async def session(fake_discord: FakeDiscord, world: World, start_holdem: Factory) -> Session:
    return await open_session(fake_discord, world, start_holdem)


async def test_only_the_member_to_act_can_act_and_only_players_see_their_cards(
    session: Session,
) -> None:
    h, alice, bob, ada = session.h, session.alice, session.bob, session.world.admin
    message, _ref = await h.wait_offer(alice)

    assert "not seated" in await refused(h, ada, message, "Fold")
    assert await refused(h, bob, message, passive(message)) == "It is not your turn."
    assert "Only players seated" in await refused(h, ada, message, "My cards")
    assert "not in this hand" in await refused(h, bob, message, "My cards")
    own = await h.fake.click(alice, message, label="My cards")
    await own.wait_answered()
    assert own.reply.ephemeral and own.reply.filenames == ["my-cards.png"]
    cards_line, panel_line = own.reply.content.split("\n")
    assert cards_line == f"Hand #1: your cards are **{dm_cards(session.fake, alice, 1)}**"
    assert panel_line.startswith("Pre-action: none")  # her private panel comes with her cards
    assert check_privacy(session.fake, h).problems == []


async def test_the_raise_modal_refuses_bad_amounts_unchanged_then_takes_a_good_one(
    session: Session,
) -> None:
    h, fake, alice = session.h, session.fake, session.alice
    message, ref = await h.wait_offer(alice)
    table = h.table()
    before = table.snapshot()
    legal = before.legal
    assert legal is not None and legal.min_raise_to is not None and legal.max_raise_to is not None
    for typed, reason in [
        ("-5", "cannot be negative"),
        ("abc", "is not a number"),
        (str(legal.min_raise_to - 1), "below the minimum"),
        (str(legal.max_raise_to + 1), "more than your stack"),
        ("1" + "0" * 19, "more than your stack"),
        ("1e5", "is not a number"),
    ]:
        opened_modal = await fake.click(alice, message, label=button(message, "Raise"))
        await opened_modal.wait_answered()
        assert opened_modal.response_kind is ResponseKind.MODAL
        submitted = await fake.submit_modal(alice, opened_modal, {"amount": typed})
        await submitted.wait_answered()
        assert submitted.reply.ephemeral and reason in submitted.reply.content, (
            typed,
            submitted.reply.content,
        )
        assert table.snapshot() == before

    opened_modal = await fake.click(alice, message, label=button(message, "Raise"))
    await opened_modal.wait_answered()
    submitted = await fake.submit_modal(alice, opened_modal, {"amount": f"{legal.min_raise_to:,}"})
    await submitted.wait_answered()
    assert submitted.response_kind is ResponseKind.DEFERRED_UPDATE_MESSAGE
    await h.wait_host(lambda: h.moved_on(ref), "Alice's raise")
    raises = [e for e in h.of(ActionTaken) if e.hand_id == 1 and e.name == "Alice"]
    assert raises[-1].bet_to == legal.min_raise_to


async def test_a_member_with_closed_dms_is_pointed_to_my_cards_which_shows_them(
    session: Session,
) -> None:
    h, fake, bob = session.h, session.fake, session.bob
    await session.play_to(1)
    await h.turn_of(bob, [session.alice, bob])
    message, _ref = await h.wait_offer(bob)

    await fake.wait_for_message(
        session.world.channel, lambda m: f"<@{bob.id}>" in m.content and "My cards" in m.content
    )
    assert fake.dms(bob) == []
    bob_cards = await h.fake.click(bob, message, label="My cards")
    await bob_cards.wait_answered()
    assert bob_cards.reply.ephemeral_for is bob.user and "Hand #2" in bob_cards.reply.content


async def test_a_double_click_applies_once_and_the_second_click_is_refused(
    session: Session,
) -> None:
    h, fake, bob = session.h, session.fake, session.bob
    await session.play_to(1)
    await h.turn_of(bob, [session.alice, bob])
    message, _ref = await h.wait_offer(bob)

    label = passive(message)
    first = await fake.click(bob, message, label=label)
    second = await fake.click(bob, message, label=label)
    await fake.wait_until(
        lambda: first.answered and second.answered and bool(first.followups or second.followups),
        what="both clicks answered",
    )
    refusals = [m for i in (first, second) for m in i.followups]
    assert len(refusals) == 1 and refusals[0].ephemeral_for is bob.user
    assert refusals[0].content == STALE_BUTTON
    mine = [e for e in h.of(ActionTaken) if e.hand_id == 2 and e.name == "Bob"]
    assert len(mine) == 1


async def test_a_royal_flush_on_the_board_splits_the_pot(session: Session) -> None:
    h = session.h
    await session.play_to(SPLIT_HAND)

    split = h.of(HandFinished)[SPLIT_HAND - 1]
    assert len(split.pots[0].winners) >= 2, split.pots
    result = await session.fake.wait_for_message(
        session.world.channel, lambda m: "Hand #2 · Result" in m.text
    )
    assert "split" in result.text and "Royal flush" in result.text


async def test_an_all_in_short_stack_and_a_raise_over_it_make_a_side_pot(
    session: Session,
) -> None:
    h, alice, bob = session.h, session.alice, session.bob
    await session.play_to(SIDE_POT_HAND - 1)

    await h.turn_of(bob, [alice, bob])
    message, _ref = await h.wait_offer(bob)
    await h.act(bob, button(message, "All-in"))
    await h.turn_of(alice, [alice, bob])
    message, _ref = await h.wait_offer(alice)
    await h.act(alice, button(message, "Min"))
    await session.play_to(SIDE_POT_HAND)

    third = h.of(HandFinished)[SIDE_POT_HAND - 1]
    assert len(third.pots) == 2, third.pots  # Bob wins the main pot, Alice the side pot
    assert [pot.winners[0][1] for pot in third.pots] == ["Bob", "Alice"]
    result = await session.fake.wait_for_message(
        session.world.channel, lambda m: "Hand #3 · Result" in m.text
    )
    assert "Main pot" in result.text and "Side pot 1" in result.text
    assert h.of(HandsTabled) or third.shown


async def test_two_timeouts_sit_a_member_out_and_refuse_her_stale_button_until_she_is_back(
    session: Session,
) -> None:
    h, fake, alice, bob = session.h, session.fake, session.alice, session.bob
    for _ in range(2):
        await h.turn_of(alice, [alice, bob])
        message, ref = await h.wait_offer(alice)
        stale = dataclasses.replace(message, components=[dict(row) for row in message.components])
        await h.scheduler.expire_turn()
        await h.wait_host(functools.partial(h.moved_on, ref), "the timeout")

    timed_out = [e for e in h.of(ActionTaken) if e.name == "Alice" and e.automatic]
    assert len(timed_out) == 2
    assert [e.reason for e in h.of(PlayerSatOut) if e.user_id == alice.id][-1].startswith(
        "timed out twice"
    )
    # A button Alice's client still showed from before the timeout is refused.
    late = await fake.click(alice, stale, label=passive(stale))
    await late.wait_answered()
    over = h.table().hand_id != ref.hand_id or h.table().hand is None
    assert late.reply.ephemeral
    assert late.reply.content == ("That hand is over." if over else STALE_BUTTON)
    back = await fake.slash(alice, session.world.channel, "holdem back")
    await back.wait_answered()
    assert "back" in back.reply.content


async def play_nine_hands_and_stop(session: Session) -> None:
    """Nine hands or more (Bob tops up if he went broke), then Alice (the host) stops the table
    and it closes."""
    h, fake, alice, bob = session.h, session.fake, session.alice, session.bob
    while member := await h.next_turn([alice, bob], lambda: h.hands_finished() >= 9):
        seat = h.table().snapshot().seat(4)
        if seat is not None and seat.stack == 0:
            rebuy = await fake.slash(bob, session.world.channel, "holdem rebuy", amount=300)
            await rebuy.wait_answered()
        await h.act(member)
    stopped = await fake.slash(alice, session.world.channel, "holdem stop")
    await stopped.wait_answered()
    await h.play([alice, bob], until=lambda: bool(h.of(HoldemTableClosed)))


async def test_a_long_session_ends_cashed_out_with_every_chip_and_no_card_leaked(
    session: Session,
) -> None:
    h, fake, world = session.h, session.fake, session.world
    await play_nine_hands_and_stop(session)

    closed = h.of(HoldemTableClosed)
    assert closed and {name for name, _user, _amount in closed[0].cash_outs} >= {"Alice", "Bob"}
    await fake.wait_for_message(world.channel, lambda m: "The table is closed" in m.text)
    await fake.wait_until(
        lambda: (last := h.table_message()) is not None and "closed" in last.content,
        what="the table message to show the table closed",
    )
    last = h.table_message()
    assert last is not None and last.buttons == []
    # Every chip is accounted for: the members' totals moved exactly by their net results.
    storage: Storage = h.bot.storage
    assert (await storage.check()).ok
    accounts = [await storage.get_account(world.guild.id, m.id) for m in (world.alice, world.bob)]
    assert all(account is not None and account.at_tables == 0 for account in accounts)
    humans = {world.alice.id, world.bob.id}
    net = sum(
        delta
        for event in h.of(HandFinished)
        for seat_no, _name, delta in event.net
        if (seat := event.snapshot.seat(seat_no)) is not None and seat.user_id in humans
    )
    assert sum(a.balance for a in accounts if a is not None) == 2 * 1000 + net
    # The channel saw the table message, streets and results, and no card it should not have.
    report = check_privacy(fake, h)
    assert report.problems == []
    assert report.public_with_cards > 20 and report.private_payloads > 10
    assert fake.stats.rate_limited == 0
    assert fake.unacknowledged() == []


def dm_cards(fake: FakeDiscord, member: FakeMember, hand: int) -> str:
    for message in fake.dms(member):
        if f"Hand #{hand} " in message.content:
            return message.content.split("Your cards: **")[1].rstrip("*")
    raise AssertionError(f"no DM for hand {hand}")
