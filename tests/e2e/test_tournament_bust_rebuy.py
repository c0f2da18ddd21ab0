"""Rebuys offered at the bust, through the fake Discord: members of a rebuy Sit & Go move all in
until they bust; each busted member gets a DM with **Rebuy** / **No thanks** and a countdown
while the table plays on. One rebuys by click and plays on, one declines, one lets the timer
run out (the offer is closed); a click by the wrong member is refused in one line; ``db check``
is exact at the end."""

from __future__ import annotations

from bot.discord.holdem import ids
from bot.tournament.bust_rebuys import REBUY_WINDOW_SECONDS
from bot.tournament.director import TournamentDirector
from tests.e2e.fakediscord import FakeDiscord, FakeMember, FakeMessage
from tests.e2e.support.bot_world import StartBot, World
from tests.e2e.support.holdem import passive
from tests.e2e.test_tournament_buy_deal import members, three_members_running, whose_turn
from tests.e2e.test_tournament_sng import Running, offer, start


def rebuy_offers(
    fake: FakeDiscord, world: World, done: set[int]
) -> list[tuple[FakeMember, FakeMessage]]:
    """The rebuy DMs with their buttons still on, not handled yet, oldest first."""
    found = [
        (member, message)
        for member in members(world)
        for message in fake.dms(member)
        if message.id not in done and any(b.startswith("Rebuy") for b in message.button_labels)
    ]
    return sorted(found, key=lambda pair: pair[1].id)


async def shove_until_offered(
    run: Running, director: TournamentDirector, world: World, done: set[int]
) -> tuple[FakeMember, FakeMessage]:
    """Members move all in (or call) on their turns until a rebuy offer is in a DM."""
    fake = run.fake

    def ready() -> bool:
        return bool(rebuy_offers(fake, world, done)) or whose_turn(run, director, world) is not None

    for _ in range(500):
        await fake.wait_until(ready, within=30, what="a member's turn or a rebuy offer")
        if offers := rebuy_offers(fake, world, done):
            return offers[0]
        member = whose_turn(run, director, world)
        found = offer(fake, director, member) if member is not None else None
        if member is None or found is None:
            continue
        message, _table, ref = found
        shove = next((b for b in message.button_labels if b.startswith("All-in")), None)
        clicked = await fake.click(member, message, label=shove or passive(message))
        await clicked.wait_answered()

        def taken(member: FakeMember = member, ref: ids.ActionRef = ref) -> bool:
            now = offer(fake, director, member)
            return now is None or now[2] != ref or bool(rebuy_offers(fake, world, done))

        await fake.wait_until(taken, within=20, what="the move taken")
    raise AssertionError("nobody busted")


async def test_busted_members_take_decline_or_let_a_rebuy_offer_run_out_by_dm(
    fake_discord: FakeDiscord, start_bot: StartBot, world: World
) -> None:
    fake = fake_discord
    run = await start(fake, start_bot)
    storage, guild = run.bot.storage, world.guild.id
    director = await three_members_running(fake, run, world, rebuys=True)
    engine, done = director.engine, set[int]()
    wallets = {m.id: await storage.balance(guild, m.id) for m in members(world)}

    # The first bust: a DM offer with a countdown.
    taker, message = await shove_until_offered(run, director, world, done)
    done.add(message.id)
    assert "rebuys are open" in message.content and "<t:" in message.content
    assert {"No thanks"} < set(message.button_labels)
    other = next(m for m in members(world) if m.id != taker.id)
    wrong = await fake.click(other, message, label="No thanks", unchecked=True)
    await wrong.wait_answered()
    assert "offered to another player" in wrong.reply.content
    rebuy = next(b for b in message.button_labels if b.startswith("Rebuy"))
    clicked = await fake.click(taker, message, label=rebuy)
    await clicked.wait_answered()
    assert clicked.errors == []
    await fake.wait_until(lambda: fake.messages[message.id].buttons == [], what="the answer")
    assert "back at the table" in fake.messages[message.id].content
    entry = engine.entry_of(f"u{taker.id}")
    assert entry is not None and entry.rebuys == 1
    assert engine.seating.where(entry.number) is not None, "seated again"
    assert await storage.balance(guild, taker.id) == wallets[taker.id] - 100
    assert (await storage.check()).ok

    # The next bust declines: out, in the place of that bust, nothing paid.
    decliner, message = await shove_until_offered(run, director, world, done)
    done.add(message.id)
    wallet = await storage.balance(guild, decliner.id)
    assert engine.players_left == 2, "the other two"
    # The table is not waiting for the decision: the two others play a hand meanwhile.
    await fake.wait_until(lambda: whose_turn(run, director, world) is not None, what="a hand")
    assert engine.busy and any(engine.entries[n].player == f"u{decliner.id}" for n in engine.held)
    clicked = await fake.click(decliner, message, label="No thanks")
    await clicked.wait_answered()
    await fake.wait_until(
        lambda: "declines" in fake.messages[message.id].content, what="the answer"
    )
    assert await storage.balance(guild, decliner.id) == wallet
    assert engine.entry_of(f"u{decliner.id}") is None

    # Heads-up now: the next bust lets the timer run out, which ends the tournament (it could
    # not end while the decision was open); the offer is closed and nothing was paid.
    sleeper, message = await shove_until_offered(run, director, world, done)
    done.add(message.id)
    wallet = await storage.balance(guild, sleeper.id)
    assert not director.done.is_set()
    await run.tables.advance(REBUY_WINDOW_SECONDS + 1)
    await fake.wait_until(
        lambda: fake.messages[message.id].buttons == [], what="the offer to be closed"
    )
    assert "offer ended" in fake.messages[message.id].content

    await fake.wait_until(director.done.is_set, within=60, what="the tournament to end")
    entries = await storage.tournament_entries(director.tournament_id)
    [slept] = [e for e in entries if e.user_id == sleeper.id]
    assert await storage.balance(guild, sleeper.id) == wallet + slept.prize  # no rebuy paid
    paid = sum(1 + e.rebuys + e.add_ons for e in entries)
    assert sum(e.prize for e in entries) == paid * 100
    assert sorted(e.place or 0 for e in entries) == [1, 2, 3]
    assert (await storage.check()).ok
