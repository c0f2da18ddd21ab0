"""``/felt-admin`` end to end: enforced on the server side, chips, seasons with confirmation,
settings, ledger export and check, and the helpers game cogs use (admin, game channels)."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from bot.discord.client import FeltBot
from bot.discord.guild_settings import blackjack_defaults, holdem_defaults
from bot.discord.permissions import in_game_channel, is_admin
from storage import Metric, Storage
from tests.e2e.fakediscord import FakeDiscord, FakeInteraction, FakeMessage
from tests.e2e.support.bot_world import StartBot, World

ERROR_ID = re.compile(r"error id: `([0-9a-f]{8})`")
NOT_ADMIN = "Only Felt admins can do this: members with the Manage Server permission."
MANAGE_GUILD = 1 << 5


async def use(
    fake: FakeDiscord, who: Any, where: Any, command: str, /, **options: Any
) -> FakeInteraction:
    """Run a command in channel ``where`` and wait for its answer."""
    interaction = await fake.slash(who, where, command, **options)
    await interaction.wait_answered()
    assert interaction.errors == []
    return interaction


async def nothing_changed(storage: Storage, world: World) -> None:
    guild = world.guild.id
    assert await storage.get_account(guild, world.bob.id) is None
    assert await storage.stored_settings(guild) == {}
    assert (await storage.current_season(guild)).number == 1
    assert await storage.ledger(guild) == []


def admin_subcommands(fake: FakeDiscord, world: World) -> list[tuple[str, list[dict[str, Any]]]]:
    """Every /felt-admin subcommand as synced: (path, options)."""
    schema = fake.find_command("felt-admin", world.guild)
    found = []
    for option in schema["options"]:
        if option["type"] == 1:
            found.append((option["name"], option.get("options", [])))
        else:
            for sub in option["options"]:
                found.append((f"{option['name']} {sub['name']}", sub.get("options", [])))
    return found


REQUIRED_VALUES: dict[str, Any] = {
    "amount": 5,
    "balance": 5,
    "enabled": False,
    "action": "clear",
    "section": "all",
}


async def test_every_admin_subcommand_refuses_a_non_admin_and_changes_nothing(
    fake_discord: FakeDiscord, felt_bot: FeltBot, world: World
) -> None:
    schema = fake_discord.find_command("felt-admin", world.guild)
    assert int(schema["default_member_permissions"]) == MANAGE_GUILD  # the client-side hint
    subcommands = admin_subcommands(fake_discord, world)
    assert {path for path, _options in subcommands} >= {
        "grant",
        "take",
        "set-balance",
        "new-season",
        "ledger-export",
        "check",
        "config show",
        "config economy",
        "config holdem",
        "config blackjack",
        "config bots",
        "config game-channels",
        "config admin-role",
        "config reset",
    }

    for path, options in subcommands:
        given: dict[str, Any] = {}
        for option in options:
            if option["name"] == "member":
                given["member"] = world.bob
            elif option.get("required"):
                given[option["name"]] = REQUIRED_VALUES[option["name"]]
        # Sent directly, as a modified client could, ignoring default_member_permissions.
        interaction = await use(
            fake_discord, world.alice, world.channel, f"felt-admin {path}", **given
        )
        assert interaction.reply.content == NOT_ADMIN, path
        assert interaction.reply.ephemeral_for is world.alice.user

    await nothing_changed(felt_bot.storage, world)
    assert fake_discord.dms(world.bob) == []
    assert fake_discord.channel_messages(world.channel) == []


async def test_admin_commands_from_a_dm_are_refused(
    fake_discord: FakeDiscord, felt_bot: FeltBot, world: World
) -> None:
    interaction = await fake_discord.slash(world.admin, None, "felt-admin check")
    await interaction.wait_answered()

    assert interaction.reply.content.startswith("Felt's chips and games belong to a server")


# ----- grant and take ---------------------------------------------------------------------------


async def test_grant_and_take_move_chips_and_tell_the_member_by_dm(
    fake_discord: FakeDiscord, felt_bot: FeltBot, world: World
) -> None:
    granted = await use(
        fake_discord, world.admin, world.channel, "felt-admin grant", member=world.bob, amount=500
    )
    taken = await use(
        fake_discord, world.admin, world.channel, "felt-admin take", member=world.bob, amount=200
    )
    quiet = await use(
        fake_discord,
        world.admin,
        world.channel,
        "felt-admin grant",
        member=world.bob,
        amount=1,
        notify=False,
    )

    assert (
        granted.reply.content
        == f"Granted 500 chips to <@{world.bob.id}>: they now have 1,500 chips."
    )
    assert (
        taken.reply.content == f"Took 200 chips from <@{world.bob.id}>: they now have 1,300 chips."
    )
    assert quiet.reply.content.endswith("they now have 1,301 chips.")
    for interaction in (granted, taken, quiet):
        assert interaction.reply.ephemeral_for is world.admin.user
    assert [message.content for message in fake_discord.dms(world.bob)] == [
        "An admin of **Felt Club** gave you 500 chips. You now have 1,500 chips.",
        "An admin of **Felt Club** took 200 chips from you. You now have 1,300 chips.",
    ]
    assert fake_discord.channel_messages(world.channel) == []
    assert await felt_bot.storage.balance(world.guild.id, world.bob.id) == 1_301
    kinds = [entry.kind.value for entry in await felt_bot.storage.ledger(world.guild.id, limit=10)]
    assert kinds == ["admin_grant", "admin_take", "admin_grant", "starting_grant"]


async def test_grant_to_a_member_whose_dms_are_closed_says_so(
    fake_discord: FakeDiscord, felt_bot: FeltBot, world: World
) -> None:
    fake_discord.set_dms_open(world.bob, False)

    granted = await use(
        fake_discord, world.admin, world.channel, "felt-admin grant", member=world.bob, amount=5
    )

    assert granted.reply.content == (
        f"Granted 5 chips to <@{world.bob.id}>: they now have 1,005 chips.\n"
        f"(<@{world.bob.id}> was not told: they do not accept DMs from me.)"
    )
    assert fake_discord.dms(world.bob) == []
    assert len(fake_discord.errors(50007)) == 1  # tried once, no retry storm
    assert await felt_bot.storage.balance(world.guild.id, world.bob.id) == 1_005


@pytest.mark.parametrize(
    ("command", "options", "refusal"),
    [
        ("grant", {"amount": 0}, "The amount must be at least 1 chip."),
        ("grant", {"amount": -5}, "The amount must be at least 1 chip."),
        ("grant", {"amount": 2**60}, "The amount cannot be more than 9,007,199,254,740,991 chips."),
        ("take", {"amount": 1.5}, "The amount must be a whole number of chips."),
        ("set-balance", {"balance": -1}, "The balance must be at least 0 chips."),
        ("take", {"amount": 5}, "<@{bob}> does not have any chips here yet."),
    ],
)
async def test_bad_amounts_are_refused_and_change_nothing(
    fake_discord: FakeDiscord,
    felt_bot: FeltBot,
    world: World,
    command: str,
    options: dict[str, Any],
    refusal: str,
) -> None:
    interaction = await fake_discord.slash(
        world.admin,
        world.channel,
        f"felt-admin {command}",
        member=world.bob,
        unchecked=True,
        **options,
    )
    await interaction.wait_answered()

    assert interaction.reply.content == refusal.format(bob=world.bob.id)
    assert interaction.reply.ephemeral
    await nothing_changed(felt_bot.storage, world)
    assert fake_discord.dms(world.bob) == []


async def test_take_more_than_the_wallet_and_grants_to_bots_are_refused(
    fake_discord: FakeDiscord, felt_bot: FeltBot, world: World
) -> None:
    robot = fake_discord.create_member(
        world.guild, "Robo", user=fake_discord.create_user("Robo", bot=True)
    )
    await felt_bot.storage.ensure_account(world.guild.id, world.bob.id)

    too_much = await use(
        fake_discord, world.admin, world.channel, "felt-admin take", member=world.bob, amount=5_000
    )
    to_bot = await use(
        fake_discord, world.admin, world.channel, "felt-admin grant", member=robot, amount=5
    )

    assert (
        too_much.reply.content
        == f"Not enough chips: <@{world.bob.id}> has 1,000, and this needs 5,000."
    )
    assert to_bot.reply.content == "Bots do not hold chips."
    assert await felt_bot.storage.balance(world.guild.id, world.bob.id) == 1_000


async def test_a_closed_database_gets_the_admin_an_apology(
    fake_discord: FakeDiscord, felt_bot: FeltBot, world: World
) -> None:
    await felt_bot.storage.close()

    interaction = await use(
        fake_discord, world.admin, world.channel, "felt-admin grant", member=world.bob, amount=5
    )

    assert ERROR_ID.search(interaction.reply.content), interaction.reply.content
    assert interaction.reply.ephemeral
    assert fake_discord.dms(world.bob) == []


# ----- the admin role ---------------------------------------------------------------------------


async def test_admin_role_members_are_admins_but_cannot_change_the_admin_role(
    fake_discord: FakeDiscord, felt_bot: FeltBot, world: World
) -> None:
    croupier = fake_discord.create_role(world.guild, "Croupier")
    carol = fake_discord.create_member(world.guild, "Carol", roles=[croupier])
    everyone = world.guild.everyone_role

    before = await use(
        fake_discord, carol, world.channel, "felt-admin grant", member=world.bob, amount=5
    )
    not_everyone = await use(
        fake_discord, world.admin, world.channel, "felt-admin config admin-role", role=everyone
    )
    named = await use(
        fake_discord, world.admin, world.channel, "felt-admin config admin-role", role=croupier
    )
    granted = await use(
        fake_discord, carol, world.channel, "felt-admin grant", member=world.bob, amount=5
    )
    escalate = await use(
        fake_discord, carol, world.channel, "felt-admin config admin-role", role=croupier
    )
    unset = await use(
        fake_discord, carol, world.channel, "felt-admin config reset", section="admin-role"
    )
    cleared = await use(fake_discord, world.admin, world.channel, "felt-admin config admin-role")
    after = await use(
        fake_discord, carol, world.channel, "felt-admin grant", member=world.bob, amount=5
    )

    assert before.reply.content == NOT_ADMIN
    assert not_everyone.reply.content == "That would make everyone a Felt admin; pick another role."
    assert named.reply.content.startswith(f"Members with <@&{croupier.id}> are Felt admins now")
    assert granted.reply.content.startswith(f"Granted 5 chips to <@{world.bob.id}>")
    only_managers = "Only members with the Manage Server permission can change the admin role."
    assert escalate.reply.content == only_managers
    assert unset.reply.content == only_managers
    assert cleared.reply.content.startswith("No admin role")
    assert after.reply.content == NOT_ADMIN
    assert await felt_bot.storage.balance(world.guild.id, world.bob.id) == 1_005


# ----- confirmations ----------------------------------------------------------------------------


async def ask_set_balance(fake: FakeDiscord, world: World, balance: int) -> FakeMessage:
    asked = await use(
        fake,
        world.admin,
        world.channel,
        "felt-admin set-balance",
        member=world.bob,
        balance=balance,
    )
    prompt = asked.reply
    assert prompt.ephemeral_for is world.admin.user
    assert prompt.button_labels == ["Set balance", "Cancel"]
    return prompt


async def click(
    fake: FakeDiscord, who: Any, message: FakeMessage, label: str, **kw: Any
) -> FakeInteraction:
    interaction = await fake.click(who, message, label=label, **kw)
    await interaction.wait_answered()
    return interaction


async def test_set_balance_asks_first_and_only_the_asking_admin_can_confirm(
    fake_discord: FakeDiscord, felt_bot: FeltBot, world: World
) -> None:
    storage = felt_bot.storage
    await storage.ensure_account(world.guild.id, world.bob.id)
    other_admin = fake_discord.create_member(world.guild, "Otto", admin=True)

    prompt = await ask_set_balance(fake_discord, world, 5)
    assert (
        prompt.content == f"Set <@{world.bob.id}>'s wallet to **5 chips**? It is 1,000 chips now."
    )
    assert await storage.balance(world.guild.id, world.bob.id) == 1_000

    # The prompt is ephemeral; a modified client could still send a click for it.
    for intruder in (world.bob, other_admin):
        refused = await click(fake_discord, intruder, prompt, "Set balance", unchecked=True)
        assert refused.reply.content == f"Only <@{world.admin.id}> can answer this question."
        assert refused.reply.ephemeral_for is intruder.user
    assert await storage.balance(world.guild.id, world.bob.id) == 1_000

    confirmed = await click(fake_discord, world.admin, prompt, "Set balance")
    await fake_discord.wait_until(lambda: prompt.buttons == [])
    assert confirmed.errors == []
    assert prompt.content == f"Done: <@{world.bob.id}> now has 5 chips (-995)."
    assert await storage.balance(world.guild.id, world.bob.id) == 5
    assert [m.content for m in fake_discord.dms(world.bob)] == [
        "An admin of **Felt Club** set your balance to 5 chips."
    ]
    assert fake_discord.channel_messages(world.channel) == []


async def test_cancel_and_timeout_change_nothing(
    fake_discord: FakeDiscord, felt_bot: FeltBot, world: World
) -> None:
    storage = felt_bot.storage
    await storage.ensure_account(world.guild.id, world.bob.id)

    cancelled_prompt = await ask_set_balance(fake_discord, world, 5)
    await click(fake_discord, world.admin, cancelled_prompt, "Cancel")
    assert cancelled_prompt.content.endswith("\n\nCancelled: nothing was changed.")
    assert cancelled_prompt.buttons == []

    late_prompt = await ask_set_balance(fake_discord, world, 7)
    fake_discord.clock.advance(felt_bot.confirmations.timeout + 1)
    await click(fake_discord, world.admin, late_prompt, "Set balance")
    assert late_prompt.content.endswith(
        "\n\nTimed out: nothing was changed. Run the command again if you still want this."
    )
    assert late_prompt.buttons == []

    assert await storage.balance(world.guild.id, world.bob.id) == 1_000
    assert len(felt_bot.confirmations) == 0
    assert fake_discord.dms(world.bob) == []


async def test_a_confirmation_from_before_a_restart_is_closed(
    fake_discord: FakeDiscord, start_bot: StartBot, world: World
) -> None:
    bot = await start_bot()
    await bot.storage.ensure_account(world.guild.id, world.bob.id)
    prompt = await ask_set_balance(fake_discord, world, 5)
    await bot.close()
    restarted = await start_bot()

    late = await click(fake_discord, world.admin, prompt, "Set balance")

    assert late.reply.content.startswith("This question is closed")
    assert late.reply.ephemeral_for is world.admin.user
    assert await restarted.storage.balance(world.guild.id, world.bob.id) == 1_000


# ----- seasons ----------------------------------------------------------------------------------


async def test_new_season_without_reset_starts_at_once_and_is_announced(
    fake_discord: FakeDiscord, felt_bot: FeltBot, world: World
) -> None:
    await felt_bot.storage.ensure_account(world.guild.id, world.bob.id)

    interaction = await fake_discord.slash(
        world.admin, world.channel, "felt-admin new-season", name="Spring"
    )
    await interaction.wait_for_followups(1)

    assert interaction.reply.content == "Spring has begun; Season 1 is archived."
    assert interaction.reply.ephemeral_for is world.admin.user
    [announcement] = fake_discord.channel_messages(world.channel)
    assert announcement.content.startswith("🏁 **Spring** has begun! Season 1 is over")
    assert announcement in fake_discord.visible_to(world.bob)
    season = await felt_bot.storage.current_season(world.guild.id)
    assert (season.number, season.name) == (2, "Spring")
    assert await felt_bot.storage.balance(world.guild.id, world.bob.id) == 1_000


async def test_new_season_with_reset_asks_first_then_resets_every_wallet(
    fake_discord: FakeDiscord, felt_bot: FeltBot, world: World
) -> None:
    storage = felt_bot.storage
    await storage.admin_grant(world.guild.id, world.bob.id, 500, actor_id=1, key="g")
    await storage.ensure_account(world.guild.id, world.alice.id)

    asked = await use(
        fake_discord, world.admin, world.channel, "felt-admin new-season", reset_to=250
    )
    prompt = asked.reply
    assert prompt.content.startswith(
        "End **Season 1** and reset **every wallet** on this server to **250 chips**?"
    )
    assert (await storage.current_season(world.guild.id)).number == 1

    confirm = await click(fake_discord, world.admin, prompt, "Reset balances")
    await fake_discord.wait_until(lambda: prompt.buttons == [] and bool(confirm.followups))

    assert prompt.content == "Season 2 has begun: 2 wallet(s) were reset to 250 chips."
    [announcement] = fake_discord.channel_messages(world.channel)
    assert announcement.content.endswith("Every wallet starts again with 250 chips.")
    assert await storage.balance(world.guild.id, world.bob.id) == 250
    assert await storage.balance(world.guild.id, world.alice.id) == 250
    archived = await storage.leaderboard(world.guild.id, Metric.BALANCE, season=1)
    assert [entry.value for entry in archived.entries] == [1_500, 1_000]


async def test_a_reset_blocked_by_chips_in_play_changes_nothing(
    fake_discord: FakeDiscord, felt_bot: FeltBot, world: World
) -> None:
    storage = felt_bot.storage
    await storage.ensure_account(world.guild.id, world.bob.id)
    await storage.open_round(world.guild.id, world.channel.id, {world.bob.id: 100}, key="r")

    prompt = (
        await use(fake_discord, world.admin, world.channel, "felt-admin new-season", reset=True)
    ).reply
    assert "**1,000 chips**" in prompt.content  # the starting chips by default
    confirm = await fake_discord.click(world.admin, prompt, label="Reset balances")
    await confirm.wait_for_followups(1)

    [refusal] = confirm.followups
    assert refusal.content.startswith("Balances cannot be reset while chips are in play")
    assert refusal.ephemeral_for is world.admin.user
    assert prompt.content.endswith("\n\nNothing was changed.")
    assert prompt.buttons == []
    assert (await storage.current_season(world.guild.id)).number == 1
    assert await storage.balance(world.guild.id, world.bob.id) == 900
    assert fake_discord.channel_messages(world.channel) == []


# ----- settings ---------------------------------------------------------------------------------


async def test_economy_settings_change_what_members_get(
    fake_discord: FakeDiscord, felt_bot: FeltBot, world: World
) -> None:
    changed = await use(
        fake_discord,
        world.admin,
        world.channel,
        "felt-admin config economy",
        starting_chips=50,
        daily_amount=0,
        transfers=False,
    )
    nothing = await use(fake_discord, world.admin, world.channel, "felt-admin config economy")
    opened = await use(fake_discord, world.alice, world.channel, "balance")
    daily = await use(fake_discord, world.alice, world.channel, "daily")
    give = await use(fake_discord, world.alice, world.channel, "give", member=world.admin, amount=5)

    assert changed.reply.content == (
        "Economy updated. Starting chips: 50. Daily: off. Transfers: off."
    )
    assert nothing.reply.content == "Give at least one setting to change."
    assert opened.reply.content.endswith("You have 50 chips.")
    assert daily.reply.content == "The daily bonus is turned off in this server."
    assert give.reply.content == "Chip transfers are turned off in this server."


@pytest.mark.parametrize(
    ("command", "options", "refusal"),
    [
        ("economy", {"starting_chips": -1}, "Starting chips must be a whole number of chips"),
        ("economy", {"transfers": "yes"}, "Transfers must be on (true) or off (false)."),
        ("holdem", {"seats": 12}, "Hold'em seats must be an integer from 2 to 10, got 12."),
        ("holdem", {"small_blind": 50}, "Hold'em small_blind must not be larger than big_blind."),
        ("holdem", {"min_buy_in": 5}, "Hold'em min_buy_in must be at least big_blind."),
        ("holdem", {"big_blind": 2**60}, "Hold'em big_blind cannot be more than"),
        ("blackjack", {"preset": "vegas"}, "Blackjack preset must be one of"),
        (
            "blackjack",
            {"betting_seconds": 1},
            "Blackjack betting_seconds must be an integer from 3",
        ),
        (
            "blackjack",
            {"bot_spread": 8},
            "Blackjack bot_spread above 1 needs bot_strategy = hilo",
        ),
        ("blackjack", {"bot_strategy": "cheat"}, "Blackjack bot_strategy must be one of"),
        ("bots", {"enabled": "maybe"}, "Bots must be on (true) or off (false)."),
    ],
)
async def test_bad_setting_values_are_refused_and_nothing_is_stored(
    fake_discord: FakeDiscord,
    felt_bot: FeltBot,
    world: World,
    command: str,
    options: dict[str, Any],
    refusal: str,
) -> None:
    interaction = await fake_discord.slash(
        world.admin, world.channel, f"felt-admin config {command}", unchecked=True, **options
    )
    await interaction.wait_answered()

    assert interaction.reply.content.startswith(refusal), interaction.reply.content
    assert interaction.reply.ephemeral
    assert await felt_bot.storage.stored_settings(world.guild.id) == {}


async def test_table_defaults_and_bots_reach_the_game_cogs(
    fake_discord: FakeDiscord, felt_bot: FeltBot, world: World
) -> None:
    storage, config, guild = felt_bot.storage, felt_bot.config, world.guild.id

    holdem = await use(
        fake_discord,
        world.admin,
        world.channel,
        "felt-admin config holdem",
        small_blind=50,
        big_blind=100,
        min_buy_in=2_000,
        max_buy_in=10_000,
        seats=9,
    )
    blackjack = await use(
        fake_discord,
        world.admin,
        world.channel,
        "felt-admin config blackjack",
        preset="classic",
        bot_seats=2,
    )
    bots_off = await use(
        fake_discord, world.admin, world.channel, "felt-admin config bots", enabled=False
    )
    shown = await use(fake_discord, world.admin, world.channel, "felt-admin config show")

    assert holdem.reply.content.startswith("Hold'em table defaults updated")
    assert "small blind 50, big blind 100, min buy in 2,000" in holdem.reply.content
    assert blackjack.reply.content.startswith("Blackjack table defaults updated")
    assert bots_off.reply.content.startswith("Bots are off")
    new_holdem = await holdem_defaults(storage, guild, config)
    assert (new_holdem.small_blind, new_holdem.big_blind, new_holdem.seats, new_holdem.bots) == (
        50,
        100,
        9,
        False,
    )
    assert new_holdem.turn_seconds == config.holdem.turn_seconds
    new_blackjack = await blackjack_defaults(storage, guild, config)
    assert (new_blackjack.preset, new_blackjack.bot_seats) == ("classic", 0)  # bots are off
    embed = shown.reply.embed
    assert embed is not None
    fields = {field["name"]: field["value"] for field in embed["fields"]}
    assert "seats 9" in fields["Hold'em tables"]
    assert "bot seats 2" in fields["Blackjack tables"]  # what applies once bots are back on
    assert fields["Bots"] == "off"
    assert fields["Games run in"] == "every channel"

    reset = await use(
        fake_discord, world.admin, world.channel, "felt-admin config reset", section="all"
    )
    assert reset.reply.content.startswith("Back to the bot's defaults")
    assert await holdem_defaults(storage, guild, config) == config.holdem
    assert await blackjack_defaults(storage, guild, config) == config.blackjack
    assert await storage.stored_settings(guild) == {}


class GameProbe(commands.Cog):
    """Stands for a game cog using the helpers."""

    @app_commands.command(name="deal", description="Start a pretend game")
    @in_game_channel()
    async def deal(self, interaction: discord.Interaction[Any]) -> None:
        admin = await is_admin(interaction)
        await interaction.response.send_message(f"Dealing! admin={admin}", ephemeral=True)


async def test_games_run_only_in_the_allowed_channels_and_their_threads(
    fake_discord: FakeDiscord, start_bot: StartBot, world: World
) -> None:
    bot = await start_bot(cogs=[lambda bot: GameProbe()])
    lounge = fake_discord.create_channel(world.guild, "lounge")
    thread = fake_discord.create_thread(world.channel, "table 1")

    anywhere = await use(fake_discord, world.alice, lounge, "deal")
    added = await use(
        fake_discord,
        world.admin,
        world.channel,
        "felt-admin config game-channels",
        action="add",
        channel=world.channel,
    )
    in_poker = await use(fake_discord, world.alice, world.channel, "deal")
    in_thread = await use(fake_discord, world.admin, thread, "deal")
    in_lounge = await use(fake_discord, world.alice, lounge, "deal")
    not_listed = await use(
        fake_discord,
        world.admin,
        world.channel,
        "felt-admin config game-channels",
        action="remove",
        channel=lounge,
    )
    no_channel = await use(
        fake_discord, world.admin, world.channel, "felt-admin config game-channels", action="add"
    )
    cleared = await use(
        fake_discord, world.admin, world.channel, "felt-admin config game-channels", action="clear"
    )
    lounge_again = await use(fake_discord, world.alice, lounge, "deal")

    assert anywhere.reply.content == "Dealing! admin=False"
    assert (
        added.reply.content
        == f"Games may run only in <#{world.channel.id}> now (and their threads)."
    )
    assert in_poker.reply.content == "Dealing! admin=False"
    assert in_thread.reply.content == "Dealing! admin=True"
    assert in_lounge.reply.content == f"Games run only in <#{world.channel.id}> on this server."
    assert in_lounge.reply.ephemeral
    assert not_listed.reply.content == f"<#{lounge.id}> is not in the list."
    assert no_channel.reply.content == "Name the channel to add."
    assert cleared.reply.content == "Games may run in every channel now."
    assert lounge_again.reply.content == "Dealing! admin=False"
    assert await bot.storage.stored_settings(world.guild.id) == {}


# ----- ledger export and check ------------------------------------------------------------------


async def test_ledger_export_attaches_a_csv_for_the_guild_or_one_member(
    fake_discord: FakeDiscord, felt_bot: FeltBot, world: World
) -> None:
    storage = felt_bot.storage
    await storage.admin_grant(world.guild.id, world.bob.id, 500, actor_id=world.admin.id, key="g")
    await storage.ensure_account(world.guild.id, world.alice.id)

    whole = await use(fake_discord, world.admin, world.channel, "felt-admin ledger-export")
    bobs = await use(
        fake_discord, world.admin, world.channel, "felt-admin ledger-export", member=world.bob
    )

    assert whole.reply.content == "The ledger of this server: 3 row(s)."
    [attachment] = whole.reply.attachments
    assert re.fullmatch(rf"felt-ledger-{world.guild.id}-\d{{8}}\.csv", attachment.filename)
    rows = list(csv.DictReader(io.StringIO(attachment.data.decode())))
    assert len(rows) == 3
    assert bobs.reply.content == f"The ledger of <@{world.bob.id}>: 2 row(s)."
    assert bobs.reply.attachments[0].filename.startswith(
        f"felt-ledger-{world.guild.id}-{world.bob.id}-"
    )
    for interaction in (whole, bobs):
        assert interaction.reply.ephemeral_for is world.admin.user
    assert fake_discord.visible_to(world.bob) == []


async def test_check_reports_that_every_chip_is_accounted_for(
    fake_discord: FakeDiscord, felt_bot: FeltBot, world: World
) -> None:
    await felt_bot.storage.admin_grant(world.guild.id, world.bob.id, 500, actor_id=1, key="g")

    checked = await use(fake_discord, world.admin, world.channel, "felt-admin check")

    embed = checked.reply.embed
    assert embed is not None
    assert embed["title"] == "Every chip is accounted for"
    fields = {field["name"]: field["value"] for field in embed["fields"]}
    assert fields["This server"] == "Accounts: 2\nChips held: 1,500\nMinted: 1,500\nBurned: 0"
    assert checked.reply.ephemeral_for is world.admin.user
