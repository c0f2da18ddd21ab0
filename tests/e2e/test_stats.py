"""/stats and /leaderboard end to end: the statistics embed and its picture, the statistic
boards, and every refusal, through the fake Discord with the unmodified bot."""

from __future__ import annotations

import io
import random
from typing import Any

from PIL import Image

from bot.discord.client import FeltBot
from engine.bots.strategy import RandomStrategy
from engine.bots.view import SeatView
from engine.holdem import Hand, Stakes, phh
from engine.holdem.stats import StyleCounts, counts_by_seat, hand_stats, total
from storage import BetReason, RoundOutcome, Storage
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.support.bot_world import StartBot, World
from tests.e2e.test_economy import answered, assert_private, play_a_round_and_a_hand, use

DAY = 24 * 60 * 60


async def play_hands(
    fake: FakeDiscord, storage: Storage, world: World, members: list[Any], hands: int, seed: int
) -> list[StyleCounts]:
    """``hands`` random hands at blinds 1/2 between ``members`` (a day apart every 5 hands),
    settled with their statistics as the table host settles them; each member's counts."""
    rng = random.Random(seed)
    guild, channel = world.guild.id, world.channel.id
    table = (await storage.open_table(guild, channel, settings={}, key=f"t{seed}")).table_id
    for seat, member in enumerate(members):
        await storage.admin_grant(
            guild, member.id, 100_000, actor_id=world.admin.id, key=f"g{seed}{seat}"
        )
        await storage.buy_in(table, seat, member.id, 5_000, key=f"in{seed}{seat}")
    mine = [StyleCounts()] * len(members)
    for number in range(1, hands + 1):
        info = await storage.get_table(table)
        assert info is not None
        for occupied in info.seats:
            if occupied.stack < 100:
                await storage.rebuy(
                    table, occupied.seat_no, 5_000, key=f"re{seed}:{number}:{occupied.seat_no}"
                )
        info = await storage.get_table(table)
        assert info is not None
        stacks = {s.seat_no: s.stack for s in info.seats}
        seats = sorted(stacks)
        await storage.start_hand(table, number, stacks, key=f"s{seed}:{number}")
        hand = Hand(Stakes.standard(len(seats), 1, 2), [stacks[s] for s in seats], rng=rng)
        while (turn := hand.turn) is not None:
            view = SeatView.from_hand(hand, turn.player)
            hand.act(turn.player, RandomStrategy().decide(view, rng))
        counts = hand_stats(hand)
        await storage.settle_hand(
            table,
            number,
            {seat: hand.stacks[p] for p, seat in enumerate(seats)},
            phh=phh.dumps(phh.from_hand(hand, seats=seats)),
            counts=counts_by_seat(counts, seats),
            key=f"e{seed}:{number}",
        )
        mine = [total([a, b]) for a, b in zip(mine, counts, strict=True)]
        if number % 5 == 0:
            fake.clock.advance(DAY)
    return mine


def picture_of(interaction: Any) -> Image.Image:
    [attachment] = interaction.reply.attachments
    assert attachment.filename == "stats.png"
    return Image.open(io.BytesIO(attachment.data))


# ----- /stats -------------------------------------------------------------------------------------


async def test_stats_show_both_games_and_a_picture_privately(
    fake_discord: FakeDiscord, felt_bot: FeltBot, world: World
) -> None:
    storage = felt_bot.storage
    alice, _bob = await play_hands(fake_discord, storage, world, [world.alice, world.bob], 12, 1)
    dealt = await storage.open_round(
        world.guild.id, world.channel.id, {world.alice.id: 100}, key="r"
    )
    await storage.add_bet(dealt.round_id, world.alice.id, 100, reason=BetReason.DOUBLE, key="d")
    await storage.settle_round(
        dealt.round_id,
        {world.alice.id: RoundOutcome(payout=400, hands_won=1)},
        history="{}",
        key="rs",
    )

    asked = await use(fake_discord, world.alice, world.channel, "stats")

    embed = asked.reply.embed
    assert embed is not None
    assert embed["title"] == "Stats for Alice · all time"
    fields = {field["name"]: field["value"] for field in embed["fields"]}
    holdem = fields["Hold'em"].splitlines()
    assert holdem[0] == (f"Hands: 12 · Net: {alice.net:+,} · Biggest pot: {alice.biggest_pot:,}")
    vpip = alice.vpip_pct
    assert vpip is not None and f"VPIP: {vpip:.1f}%" in fields["Hold'em"]
    assert f"bb/100: {alice.net_bb_hundredths / 12:+.2f}" in fields["Hold'em"]
    assert fields["Blackjack"].splitlines()[:2] == [
        "Rounds: 1 · Hands: 1 · Net: +200",
        "Blackjacks: 0 · Doubles taken: 1 · Splits taken: 0 · Insurance: 0",
    ]
    assert "Return per round: +200.00 chips" in fields["Blackjack"]
    assert embed["image"]["url"] == "attachment://stats.png"
    assert picture_of(asked).size == (800, 540)  # bankroll graph and tendencies
    assert_private(fake_discord, asked, world)


async def test_stats_for_one_game_one_season_and_another_member(
    fake_discord: FakeDiscord, felt_bot: FeltBot, world: World
) -> None:
    await play_a_round_and_a_hand(felt_bot.storage, world)

    theirs = await use(
        fake_discord,
        world.alice,
        world.channel,
        "stats",
        member=world.bob,
        game="blackjack",
        season=1,
    )

    embed = theirs.reply.embed
    assert embed is not None
    assert embed["title"] == "Stats for Bob · season 1"
    assert [field["name"] for field in embed["fields"]] == ["Blackjack"]
    assert embed["fields"][0]["value"].startswith("Rounds: 1 · Hands: 1 · Net: -100")
    assert picture_of(theirs).size == (800, 270)  # no tendencies for Blackjack
    assert_private(fake_discord, theirs, world)
    assert fake_discord.visible_to(world.bob) == []


async def test_the_picture_is_kept_until_the_member_plays_again(
    fake_discord: FakeDiscord, felt_bot: FeltBot, world: World
) -> None:
    await play_hands(fake_discord, felt_bot.storage, world, [world.alice, world.bob], 6, 2)
    cog = felt_bot.get_cog("Stats")
    assert cog is not None

    first = await use(fake_discord, world.alice, world.channel, "stats", game="holdem")
    again = await use(fake_discord, world.alice, world.channel, "stats", game="holdem")
    assert cog.pictures_kept == 1  # type: ignore[attr-defined]
    assert again.reply.attachments[0].data == first.reply.attachments[0].data
    await play_hands(fake_discord, felt_bot.storage, world, [world.alice, world.bob], 3, 3)
    after = await use(fake_discord, world.alice, world.channel, "stats", game="holdem")

    assert after.reply.attachments[0].data != first.reply.attachments[0].data
    assert cog.pictures_kept == 1  # type: ignore[attr-defined]


async def test_stats_refusals_are_private_and_name_the_problem(
    fake_discord: FakeDiscord, felt_bot: FeltBot, world: World
) -> None:
    await play_a_round_and_a_hand(felt_bot.storage, world)
    stranger = fake_discord.create_member(world.guild, "Carol")

    unknown_season = await use(fake_discord, world.alice, world.channel, "stats", season=9)
    nobody = await use(fake_discord, world.alice, world.channel, "stats", member=stranger)
    myself = await use(fake_discord, stranger, world.channel, "stats", game="holdem")
    bad_game = await fake_discord.slash(
        world.alice, world.channel, "stats", game="poker", unchecked=True
    )
    await answered(fake_discord, bad_game)

    assert unknown_season.reply.content == "There is no season 9 in this server."
    assert nobody.reply.content == (
        f"{stranger.mention} has not played a hand or a Blackjack round here yet."
    )
    assert myself.reply.content == "You have not played a hand here yet."
    assert bad_game.reply.content == "Unknown game 'poker': choose holdem, blackjack."
    for interaction in (unknown_season, nobody, bad_game):
        assert interaction.reply.ephemeral_for is world.alice.user
        assert interaction.reply.attachments == []
    assert fake_discord.channel_messages(world.channel) == []


# ----- /leaderboard -------------------------------------------------------------------------------


async def test_a_statistic_board_ranks_members_with_enough_hands(
    fake_discord: FakeDiscord, felt_bot: FeltBot, world: World
) -> None:
    members = [world.alice, world.bob]
    counts = await play_hands(fake_discord, felt_bot.storage, world, members, 10, 4)

    default = await use(fake_discord, world.alice, world.channel, "leaderboard", board="bb_per_100")
    vpip = await use(
        fake_discord, world.alice, world.channel, "leaderboard", board="vpip", min_hands=10
    )

    embed = default.reply.embed
    assert embed is not None
    assert embed["title"] == "bb/100 leaderboard · Hold'em · season 1"
    assert embed["description"] == "Nobody is on this board yet."  # 10 hands < 100
    assert embed["footer"]["text"] == "Page 1 of 1 · 0 ranked · 100+ hands"
    ranked = vpip.reply.embed
    assert ranked is not None
    ranking = sorted(
        ((int(100 * (c.vpip_pct or 0)) / 100, m) for c, m in zip(counts, members, strict=True)),
        key=lambda pair: (-pair[0], pair[1].id),
    )
    assert ranked["description"].splitlines() == [
        f"**{n}.** <@{m.id}> · {v:.1f}%" for n, (v, m) in enumerate(ranking, start=1)
    ]
    assert ranked["footer"]["text"].startswith("Page 1 of 1 · 2 ranked · 10+ hands · You: #")


async def test_statistic_board_refusals(
    fake_discord: FakeDiscord, felt_bot: FeltBot, world: World
) -> None:
    wrong_game = await use(
        fake_discord, world.alice, world.channel, "leaderboard", board="vpip", game="blackjack"
    )
    minimum_on_chips = await use(
        fake_discord, world.alice, world.channel, "leaderboard", board="winnings", min_hands=5
    )

    assert wrong_game.reply.content == "The vpip board ranks holdem only."
    assert minimum_on_chips.reply.content == "min_hands applies to the statistic boards only."
    for interaction in (wrong_game, minimum_on_chips):
        assert interaction.reply.ephemeral_for is world.alice.user
    assert fake_discord.channel_messages(world.channel) == []


async def seat_players(fake: FakeDiscord, storage: Storage, world: World, count: int) -> list[Any]:
    """``count`` members with 1,001 ... 1,000 + count chips (the last one richest)."""
    members = [fake.create_member(world.guild, f"Player{n}") for n in range(count)]
    for n, member in enumerate(members, start=1):
        await storage.admin_grant(
            world.guild.id, member.id, n, actor_id=world.admin.id, key=f"g{n}"
        )
    return members


async def test_leaderboard_pages_turn_only_for_the_member_who_asked(
    fake_discord: FakeDiscord, start_bot: StartBot, world: World
) -> None:
    bot = await start_bot()
    members = await seat_players(fake_discord, bot.storage, world, 12)
    await bot.storage.ensure_account(world.guild.id, world.alice.id)

    asked = await use(fake_discord, world.alice, world.channel, "leaderboard")
    message = asked.reply
    assert not message.ephemeral
    assert message in fake_discord.visible_to(world.bob)
    first_page = message.embed
    assert first_page is not None
    assert first_page["title"] == "Chips leaderboard · season 1"
    lines = first_page["description"].splitlines()
    assert len(lines) == 10
    assert lines[0] == f"**1.** <@{members[-1].id}> · 1,012"
    assert first_page["footer"]["text"] == "Page 1 of 2 · 13 ranked · You: #13 (1,000)"
    assert [(b.label, b.disabled) for b in message.buttons] == [
        ("◀ Previous", True),
        ("Next ▶", False),
    ]

    intruder = await fake_discord.click(world.bob, message, label="Next ▶")
    await intruder.wait_answered()
    assert intruder.reply.ephemeral_for is world.bob.user
    assert intruder.reply.content.startswith(
        f"These buttons turn the pages for <@{world.alice.id}>"
    )
    assert message.embed == first_page

    # A restart in between: the buttons carry their state and still work.
    await bot.close()
    await start_bot()
    turned = await fake_discord.click(world.alice, message, label="Next ▶")
    await fake_discord.wait_until(lambda: message.embed != first_page or bool(turned.errors))
    assert turned.errors == []
    second_page = message.embed
    assert second_page is not None
    assert second_page["description"].splitlines() == [
        f"**11.** <@{members[1].id}> · 1,002",
        f"**12.** <@{members[0].id}> · 1,001",
        f"**13.** <@{world.alice.id}> · 1,000",
    ]
    assert [(b.label, b.disabled) for b in message.buttons] == [
        ("◀ Previous", False),
        ("Next ▶", True),
    ]
    assert fake_discord.channel_messages(world.channel) == [message]


async def test_leaderboard_refuses_bad_options_privately(
    fake_discord: FakeDiscord, felt_bot: FeltBot, world: World
) -> None:
    per_game = await use(
        fake_discord, world.alice, world.channel, "leaderboard", board="chips", game="holdem"
    )
    unknown_board = await fake_discord.slash(
        world.alice, world.channel, "leaderboard", board="luck", unchecked=True
    )
    negative_season = await fake_discord.slash(
        world.alice, world.channel, "leaderboard", season=-3, unchecked=True
    )
    missing_season = await use(fake_discord, world.alice, world.channel, "leaderboard", season=7)
    await answered(fake_discord, unknown_board)
    await answered(fake_discord, negative_season)

    assert per_game.reply.content.startswith("The chips board counts chips from every game")
    assert unknown_board.reply.content.startswith(
        "Unknown board 'luck': choose chips, winnings, biggest_pot, bb_per_100, vpip,"
    )
    assert negative_season.reply.content.startswith("The season must be a number from 1")
    assert missing_season.reply.content == "There is no season 7 in this server."
    for interaction in (per_game, unknown_board, negative_season, missing_season):
        assert interaction.reply.ephemeral_for is world.alice.user
    # The public "thinking..." of the last one was removed, not left in the channel.
    assert fake_discord.channel_messages(world.channel) == []


async def test_winnings_board_for_one_game(
    fake_discord: FakeDiscord, felt_bot: FeltBot, world: World
) -> None:
    await play_a_round_and_a_hand(felt_bot.storage, world)

    board = await use(
        fake_discord, world.bob, world.channel, "leaderboard", board="winnings", game="blackjack"
    )

    embed = board.reply.embed
    assert embed is not None
    assert embed["title"] == "Winnings leaderboard · Blackjack · season 1"
    assert embed["description"].splitlines() == [
        f"**1.** <@{world.alice.id}> · +100",
        f"**2.** <@{world.bob.id}> · -100",
    ]
    assert embed["footer"]["text"] == "Page 1 of 1 · 2 ranked · You: #2 (-100)"
    assert board.reply.buttons == []
    assert board.reply in fake_discord.visible_to(world.alice)
