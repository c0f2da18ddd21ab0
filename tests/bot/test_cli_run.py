"""`felt run`: every startup failure is one line and a non-zero exit, with nothing created."""

from __future__ import annotations

import logging
import socket
from collections.abc import Iterator
from pathlib import Path

import discord
import pytest

from bot.cli import main


@pytest.fixture(autouse=True)
def isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    """Run in an empty folder, without a token, and undo any logging set-up."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    discord_level = logging.getLogger("discord").level
    yield
    for handler in root.handlers[:]:
        if handler not in handlers:
            root.removeHandler(handler)
    root.setLevel(level)
    logging.getLogger("discord").setLevel(discord_level)


def run(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, list[str]]:
    code = main(["run", *arguments])
    return code, capsys.readouterr().err.strip().splitlines()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_run_without_a_token_says_how_to_give_one(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, lines = run(capsys)

    assert code == 2
    assert lines == [
        "felt run: no Discord bot token: set DISCORD_TOKEN in the environment or put "
        'token = "..." under [discord] in config.toml (see config.example.toml). '
        "`felt play` runs the games in your terminal without Discord."
    ]
    assert list(tmp_path.iterdir()) == []


def test_run_with_a_bad_config_key_names_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "token")
    (tmp_path / "config.toml").write_text("[holdem]\nseats = 12\n", encoding="utf-8")

    code, lines = run(capsys)

    assert code == 2
    assert lines == [
        "felt run: config.toml: [holdem] seats must be an integer from 2 to 10, got 12"
    ]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["config.toml"]


def test_run_with_a_missing_config_file_says_so(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "token")

    code, lines = run(capsys, "--config", "elsewhere.toml")

    assert code == 2
    assert lines == ["felt run: config file not found: elsewhere.toml"]


@pytest.mark.parametrize(
    ("database", "message"),
    [
        ("missing/felt.db", "the database directory missing does not exist"),
        (".", "the database path . is a directory"),
    ],
)
def test_run_with_an_unusable_database_path_is_refused(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    database: str,
    message: str,
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "token")
    (tmp_path / "config.toml").write_text(f'[database]\npath = "{database}"\n', encoding="utf-8")

    code, lines = run(capsys)

    assert code == 2
    assert lines == [f"felt run: {message}"]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["config.toml"]


def test_run_with_an_unusable_log_file_is_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "token")
    (tmp_path / "config.toml").write_text('[logging]\nfile = "logs/felt.log"\n', encoding="utf-8")

    code, lines = run(capsys)

    assert code == 2
    assert lines == ["felt run: the log file directory logs does not exist"]


def test_run_when_discord_cannot_be_reached_says_where(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "token")
    base = f"http://127.0.0.1:{free_port()}/api/v10"
    (tmp_path / "config.toml").write_text(
        f'[discord]\napi_base_url = "{base}"\n[logging]\nlevel = "CRITICAL"\n', encoding="utf-8"
    )
    before = discord.http.Route.BASE

    code, lines = run(capsys)

    assert code == 1
    assert len(lines) == 1
    assert lines[0].startswith(f"felt run: cannot reach Discord at {base}: ")
    assert before == discord.http.Route.BASE  # the class attribute was restored


def test_run_help_mentions_the_config_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["run", "--help"])

    assert caught.value.code == 0
    assert "--config PATH" in capsys.readouterr().out
