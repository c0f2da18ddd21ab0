"""`felt play blackjack` in a real terminal: full rounds, insurance, bad input, leaving with `q`
and Ctrl-C, and `--auto`."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from bot.terminal.blackjack import RESHUFFLED, reshuffle_notice
from bot.terminal.wallet import PRACTICE_GUILD_ID
from storage import Storage
from tests.bot.terminal.support import PROMPT, START, Play, read_wallet

BET = r"Bet for the next round: [^\r\n]*" + PROMPT
TURN = r"Your turn\. [^\r\n]*" + PROMPT
RESULT = r"Result: ([+-][\d,]+|±0)"
# Seeds whose first round deals (6 decks, casino rules):
INSURANCE_SEED = "46"  # J♠ 7♥ against a dealer ace
PAIR_SEED = "6"  # 10♦ Q♥ (a pair of tens) against a queen
PLAIN_SEED = "5"  # 8♥ 5♦ against a nine


def net_of(text: str) -> int:
    found = re.findall(RESULT, text)
    assert found, text
    return 0 if found[-1] == "±0" else int(found[-1].replace(",", ""))


def test_play_blackjack_full_round_with_insurance_then_leave(play: Play, database: Path) -> None:
    game = play("blackjack", "--seed", INSURANCE_SEED)
    game.expect(BET)
    game.send("")  # Enter bets the default (the table minimum)
    game.expect(r"You bet 10\.")
    game.expect(r"The dealer shows an ace\. i insurance · n no insurance" + r"[^\r\n]*" + PROMPT)
    game.send("N")
    while game.expect(TURN, RESULT) == 0:
        game.send("s")
    game.expect(BET)
    game.send("q")
    assert game.finish() == 0
    text = game.text
    assert re.search(r"Dealer +A♦", text)
    assert re.search(r"\(you\) +J♠ +7♥ +bet 10", text)
    assert "You: No insurance" in text
    wallet = read_wallet(database)
    assert wallet.ledger_ok and wallet.in_play == 0
    assert wallet.balance == START + net_of(text)


def test_play_blackjack_bad_input_reprompts_and_changes_nothing(play: Play, database: Path) -> None:
    game = play("blackjack", "--seed", PAIR_SEED)
    game.expect(BET)
    for typed, answer in (
        ("zz", r"Unknown command 'zz'\. Enter bets 10, or type an amount from 10 to 500"),
        ("5", r"Bets at this table are 10 to 500 chips\."),
        ("-10", r"An amount of chips cannot be negative, not '-10'\."),
        ("²", r"'²' is not a whole number of chips\."),
        ("9" * 3000, r"\(3,000 characters\)\s+is\s+not\s+a\s+whole"),
        ("x" * 3000, r"\(3,000 characters\)\.\s+Enter\s+bets\s+10"),
        ("bet lots", r"'lots' is not a whole number of chips\."),
        ("h", r"There is no decision to make now\. Enter bets 10"),
    ):
        game.send(typed)
        game.expect(answer)
        game.expect(PROMPT)
    assert read_wallet(database).balance == START  # nothing was bet
    game.send("bet 20")
    game.expect(r"You bet 20\.")
    game.expect(r"Your turn\. h hit · s stand · d double down · p split · hint · q leave")
    game.expect(PROMPT)
    for typed, answer in (
        ("u", r"Surrender is not possible now: h hit · s stand · d double down · p split\."),
        ("100", r"Finish this round first\."),
        ("HINT", r"Basic strategy: stand \(type s\): a pair of tens against a Queen\."),
        ("x" * 3000, r"\(3,000 characters\)\.\s+Type\s+h\s+\(hit\)"),
    ):
        game.send(typed)
        game.expect(answer)
        game.expect(PROMPT)
    game.send(" S ")
    game.expect(RESULT)
    game.expect(BET)
    game.send("q")
    assert game.finish() == 0
    text = game.text
    assert text.count("You: ") == 1 and "You: Stand" in text
    wallet = read_wallet(database)
    assert wallet.ledger_ok and wallet.in_play == 0
    assert wallet.balance == START + net_of(text)


def test_play_blackjack_quit_mid_round_stands_and_settles(play: Play, database: Path) -> None:
    game = play("blackjack", "--seed", PLAIN_SEED)
    game.expect(BET)
    game.send("50")
    game.expect(TURN)
    game.send("q")
    game.expect(r"You leave after this round: your hands stand and insurance is declined")
    game.expect(r"You: Stand")
    game.expect(RESULT)
    assert game.finish() == 0
    text = game.text
    wallet = read_wallet(database)
    assert wallet.ledger_ok and wallet.in_play == 0
    assert wallet.balance == START + net_of(text) and net_of(text) in (-50, 0, 50)


def test_play_blackjack_ctrl_c_mid_round_stands_and_settles_not_refunds(
    play: Play, database: Path
) -> None:
    game = play("blackjack", "--seed", PLAIN_SEED)
    game.expect(BET)
    game.send("100")
    game.expect(TURN)
    assert read_wallet(database).in_play == 100
    game.interrupt()
    game.expect(r"You: Stand")
    game.expect(RESULT)
    assert game.finish() == 130
    text = game.text
    assert "your bet is back" not in text and "cancelled" not in text
    wallet = read_wallet(database)
    assert wallet.ledger_ok and wallet.in_play == 0
    # 8♥ 5♦ stands against a nine: the round is settled as played, never refunded.
    assert net_of(text) in (-100, 0, 100)
    assert wallet.balance == START + net_of(text)


def test_play_blackjack_auto_plays_one_round_by_basic_strategy(play: Play, database: Path) -> None:
    game = play("blackjack", "--auto", "--seed", PLAIN_SEED, "--bet", "25")
    assert game.finish() == 0
    text = game.text
    assert "Basic strategy: hit (type h): hard 13 against a Nine." in text
    assert "chart" not in text
    assert re.search(r"Dealer +9♣ +\S+", text)  # the dealer's hand, hole card turned over
    assert re.search(r"\(you\) +8♥ +5♦ +\S+", text)  # the player's hand, after the hit
    wallet = read_wallet(database)
    assert wallet.ledger_ok and wallet.in_play == 0
    assert wallet.balance == START + net_of(text)


def test_play_blackjack_with_a_seed_never_touches_the_real_wallet(
    play: Play, database: Path
) -> None:
    for _ in range(2):
        game = play("blackjack", "--auto", "--seed", PLAIN_SEED, "--bet", "500")
        assert game.finish() == 0
        assert "Practice wallet: 1,000 chips" in game.text
        assert "never touches your real wallet" in game.text
        assert read_wallet(database).balance in (500, 1000, 1500, 1750)  # one round from 1,000
    real = read_wallet(database, practice=False)
    assert real.balance == START and real.ledger_ok


def test_reshuffle_is_announced_once_the_cut_card_came_out() -> None:
    from engine.blackjack import CASINO, Shoe
    from engine.blackjack.rules import CLASSIC

    shoe = Shoe.for_rules(CASINO)
    assert reshuffle_notice(shoe, CASINO) == ""  # the first shuffle of a fresh shoe: no news
    shoe.begin_round()
    while not shoe.needs_shuffle:
        shoe.draw()
    assert reshuffle_notice(shoe, CASINO) == RESHUFFLED
    assert reshuffle_notice(shoe, CLASSIC) == ""  # shuffled every round: nothing to announce


def test_play_blackjack_train_grades_each_decision_and_sums_up(play: Play) -> None:
    game = play("blackjack", "--seed", PLAIN_SEED, "--train")
    game.expect(BET)
    game.send("")
    game.expect(TURN)
    game.send("s")  # hard 13 against a nine: basic strategy hits
    game.expect(r"Trainer · Stand: basic strategy: hit \(hard 13 vs 9\), cost ~0\.\d\d bets")
    game.expect(BET)
    game.send("q")
    assert game.finish() == 0
    assert re.search(
        r"Trainer: 1 decision graded, 0 by basic strategy \(0%\); the others cost ~[\d.]+ "
        r"chips in expectation\.",
        game.text,
    )


def test_play_blackjack_side_bets_are_escrowed_and_settled_like_discords(
    play: Play, database: Path
) -> None:
    game = play(
        "blackjack",
        *("--auto", "--seed", PLAIN_SEED, "--bet", "25"),
        *("--rule", "side_21_3=classic", "--rule", "perfect_pairs=on"),
        *("--side-21-3", "5", "--perfect-pairs", "4"),
    )
    assert game.finish() == 0
    text = game.text
    assert "You bet 25, 21+3 5, Perfect Pairs 4." in text
    # 8♥ 5♦ and the dealer's 9♣: no poker hand, no pair.
    assert "21+3: nothing (-5)" in text
    assert "Perfect Pairs: no pair (-4)" in text
    wallet = read_wallet(database)
    assert wallet.ledger_ok and wallet.in_play == 0
    assert wallet.balance == START + net_of(text) == START - 25 - 9

    async def stored_bets() -> list[tuple[str, int]]:
        storage = await Storage.open(database)
        try:
            (played,) = await storage.list_rounds(PRACTICE_GUILD_ID)
            return [(bet.reason.value, bet.amount) for bet in played.bets]
        finally:
            await storage.close()

    # The same rows a Discord table's side bets make: escrowed with the opening bet.
    assert asyncio.run(stored_bets()) == [("initial", 25), ("perfect_pairs", 4), ("side_21_3", 5)]
