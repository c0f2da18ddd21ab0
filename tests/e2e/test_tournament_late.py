"""Late registration and re-entry end to end through the fake Discord: a multi-table tournament
starts with two members; a third registers late with the lobby's Register button, pays, is
seated and plays; a busted member re-enters with ``/tournament register`` and, busted again, is
refused; withdrawing after the start is refused; late registration closes at the end of its
level (the lobby's Register button goes, the tournament message says so), and the prizes pay
out every chip with ``db check`` exact."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.discord.holdem import ids
from bot.tournament import late
from bot.tournament.director import TournamentDirector
from tests.e2e.fakediscord import FakeDiscord, FakeMember, FakeMessage
from tests.e2e.support.bot_world import StartBot, World
from tests.e2e.test_tournament_lobby import lobby_message, seen, use
from tests.e2e.test_tournament_sng import Running, offer, start

BUY_IN = 50


def tournament_message(fake: FakeDiscord, world: World) -> FakeMessage:
    [message] = [m for m in fake.channel_messages(world.channel) if "⏱️" in m.content]
    return message


def choice(message: FakeMessage, clicks_this_hand: int) -> str:
    """Two members fight each hand: the first to act moves all in, the next calls, anyone
    else folds (so at most one player busts per hand and the field lives on)."""
    labels = message.button_labels
    shove = next((label for label in labels if label.startswith("All-in")), None)
    call = next((label for label in labels if label.startswith("Call")), None)
    if clicks_this_hand == 0 and shove is not None:
        return shove
    if clicks_this_hand <= 1 and call is not None:
        return call
    if "Check" in labels:
        return "Check"
    return "Fold" if "Fold" in labels else (call or shove or labels[0])


async def fight_until(
    run: Running,
    director: TournamentDirector,
    members: Sequence[FakeMember],
    done: Callable[[], bool],
    played: dict[int, int] | None = None,
) -> None:
    """Members play ``choice`` until ``done()`` (checked between moves), counting each
    member's moves in ``played``."""
    fake = run.fake
    clicks: dict[tuple[int, int], int] = {}
    found: list[tuple[FakeMember, FakeMessage, ids.ActionRef]] = []

    def ready() -> bool:
        found.clear()
        if done():
            return True
        for member in members:
            spot = offer(fake, director, member)
            if spot is not None:
                found.append((member, spot[0], spot[2]))
                return True
        return False

    for _ in range(400):
        await fake.wait_until(ready, within=60, what="a member's turn or the goal")
        if not found:
            return
        member, message, ref = found[0]
        count = clicks.get((ref.table_id, ref.hand_id), 0)
        clicks[(ref.table_id, ref.hand_id)] = count + 1
        if played is not None:
            played[member.id] = played.get(member.id, 0) + 1
        clicked = await fake.click(member, message, label=choice(message, count))
        await clicked.wait_answered()
        assert clicked.errors == []

        def taken(member: FakeMember = member, ref: ids.ActionRef = ref) -> bool:
            now = offer(fake, director, member)
            return now is None or now[2] != ref

        await fake.wait_until(taken, within=20, what="the move taken")
    raise AssertionError("the fight never ended")


async def test_a_late_entry_plays_a_busted_member_re_enters_once_and_registration_closes(
    fake_discord: FakeDiscord, start_bot: StartBot, world: World
) -> None:
    fake = fake_discord
    run = await start(fake, start_bot)
    storage = run.bot.storage
    cy, di = (fake.create_member(world.guild, name) for name in ("Cy", "Di"))
    created = await fake.slash(
        world.admin, world.channel, "tournament create", name="Late night", type="mtt",
        buy_in=BUY_IN, preset="hyper", max_entries=6, seats=3, start="in 5m",
    )  # fmt: skip
    await created.wait_answered()
    assert created.errors == []
    lobby = lobby_message(fake, world)
    assert "late registration to the end of level 3 · 1 re-entry" in lobby.content
    assert "Late registration open until the end of level 3 (closes <t:" in lobby.content
    for member in (world.alice, world.bob):
        assert "You are registered" in await use(fake, member, "tournament register", world)
    fake.clock.advance(300)
    await run.lobby_clock.advance(300)
    [row] = await storage.list_tournaments(world.guild.id)
    tid = row.tournament_id
    await fake.wait_until(lambda: run.director(tid) is not None, what="the start")
    director = run.director(tid)
    assert director is not None
    engine = director.engine
    await fake.wait_until(
        lambda: lobby_message(fake, world).button_labels == ["Register"],
        what="the lobby to keep Register alone for late registration",
    )
    assert "Late registration open until the end of level 3" in lobby_message(fake, world).content
    assert "Late registration open" in tournament_message(fake, world).content

    left = await use(fake, world.alice, "tournament unregister", world)
    assert "has started: an entry cannot be withdrawn" in left

    # Cy registers late with the lobby's button: paid, seated, told where.
    await storage.ensure_account(world.guild.id, cy.id)
    wallet = await storage.balance(world.guild.id, cy.id)
    said = await seen(fake, await fake.click(cy, lobby_message(fake, world), label="Register"))
    assert said.startswith("You registered late in **Late night**")
    assert await storage.balance(world.guild.id, cy.id) == wallet - BUY_IN
    await fake.wait_until(
        lambda: (
            "Entries: 3/6" in lobby_message(fake, world).content
            and "Prize pool: 150 chips" in lobby_message(fake, world).content
        ),
        what="the lobby to count the late entry",
    )
    [thread] = [c for c in fake.channels.values() if c.parent_id == world.channel.id]
    assert any(
        f"<@{cy.id}> you registered late: table 1" in m.content
        for m in fake.channel_messages(thread)
    )

    # Two fight each hand; a busted member re-enters once, then is refused.
    members = (world.alice, world.bob, cy)
    answers: dict[int, list[str]] = {m.id: [] for m in members}
    played: dict[int, int] = {}

    def busted() -> FakeMember | None:
        for member in members:
            player = f"u{member.id}"
            had = late.entries_of(engine, player)
            if had and engine.entry_of(player) is None and len(answers[member.id]) < had:
                return member
        return None

    while not any(len(said) == 2 for said in answers.values()):
        await fight_until(run, director, members, lambda: busted() is not None, played)
        out = busted()
        assert out is not None, "the tournament goes on while someone can re-enter"
        answers[out.id].append(await use(fake, out, "tournament register", world))
    assert played.get(cy.id, 0) > 0, "the late entry plays"
    twice = next(m for m in members if len(answers[m.id]) == 2)
    first, second = answers[twice.id]
    assert first.startswith("You re-entered **Late night**")
    assert second == "You have re-entered once, the most this tournament allows."
    news = [m.content for m in fake.channel_messages(world.channel)]
    assert any(" joins by re-entry: table 1" in line for line in news)
    assert any(
        f"<@{twice.id}> you re-entered: table 1, seat " in m.content
        for m in fake.channel_messages(thread)
    )
    stored = {e.user_id: e for e in await storage.tournament_entries(tid)}
    assert stored[twice.id].re_entries == 1
    assert late.entries_of(engine, f"u{twice.id}") == 2
    assert (await storage.check()).ok

    # The end of level 3 closes late registration: the lobby's button goes, the message says so.
    await run.tables.advance(3 * 180 + 5)
    await fake.wait_until(lambda: not engine.registration_open, what="registration to close")
    await fake.wait_until(
        lambda: lobby_message(fake, world).button_labels == [], what="the Register button to go"
    )
    assert "Late registration open" not in lobby_message(fake, world).content
    await run.tables.advance(11)  # the tournament message is edited at most every 10 s
    await fake.wait_until(
        lambda: "Late registration open" not in tournament_message(fake, world).content,
        what="the tournament message to drop late registration",
    )
    refused = await use(fake, di, "tournament register", world, tournament=tid)
    assert refused == "Late registration is over: it closed at the end of level 3."
    assert late.entries_of(engine, f"u{di.id}") == 0

    await fight_until(run, director, members, director.done.is_set)
    entries = await storage.tournament_entries(tid)
    paid = sum(1 + e.re_entries for e in entries)
    assert paid == len(engine.entries) and sum(e.prize for e in entries) == paid * BUY_IN
    over = await use(fake, di, "tournament register", world, tournament=tid)
    assert over == f"Tournament #{tid} has already finished."
    assert (await storage.check()).ok
