"""`felt play blackjack`: rounds against the dealer at a real Blackjack table host, in the terminal.

Side bets (21+3, Perfect Pairs) are the table's rules (``--rule side_21_3=...``,
``--rule perfect_pairs=true``) and the amounts placed with every bet (``--side-21-3 N``,
``--perfect-pairs N``); they go to the host with every bet and are escrowed and settled by
storage exactly as at a Discord table.

``BlackjackScreen`` (``blackjack_screen.py``) is the table's presenter; ``play_blackjack``
reads bets and decisions from the inbox and turns them into host calls. ``auto_round`` plays one
round by basic strategy with no input at all. The host escrows and settles every chip in
storage, exactly as for Discord; the terminal only paces the dealer's cards so people can follow
them.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Mapping
from dataclasses import dataclass, field

from rich.console import Console
from rich.text import Text

from bot.blackjack.host import BlackjackSettings, BlackjackTable
from bot.blackjack.seats import SIDE_BET_NAMES, offered_side_bets
from bot.cli.common import CliError, whole
from bot.tables.clock import AsyncioScheduler
from bot.terminal.blackjack_screen import TABLE_NAME, BlackjackScreen, show_finish
from bot.terminal.commands import (
    BLACKJACK_KEYS,
    Bet,
    Hint,
    InputError,
    PlayBlackjack,
    Quit,
    ShowHelp,
    ShowTable,
    bet_help,
    blackjack_help,
    parse_blackjack,
)
from bot.terminal.lines import EndOfInput, Line
from bot.terminal.refusals import REFUSALS, refusal_text
from bot.terminal.session import Inbox, Interrupted
from bot.terminal.style import chips
from bot.terminal.wallet import (
    BLACKJACK_CHANNEL_ID,
    LOCAL_USER_ID,
    balance,
    channel_of,
)
from engine.blackjack import Rules, Shoe
from engine.blackjack.strategy import Advice
from storage import BetReason, DecisionGrades, Storage

INTERRUPTED = 130
"""The exit status after Ctrl-C (the shell's convention for SIGINT), the round played out as a
timed-out player's would be (stand, no insurance): leaving never refunds a bet."""


@dataclass(frozen=True, slots=True)
class BlackjackOptions:
    """What ``felt play blackjack`` was asked for, already checked."""

    name: str
    bet: int
    """The bet an empty line places (``--bet``, else the table minimum)."""
    dealer_delay: float
    """Seconds between the dealer's cards (0 with ``--fast``)."""
    seed: int | None
    train: bool = False
    """``--train``: show each decision's grade against basic strategy, and a summary at the end."""
    side_bets: Mapping[BetReason, int] = field(default_factory=dict)
    """The side bets placed with every bet (none unless asked for)."""


def side_bet_options(
    twenty_one_three: str | None, perfect_pairs: str | None, rules: Rules, most: int
) -> dict[BetReason, int]:
    """``--side-21-3`` and ``--perfect-pairs`` checked against the rules and the limit, or a
    ``CliError`` naming the option: a side bet the table does not offer is refused, not
    ignored."""
    given = {BetReason.SIDE_21_3: twenty_one_three, BetReason.PERFECT_PAIRS: perfect_pairs}
    needs = {
        BetReason.SIDE_21_3: ("--side-21-3", "--rule side_21_3=classic or five_tier"),
        BetReason.PERFECT_PAIRS: ("--perfect-pairs", "--rule perfect_pairs=true"),
    }
    offered = offered_side_bets(rules)
    sides: dict[BetReason, int] = {}
    for reason, text in given.items():
        if text is None:
            continue
        option, rule = needs[reason]
        if reason not in offered:
            raise CliError(f"{option} needs a table with that side bet ({rule})")
        sides[reason] = whole(text, option, 1, most)
    return sides


async def play_blackjack(
    storage: Storage,
    settings: BlackjackSettings,
    options: BlackjackOptions,
    console: Console,
    *,
    guild_id: int,
) -> int:
    """Play rounds until the player leaves; the exit status."""
    inbox = Inbox()
    inbox.catch_interrupts()
    scheduler = AsyncioScheduler()
    screen = BlackjackScreen(
        console, user_id=LOCAL_USER_ID, on_change=inbox.wake, guild_id=guild_id
    )
    shoe = _shoe(settings, options.seed)
    table = _table(storage, settings, screen, scheduler, options.seed, guild_id, shoe)
    session = _BlackjackSession(table, screen, storage, options, shoe)
    graded_before = await storage.decision_grades(guild_id, LOCAL_USER_ID)
    try:
        console.print(f"In a round: {blackjack_help(settings.rules)}", style="dim")
        offer = side_bet_line(settings, options.side_bets)
        if offer:
            console.print(offer, style="dim")
        session.ask_for_bet()
        inbox.start_reading()
        code = await session.run(inbox)
    finally:
        inbox.stop_catching()
        # Only a round the session could not finish (a crash of this program) is refunded.
        await table.suspend("the terminal session ended")
        await scheduler.drain()
    funds = await balance(storage, guild_id)
    console.print(Text(f"Wallet: {chips(funds)} chips", style="bold"))
    if options.train:
        graded = await storage.decision_grades(guild_id, LOCAL_USER_ID)
        console.print(trainer_summary(graded.since(graded_before)), style="bold cyan")
    return code


def side_bet_line(settings: BlackjackSettings, placed: Mapping[BetReason, int]) -> str:
    """The side bets placed with every bet, or the ones the table offers and how to place
    them ("" at a table without side bets)."""
    if placed:
        bets = " · ".join(f"{SIDE_BET_NAMES[reason]} {chips(n)}" for reason, n in placed.items())
        return f"Side bets with every bet: {bets} (settled on the opening cards)."
    options = {BetReason.SIDE_21_3: "--side-21-3 N", BetReason.PERFECT_PAIRS: "--perfect-pairs N"}
    offered = [
        f"{SIDE_BET_NAMES[reason]} ({options[reason]})"
        for reason in offered_side_bets(settings.rules)
    ]
    if not offered:
        return ""
    return (
        f"This table offers side bets of 1 to {chips(settings.max_side_bet)}: "
        + ", ".join(offered)
        + "."
    )


def trainer_summary(graded: DecisionGrades) -> str:
    """``--train``'s last words: the session's decisions against basic strategy."""
    if not graded.decisions:
        return "Trainer: no decisions to grade this session."
    share = graded.correct / graded.decisions
    text = (
        f"Trainer: {graded.decisions} decision{'s' if graded.decisions != 1 else ''} graded, "
        f"{graded.correct} by basic strategy ({share:.0%})"
    )
    if graded.correct == graded.decisions:
        return text + "."
    return text + f"; the others cost ~{graded.expected_loss:,.2f} chips in expectation."


async def auto_round(
    storage: Storage,
    settings: BlackjackSettings,
    options: BlackjackOptions,
    console: Console,
    *,
    guild_id: int,
) -> int:
    """One round played by basic strategy, printed; no input."""
    done = asyncio.Event()
    scheduler = AsyncioScheduler()
    screen = BlackjackScreen(console, user_id=LOCAL_USER_ID, on_change=done.set, guild_id=guild_id)
    screen.quiet = True
    shoe = _shoe(settings, options.seed)
    table = _table(storage, settings, screen, scheduler, options.seed, guild_id, shoe)
    # Ctrl-C does not cancel a round that is being played: it finishes (by itself, at once)
    # and is settled; the exit status then says it was interrupted.
    inbox = Inbox()
    inbox.catch_interrupts()
    try:
        try:
            await table.bet(LOCAL_USER_ID, options.name, options.bet, side_bets=options.side_bets)
        except REFUSALS as error:
            console.print(f"No round: {refusal_text(error)}", style="bold red")
            return 2
        await table.deal_now(LOCAL_USER_ID)
        while screen.finished is None:
            await done.wait()
            done.clear()
            turn = screen.turn
            if turn is not None and screen.finished is None:
                advice = table.hint(LOCAL_USER_ID)
                console.print(advice_line(advice))
                await table.act(LOCAL_USER_ID, turn.round_id, turn.step, advice.action)
        await show_finish(
            screen, screen.finished, storage, options.dealer_delay, train=options.train
        )
        return INTERRUPTED if inbox.pending() else 0
    finally:
        inbox.stop_catching()
        await table.suspend("the terminal session ended")
        await scheduler.drain()


def advice_line(advice: Advice) -> str:
    """``"Basic strategy: double down (type d): hard 11 against a 6."`` in plain words."""
    key = BLACKJACK_KEYS[advice.action]
    return f"Basic strategy: {advice.action.label.lower()} (type {key}): {advice.row}."


RESHUFFLED = "The cut card came out: the dealer reshuffles the shoe."


def reshuffle_notice(shoe: Shoe, rules: Rules) -> str:
    """What to say before a round whose deal reshuffles the shoe ("" when nothing is news: the
    first shuffle, or a table that shuffles every round)."""
    if shoe.needs_shuffle and shoe.cards_dealt and not rules.reshuffle_every_round:
        return RESHUFFLED
    return ""


def _shoe(settings: BlackjackSettings, seed: int | None) -> Shoe:
    """The table's shoe, kept by the session to announce reshuffles."""
    return Shoe.for_rules(settings.rules, rng=random.Random(seed) if seed is not None else None)


def _table(
    storage: Storage,
    settings: BlackjackSettings,
    screen: BlackjackScreen,
    scheduler: AsyncioScheduler,
    seed: int | None,
    guild_id: int,
    shoe: Shoe,
) -> BlackjackTable:
    return BlackjackTable(
        storage=storage,
        guild_id=guild_id,
        channel_id=channel_of(BLACKJACK_CHANNEL_ID, guild_id),
        name=TABLE_NAME,
        settings=settings,
        scheduler=scheduler,
        presenter=screen,
        rng=random.Random(seed) if seed is not None else None,
        shoe=shoe,
    )


class _BlackjackSession:
    """Turns the player's lines into bets and decisions."""

    def __init__(
        self,
        table: BlackjackTable,
        screen: BlackjackScreen,
        storage: Storage,
        options: BlackjackOptions,
        shoe: Shoe,
    ) -> None:
        self.table = table
        self.shoe = shoe
        self.screen = screen
        self.storage = storage
        self.options = options
        self.console = screen.console
        self.leaving = False
        self.left_table = False
        self.in_round = False
        self.interrupted = False
        self.side_bets = dict(options.side_bets)

    @property
    def bet_help(self) -> str:
        settings = self.table.settings
        return bet_help(self.options.bet, settings.min_bet, settings.max_bet)

    def ask_for_bet(self) -> None:
        self.console.print(f"Bet for the next round: {self.bet_help}")
        self.screen.prompt()

    def leave(self) -> None:
        """Leave after this round; every decision left is played as a timed-out player's."""
        if self.leaving:
            return
        self.leaving = True
        self.screen.quiet = True
        if self.in_round:
            self.console.print(
                "You leave after this round: your hands stand and insurance is declined, "
                "as when time runs out.",
                style="dim",
            )

    async def run(self, inbox: Inbox) -> int:
        while True:
            match await inbox.get():
                case Line(text=text):
                    await self.handle(text)
                case EndOfInput():
                    self.leave()
                case Interrupted():
                    self.console.print()
                    self.interrupted = True
                    self.leave()
                case _:
                    pass
            finished = self.screen.finished
            if finished is not None:
                self.screen.finished = None
                self.in_round = False
                await show_finish(
                    self.screen,
                    finished,
                    self.storage,
                    self.options.dealer_delay,
                    train=self.options.train,
                )
                if not self.leaving:
                    self.ask_for_bet()
            if self.leaving and self.in_round and not self.left_table:
                # The host plays every decision left as a timed-out player's (stand, no
                # insurance) and settles the round as played.
                self.left_table = True
                await self.table.leave(LOCAL_USER_ID)
            elif self.leaving and not self.in_round:
                return INTERRUPTED if self.interrupted else 0

    async def handle(self, text: str) -> None:
        turn = self.screen.turn
        legal = turn.legal if turn is not None else frozenset()
        betting = not self.in_round
        try:
            command = parse_blackjack(
                text,
                legal,
                rules=self.table.settings.rules,
                betting=self.bet_help if betting else "",
            )
        except InputError as error:
            self._refuse(refusal_text(error))
            return
        match command:
            case Quit():
                self.leave()
            case ShowHelp():
                help_text = self.bet_help if betting else blackjack_help(self.table.settings.rules)
                self.console.print(help_text)
                self.screen.prompt()
            case ShowTable():
                if turn is not None:
                    self.screen.show_turn()
                elif not self.in_round:
                    await self.bet(self.options.bet)
            case Hint():
                try:
                    advice = self.table.hint(LOCAL_USER_ID)
                except REFUSALS as error:
                    self._refuse(refusal_text(error))
                else:
                    self.console.print(advice_line(advice))
                    self.screen.prompt()
            case Bet(amount=amount):
                await self.bet(amount if amount is not None else self.options.bet)
            case PlayBlackjack(action=action):
                assert turn is not None
                try:
                    await self.table.act(LOCAL_USER_ID, turn.round_id, turn.step, action)
                except REFUSALS as error:
                    self._refuse(refusal_text(error))

    async def bet(self, amount: int) -> None:
        if self.in_round:
            self._refuse("Finish this round first.")
            return
        try:
            await self.table.bet(LOCAL_USER_ID, self.options.name, amount, side_bets=self.side_bets)
        except REFUSALS as error:
            self._refuse(refusal_text(error))
            return
        self.in_round = True
        notice = reshuffle_notice(self.shoe, self.table.settings.rules)
        if notice:
            self.console.print(notice, style="yellow")
        await self.table.deal_now(LOCAL_USER_ID)

    def _refuse(self, message: str) -> None:
        self.console.print(message, style="yellow")
        self.screen.prompt()
