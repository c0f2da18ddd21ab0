"""The config loader: defaults, the example file, the token, one-line refusals, and that every
value it accepts also works at runtime."""

from __future__ import annotations

import dataclasses
import io
import sys
import tomllib
from pathlib import Path

import pytest
from rich.console import Console

from bot.config import (
    MAX_BET,
    MAX_BUY_IN,
    MAX_GRANT,
    SECTIONS,
    ConfigError,
    FeltConfig,
    LogFormat,
    LogLevel,
    SyncMode,
    iter_settings,
    load_config,
    parse_config,
)
from bot.holdem.settings import MAX_BLIND

EXAMPLE = Path(__file__).resolve().parents[2] / "config.example.toml"


def refusal(table: dict[str, object]) -> str:
    with pytest.raises(ConfigError) as caught:
        parse_config(table, source="config.toml")
    message = str(caught.value)
    assert "\n" not in message
    return message


def test_config_defaults_need_no_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)

    assert load_config(environ={}) == FeltConfig()


def test_config_example_file_is_exactly_the_defaults() -> None:
    assert load_config(EXAMPLE, environ={}) == FeltConfig()


def test_config_example_file_documents_every_key() -> None:
    table = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    written = {(section, key) for section, keys in table.items() for key in keys}
    known = {(section, key) for section, key, *_rest in iter_settings()}

    assert written == known
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    for _section, key, *_rest in iter_settings():
        # each key is explained by a comment above it (or above the small group it is in)
        index = next(i for i, row in enumerate(lines) if row.startswith(f"{key} ="))
        above = []
        while index > 0 and lines[index - 1].strip() and not lines[index - 1].startswith("["):
            index -= 1
            above.append(lines[index])
        assert any(row.startswith("#") for row in above), key


def test_config_every_setting_has_a_doc_and_a_type() -> None:
    for section, key, _default, expected, doc in iter_settings():
        assert doc, (section, key)
        assert expected, (section, key)


def test_config_file_values_are_read(tmp_path: Path) -> None:
    path = tmp_path / "felt.toml"
    path.write_text(
        '[discord]\ndev_guild_ids = [123]\nsync_commands = "ALWAYS"\n'
        "[holdem]\nseats = 9\nbot_delay_seconds = 0\n"
        '[logging]\nlevel = "debug"\nformat = "json"\n',
        encoding="utf-8",
    )

    config = load_config(path, environ={})

    assert config.discord.dev_guild_ids == (123,)
    assert config.discord.sync_commands is SyncMode.ALWAYS
    assert config.holdem.seats == 9
    assert config.holdem.bot_delay_seconds == 0.0
    assert isinstance(config.holdem.bot_delay_seconds, float)
    assert config.logging.level is LogLevel.DEBUG
    assert config.logging.format is LogFormat.JSON
    assert config.economy == FeltConfig().economy


def test_config_token_from_environment_wins(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[discord]\ntoken = "from-file"\n', encoding="utf-8")

    assert load_config(path, environ={}).token == "from-file"
    assert load_config(path, environ={"DISCORD_TOKEN": "from-env"}).token == "from-env"
    assert load_config(path, environ={"DISCORD_TOKEN": "  "}).token == "from-file"


def test_config_is_frozen() -> None:
    config = FeltConfig()

    with pytest.raises(dataclasses.FrozenInstanceError):
        config.holdem.seats = 3  # type: ignore[misc]


def test_config_unknown_key_is_named_with_a_suggestion() -> None:
    assert refusal({"holdem": {"seat": 6}}) == (
        "config.toml: unknown key [holdem] seat (did you mean seats?)"
    )


def test_config_unknown_section_is_named() -> None:
    assert refusal({"poker": {}}) == (
        "config.toml: unknown section [poker] "
        "(known: discord, database, logging, holdem, blackjack, economy, tournament)"
    )


@pytest.mark.parametrize(
    ("table", "message"),
    [
        (
            {"holdem": {"seats": "six"}},
            '[holdem] seats must be an integer from 2 to 10, got "six"',
        ),
        ({"holdem": {"seats": 11}}, "[holdem] seats must be an integer from 2 to 10, got 11"),
        (
            {"holdem": {"small_blind": 1.5}},
            "[holdem] small_blind must be an integer from 1 to 1,000,000,000, got 1.5",
        ),
        ({"holdem": {"bots": "yes"}}, '[holdem] bots must be true or false, got "yes"'),
        ({"economy": {"transfers": 1}}, "[economy] transfers must be true or false, got 1"),
        (
            {"economy": {"starting_chips": True}},
            "[economy] starting_chips must be an integer from 0 to 2,251,799,813,685,247, got true",
        ),
        (
            {"discord": {"dev_guild_ids": "123"}},
            "[discord] dev_guild_ids must be a list of integers, each from 1 to "
            '9,223,372,036,854,775,807, got "123"',
        ),
        (
            {"discord": {"dev_guild_ids": [123, "456"]}},
            "[discord] dev_guild_ids must be a list of integers, each from 1 to "
            '9,223,372,036,854,775,807, got [123, "456"]',
        ),
        (
            {"logging": {"format": "xml"}},
            '[logging] format must be one of "text", "json", got "xml"',
        ),
        ({"database": {"path": ""}}, '[database] path must be a non-empty string, got ""'),
        ({"discord": {"token": 5}}, "[discord] token must be a string, got 5"),
        ({"holdem": []}, "[holdem] must be a table of keys, got []"),
    ],
)
def test_config_wrong_type_names_key_and_expected_type(
    table: dict[str, object], message: str
) -> None:
    assert refusal(table) == f"config.toml: {message}"


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"holdem": {"small_blind": 20}}, "[holdem] small_blind must not be larger than big_blind"),
        (
            {"holdem": {"min_buy_in": 2000}},
            "[holdem] min_buy_in must not be larger than max_buy_in",
        ),
        ({"holdem": {"min_buy_in": 5}}, "[holdem] min_buy_in must be at least big_blind"),
        ({"blackjack": {"min_bet": 1000}}, "[blackjack] min_bet must not be larger than max_bet"),
        ({"discord": {"shard_ids": [0]}}, "[discord] shard_ids needs shard_count"),
        (
            {"discord": {"shard_ids": [2], "shard_count": 2}},
            "[discord] shard_ids must all be smaller than shard_count",
        ),
        (
            {"discord": {"api_base_url": "discord.com/api"}},
            "[discord] api_base_url must start with http:// or https://",
        ),
        (
            {"discord": {"gateway_url": "https://gateway"}},
            "[discord] gateway_url must start with ws:// or wss://",
        ),
    ],
)
def test_config_inconsistent_keys_are_refused(table: dict[str, object], message: str) -> None:
    assert refusal(table) == f"config.toml: {message}"


def test_config_file_that_is_not_toml_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[holdem\nseats = 6\n", encoding="utf-8")

    with pytest.raises(ConfigError) as caught:
        load_config(path, environ={})

    assert str(caught.value).startswith(f"{path}: not valid TOML: ")


def test_config_explicit_missing_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(tmp_path / "nope.toml", environ={})

    assert str(caught.value) == f"config file not found: {tmp_path / 'nope.toml'}"


# ------------------------------------------------------------- accepted at load means it runs


def _boundaries() -> list[tuple[str, str, object]]:
    """Every key of the sections that decide chips and tables, at each of its boundaries."""
    cases: list[tuple[str, str, object]] = []
    for section, key, default, _expected, _doc in iter_settings():
        if section not in ("holdem", "blackjack", "economy"):
            continue
        section_type = SECTIONS[section]
        item = next(f for f in dataclasses.fields(section_type) if f.name == key)
        low, high = item.metadata["minimum"], item.metadata["maximum"]
        if isinstance(default, bool):
            values: list[object] = [True, False]
        elif item.metadata["choices"]:
            values = list(item.metadata["choices"])
        else:
            assert high is not None, f"[{section}] {key} has no upper limit"
            kind = type(default)
            values = [kind(low), kind(high)]
        cases += [(section, key, value) for value in values]
    return cases


EVERY_MAXIMUM = {
    "holdem": {
        "small_blind": MAX_BLIND, "big_blind": MAX_BLIND, "min_buy_in": MAX_BUY_IN,
        "max_buy_in": MAX_BUY_IN, "seats": 10, "turn_seconds": 600, "bot_delay_seconds": 30,
    },
    "blackjack": {"min_bet": MAX_BET, "max_bet": MAX_BET, "bot_seats": 6},
    "economy": {"starting_chips": MAX_GRANT, "daily_amount": MAX_GRANT},
}  # fmt: skip
EVERY_MINIMUM = {
    "holdem": {"small_blind": 1, "big_blind": 1, "min_buy_in": 1, "max_buy_in": 1, "seats": 2},
    "blackjack": {"min_bet": 1, "max_bet": 1, "betting_seconds": 3, "turn_seconds": 5},
    "economy": {"starting_chips": 0, "daily_amount": 0},
}


class _Quiet:
    async def publish(self, event: object) -> None:
        return None


async def _exercise(config: FeltConfig, database: Path) -> None:
    """Claim a daily, open a Hold'em table and sit at it, and play a Blackjack round, from the
    config's defaults as the bot and the terminal build them."""
    from bot.discord.blackjack.options import table_settings as blackjack_settings
    from bot.discord.holdem.options import table_settings as holdem_settings
    from bot.holdem.host import HoldemTable
    from bot.tables.clock import AsyncioScheduler
    from bot.terminal.blackjack import BlackjackOptions, auto_round
    from bot.terminal.bots import bot_factory
    from bot.terminal.wallet import LOCAL_USER_ID
    from storage import MAX_CHIPS, DailyDisabled, Storage

    guild, member, other = 7, LOCAL_USER_ID, 71  # auto_round plays as the terminal's member
    async with await Storage.open(database, economy=config.economy.settings()) as storage:
        await storage.ensure_account(guild, member)
        assert await storage.balance(guild, member) == config.economy.starting_chips
        try:
            claim = await storage.claim_daily(guild, member, key="daily")
            assert claim.amount >= config.economy.daily_amount > 0
        except DailyDisabled:
            assert config.economy.daily_amount == 0

        settings = holdem_settings(config.holdem, {"bot_delay_seconds": 0.0}).validated()
        for user in (member, other):
            await storage.admin_set(guild, user, settings.max_buy_in, actor_id=1, key=f"s{user}")
        scheduler = AsyncioScheduler()
        table = await HoldemTable.create(
            storage=storage, guild_id=guild, channel_id=1, host_user_id=member, name="t",
            settings=settings, key="open", scheduler=scheduler, presenter=_Quiet(),
            bots=bot_factory(("random",) * 9),
        )  # fmt: skip
        await table.join(member, "Ann", settings.min_buy_in)
        await table.join(other, "Bob", settings.max_buy_in)  # a hand can start now
        await table.close("the test is over")
        await scheduler.drain()

        bets = blackjack_settings(
            config.blackjack, {"betting_seconds": 0.0, "bot_delay_seconds": 0.0}
        )
        # Enough for four split hands doubled, and room for them all to win.
        worst = min(MAX_CHIPS - 8 * bets.max_bet, bets.max_bet * 12)
        await storage.admin_set(guild, member, worst, actor_id=1, key="bj")
        options = BlackjackOptions(name="Ann", bet=bets.max_bet, dealer_delay=0.0, seed=3)
        console = Console(file=io.StringIO())
        assert await auto_round(storage, bets, options, console, guild_id=guild) == 0
        assert (await storage.check()).ok


@pytest.mark.parametrize(("section", "key", "value"), _boundaries())
async def test_config_value_accepted_at_load_works_at_runtime(
    tmp_path: Path, section: str, key: str, value: object
) -> None:
    try:
        config = parse_config({section: {key: value}})
    except ConfigError:
        return  # refused at load (it clashes with another key's default): nothing breaks later
    await _exercise(config, tmp_path / "felt.db")


@pytest.mark.parametrize("table", [EVERY_MAXIMUM, EVERY_MINIMUM])
async def test_config_with_every_key_at_a_limit_loads_and_runs(
    tmp_path: Path, table: dict[str, dict[str, object]]
) -> None:
    await _exercise(parse_config(table), tmp_path / "felt.db")


@pytest.mark.parametrize(
    ("table", "message"),
    [
        (
            {"blackjack": {"preset": "vegas"}},
            '[blackjack] preset must be one of "casino", "classic"',
        ),
        ({"economy": {"starting_chips": 9223372036854775000}}, "[economy] starting_chips must be"),
        ({"blackjack": {"max_bet": MAX_BET + 1}}, "[blackjack] max_bet must be an integer from 1"),
        ({"holdem": {"big_blind": MAX_BLIND + 1}}, "[holdem] big_blind must be an integer from 1"),
        ({"database": {"path": "mysql://x/y"}}, "[database] path: Felt cannot keep chips in a"),
        ({"database": {"url": "mysql://x/y"}}, "[database] url must start with postgresql://"),
        ({"holdem": {"seats": 2, "small_blind": 2, "big_blind": 2, "min_buy_in": 1}}, "big_blind"),
    ],
)
def test_config_refuses_at_load_what_would_break_at_runtime(
    table: dict[str, object], message: str
) -> None:
    assert message in refusal(table)


def test_config_names_a_missing_postgresql_driver(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)  # as if it were not installed
    message = refusal({"database": {"url": "postgresql://felt@127.0.0.1/felt"}})
    assert "psycopg, which is not installed: pip install 'felt[postgres]'" in message


def test_config_echoes_at_most_100_characters_of_a_value() -> None:
    message = refusal({"logging": {"format": "x" * 3000}})
    assert "(3,000 characters)" in message and len(message) < 300
