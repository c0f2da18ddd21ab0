"""`felt play holdem`: one human against bots at a real Hold'em table host, in the terminal.

``HoldemScreen`` (``bot.terminal.holdem_screen``) is the table's presenter: it prints what
happens as it happens and, when it is the player's turn, the table and the choices.
``play_holdem`` seats the player, reads their lines from the inbox and turns them into host
calls; the host does everything else (dealing, bots, timers, settlement in storage), exactly as
for Discord.
"""

from __future__ import annotations

import contextlib
import random
import uuid
from dataclasses import dataclass

from rich.console import Console
from rich.text import Text

from bot.holdem.host import HoldemTable
from bot.holdem.ledger import closing_session
from bot.holdem.settings import HoldemSettings
from bot.tables.errors import TableError
from bot.terminal.bots import EQUITY, bot_factory
from bot.terminal.commands import (
    HOLDEM_HELP,
    Back,
    InputError,
    PlayHoldem,
    Quit,
    Rebuy,
    ShowHelp,
    ShowTable,
    parse_holdem,
)
from bot.terminal.holdem_home import home_command
from bot.terminal.holdem_screen import TABLE_NAME, HoldemScreen
from bot.terminal.ledger import print_ledger
from bot.terminal.lines import EndOfInput, Line
from bot.terminal.refusals import REFUSALS, refusal_text
from bot.terminal.session import HurryingScheduler, Inbox, Interrupted
from bot.terminal.style import chips
from bot.terminal.wallet import HOLDEM_CHANNEL_ID, LOCAL_USER_ID, balance, channel_of
from engine.holdem import Check, Fold
from storage import Storage

INTERRUPTED = 130
"""The exit status after Ctrl-C (the shell's convention for SIGINT). Ctrl-C leaves as ``q``
does: the hand in play is finished for the player by the timeout rule (check, else fold), never
voided, so quitting a bad hand costs what folding it would."""


@dataclass(frozen=True, slots=True)
class HoldemOptions:
    """What ``felt play holdem`` was asked for, already checked."""

    name: str
    strategies: tuple[str, ...]
    buy_in: int | None
    seed: int | None


EXPORT_HINT = (
    f"Your player id is {LOCAL_USER_ID}. Your hands for a tracker: "
    f"felt db export hands --player {LOCAL_USER_ID} --out hands.txt "
    "(--format phh or ohh for the other formats)"
)
"""What `felt play holdem` prints at the end: the id `felt db export hands --player` takes."""


async def play_holdem(
    storage: Storage,
    settings: HoldemSettings,
    options: HoldemOptions,
    console: Console,
    *,
    guild_id: int,
) -> int:
    """Seat the player at a new table and play until they leave; the exit status."""
    inbox = Inbox()
    inbox.catch_interrupts()
    scheduler = HurryingScheduler()
    screen = HoldemScreen(
        console,
        user_id=LOCAL_USER_ID,
        strategies=options.strategies,
        on_change=inbox.wake,
        after_hand=settings.between_hands_seconds > 0,
    )
    table = await HoldemTable.create(
        storage=storage,
        guild_id=guild_id,
        channel_id=channel_of(HOLDEM_CHANNEL_ID, guild_id),
        host_user_id=LOCAL_USER_ID,
        name=TABLE_NAME,
        settings=settings,
        key=f"terminal:holdem:open:{uuid.uuid4().hex}",
        scheduler=scheduler,
        presenter=screen,
        bots=bot_factory(options.strategies),
        equity=EQUITY,
        rng=random.Random(options.seed) if options.seed is not None else None,
    )
    session = _HoldemSession(table, screen, scheduler, console, storage, guild_id)
    console.print(HOLDEM_HELP, style="dim")
    try:
        try:
            await table.join(LOCAL_USER_ID, options.name, options.buy_in)
        except REFUSALS as error:
            console.print(f"You cannot sit down: {refusal_text(error)}", style="bold red")
            await table.close("the player could not sit down")
            return 2
        inbox.start_reading()
        code = await session.run(inbox)
    finally:
        inbox.stop_catching()
        if not table.is_closed:  # an unexpected error: put every chip back before giving up
            await table.close("the terminal session ended")
        await scheduler.drain()
    settled = await closing_session(storage, table.table_id)
    if settled is not None:
        print_ledger(console, settled)
    funds = await balance(storage, guild_id)
    console.print(Text(f"Wallet: {chips(funds)} chips", style="bold"))
    console.print(Text(EXPORT_HINT, style="dim"))
    return code


class _HoldemSession:
    """Turns the player's lines into host calls."""

    def __init__(
        self,
        table: HoldemTable,
        screen: HoldemScreen,
        scheduler: HurryingScheduler,
        console: Console,
        storage: Storage,
        guild_id: int,
    ) -> None:
        self.table = table
        self.storage = storage
        self.guild_id = guild_id
        self.screen = screen
        self.scheduler = scheduler
        self.console = console
        self.leaving = False
        self.interrupted = False

    async def run(self, inbox: Inbox) -> int:
        while not self.table.is_closed:
            match await inbox.get():
                case Line(text=text):
                    await self.handle(text)
                case EndOfInput():
                    await self.leave()
                case Interrupted():
                    self.console.print()
                    self.interrupted = True
                    await self.leave()
                case _:
                    pass
            if self.leaving and self.screen.turn is not None:
                await self.fold_on_the_way_out()
        return INTERRUPTED if self.interrupted else 0

    async def handle(self, text: str) -> None:
        turn = self.screen.turn
        try:
            if await home_command(self.table, LOCAL_USER_ID, text):
                return
        except REFUSALS as error:
            self._refuse(refusal_text(error))
            return
        except InputError as error:
            self._refuse(str(error))
            return
        try:
            command = parse_holdem(text, turn.legal if turn is not None else None)
        except InputError as error:
            self._refuse(refusal_text(error))
            return
        match command:
            case Quit():
                await self.leave()
            case ShowHelp():
                self.console.print(HOLDEM_HELP)
                self._reprompt()
            case ShowTable():
                if turn is not None:
                    self.screen.show_turn()
                else:
                    self.screen.show_table()
            case Rebuy(amount=amount):
                await self.rebuy(amount)
            case Back():
                try:
                    await self.table.back(LOCAL_USER_ID)
                except REFUSALS as error:
                    self._refuse(refusal_text(error))
            case PlayHoldem(action=action):
                assert turn is not None
                try:
                    await self.table.act(LOCAL_USER_ID, turn.hand_id, turn.action_count, action)
                except REFUSALS as error:
                    self._refuse(refusal_text(error))

    async def rebuy(self, amount: int | None) -> None:
        """Add chips; plain ``rebuy`` tops up to the maximum buy-in, or adds the whole wallet
        when it holds less than that top-up."""
        funds = await balance(self.storage, self.guild_id)
        if amount is None and funds <= 0:
            self._refuse("Your wallet is empty (felt play --daily, or felt db grant AMOUNT).")
            return
        # A wallet of at least the maximum buy-in pays any top-up; a smaller one is offered
        # whole, and if that is more than the top-up, the top-up is what it pays.
        attempts: tuple[int | None, ...]
        if amount is not None:
            attempts = (amount,)
        elif funds >= self.table.settings.max_buy_in:
            attempts = (None,)
        else:
            attempts = (funds, None)
        refusal = ""
        for attempt in attempts:
            try:
                added = await self.table.rebuy(LOCAL_USER_ID, attempt)
            except REFUSALS as error:
                refusal = refusal or refusal_text(error)
                continue
            self.console.print(f"Added {chips(added)} chips.")
            return
        self._refuse(refusal)

    async def leave(self) -> None:
        """Cash out now between hands; in a hand, fold and cash out when it ends."""
        if self.leaving:
            return
        self.leaving = True
        self.screen.quiet = True
        self.scheduler.hurry()
        try:
            left = await self.table.leave(LOCAL_USER_ID)
        except REFUSALS as error:
            self._refuse(refusal_text(error))
            return
        if not left:
            self.console.print("Until then you check when it is free, else fold.", style="dim")

    async def fold_on_the_way_out(self) -> None:
        """Check when it is free, else fold, as a player who timed out would."""
        turn = self.screen.turn
        assert turn is not None
        action = Check() if turn.legal.can_check else Fold()
        # TableError: the hand moved on already (a timer), so there is nothing left to do.
        with contextlib.suppress(TableError):
            await self.table.act(LOCAL_USER_ID, turn.hand_id, turn.action_count, action)

    def _refuse(self, message: str) -> None:
        self.console.print(message, style="yellow")
        self._reprompt()

    def _reprompt(self) -> None:
        if self.screen.turn is not None:
            self.screen.prompt()
