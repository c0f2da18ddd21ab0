"""`felt run --shard-ids 0-3 --shard-count 8`: a cluster of shards in one process, its flags over
the config keys, one-line refusals for impossible shards, and the PostgreSQL URL in the config."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from bot.cli import main
from bot.cli.run import prepare, shard_ids
from bot.config import ConfigError, load_config


@pytest.fixture(autouse=True)
def isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "token")


@pytest.mark.parametrize(
    ("text", "ids"),
    [("0-3", (0, 1, 2, 3)), ("0,2,4", (0, 2, 4)), ("0-3,8", (0, 1, 2, 3, 8)), ("5", (5,))],
)
def test_shard_ids_are_numbers_and_ranges(text: str, ids: tuple[int, ...]) -> None:
    assert shard_ids(text) == ids


@pytest.mark.parametrize("text", ["a", "3-1", "-1", "1-", "0,,2"])
def test_malformed_shard_ids_are_refused(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="such as 0-3"):
        shard_ids(text)


def test_flags_win_over_the_config(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text(
        "[discord]\nshard_count = 4\nshard_ids = [0]\n", encoding="utf-8"
    )

    assert prepare(None).discord.shard_ids == (0,)
    config = prepare(None, shard_ids=(0, 1, 2, 3), shard_count=8)

    assert (config.discord.shard_ids, config.discord.shard_count) == ((0, 1, 2, 3), 8)
    assert prepare(None, shard_ids=(2, 3)).discord.shard_count == 4


@pytest.mark.parametrize(
    ("arguments", "line"),
    [
        (["--shard-ids", "0-3"], "--shard-ids needs --shard-count (or [discord] shard_count)"),
        (
            ["--shard-ids", "6-8", "--shard-count", "8"],
            "shard ids must all be smaller than the shard count (8)",
        ),
        (["--shard-count", "-1"], "--shard-count must be 0 (ask Discord) or more"),
    ],
)
def test_impossible_shards_are_one_line_before_anything_is_created(
    arguments: list[str], line: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code = main(["run", *arguments])

    assert code == 2
    assert capsys.readouterr().err.strip().splitlines() == [f"felt run: {line}"]
    assert list(tmp_path.iterdir()) == []


def test_a_postgresql_url_needs_no_writable_database_file(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text(
        '[database]\npath = "/nonexistent/felt.db"\nurl = "postgresql://felt@db/felt"\n',
        encoding="utf-8",
    )

    assert prepare(None).database.url == "postgresql://felt@db/felt"


def test_a_database_url_must_be_postgresql(tmp_path: Path) -> None:
    path = tmp_path / "felt.toml"
    path.write_text('[database]\nurl = "mysql://db/felt"\n', encoding="utf-8")

    with pytest.raises(ConfigError, match=r"\[database\] url must start with postgresql://"):
        load_config(path, environ={})
