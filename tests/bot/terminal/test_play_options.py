"""`felt play` options and the wallet, run in-process: bad options exit 2 with one line and touch
nothing; the daily bonus, the balance, and chips a killed session left at a table."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.cli import main
from bot.terminal.wallet import HOLDEM_CHANNEL_ID, LOCAL_GUILD_ID, LOCAL_USER_ID
from storage import Storage
from tests.bot.terminal.support import START, read_wallet

DAILY = 200  # the config's default daily bonus


@pytest.fixture(autouse=True)
def isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Run in an empty folder (no config.toml), without a token."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setenv("TERM", "dumb")


def play(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str, list[str]]:
    code = main(["play", *arguments])
    captured = capsys.readouterr()
    return code, captured.out, captured.err.strip().splitlines()


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["holdem", "--bots", "smart,wizard"], "--bots: unknown strategy 'wizard' (choose from"),
        (["holdem", "--bots", "smart,,random"], "--bots: a seat needs a strategy name"),
        (["holdem", "--bots", "random:hard"], "--bots: 'random' has no difficulty levels"),
        (["holdem", "--seats", "1"], "--seats must be a whole number from 2 to 10, not '1'"),
        (["holdem", "--seats", "11"], "--seats must be a whole number from 2 to 10, not '11'"),
        (["holdem", "--seats", "six"], "--seats must be a whole number from 2 to 10, not 'six'"),
        (
            ["holdem", "--seats", "3", "--bots", "smart,random,passive"],
            "3 seats leave room for 2 bots, but --bots names 3",
        ),
        (["holdem", "--buy-in", "lots"], "--buy-in must be a whole number from 200 to 1,000"),
        (["holdem", "--buy-in", "5000"], "--buy-in must be a whole number from 200 to 1,000"),
        (["holdem", "--delay", "soon"], "--delay must be a number of seconds from 0 to 30"),
        (["holdem", "--seed", "x"], "--seed must be a whole number from 0 to"),
        (["holdem", "--seed", "-1"], "--seed must be a whole number from 0 to"),
        (["blackjack", "--seed", "-1"], "--seed must be a whole number from 0 to"),
        (["holdem", "--seats", "²"], "--seats must be a whole number from 2 to 10, not '²'"),
        (["holdem", "--buy-in", "²"], "--buy-in must be a whole number from 200 to 1,000"),
        (["blackjack", "--bet", "²"], "--bet must be a whole number from 10 to 500, not '²'"),
        (["holdem", "--seats", "9" * 10_000], "(10,000 characters)"),
        (["holdem", "--buy-in", "9" * 10_000], "(10,000 characters)"),
        (["blackjack", "--bet", "9" * 10_000], "(10,000 characters)"),
        (["blackjack", "--delay", "x" * 3000], "(3,000 characters)"),
        (["holdem", "--name", "   "], "--name must be 1 to 24 printable characters"),
        (["blackjack", "--bet", "5"], "--bet must be a whole number from 10 to 500, not '5'"),
        (["blackjack", "--bet", "501"], "--bet must be a whole number from 10 to 500, not '501'"),
        (["blackjack", "--bet", "-10"], "--bet must be a whole number from 10 to 500"),
        (["blackjack", "--rules", "vegas"], "unknown rule preset 'vegas' (choose from casino"),
        (["holdem", "--time-bank", "601"], "--time-bank: `time_bank` is a whole number from 0"),
        (["holdem", "--away-after", "0"], "--away-after: `away_after` is a whole number from 1"),
    ],
)
def test_play_bad_option_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, arguments: list[str], message: str
) -> None:
    database = tmp_path / "felt.db"
    code, out, err = play(capsys, *arguments, "--db", str(database))
    assert code == 2
    assert len(err) == 1 and err[0].startswith("felt play: ")
    assert message in err[0]
    assert len(err[0]) < 250  # what was typed is quoted in part, never whole
    assert out == ""
    assert not database.exists()  # refused before anything was opened


def test_play_has_no_rail_flag_since_nobody_can_watch_a_terminal(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    database = tmp_path / "felt.db"
    with pytest.raises(SystemExit) as exited:
        main(["play", "holdem", "--rail-delay", "1", "--db", str(database)])
    assert exited.value.code == 2
    assert "unrecognized arguments: --rail-delay 1" in capsys.readouterr().err
    assert not database.exists()


def test_play_refuses_a_buy_in_the_wallet_cannot_pay(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    database = tmp_path / "felt.db"
    code, _, _ = play(capsys, "--db", str(database))  # opens the wallet with the grant
    assert code == 0

    async def spend() -> None:
        async with await Storage.open(database) as storage:
            await storage.admin_set(LOCAL_GUILD_ID, LOCAL_USER_ID, 150, actor_id=1, key="drain")

    asyncio.run(spend())
    code, _, err = play(capsys, "holdem", "--buy-in", "500", "--db", str(database))
    assert code == 2
    assert err == [
        "felt play: you have 150 chips, not enough for a buy-in of 500 "
        "(felt play --daily adds chips once a day, felt db grant AMOUNT at any time)"
    ]
    assert read_wallet(database, practice=False).balance == 150
    code, _, err = play(capsys, "holdem", "--db", str(database))
    assert err == [
        "felt play: you have 150 chips, not enough for a buy-in of 200 "
        "(felt play --daily adds chips once a day, felt db grant AMOUNT at any time)"
    ]


def test_play_refuses_a_file_that_is_not_a_database(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    database = tmp_path / "notes.txt"
    database.write_text("not chips\n" * 100)
    code, _, err = play(capsys, "--db", str(database))
    assert code == 2
    assert err == [f"felt play: {database} is not a Felt database (file is not a database)."]


def test_play_daily_bonus_once_a_day_and_the_balance(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    database = tmp_path / "felt.db"
    code, out, _ = play(capsys, "--db", str(database))
    assert code == 0
    assert f"Wallet: {START:,} chips  (daily bonus available: felt play --daily)" in out
    code, out, _ = play(capsys, "--daily", "--db", str(database))
    assert code == 0
    assert f"Daily bonus: +{DAILY} chips" in out
    assert f"Wallet: {START + DAILY:,} chips" in out
    code, out, _ = play(capsys, "--db", str(database), "--daily")
    assert code == 0
    assert "Today's bonus is already claimed; next in" in out
    assert f"Wallet: {START + DAILY:,} chips" in out
    wallet = read_wallet(database, practice=False)
    assert wallet.balance == START + DAILY and wallet.ledger_ok


def test_play_puts_back_chips_a_killed_session_left_at_a_table(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    database = tmp_path / "felt.db"

    async def leave_a_table_open() -> None:
        async with await Storage.open(database) as storage:
            await storage.ensure_account(LOCAL_GUILD_ID, LOCAL_USER_ID)
            opened = await storage.open_table(
                LOCAL_GUILD_ID, HOLDEM_CHANNEL_ID, settings={}, name="left", key="open"
            )
            await storage.buy_in(opened.table_id, 1, LOCAL_USER_ID, 600, key="buy")
            await storage.seat_bot(opened.table_id, 2, "Ada", 1000, key="bot")
            await storage.start_hand(opened.table_id, 1, {1: 600, 2: 1000}, key="start")

    asyncio.run(leave_a_table_open())
    assert read_wallet(database, practice=False).balance == START - 600
    # Only showing the wallet puts nothing back: it never touches a game.
    code, out, _ = play(capsys, "--db", str(database))
    assert code == 0 and "Put back" not in out
    assert read_wallet(database, practice=False).open_tables == 1
    code, out, _ = play(
        capsys, "blackjack", "--auto", "--fast", "--seed", "5", "--db", str(database)
    )
    assert code == 0
    assert "Put back chips from 1 game(s) an earlier session left open." in out
    wallet = read_wallet(database, practice=False)
    assert wallet.at_tables == 0 and wallet.open_tables == 0
    assert wallet.ledger_ok


def test_play_wallet_options_go_before_or_after_the_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    database = tmp_path / "elsewhere.db"
    arguments = ["--db", str(database), "--daily", "blackjack", "--auto", "--fast", "--seed", "5"]
    code, out, err = play(capsys, *arguments)
    assert code == 0 and err == []
    assert f"Daily bonus: +{DAILY} chips" in out and "Result: " in out
    assert database.exists() and not (tmp_path / "felt.db").exists()
    code, out, _ = play(capsys, "blackjack", "--auto", "--fast", "--db", str(database))
    assert code == 0 and "Result: " in out
    assert read_wallet(database, practice=False).ledger_ok


def test_play_takes_config_before_and_after_the_game_and_finds_its_database(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    config = '[database]\npath = "chips.db"\n[economy]\nstarting_chips = 70\n'
    (tmp_path / "x.toml").write_text(config)
    code, out, _ = play(capsys, "--config", "x.toml")
    assert code == 0 and "Wallet: 70 chips" in out
    assert (tmp_path / "chips.db").exists() and not (tmp_path / "felt.db").exists()
    code, _, err = play(capsys, "holdem", "--config", "x.toml")  # 70 chips cannot buy in
    assert code == 2 and err == [
        "felt play: you have 70 chips, not enough for a buy-in of 200 "
        "(felt play --daily adds chips once a day, felt db grant AMOUNT at any time)"
    ]
    code, _, err = play(capsys, "holdem", "--config", "missing.toml")
    assert code == 2 and err == ["felt play: config file not found: missing.toml"]
