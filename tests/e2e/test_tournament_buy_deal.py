"""``/tournament deal`` and ``/tournament buy`` through the fake Discord: a deal declined changes
nothing, a deal every member accepts pays the split; a rebuy and an add-on move wallet chips
into the prize pool; ``db check`` is exact throughout."""

from __future__ import annotations

from typing import Any

from bot.discord.holdem import ids
from bot.holdem.settings import HoldemSettings
from bot.tournament.deals import DealKind
from bot.tournament.director import TournamentDirector
from storage.tournaments import TournamentStatus
from tests.e2e.fakediscord import FakeDiscord, FakeMember, FakeMessage
from tests.e2e.support.bot_world import StartBot, World
from tests.e2e.support.holdem import passive
from tests.e2e.test_tournament_sng import Running, offer, start

HOLD_BETWEEN_HANDS = HoldemSettings(bots=0, bot_delay_seconds=0.0, between_hands_seconds=5.0)
"""Tables wait for the test between hands (the stepped scheduler holds the timer): a member's
table is idle then, which a rebuy needs."""


async def three_members_running(
    fake: FakeDiscord, run: Running, world: World, **options: Any
) -> TournamentDirector:
    """A Sit & Go of alice, bob and admin (3 seats, starts when full), its director running."""
    created = await fake.slash(
        world.admin, world.channel, "tournament create", name="Deal night", type="sng",
        buy_in=100, preset="hyper", max_entries=3, seats=3, **options,
    )  # fmt: skip
    await created.wait_answered()
    assert created.errors == []
    for member in members(world):
        registered = await fake.slash(member, world.channel, "tournament register")
        await registered.wait_answered()
    [row] = await run.bot.storage.list_tournaments(world.guild.id)
    await fake.wait_until(
        lambda: run.director(row.tournament_id) is not None, what="the director to start"
    )
    director = run.director(row.tournament_id)
    assert director is not None
    await fake.wait_until(lambda: bool(director.engine.busy), what="the first hand")
    return director


def members(world: World) -> tuple[FakeMember, ...]:
    return (world.alice, world.bob, world.admin)


def turns(run: Running, director: TournamentDirector, world: World) -> list[FakeMessage]:
    """The table messages offering a member the action now (with who it is, by position)."""
    return [o[0] for m in members(world) if (o := offer(run.fake, director, m)) is not None]


def whose_turn(run: Running, director: TournamentDirector, world: World) -> FakeMember | None:
    return next((m for m in members(world) if offer(run.fake, director, m) is not None), None)


async def finish_the_hand(run: Running, director: TournamentDirector, world: World) -> None:
    """Members fold (or check) until no hand is in play anywhere: few clicks per hand."""
    fake = run.fake

    def ready() -> bool:
        idle = not director.engine.busy and not director.settling
        return idle or bool(turns(run, director, world))

    while True:
        await fake.wait_until(ready, within=30, what="a member's turn or the hand's end")
        member = whose_turn(run, director, world)
        if member is None:
            return
        found = offer(fake, director, member)
        assert found is not None
        message, _table, ref = found
        label = "Fold" if "Fold" in message.button_labels else passive(message)
        clicked = await fake.click(member, message, label=label)
        await clicked.wait_answered()

        def taken(member: FakeMember = member, ref: ids.ActionRef = ref) -> bool:
            now = offer(fake, director, member)
            return now is None or now[2] != ref

        await fake.wait_until(taken, within=20, what="the move taken")


async def ask_for_deal(run: Running, world: World, member: FakeMember) -> FakeMessage:
    asked = await run.fake.slash(member, world.channel, "tournament deal")
    await asked.wait_answered()
    assert asked.errors == []
    return asked.reply


async def test_a_declined_deal_changes_nothing_and_an_accepted_one_pays_the_split(
    fake_discord: FakeDiscord, start_bot: StartBot, world: World
) -> None:
    run = await start(fake_discord, start_bot, HOLD_BETWEEN_HANDS)
    storage = run.bot.storage
    director = await three_members_running(fake_discord, run, world)
    tid = director.tournament_id
    await finish_the_hand(run, director, world)

    offered = await ask_for_deal(run, world, world.alice)
    assert "A deal in" in offered.content
    assert {"Accept ICM", "Accept Chip-chop", "No deal"} <= set(offered.button_labels)
    stacks = {e.number: e.stack for e in director.engine.entries.values()}
    wallets = {m.id: await storage.balance(world.guild.id, m.id) for m in members(world)}
    declined = await fake_discord.click(world.bob, offered, label="No deal")
    await declined.wait_answered()
    assert "No deal" in fake_discord.messages[offered.id].content
    assert {e.number: e.stack for e in director.engine.entries.values()} == stacks
    row = await storage.get_tournament(tid)
    assert row is not None and row.status is TournamentStatus.RUNNING
    for member in members(world):
        assert await storage.balance(world.guild.id, member.id) == wallets[member.id]
    assert all(e.prize == 0 for e in await storage.tournament_entries(tid))
    assert fake_discord.messages[offered.id].buttons == [], "the declined offer is closed"
    assert director.deal_offer is None

    # Play goes on; a deal asked during a hand holds the next deal, then is offered.
    await run.tables.advance(5)
    await fake_discord.wait_until(lambda: bool(director.engine.busy), what="the next hand")
    busy = await fake_discord.slash(world.bob, world.channel, "tournament deal")
    await busy.wait_answered()
    assert "ask again when this one ends" in busy.reply.content
    await finish_the_hand(run, director, world)
    offered = await ask_for_deal(run, world, world.bob)
    deal = director.deal_offer
    assert deal is not None
    split = dict(zip(deal.user_ids, deal.split(DealKind.ICM).amounts, strict=True))
    for member in members(world):
        clicked = await fake_discord.click(member, offered, label="Accept ICM")
        await clicked.wait_answered()
        assert clicked.errors == []
    await fake_discord.wait_until(
        lambda: "Everyone accepted" in fake_discord.messages[offered.id].content,
        what="the offer to say the deal is done",
    )
    await fake_discord.wait_until(director.done.is_set, what="the tournament to end")
    entries = await storage.tournament_entries(tid)
    assert sum(e.prize for e in entries) == 300
    for member in members(world):
        [entry] = [e for e in entries if e.user_id == member.id]
        assert entry.prize == split[member.id]
        assert await storage.balance(world.guild.id, member.id) == wallets[member.id] + entry.prize
    assert (await storage.check()).ok


async def test_a_rebuy_and_an_add_on_move_wallet_chips_into_the_prize_pool(
    fake_discord: FakeDiscord, start_bot: StartBot, world: World
) -> None:
    run = await start(fake_discord, start_bot, HOLD_BETWEEN_HANDS)
    storage = run.bot.storage
    director = await three_members_running(fake_discord, run, world, rebuys=True)
    tid, engine = director.tournament_id, director.engine
    await finish_the_hand(run, director, world)
    start_stack = engine.structure.starting_stack
    short = next(m for m in members(world) if engine.entry_of(f"u{m.id}").stack <= start_stack)  # type: ignore[union-attr]
    wallet = await storage.balance(world.guild.id, short.id)
    stack = engine.entry_of(f"u{short.id}").stack  # type: ignore[union-attr]

    bought = await fake_discord.slash(short, world.channel, "tournament buy", what="rebuy")
    await bought.wait_answered()
    assert f"you have {stack + start_stack:,} chips" in bought.reply.content
    assert await storage.balance(world.guild.id, short.id) == wallet - 100
    row = await storage.get_tournament(tid)
    assert row is not None and row.prize_pool == 400
    assert (await storage.check()).ok

    # On to the add-on break after the rebuy levels (no turn timer runs between hands).
    await finish_the_hand(run, director, world)
    rebuy_levels = engine.structure.levels[: engine.structure.rebuy_levels]
    await run.tables.advance(sum((level.minutes or 0) * 60 for level in rebuy_levels) + 10)
    await fake_discord.wait_until(lambda: engine.on_break, what="the add-on break")
    assert engine.step.add_on  # type: ignore[union-attr]
    addon_member = next(m for m in members(world) if engine.entry_of(f"u{m.id}") is not None)
    entry = engine.entry_of(f"u{addon_member.id}")
    assert entry is not None
    wallet, stack = await storage.balance(world.guild.id, addon_member.id), entry.stack
    added = await fake_discord.slash(addon_member, world.channel, "tournament buy", what="addon")
    await added.wait_answered()
    chips = engine.structure.add_on_chips
    assert f"you have {stack + chips:,} chips" in added.reply.content
    assert await storage.balance(world.guild.id, addon_member.id) == wallet - 100
    again = await fake_discord.slash(addon_member, world.channel, "tournament buy", what="addon")
    await again.wait_answered()
    assert "No add-on now" in again.reply.content
    assert await storage.balance(world.guild.id, addon_member.id) == wallet - 100
    row = await storage.get_tournament(tid)
    assert row is not None and row.prize_pool == 500
    entries = {e.user_id: e for e in await storage.tournament_entries(tid)}
    assert entries[short.id].rebuys == 1 and entries[addon_member.id].add_ons == 1
    assert (await storage.check()).ok
