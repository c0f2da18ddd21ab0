"""``/felt-admin config``: see or change Felt's settings on a server (economy, table defaults,
bots, game channels, the admin role), or put them back to the config file's."""

from __future__ import annotations

import dataclasses
from typing import Any

import discord
from discord import app_commands

from bot.config import BlackjackConfig, HoldemConfig
from bot.discord.admin.base import AdminCommands, require_manage_guild
from bot.discord.chips import chips
from bot.discord.client import FeltBot
from bot.discord.errors import Refusal
from bot.discord.guild_settings import (
    ADMIN_ROLE,
    BLACKJACK,
    BOTS,
    ECONOMY_KEYS,
    GAME_CHANNELS,
    HOLDEM,
    TOURNAMENT_KEYS,
    InvalidGuildSetting,
    admin_role_id,
    bots_allowed,
    bounds,
    changed_from,
    checked_section,
    economy_changes,
    game_channel_ids,
    section_with_changes,
    tournament_changes,
    tournament_settings,
    tournament_tables,
)
from bot.discord.permissions import guild_member
from bot.tables.limits import (
    BLACKJACK_BOT_STRATEGIES,
    BLACKJACK_MAX_BOT_SPREAD,
    BLACKJACK_MAX_SIDE_BET,
    BLACKJACK_SIDE_21_3_CHOICES,
)
from engine.blackjack import PRESETS
from storage import MAX_CHIPS, EconomySettings
from storage.tournament_messages import TableHomeKind


def _int_bounds(section: type[Any], key: str) -> tuple[int, int]:
    low, high = bounds(section, key)
    return int(low if low is not None else 0), int(high if high is not None else MAX_CHIPS)


# Discord shows these ranges in the client; the values are checked again in code.
SEATS_MIN, SEATS_MAX = _int_bounds(HoldemConfig, "seats")
HOLDEM_TURN_MIN, HOLDEM_TURN_MAX = _int_bounds(HoldemConfig, "turn_seconds")
SIT_OUT_MIN, SIT_OUT_MAX = _int_bounds(HoldemConfig, "max_sit_out_hands")
BOT_DELAY_MIN, BOT_DELAY_MAX = (
    float(value or 0) for value in bounds(HoldemConfig, "bot_delay_seconds")
)
BETTING_MIN, BETTING_MAX = _int_bounds(BlackjackConfig, "betting_seconds")
BLACKJACK_TURN_MIN, BLACKJACK_TURN_MAX = _int_bounds(BlackjackConfig, "turn_seconds")
BOT_SEATS_MIN, BOT_SEATS_MAX = _int_bounds(BlackjackConfig, "bot_seats")

RESET_SECTIONS = (
    "economy",
    "holdem",
    "blackjack",
    "bots",
    "game-channels",
    "admin-role",
    "tournaments",
)


class SettingsCommands(AdminCommands):
    """The ``config`` subgroup."""

    config = app_commands.Group(name="config", description="See or change Felt's settings here.")

    @config.command(name="show", description="Show every Felt setting on this server.")
    async def config_show(self, interaction: discord.Interaction[FeltBot]) -> None:
        admin = guild_member(interaction)
        embed = await self._settings_embed(admin.guild)
        await interaction.followup.send(embed=embed, ephemeral=True)

    @config.command(name="economy", description="Starting chips, daily bonus and transfers.")
    @app_commands.describe(
        starting_chips="Chips a member gets when their account opens",
        daily_amount="Chips /daily gives on the first day of a streak (0 turns /daily off)",
        transfers="Whether members may /give chips to each other",
    )
    async def config_economy(
        self,
        interaction: discord.Interaction[FeltBot],
        starting_chips: app_commands.Range[int, 0, MAX_CHIPS] | None = None,
        daily_amount: app_commands.Range[int, 0, MAX_CHIPS] | None = None,
        transfers: bool | None = None,
    ) -> None:
        admin = guild_member(interaction)
        changes = economy_changes(
            starting_chips=starting_chips, daily_amount=daily_amount, transfers=transfers
        )
        if not changes:
            raise Refusal("Give at least one setting to change.")
        for key, value in changes.items():
            await self.storage.set_setting(admin.guild.id, key, value, actor_id=admin.id)
        economy = await self.storage.economy(admin.guild.id)
        await interaction.followup.send(
            f"Economy updated. {_describe_economy(economy)}", ephemeral=True
        )

    @config.command(name="holdem", description="Default settings of new Hold'em tables here.")
    @app_commands.describe(
        small_blind="Small blind, in chips",
        big_blind="Big blind, in chips",
        min_buy_in="Smallest buy-in, in chips (at least the big blind)",
        max_buy_in="Largest buy-in, in chips",
        seats="Seats at a table",
        bot_delay_seconds="How long a bot player thinks before acting",
        turn_seconds="Time a player has to act",
        max_sit_out_hands="Hands a player may sit out before being cashed out",
    )
    async def config_holdem(
        self,
        interaction: discord.Interaction[FeltBot],
        small_blind: app_commands.Range[int, 1, MAX_CHIPS] | None = None,
        big_blind: app_commands.Range[int, 1, MAX_CHIPS] | None = None,
        min_buy_in: app_commands.Range[int, 1, MAX_CHIPS] | None = None,
        max_buy_in: app_commands.Range[int, 1, MAX_CHIPS] | None = None,
        seats: app_commands.Range[int, SEATS_MIN, SEATS_MAX] | None = None,
        bot_delay_seconds: app_commands.Range[float, BOT_DELAY_MIN, BOT_DELAY_MAX] | None = None,
        turn_seconds: app_commands.Range[int, HOLDEM_TURN_MIN, HOLDEM_TURN_MAX] | None = None,
        max_sit_out_hands: app_commands.Range[int, SIT_OUT_MIN, SIT_OUT_MAX] | None = None,
    ) -> None:
        given = {
            "small_blind": small_blind,
            "big_blind": big_blind,
            "min_buy_in": min_buy_in,
            "max_buy_in": max_buy_in,
            "seats": seats,
            "bot_delay_seconds": bot_delay_seconds,
            "turn_seconds": turn_seconds,
            "max_sit_out_hands": max_sit_out_hands,
        }
        await self._change_table_defaults(interaction, HOLDEM, "Hold'em", given)

    @config.command(name="blackjack", description="Default settings of new Blackjack tables here.")
    @app_commands.describe(
        preset="Rule preset",
        min_bet="Smallest bet, in chips",
        max_bet="Largest bet, in chips",
        betting_seconds="Betting window before the cards are dealt",
        turn_seconds="Time a player has to act",
        hints="Whether /blackjack hint is available",
        bot_seats="House bots dealt in with the members (when bots are on)",
        bot_strategy="How the house bots play: basic strategy, or hilo (Hi-Lo counting)",
        bot_spread="Counting bots bet 1 to this many minimum bets by the true count (needs hilo)",
        side_21_3="The 21+3 side bet: off, or its pay table",
        perfect_pairs="Whether the Perfect Pairs side bet is offered",
        max_side_bet="Largest side bet, in chips",
        counting="Whether /blackjack count (counting drill, live table count) is offered",
    )
    @app_commands.choices(
        preset=[app_commands.Choice(name=name, value=name) for name in sorted(PRESETS)],
        side_21_3=[
            app_commands.Choice(name=name, value=name) for name in BLACKJACK_SIDE_21_3_CHOICES
        ],
        bot_strategy=[
            app_commands.Choice(name=name, value=name) for name in BLACKJACK_BOT_STRATEGIES
        ],
    )
    async def config_blackjack(
        self,
        interaction: discord.Interaction[FeltBot],
        preset: str | None = None,
        min_bet: app_commands.Range[int, 1, MAX_CHIPS] | None = None,
        max_bet: app_commands.Range[int, 1, MAX_CHIPS] | None = None,
        betting_seconds: app_commands.Range[int, BETTING_MIN, BETTING_MAX] | None = None,
        turn_seconds: app_commands.Range[int, BLACKJACK_TURN_MIN, BLACKJACK_TURN_MAX] | None = None,
        hints: bool | None = None,
        bot_seats: app_commands.Range[int, BOT_SEATS_MIN, BOT_SEATS_MAX] | None = None,
        side_21_3: str | None = None,
        perfect_pairs: bool | None = None,
        max_side_bet: app_commands.Range[int, 1, BLACKJACK_MAX_SIDE_BET] | None = None,
        counting: bool | None = None,
        bot_strategy: str | None = None,
        bot_spread: app_commands.Range[int, 1, BLACKJACK_MAX_BOT_SPREAD] | None = None,
    ) -> None:
        given = {
            "preset": preset,
            "min_bet": min_bet,
            "max_bet": max_bet,
            "betting_seconds": betting_seconds,
            "turn_seconds": turn_seconds,
            "hints": hints,
            "bot_seats": bot_seats,
            "side_21_3": side_21_3,
            "perfect_pairs": perfect_pairs,
            "max_side_bet": max_side_bet,
            "counting": counting,
            "bot_strategy": bot_strategy,
            "bot_spread": bot_spread,
        }
        await self._change_table_defaults(interaction, BLACKJACK, "Blackjack", given)

    @config.command(name="bots", description="Whether bot players may sit at tables here.")
    @app_commands.describe(enabled="On: bots fill empty chairs. Off: only members play.")
    async def config_bots(self, interaction: discord.Interaction[FeltBot], enabled: bool) -> None:
        admin = guild_member(interaction)
        if not isinstance(enabled, bool):
            raise InvalidGuildSetting("Bots must be on (true) or off (false).")
        await self.storage.set_setting(admin.guild.id, BOTS, enabled, actor_id=admin.id)
        state = "on: bot players fill empty chairs" if enabled else "off: only members play"
        await interaction.followup.send(
            f"Bots are {state} (tables already open keep their players).", ephemeral=True
        )

    @config.command(
        name="tournaments", description="Who may create tournaments, the fee, where tables play."
    )
    @app_commands.describe(
        members_create="On: any member may /tournament create. Off: Felt admins only.",
        fee_percent="The house's fee on every buy-in, in percent of it (0: none)",
        tables="Where tables play: a thread each, or a channel each (needs Manage Channels)",
    )
    @app_commands.choices(
        tables=[app_commands.Choice(name=kind.value, value=kind.value) for kind in TableHomeKind]
    )
    async def config_tournaments(
        self,
        interaction: discord.Interaction[FeltBot],
        members_create: bool | None = None,
        fee_percent: app_commands.Range[int, 0, 100] | None = None,
        tables: str | None = None,
    ) -> None:
        admin = guild_member(interaction)
        changes = tournament_changes(
            members_create=members_create, fee_percent=fee_percent, tables=tables
        )
        if not changes:
            raise Refusal("Give at least one setting to change.")
        for key, value in changes.items():
            await self.storage.set_setting(admin.guild.id, key, value, actor_id=admin.id)
        members, fee = await tournament_settings(self.storage, admin.guild.id, self.bot.config)
        where = await tournament_tables(self.storage, admin.guild.id, self.bot.config)
        text = _describe_tournaments(members, fee, where)
        await interaction.followup.send(
            f"Tournaments updated (new tournaments use them): {text}.", ephemeral=True
        )

    @config.command(name="game-channels", description="Limit games to some channels.")
    @app_commands.describe(
        action="add or remove a channel, or clear the list (games run everywhere)",
        channel="The channel to add or remove",
    )
    @app_commands.choices(
        action=[
            app_commands.Choice(name="add", value="add"),
            app_commands.Choice(name="remove", value="remove"),
            app_commands.Choice(name="clear", value="clear"),
        ]
    )
    async def config_game_channels(
        self,
        interaction: discord.Interaction[FeltBot],
        action: str,
        channel: discord.TextChannel | None = None,
    ) -> None:
        admin = guild_member(interaction)
        guild_id = admin.guild.id
        allowed = list(await game_channel_ids(self.storage, guild_id))
        if action == "clear":
            allowed = []
        elif action in ("add", "remove"):
            if channel is None:
                raise Refusal(f"Name the channel to {action}.")
            if action == "add" and channel.id not in allowed:
                allowed.append(channel.id)
            elif action == "remove":
                if channel.id not in allowed:
                    raise Refusal(f"{channel.mention} is not in the list.")
                allowed.remove(channel.id)
        else:
            raise Refusal(f"Unknown action {action!r}: choose add, remove or clear.")
        if allowed:
            await self.storage.set_setting(guild_id, GAME_CHANNELS, allowed, actor_id=admin.id)
        else:
            await self.storage.clear_setting(guild_id, GAME_CHANNELS)
        await interaction.followup.send(_describe_channels(allowed), ephemeral=True)

    @config.command(name="admin-role", description="The role whose members are Felt admins.")
    @app_commands.describe(role="The role (leave out to have none)")
    async def config_admin_role(
        self, interaction: discord.Interaction[FeltBot], role: discord.Role | None = None
    ) -> None:
        admin = guild_member(interaction)
        require_manage_guild(interaction)
        if role is not None and role.is_default():
            raise Refusal("That would make everyone a Felt admin; pick another role.")
        if role is None:
            await self.storage.clear_setting(admin.guild.id, ADMIN_ROLE)
            text = "No admin role: only members with Manage Server are Felt admins now."
        else:
            await self.storage.set_setting(admin.guild.id, ADMIN_ROLE, role.id, actor_id=admin.id)
            text = (
                f"Members with {role.mention} are Felt admins now (as well as those with Manage "
                "Server). To show them /felt-admin in their command list, allow the role under "
                "Server Settings > Integrations > Felt."
            )
        await interaction.followup.send(text, ephemeral=True)

    @config.command(name="reset", description="Put settings back to the bot's defaults.")
    @app_commands.describe(section="What to reset")
    @app_commands.choices(
        section=[app_commands.Choice(name=name, value=name) for name in (*RESET_SECTIONS, "all")]
    )
    async def config_reset(self, interaction: discord.Interaction[FeltBot], section: str) -> None:
        admin = guild_member(interaction)
        if section not in (*RESET_SECTIONS, "all"):
            raise Refusal(f"Unknown section {section!r}.")
        chosen = RESET_SECTIONS if section == "all" else (section,)
        if "admin-role" in chosen:
            require_manage_guild(interaction)
        keys = {
            "economy": ECONOMY_KEYS,
            "holdem": (HOLDEM,),
            "blackjack": (BLACKJACK,),
            "bots": (BOTS,),
            "game-channels": (GAME_CHANNELS,),
            "admin-role": (ADMIN_ROLE,),
            "tournaments": TOURNAMENT_KEYS,
        }
        for name in chosen:
            for key in keys[name]:
                await self.storage.clear_setting(admin.guild.id, key)
        await interaction.followup.send(
            f"Back to the bot's defaults: {', '.join(chosen)}.", ephemeral=True
        )

    async def _change_table_defaults(
        self,
        interaction: discord.Interaction[FeltBot],
        name: str,
        game: str,
        given: dict[str, Any],
    ) -> None:
        """Change one game's table defaults (``name`` is its settings key) and say what they are."""
        admin = guild_member(interaction)
        # Not the effective defaults: with bots off, Blackjack's have no bot seats.
        current = await section_with_changes(
            self.storage, admin.guild.id, name, getattr(self.bot.config, name)
        )
        updated = await self._change_section(admin, name, current, given)
        await interaction.followup.send(
            f"{game} table defaults updated (new tables use them): {_describe_section(updated)}.",
            ephemeral=True,
        )

    async def _change_section(
        self,
        admin: discord.Member,
        name: str,
        current: Any,
        given: dict[str, Any],
    ) -> Any:
        changes = {key: value for key, value in given.items() if value is not None}
        if not changes:
            raise Refusal("Give at least one setting to change.")
        updated = checked_section(name, current, changes)
        defaults = getattr(self.bot.config, name)
        stored = changed_from(defaults, updated)
        stored.pop("bots", None)  # the guild-wide switch, stored on its own
        if stored:
            await self.storage.set_setting(admin.guild.id, name, stored, actor_id=admin.id)
        else:
            await self.storage.clear_setting(admin.guild.id, name)
        return updated

    async def _settings_embed(self, guild: discord.Guild) -> discord.Embed:
        storage, config = self.storage, self.bot.config
        economy = await storage.economy(guild.id)
        # The guild's table defaults as set; the bots switch is shown on its own.
        holdem = await section_with_changes(storage, guild.id, HOLDEM, config.holdem)
        blackjack = await section_with_changes(storage, guild.id, BLACKJACK, config.blackjack)
        bots = await bots_allowed(storage, guild.id, config)
        channels = await game_channel_ids(storage, guild.id)
        role_id = await admin_role_id(storage, guild.id)
        embed = discord.Embed(title=f"Felt settings on {guild.name}", colour=discord.Colour.teal())
        embed.add_field(name="Economy", value=_describe_economy(economy), inline=False)
        embed.add_field(name="Hold'em tables", value=_describe_section(holdem), inline=False)
        blackjack_text = _describe_section(blackjack)
        if blackjack.bot_seats and not bots:
            blackjack_text += " (no bot seats while bots are off)"
        embed.add_field(name="Blackjack tables", value=blackjack_text, inline=False)
        members, fee = await tournament_settings(storage, guild.id, config)
        where = await tournament_tables(storage, guild.id, config)
        embed.add_field(
            name="Tournaments", value=_describe_tournaments(members, fee, where), inline=False
        )
        embed.add_field(name="Bots", value="on" if bots else "off")
        embed.add_field(name="Games run in", value=_describe_channels(channels, short=True))
        embed.add_field(
            name="Admin role", value=f"<@&{role_id}>" if role_id else "none (Manage Server only)"
        )
        embed.set_footer(text="Anything not changed here comes from the bot's config file.")
        return embed


def _describe_economy(economy: EconomySettings) -> str:
    daily = (
        f"{chips(economy.daily_amount)} a day (+{economy.daily_streak_bonus:,} per streak day, "
        f"up to day {economy.daily_streak_max})"
        if economy.daily_amount
        else "off"
    )
    return (
        f"Starting chips: {economy.starting_chips:,}. Daily: {daily}. "
        f"Transfers: {'on' if economy.transfers_enabled else 'off'}."
    )


def _describe_tournaments(members_create: bool, fee_percent: int, tables: TableHomeKind) -> str:
    who = "any member" if members_create else "Felt admins only"
    return f"created by {who}, house fee {fee_percent}% of the buy-in, tables in {tables}s"


def _describe_section(section: Any) -> str:
    parts = []
    for item in dataclasses.fields(section):
        if item.name == "bots":  # the guild-wide switch, shown on its own
            continue
        value = getattr(section, item.name)
        if isinstance(value, bool):
            shown = "on" if value else "off"
        elif isinstance(value, int):
            shown = f"{value:,}"
        else:
            shown = str(value)
        parts.append(f"{item.name.replace('_', ' ')} {shown}")
    return ", ".join(parts)


def _describe_channels(allowed: list[int] | tuple[int, ...], *, short: bool = False) -> str:
    if not allowed:
        return "every channel" if short else "Games may run in every channel now."
    places = ", ".join(f"<#{channel_id}>" for channel_id in allowed)
    return places if short else f"Games may run only in {places} now (and their threads)."
