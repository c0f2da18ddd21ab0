"""The config loader: defaults, the example file, the token, and one-line refusals."""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path

import pytest

from bot.config import (
    ConfigError,
    FeltConfig,
    LogFormat,
    LogLevel,
    SyncMode,
    iter_settings,
    load_config,
    parse_config,
)

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
        "(known: discord, database, logging, holdem, blackjack, economy)"
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
            "[holdem] small_blind must be an integer of at least 1, got 1.5",
        ),
        ({"holdem": {"bots": "yes"}}, '[holdem] bots must be true or false, got "yes"'),
        ({"economy": {"transfers": 1}}, "[economy] transfers must be true or false, got 1"),
        (
            {"economy": {"starting_chips": True}},
            "[economy] starting_chips must be an integer of at least 0, got true",
        ),
        (
            {"discord": {"dev_guild_ids": "123"}},
            '[discord] dev_guild_ids must be a list of integers, each at least 1, got "123"',
        ),
        (
            {"discord": {"dev_guild_ids": [123, "456"]}},
            '[discord] dev_guild_ids must be a list of integers, each at least 1, got [123, "456"]',
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
