"""The Blackjack table in the terminal: ``BlackjackScreen`` (the table host's presenter), the table
panel, and the round's result paced card by card."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from bot.blackjack.events import (
    ActionTaken,
    BetPlaced,
    BlackjackSnapshot,
    RoundFinished,
    RoundRefunded,
    TableChanged,
    TableEvent,
    TurnStarted,
)
from bot.blackjack.seats import SIDE_BET_NAMES
from bot.blackjack.view import seat_label, table_view
from bot.render.models import BlackjackHandView
from bot.tables.events import Notice
from bot.terminal.commands import (
    blackjack_choices,
)
from bot.terminal.style import TO_ACT, cards_text, chips, signed
from bot.terminal.wallet import (
    LOCAL_GUILD_ID,
    balance,
)
from engine.blackjack import Action, Phase
from engine.cards import Card
from storage import Storage

TABLE_NAME = "Felt Blackjack"


class BlackjackScreen:
    """The table's presenter: prints the table with the choices on the player's turn, and keeps
    the finished round for the session to reveal at a human pace."""

    def __init__(
        self,
        console: Console,
        *,
        user_id: int,
        on_change: Callable[[], None],
        guild_id: int = LOCAL_GUILD_ID,
    ) -> None:
        self.console = console
        self.user_id = user_id
        self.guild_id = guild_id
        """Whose wallet the results are shown against (the practice wallet for seeded games)."""
        self.snapshot: BlackjackSnapshot | None = None
        self.turn: TurnStarted | None = None
        """The decision the player owes now, if any."""
        self.finished: RoundFinished | None = None
        """A settled round the session has not shown yet."""
        self.before_finish: BlackjackSnapshot | None = None
        """The table as the player last saw it before the round ended (for the dealer reveal)."""
        self._on_change = on_change
        self._prompt_due = False
        self.quiet = False
        """Set in ``--auto`` and once the player is leaving: no prompts."""

    async def publish(self, event: TableEvent) -> None:
        match event:
            case TableChanged(snapshot=snapshot):
                if snapshot.view is not None and snapshot.view.phase is not Phase.OVER:
                    self.before_finish = snapshot
                self.snapshot = snapshot
                if self._prompt_due:
                    self._prompt_due = False
                    self.show_turn()
            case BetPlaced(user_id=user_id, amount=amount, side_bets=sides):
                if user_id == self.user_id:
                    extra = "".join(
                        f", {SIDE_BET_NAMES[reason]} {chips(n)}" for reason, n in sides.items()
                    )
                    self.console.print(f"You bet {chips(amount)}{extra}.")
            case TurnStarted(user_id=user_id):
                if user_id == self.user_id:
                    self.turn = event
                    self._prompt_due = True
                    self._on_change()
            case ActionTaken(user_id=user_id, action=action, automatic=automatic):
                if user_id == self.user_id:
                    self.turn = None
                    note = " (timed out)" if automatic else ""
                    self.console.print(Text(f"You: {action.label}{note}", style="bold cyan"))
            case RoundFinished():
                self.turn = None
                self.finished = event
                self._on_change()
            case RoundRefunded(reason=reason, held=held):
                self.turn = None
                back = "held until the next start" if held else "back"
                self.console.print(f"The round is cancelled ({reason}): your bet is {back}.")
            case Notice(text=text):
                self.console.print(text, style="dim")
            case _:
                pass

    def show_turn(self) -> None:
        """The table and the choices, then the prompt."""
        turn = self.turn
        if turn is None:
            return
        self.show_table()
        if self.quiet:
            return
        legal = turn.legal
        if Action.INSURE in legal or Action.EVEN_MONEY in legal:
            heading = "The dealer shows an ace. "
        else:
            heading = "Your turn. "
        line = Text(heading, style="bold cyan").append(blackjack_choices(legal))
        self.console.print(line.append(" · hint · q leave"))
        self.prompt()

    def prompt(self) -> None:
        """The input marker, without a newline."""
        if not self.quiet:
            self.console.print("> ", end="")

    def show_table(self, snapshot: BlackjackSnapshot | None = None) -> None:
        """The dealer and the player's hands as a panel."""
        snapshot = snapshot or self.snapshot
        panel = table_panel(snapshot, self.user_id) if snapshot is not None else None
        if panel is not None:
            self.console.print(panel)


def table_panel(snapshot: BlackjackSnapshot, user_id: int) -> Panel | None:
    """Dealer row, then one row per hand of each player (the same view Discord draws)."""
    view = table_view(snapshot)
    if view is None:
        return None
    title = f"{TABLE_NAME} · Round #{view.round_number} · {view.phase.value}"
    title += f" · Bets {chips(view.min_bet)}–{chips(view.max_bet)}"
    rows = Table(box=None, padding=(0, 1), show_header=False, show_edge=False)
    for justify in ("left", "left", "left", "right", "left", "left"):
        rows.add_column(justify=justify)
    rows.add_row(
        "",
        Text("Dealer", style="bold"),
        cards_text(view.dealer_cards, hidden=1 if view.dealer_hole_hidden else 0),
        "",
        view.dealer_total,
        "",
    )
    me = snapshot.player(user_id)
    my_seat = seat_label(me.seat) if me is not None else None
    for seat in view.seats:
        mine = seat.seat == my_seat
        name = seat.name + (" (you)" if mine else "")
        for index, hand in enumerate(seat.hands):
            label = Text(name if index == 0 else f"  hand {index + 1}")
            if mine:
                label.stylize("bold cyan")
            rows.add_row(
                Text(TO_ACT, style="bold yellow") if seat.hand_to_act == index else "",
                label,
                cards_text(hand.cards),
                f"bet {chips(hand.bet)}" + (" doubled" if hand.is_doubled else ""),
                hand.total,
                _hand_result(hand),
            )
        if seat.insurance:
            rows.add_row("", "", Text("insurance", style="dim"), chips(seat.insurance), "", "")
    return Panel(rows, title=title, title_align="left")


def _hand_result(hand: BlackjackHandView) -> Text:
    if hand.result is None:
        return Text("")
    text = Text(f"{hand.result.label} ", style="bold")
    return text.append(signed(hand.net or 0))


async def show_finish(
    screen: BlackjackScreen,
    finished: RoundFinished,
    storage: Storage,
    delay: float,
    *,
    train: bool = False,
) -> None:
    """Turn the dealer's cards over one at a time, then the table, the result and the wallet."""
    console = screen.console
    final = finished.snapshot.view
    before = screen.before_finish
    seen: tuple[Card, ...] = ()
    if before is not None and before.view is not None and before.round_id == finished.round_id:
        seen = before.view.dealer.cards
    if final is not None:
        dealer = final.dealer.cards
        # The up card was face up from the deal, even if the round ended before a decision.
        for index in range(max(1, len(seen)), len(dealer)):
            if delay:
                await asyncio.sleep(delay)
            verb = "turns over" if index == 1 else "draws"
            so_far = cards_text(dealer[: index + 1])
            line = Text(f"Dealer {verb} ").append(cards_text(dealer[index : index + 1]))
            console.print(line.append("  → ").append(so_far))
        screen.show_table(finished.snapshot)
    for result in finished.results:
        if result.user_id == screen.user_id:
            for hand_line in result.lines:
                console.print(f"  {hand_line}")
            for grade in result.grades if train else ():
                console.print(f"  Trainer · {grade}", style="cyan")
            wallet = await balance(storage, screen.guild_id)
            summary = Text("Result: ").append(signed(result.net))
            console.print(summary.append(f"   Wallet: {chips(wallet)} chips"))
