"""The Discord front's helpers: chip amounts, guild settings, and custom_id formats."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from bot.config import BlackjackConfig, FeltConfig, HoldemConfig
from bot.discord.chips import InvalidChipAmount, checked_amount, chips, signed
from bot.discord.cogs.admin import Admin
from bot.discord.confirm import ConfirmButton
from bot.discord.guild_settings import (
    BLACKJACK,
    BLACKJACK_TABLE_KEYS,
    BOTS,
    GAME_CHANNELS,
    HOLDEM,
    HOLDEM_TABLE_KEYS,
    InvalidGuildSetting,
    blackjack_defaults,
    changed_from,
    checked_section,
    economy_changes,
    game_channel_ids,
    holdem_defaults,
)
from bot.discord.leaderboard import BOARDS, MAX_MIN_HANDS, Board, LeaderboardPage
from storage import MAX_CHIPS, Game, Storage

# ----- chips ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "allow_zero", "message"),
    [
        (0, False, "The amount must be at least 1 chip."),
        (-1, True, "The amount must be at least 0 chips."),
        (MAX_CHIPS + 1, False, "The amount cannot be more than 9,007,199,254,740,991 chips."),
        (True, False, "The amount must be a whole number of chips."),
        (2.0, False, "The amount must be a whole number of chips."),
        ("5", False, "The amount must be a whole number of chips."),
    ],
)
def test_checked_amount_refuses_what_storage_would(
    value: object, allow_zero: bool, message: str
) -> None:
    with pytest.raises(InvalidChipAmount) as caught:
        checked_amount(value, allow_zero=allow_zero)
    assert str(caught.value) == message


def test_checked_amount_accepts_the_whole_range() -> None:
    assert checked_amount(1) == 1
    assert checked_amount(MAX_CHIPS) == MAX_CHIPS
    assert checked_amount(0, allow_zero=True) == 0


def test_chips_and_signed_read_naturally() -> None:
    assert [chips(1), chips(0), chips(1_250)] == ["1 chip", "0 chips", "1,250 chips"]
    assert [signed(1_250), signed(-300), signed(0)] == ["+1,250", "-300", "0"]


# ----- guild settings ---------------------------------------------------------------------------


def test_checked_section_applies_the_config_files_rules() -> None:
    changed = checked_section(HOLDEM, HoldemConfig(), {"seats": 9, "bot_delay_seconds": 2})
    assert (changed.seats, changed.bot_delay_seconds) == (9, 2.0)
    assert changed_from(HoldemConfig(), changed) == {"seats": 9, "bot_delay_seconds": 2.0}

    with pytest.raises(InvalidGuildSetting, match=r"^Hold'em small_blind must not be larger"):
        checked_section(HOLDEM, HoldemConfig(), {"small_blind": 50})
    with pytest.raises(InvalidGuildSetting, match=r"^Hold'em seats must be an integer"):
        checked_section(HOLDEM, HoldemConfig(), {"seats": True})
    with pytest.raises(InvalidGuildSetting, match=r"^Blackjack preset must be one of"):
        checked_section(BLACKJACK, BlackjackConfig(), {"preset": "vegas"})
    with pytest.raises(InvalidGuildSetting, match=r"cannot be more than"):
        checked_section(BLACKJACK, BlackjackConfig(), {"max_bet": MAX_CHIPS + 1})


def test_economy_changes_checks_types_and_ranges() -> None:
    assert economy_changes(starting_chips=0, transfers=False) == {
        "starting_chips": 0,
        "transfers_enabled": False,
    }
    assert economy_changes() == {}
    with pytest.raises(InvalidGuildSetting):
        economy_changes(daily_amount=-1)
    with pytest.raises(InvalidGuildSetting):
        economy_changes(transfers=1)


def command_parameters(command: Any) -> set[str]:
    return {parameter.name for parameter in command.parameters}


def test_config_commands_offer_every_table_setting() -> None:
    # One fact in one place: a key added to [holdem] or [blackjack] must reach the command.
    assert command_parameters(Admin.config_holdem) == set(HOLDEM_TABLE_KEYS)
    assert command_parameters(Admin.config_blackjack) == set(BLACKJACK_TABLE_KEYS)
    assert "bots" not in HOLDEM_TABLE_KEYS


def test_config_commands_show_the_config_files_ranges() -> None:
    seats = next(p for p in Admin.config_holdem.parameters if p.name == "seats")
    assert (seats.min_value, seats.max_value) == (2, 10)
    bot_seats = next(p for p in Admin.config_blackjack.parameters if p.name == "bot_seats")
    assert (bot_seats.min_value, bot_seats.max_value) == (0, 6)


async def test_table_defaults_follow_the_guild_then_the_config(tmp_path: Path) -> None:
    config = FeltConfig()
    storage = await Storage.open(tmp_path / "felt.db")
    try:
        await storage.set_setting(1, HOLDEM, {"seats": 9, "unknown_key": 3})
        await storage.set_setting(1, BLACKJACK, {"bot_seats": 3})
        holdem = await holdem_defaults(storage, 1, config)
        assert dataclasses.replace(holdem, seats=6) == config.holdem
        assert (await blackjack_defaults(storage, 1, config)).bot_seats == 3
        assert await holdem_defaults(storage, 2, config) == config.holdem

        await storage.set_setting(1, BOTS, False)
        assert (await holdem_defaults(storage, 1, config)).bots is False
        assert (await blackjack_defaults(storage, 1, config)).bot_seats == 0

        # The config file moved under the guild's settings: its own values are safe.
        await storage.set_setting(1, HOLDEM, {"min_buy_in": 50})
        bigger_blinds = dataclasses.replace(
            config, holdem=dataclasses.replace(config.holdem, small_blind=50, big_blind=100)
        )
        assert await holdem_defaults(storage, 1, bigger_blinds) == dataclasses.replace(
            bigger_blinds.holdem, bots=False
        )

        await storage.set_setting(1, GAME_CHANNELS, [5, "x", True, 6])
        assert await game_channel_ids(storage, 1) == (5, 6)
    finally:
        await storage.close()


# ----- custom_id formats ------------------------------------------------------------------------


@pytest.mark.parametrize("board", list(BOARDS.values()), ids=list(BOARDS))
def test_leaderboard_custom_ids_fit_and_parse_back(board: Board) -> None:
    game = board.game or Game.BLACKJACK
    minimum = MAX_MIN_HANDS if board.ratio is not None else None
    widest = LeaderboardPage(board, game, 999_999_999, 999_999_999, 2**64 - 1, minimum=minimum)
    custom_id = widest.item.custom_id
    assert custom_id is not None
    assert len(custom_id) <= 100
    match = LeaderboardPage.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None
    assert (match["board"], match["game"], match["owner"], match["minimum"]) == (
        board.key,
        game.value,
        str(2**64 - 1),
        None if minimum is None else str(minimum),
    )


def test_confirm_custom_ids_carry_only_a_token() -> None:
    button = ConfirmButton("0123456789abcdef", confirm=True, label="Set balance")
    assert button.item.custom_id == "felt:confirm:0123456789abcdef:yes"
    assert ConfirmButton.__discord_ui_compiled_template__.fullmatch("felt:confirm:zz:yes") is None


def test_table_buttons_without_a_handler_refuse_as_a_restart_not_a_crash() -> None:
    """A click in flight while the game's cog unloads (the bot stopping) is told to try again."""
    from types import SimpleNamespace

    from bot.discord.errors import Refusal, ShuttingDown
    from bot.discord.table_components import Handlers

    class Client:  # weakly referenced, as discord.py's client is
        pass

    handlers: Handlers[object] = Handlers("Hold'em")
    client = Client()
    handler = object()
    handlers.register(client, handler)
    assert handlers.of(SimpleNamespace(client=client)) is handler  # type: ignore[arg-type]
    handlers.unregister(client)
    with pytest.raises(ShuttingDown) as refused:
        handlers.of(SimpleNamespace(client=client))  # type: ignore[arg-type]
    assert isinstance(refused.value, Refusal)
    assert str(refused.value) == "Felt is restarting. Please try again in a minute."
