"""`felt play holdem` in a real terminal: a full hand, bad input, leaving with `q` and Ctrl-C,
and the session ledger printed at the end."""

from __future__ import annotations

import re
from pathlib import Path

from tests.bot.terminal.support import PROMPT, START, Play, read_wallet

TURN = r"Your turn\. [^\r\n]*" + PROMPT
RESULT = r"Your result: [^\r\n]*\r\n"


def final_wallet(text: str) -> int:
    """The last "Wallet: N chips" the game printed."""
    amounts = re.findall(r"Wallet: ([\d,]+) chips", text)
    assert amounts, text
    return int(amounts[-1].replace(",", ""))


def test_play_holdem_full_hand_to_showdown_then_leave(play: Play, database: Path) -> None:
    game = play("holdem", "--seats", "2", "--bots", "passive", "--name", "Ann", "--seed", "5")
    game.expect("Your cards: ")
    while game.expect(TURN, RESULT) == 0:
        game.send("c")
    game.send("q")
    assert game.finish() == 0
    text = game.text
    # The result shows the winning hand with its description, and names the winner and why.
    showdown = text[text.index("· Showdown ·") :]
    assert re.search(r"Ann \(you\) .* A♥ +A♦ +Pair of Aces, Ten kicker +wins 20", showdown)
    assert "🤖 Ada (passive)" in showdown
    assert "Ann wins 20 from the pot with Pair of Aces, Ten kicker." in showdown
    assert "Your result: +10" in showdown
    # The session's ledger is printed at the end: Ann's net is what she cashed out less what
    # she bought in, and the bot pays it to her.
    ledger = text[text.index("Session ledger") :]
    row = re.search(r"Ann +│ +([\d,]+) +│ +0 +│ +([\d,]+) +│ +0 +│ +\+(\d+)", ledger)
    assert row is not None, ledger
    bought, cashed, net = (int(value.replace(",", "")) for value in row.groups())
    assert net == cashed - bought > 0
    assert f"Ada (bot) pays Ann {net}" in ledger
    wallet = read_wallet(database)
    assert wallet.ledger_ok and wallet.at_tables == 0 and wallet.open_tables == 0
    assert wallet.balance == final_wallet(text)


def test_play_holdem_bad_input_reprompts_and_changes_nothing(play: Play, database: Path) -> None:
    game = play("holdem", "--seats", "2", "--bots", "passive", "--name", "Ann", "--seed", "5")
    game.expect(TURN)
    for typed, answer in (
        ("zz", r"Unknown command 'zz'\. Type f \(fold\)"),
        ("r 5", r"Raise to between 20 and 1,000 \(r 20\)"),
        ("raise lots", r"'lots' is not a whole number of chips"),
        ("r ²", r"'²' is not a whole number of chips"),
        ("r " + "9" * 3000, r"\(3,000 characters\)\s+is\s+not\s+a\s+whole"),
        ("x" * 3000, r"\(3,000 characters\)\.\s+Type\s+f\s+\(fold\)"),
        ("r", r"Raise how much\?"),
        # Checked against the stack left in play (the blind is already in the pot).
        ("rebuy 5000", r"You can add at most \d+ chips \(the maximum buy-in is 1,000\)"),
    ):
        game.send(typed)
        game.expect(answer)
        game.expect(PROMPT)
    before = game.text
    assert not re.search(r"\nAnn (calls|checks|raises|folds)", before)
    game.send("CALL")  # case does not matter; the big blind's "call" checks
    game.expect(r"\nAnn checks\r\n")
    game.expect(TURN)
    game.send("f")  # nothing to fold to: refused, the turn stays
    game.expect(r"There is no bet to fold to: c checks for free\.")
    game.send("  C  ")
    game.expect(r"\nAnn checks\r\n")
    game.interrupt()  # leaves: the rest of the hand is checked through, as on a timeout
    assert game.finish() == 130
    actions = re.findall(r"\nAnn (calls|checks|raises|folds)", game.text)
    assert actions[:2] == ["checks", "checks"] and set(actions) == {"checks"}
    wallet = read_wallet(database)
    assert wallet.ledger_ok and wallet.balance == final_wallet(game.text)


def test_play_holdem_quit_mid_hand_folds_and_returns_the_stack(play: Play, database: Path) -> None:
    game = play("holdem", "--bots", "aggressive,random,smart", "--name", "Ann", "--seed", "11")
    game.expect(TURN)
    game.send("q")
    game.expect(r"You leave the table with ([\d,]+) chips\.")
    left = int(game.child.match.group(1).replace(",", ""))
    assert game.finish() == 0
    wallet = read_wallet(database)
    assert wallet.ledger_ok and wallet.at_tables == 0 and wallet.open_tables == 0
    assert wallet.balance == left == final_wallet(game.text)
    assert START - 10 <= left <= START  # at most the big blind stays in the pot


def test_play_holdem_ctrl_c_mid_hand_plays_the_hand_out_not_void(
    play: Play, database: Path
) -> None:
    game = play("holdem", "--seats", "2", "--bots", "passive", "--name", "Ann", "--seed", "5")
    game.expect(TURN)
    game.send("r 300")
    game.expect(r"\nAnn raises to 300\r\n")
    game.expect(TURN)  # the flop: 300 of Ann's chips are in the pot
    game.interrupt()
    assert game.finish() == 130
    text = game.text
    assert "cancelled" not in text  # the hand is not voided: Ann checks her way out
    assert re.search(r"\nAnn checks", text)
    assert re.search(r"\n(Turn|River):  ", text)  # streets are named in words
    wallet = read_wallet(database)
    assert wallet.ledger_ok and wallet.at_tables == 0 and wallet.open_tables == 0
    assert wallet.balance == final_wallet(text) != START  # the 300 were won or lost


def test_play_holdem_one_bot_name_fills_every_other_chair(play: Play, database: Path) -> None:
    game = play("holdem", "--bots", "random", "--name", "Ann", "--seed", "3")
    game.expect(TURN)
    game.send("q")
    game.finish()
    assert len(re.findall(r"🤖 \w+ \(random\) sits in seat", game.text)) == 5


def test_play_holdem_plain_rebuy_adds_what_the_wallet_holds(play: Play, database: Path) -> None:
    (database.parent / "config.toml").write_text("[holdem]\nmax_buy_in = 2000\n")
    game = play("holdem", "--seats", "2", "--bots", "passive", "--buy-in", "200", "--seed", "5")
    game.expect(TURN)
    game.send("rebuy")  # the top-up to 2,000 would be 1,800; the wallet holds 800
    game.expect(r"Added 800 chips\.")
    game.send("q")
    game.finish()
    wallet = read_wallet(database)
    assert wallet.ledger_ok and wallet.at_tables == 0


def test_play_holdem_a_hand_won_by_folds_is_not_called_a_showdown(
    play: Play, database: Path
) -> None:
    game = play("holdem", "--seats", "2", "--bots", "passive", "--name", "Ann", "--seed", "5")
    while game.expect(TURN, RESULT) == 0:  # hand 1: check it down
        game.send("c")
    game.expect(TURN)  # hand 2: Ann is the small blind, facing the big blind
    game.send("f")
    game.expect(RESULT)
    game.send("q")
    game.finish()
    text = game.text
    second = text[text.index("Hand #2") : text.index("Hand #3") if "Hand #3" in text else None]
    assert "Ann folds" in second
    assert "· Hand over ·" in second and "· Showdown ·" not in second, second
