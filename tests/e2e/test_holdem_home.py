"""Home-game night end to end, through the fake Discord: ``/holdem ledger`` at any time (private,
with PokerNow's ledger CSV and who pays whom), the settle-up posted when the table closes, the
rail (``/holdem watch``, ``/holdem rail``, its DMs and their privacy), pre-actions and away from
the private panel under "My cards", and the time bank's countdown."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest

from bot.discord.holdem import formatting
from bot.discord.holdem.presenter import TablePresenter
from bot.holdem.events import ActionTaken, HoleCards
from engine.holdem import ActionKind
from tests.e2e.fakediscord import FakeDiscord, FakeMember, FakeMessage
from tests.e2e.support.bot_world import World, scaled_rules
from tests.e2e.support.holdem import Factory, HoldemWorld
from tests.e2e.support.privacy import RailRule, check_privacy, every_card_token

BOB_AWAY = re.compile(r"Bob — [\d,]+ · away")
POKERNOW = [
    "player_nickname",
    "player_id",
    "session_start_at",
    "session_end_at",
    "buy_in",
    "buy_out",
    "stack",
    "net",
]


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(rate_limits=scaled_rules(10)) as fake:
        yield fake


async def slash(
    fake: FakeDiscord, who: FakeMember, world: World, command: str, **options: Any
) -> FakeMessage:
    sent = await fake.slash(who, world.channel, command, **options)
    await sent.wait_answered()
    return sent.reply


def csv_of(message: FakeMessage, suffix: str) -> list[list[str]]:
    data = next(a.data for a in message.attachments if a.filename.endswith(suffix))
    return list(csv.reader(io.StringIO(data.decode())))


async def play_until(h: HoldemWorld, members: list[FakeMember], hands: int) -> None:
    await h.play(members, until=lambda: h.hands_finished() >= hands)


async def test_holdem_ledger_answers_privately_with_both_csv_files_and_refuses_without_a_table(
    fake_discord: FakeDiscord, world: World, start_holdem: Factory
) -> None:
    fake, alice, bob = fake_discord, world.alice, world.bob
    h = await start_holdem()
    none = await slash(fake, bob, world, "holdem ledger")
    assert none.ephemeral and "No Hold'em table has played in this channel" in none.content
    await slash(fake, alice, world, "holdem start", seats=3, bots=0, buy_in=500)
    await slash(fake, bob, world, "holdem join", buy_in=300)
    await play_until(h, [alice, bob], hands=1)

    reply = await slash(fake, world.admin, world, "holdem ledger")

    assert reply.ephemeral and reply.ephemeral_for is world.admin.user
    assert reply.embed is not None and "Ledger of table" in reply.embed["title"]
    description = reply.embed["description"]
    assert "**Alice**" in description and "in 500" in description and "in 300" in description
    assert "if the table closed now" in description or "Everyone is square" in description
    rows = csv_of(reply, "-ledger.csv")
    assert rows[0] == POKERNOW
    assert {row[1] for row in rows[1:]} == {str(alice.id), str(bob.id)}
    assert all(row[5] == "" for row in rows[1:])  # nobody has cashed out yet
    assert sum(int(row[7]) for row in rows[1:]) == 0
    assert csv_of(reply, "-transfers.csv")[0] == ["payer", "payee", "amount"]
    assert not [m for m in fake.channel_messages(world.channel) if "Ledger of" in m.text]


async def test_closing_the_table_posts_who_pays_whom_and_the_pokernow_ledger(
    fake_discord: FakeDiscord, world: World, start_holdem: Factory
) -> None:
    fake, alice, bob = fake_discord, world.alice, world.bob
    h = await start_holdem()
    await slash(fake, alice, world, "holdem start", seats=3, bots=0, buy_in=500)
    await slash(fake, bob, world, "holdem join", buy_in=300)
    await slash(fake, bob, world, "holdem rebuy", amount=100)
    await play_until(h, [alice, bob], hands=2)
    await slash(fake, alice, world, "holdem stop")
    await play_until(h, [alice, bob], hands=3)

    posted = await fake.wait_for_message(
        world.channel, lambda m: any(n.endswith("-ledger.csv") for n in m.filenames)
    )

    assert posted.embed is not None and "Ledger of table" in posted.embed["title"]
    rows = csv_of(posted, "-ledger.csv")
    assert rows[0] == POKERNOW
    by_id = {row[1]: row for row in rows[1:]}
    assert by_id[str(bob.id)][4] == "400"  # the buy-in and the rebuy
    assert all(row[3] and row[6] == "0" for row in rows[1:])  # everyone left, nothing on the table
    nets = {row[0]: int(row[7]) for row in rows[1:]}
    assert sum(nets.values()) == 0
    transfers = csv_of(posted, "-transfers.csv")[1:]
    assert len(transfers) == (1 if any(nets.values()) else 0)
    for payer, payee, amount in transfers:
        assert nets[payer] == -int(amount) and nets[payee] == int(amount)
        assert f"{payer} pays {payee} {int(amount):,} chips" in posted.embed["description"]
    for member in (alice, bob):
        account = await h.bot.storage.get_account(world.guild.id, member.id)
        assert account is not None and account.at_tables == 0


# ----- the rail ----------------------------------------------------------------------------------


async def test_the_rail_dms_finished_hands_only_of_players_who_allowed_it(
    fake_discord: FakeDiscord, world: World, start_holdem: Factory
) -> None:
    fake, alice, bob, watcher = fake_discord, world.alice, world.bob, world.admin
    h = await start_holdem()
    await slash(fake, alice, world, "holdem start", seats=3, bots=1, options="rail_delay=1")
    allowed = await slash(fake, alice, world, "holdem rail", allow=True)
    assert allowed.ephemeral and "may now see your cards" in allowed.content
    await slash(fake, bob, world, "holdem join")
    playing = await slash(fake, bob, world, "holdem watch")
    assert playing.ephemeral and "You play at this table" in playing.content

    on = await slash(fake, watcher, world, "holdem watch")

    assert on.ephemeral and "You are on the rail" in on.content
    await h.wait_host(
        lambda: (m := h.table_message()) is not None and "Rail: Ada" in m.text,
        "the table message to list the rail",
    )
    await play_until(h, [alice, bob], hands=3)
    await fake.wait_until(lambda: len(fake.dms(watcher)) >= 3, within=20, what="the rail's DMs")
    dms = fake.dms(watcher)
    shown = [set(every_card_token(dm.text)) for dm in dms]
    assert all(cards for cards in shown)  # the rail saw cards: the check below is not vacuous
    for dm in dms:
        assert "(rail)" in dm.text and "Bob:" not in dm.text
    assert any("Not shown to the rail: Bob" in dm.text for dm in dms)  # hands 2 and 3
    report = check_privacy(fake, h, RailRule(frozenset({watcher.id}), frozenset({bob.id})))
    assert report.problems == []
    off = await slash(fake, watcher, world, "holdem watch")
    assert off.ephemeral and "You left the rail" in off.content


async def test_the_rail_is_refused_where_the_host_left_it_off(
    fake_discord: FakeDiscord, world: World, start_holdem: Factory
) -> None:
    fake = fake_discord
    await start_holdem()
    await slash(fake, world.alice, world, "holdem start", seats=2, bots=1)

    refused = await slash(fake, world.admin, world, "holdem watch")

    assert refused.ephemeral and "The rail is off at this table" in refused.content


async def test_the_rail_check_catches_a_watcher_sent_the_hand_in_progress(
    fake_discord: FakeDiscord,
    world: World,
    start_holdem: Factory,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A presenter that DMs a watcher live hole cards must fail the rail's privacy check."""
    publish = TablePresenter.publish
    watcher = world.admin

    async def leaky(self: TablePresenter, event: object) -> None:
        await publish(self, event)  # type: ignore[arg-type]
        if isinstance(event, HoleCards):
            channel = await self.client.create_dm(discord.Object(watcher.id))
            await channel.send(f"Hand #{event.hand_id}: {formatting.cards_text(event.cards)}")

    monkeypatch.setattr(TablePresenter, "publish", leaky)
    h = await start_holdem()
    await slash(fake_discord, world.alice, world, "holdem start", bots=1, options="rail_delay=1")
    await fake_discord.wait_until(lambda: bool(fake_discord.dms(watcher)), within=20, what="a DM")

    rule = RailRule(frozenset({watcher.id}), frozenset())
    problems = check_privacy(fake_discord, h, rule).problems
    assert problems and all("in progress" in problem for problem in problems)


# ----- pre-actions, away and the time bank ----------------------------------------------------


async def my_cards_panel(fake: FakeDiscord, h: HoldemWorld, member: FakeMember) -> FakeMessage:
    """Press "My cards" on the table message: the private reply with the panel."""

    def shown() -> bool:
        message = h.table_message()
        return message is not None and "My cards" in message.button_labels

    await fake.wait_until(shown, what="the table message offering My cards")
    message = h.table_message()
    assert message is not None
    pressed = await fake.click(member, message, label="My cards")
    await pressed.wait_answered()
    reply = pressed.reply
    assert reply.ephemeral and reply.ephemeral_for is member.user
    return reply


async def click_panel(
    fake: FakeDiscord, member: FakeMember, panel: FakeMessage, label: str
) -> FakeMessage:
    clicked = await fake.click(member, panel, label=label)
    await clicked.wait_answered()
    return panel


async def test_a_pre_action_ticked_on_the_private_panel_plays_when_the_turn_comes(
    fake_discord: FakeDiscord, world: World, start_holdem: Factory
) -> None:
    fake, alice, bob = fake_discord, world.alice, world.bob
    h = await start_holdem()
    await slash(fake, alice, world, "holdem start", seats=2, bots=0)
    await slash(fake, bob, world, "holdem join")
    # Heads-up, the button acts first preflop; the big blind is behind and owes nothing.
    await h.wait_host(lambda: h.to_act() is not None, "a member's turn in hand 2")
    first = alice if h.to_act() == alice.id else bob
    behind = bob if first is alice else alice
    panel = await my_cards_panel(fake, h, behind)
    assert {"Check/Fold", "Check", "Call any", "Away"} <= set(panel.button_labels)
    assert "your cards are" in panel.content and "Pre-action: none" in panel.content

    await click_panel(fake, behind, panel, "Check")
    assert "Pre-action: **Check** ✓" in panel.content
    refused = await fake.click(first, await my_cards_panel(fake, h, first), label="Check")
    await refused.wait_answered()
    assert refused.reply.ephemeral and "It is your turn: act now." in refused.reply.content
    await h.act(first, "Call 5")  # completes the blind: the big blind may check

    table = h.table()
    name = table.seats[table.seat_of(behind.id) or 0].name

    def checked() -> bool:
        return any(e.name == name and e.kind is ActionKind.CHECK for e in h.of(ActionTaken))

    await h.wait_host(checked, "the ticked Check to be played")
    played = [e for e in h.of(ActionTaken) if e.name == name]
    assert not played[-1].automatic  # the member's own choice, not a timeout
    assert h.scheduler.held <= 1  # no turn timer ran out: nobody waited


async def test_away_from_the_panel_plays_at_once_shows_away_and_back_returns(
    fake_discord: FakeDiscord, world: World, start_holdem: Factory
) -> None:
    fake, alice, bob = fake_discord, world.alice, world.bob
    h = await start_holdem()
    await slash(fake, alice, world, "holdem start", seats=3, bots=1)
    await slash(fake, bob, world, "holdem join")
    await play_until(h, [alice, bob], hands=1)
    await h.wait_host(lambda: h.to_act() is not None, "a member's turn in hand 2")
    panel = await my_cards_panel(fake, h, bob)

    await click_panel(fake, bob, panel, "Away")

    assert "You are **away**" in panel.content and "Back" in panel.button_labels
    await fake.wait_for_message(world.channel, lambda m: "Bob is away" in m.text)
    await play_until(h, [alice], hands=3)  # Bob's turns in hand 2 play at once; then he is out
    assert h.table().seats[h.table().seat_of(bob.id) or 0].sitting_out
    assert not [e for e in h.of(ActionTaken) if e.name == "Bob" and e.hand_id == 3]
    await h.wait_host(
        lambda: (m := h.table_message()) is not None and BOB_AWAY.search(m.text) is not None,
        "the table message to show Bob away",
    )
    back = await slash(fake, bob, world, "holdem cards")
    assert "You are **away**" in back.content
    await click_panel(fake, bob, back, "Back")
    assert "Away" in back.button_labels
    await fake.wait_for_message(world.channel, lambda m: "Bob is back" in m.text)


async def test_the_time_bank_counts_down_on_the_table_message_before_the_fold(
    fake_discord: FakeDiscord, world: World, start_holdem: Factory
) -> None:
    fake, alice = fake_discord, world.alice
    h = await start_holdem()
    await slash(fake, alice, world, "holdem start", seats=2, bots=1, options="time_bank=20")
    message, ref = await h.wait_offer(alice)
    assert "times out <t:" in message.content

    await h.scheduler.expire_turn()  # the turn timer: the bank starts, no fold

    deadline = int(h.table().snapshot().deadline or 0)
    assert not h.moved_on(ref) and h.table().snapshot().time_bank
    await h.wait_host(
        lambda: (
            (m := h.table_message()) is not None
            and f"time bank runs out <t:{deadline}:R>" in m.content
        ),
        "the table message to count the time bank down",
    )
    await fake.wait_for_message(world.channel, lambda m: "Alice is on their time bank" in m.text)
    await h.scheduler.expire_turn()  # the bank ran out: the timeout rule plays

    await h.wait_host(lambda: h.moved_on(ref), "the timeout rule to play")
    assert [e.name for e in h.of(ActionTaken) if e.automatic] == ["Alice"]
    assert h.table().time_banks.left(alice.id, h.table().settings) == 0
