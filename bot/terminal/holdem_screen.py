"""What `felt play holdem` shows: the table's presenter, printing events as they happen and the
table with the choices on the player's turn."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from bot.holdem.events import (
    ActionTaken,
    HandCancelled,
    HandDealt,
    HandFinished,
    HandsTabled,
    HoldemTableClosed,
    HoleCards,
    Offer,
    PlayerJoined,
    PlayerLeft,
    PlayerReturned,
    PlayerSatOut,
    StreetDealt,
    TableChanged,
    TableEvent,
    TableSnapshot,
    TurnStarted,
)
from bot.holdem.home_events import BountyCollected, CardsRevealed, RabbitHuntDealt
from bot.holdem.view import table_view
from bot.render.models import HoldemSeatView, SeatStatus, Stage
from bot.tables.events import Notice
from bot.terminal.bots import strategy_of
from bot.terminal.holdem_home import home_line, home_prompt
from bot.terminal.style import TO_ACT, cards_text, chips, signed
from engine.cards import Card

TABLE_NAME = "Felt Hold'em"
BOT_MARK = "🤖 "


class HoldemScreen:
    """The table's presenter: prints events, and the table with the choices on the player's
    turn. Its state (my seat, my cards, the turn) is only ever read by the session."""

    def __init__(
        self,
        console: Console,
        *,
        user_id: int,
        strategies: tuple[str, ...],
        on_change: Callable[[], None],
        after_hand: bool = True,
    ) -> None:
        self.console = console
        self.after_hand = after_hand
        """Whether the pause between hands leaves time to rabbit hunt or show (prompted)."""
        self.user_id = user_id
        self.strategies = strategies
        self.snapshot: TableSnapshot | None = None
        self.turn: TurnStarted | None = None
        """The decision the player owes now, if any."""
        self.quiet = False
        """Set once the player is leaving: no more prompts."""
        self._on_change = on_change
        self._cards: tuple[int, tuple[Card, ...]] | None = None
        self._prompt_due = False
        self._seat: int | None = None
        self._home_prompt: str | None = None
        self._busted_bots: set[int] = set()
        """Bot seats that ended a hand unable to pay the big blind: the table refills them."""

    # ------------------------------------------------------------------------ events

    async def publish(self, event: TableEvent) -> None:
        match event:
            case TableChanged(snapshot=snapshot):
                self.snapshot = snapshot
                self._announce_refills(snapshot)
                asked = home_prompt(snapshot, self.user_id, after_hand=self.after_hand)
                if asked is not None and asked != self._home_prompt and not self.quiet:
                    self.console.print(asked, style="bold yellow")
                self._home_prompt = asked
                if self._prompt_due:
                    self._prompt_due = False
                    self.show_turn()
            case HandDealt(hand_id=hand_id):
                self.console.rule(f"Hand #{hand_id}", style="green")
            case HoleCards(user_id=user_id, hand_id=hand_id, cards=cards):
                if user_id == self.user_id:
                    self._cards = (hand_id, cards)
                    self.console.print(Text("Your cards: ").append(cards_text(cards)))
            case ActionTaken(seat_no=seat_no, text=text):
                if seat_no == self._seat:
                    self.turn = None
                    self.console.print(Text(text, style="bold cyan"))
                else:
                    self.console.print(text)
            case StreetDealt(street=street, board=board, pot=pot):
                line = Text(f"{street.label}: ", style="bold").append(cards_text(board))
                self.console.print(line.append(f"   pot {chips(pot)}", style="yellow"))
            case HandsTabled():
                self._show_tabled(event)
            case TurnStarted(user_id=user_id):
                if user_id == self.user_id:
                    self.turn = event
                    self._prompt_due = True
                    self._on_change()
            case HandFinished(snapshot=snapshot):
                self.turn = None
                self._show_result(event)
                self._busted_bots = {
                    seat.seat_no
                    for seat in snapshot.seats
                    if seat.is_bot and seat.stack < snapshot.big_blind
                }
            case HandCancelled(hand_id=hand_id, reason=reason):
                self.turn = None
                self.console.print(
                    f"Hand #{hand_id} is cancelled ({reason}): every stack is back as it was."
                )
            case PlayerJoined(seat_no=seat_no, user_id=user_id, name=name, buy_in=buy_in):
                if user_id == self.user_id:
                    self._seat = seat_no
                    self.console.print(f"You sit in seat {seat_no} with {chips(buy_in)} chips.")
                else:
                    self.console.print(f"{self._label(name)} sits in seat {seat_no}.")
            case PlayerLeft(user_id=user_id, cashed_out=cashed_out, name=name, reason=reason):
                if user_id == self.user_id:
                    self.console.print(f"You leave the table with {chips(cashed_out)} chips.")
                elif user_id is not None:
                    self.console.print(f"{name} leaves ({reason}).")
            case PlayerSatOut(user_id=user_id, reason=reason):
                if user_id == self.user_id:
                    self.console.print(
                        f"You sit out ({reason}). Type back to play again, rebuy to add "
                        "chips, or q to leave.",
                        style="yellow",
                    )
            case PlayerReturned(user_id=user_id):
                if user_id == self.user_id:
                    self.console.print("You are dealt in again from the next hand.")
            case Notice(text=text):
                self.console.print(text, style="dim")
            case CardsRevealed() | RabbitHuntDealt() | BountyCollected():
                self.console.print(home_line(event))
            case HoldemTableClosed(cash_outs=cash_outs):
                self.turn = None
                for _, user_id, amount in cash_outs:
                    if user_id == self.user_id:
                        self.console.print(
                            f"The table closes: {chips(amount)} chips go back to your wallet."
                        )
                self._on_change()

    def _announce_refills(self, snapshot: TableSnapshot) -> None:
        """Say when the table gives a busted bot a new stack (it would be silent otherwise)."""
        for seat in snapshot.seats:
            if seat.seat_no in self._busted_bots and seat.stack >= snapshot.big_blind:
                self._busted_bots.discard(seat.seat_no)
                self.console.print(
                    f"{self._label(seat.name)} ran out of chips and buys in again "
                    f"({chips(seat.stack)} chips).",
                    style="dim",
                )

    # ------------------------------------------------------------------------ drawing

    def show_turn(self) -> None:
        """The table, your cards and your choices, then the prompt."""
        turn = self.turn
        if turn is None or self.quiet:
            return
        self.show_table()
        self.console.print(Text("Your turn. ", style="bold cyan").append(choices(turn.legal)))
        self.prompt()

    def prompt(self) -> None:
        """The input marker, without a newline."""
        if not self.quiet:
            self.console.print("> ", end="")

    def show_table(self, snapshot: TableSnapshot | None = None) -> None:
        """The whole table as a panel."""
        snapshot = snapshot or self.snapshot
        if snapshot is None:
            return
        self.console.print(self.table_panel(snapshot))

    def table_panel(self, snapshot: TableSnapshot) -> Panel:
        """Header, board, pots and one row per chair."""
        view = table_view(snapshot)
        # The stage says "Hand over", not "Showdown", when everyone else folded.
        title = f"{TABLE_NAME} · Hand #{view.hand_number} · {view.street.label}"
        if not view.hand_number:
            title = f"{TABLE_NAME} · {view.street.label}"
        title += f" · Blinds {chips(view.small_blind)}/{chips(view.big_blind)}"
        middle = Text("Board ", style="bold").append(cards_text(view.board))
        pots = [amount for amount in snapshot.pots if amount]
        if len(pots) > 1:
            named = ", ".join(
                f"{'main' if index == 0 else f'side {index}'} {chips(amount)}"
                for index, amount in enumerate(pots)
            )
            middle.append(f"   Pots {named}", style="yellow")
        if snapshot.total_pot:
            middle.append(f"   Pot {chips(snapshot.total_pot)}", style="bold yellow")
        seats = Table(box=None, padding=(0, 1), show_edge=False)
        for header, justify in (
            ("", "left"),
            ("#", "right"),
            ("Player", "left"),
            ("", "left"),
            ("Stack", "right"),
            ("Bet", "right"),
            ("", "left"),
        ):
            seats.add_column(header, justify=justify)  # type: ignore[arg-type]
        for seat in view.seats:
            seats.add_row(*self._seat_row(seat, view.street, snapshot.hand_id))
        return Panel(Group(middle, Text(""), seats), title=title, title_align="left")

    def _seat_row(
        self, seat: HoldemSeatView, street: Stage, hand_id: int | None
    ) -> tuple[Text | str, ...]:
        if seat.status is SeatStatus.EMPTY:
            return ("", str(seat.seat), Text("empty", style="dim"), "", "", "", "")
        mine = seat.seat == self._seat
        name = Text(self._label(seat.name), style="bold cyan" if mine else "")
        if mine:
            name.append(" (you)", style="cyan")
        if seat.status in (SeatStatus.FOLDED, SeatStatus.SITTING_OUT):
            name.stylize("dim")
        marks = seat.positions
        detail = Text()
        if mine and self._cards is not None and self._cards[0] == hand_id and seat.status.in_hand:
            detail.append(cards_text(self._cards[1]))
        elif seat.shown_cards:
            detail.append(cards_text(seat.shown_cards))
        if seat.hand_description:
            detail.append(f" {seat.hand_description}", style="italic")
        status = {
            SeatStatus.FOLDED: "folded",
            SeatStatus.ALL_IN: "all in",
            SeatStatus.SITTING_OUT: "sitting out",
            SeatStatus.WAITING: "waiting" if street.has_hand else "",
        }.get(seat.status, "")
        if street.is_over:
            status = ""  # a folded seat and a mucked one look alike here: say neither
        if seat.is_to_act:
            status = "to act"
        elif not status and seat.last_action and not street.is_over:
            status = seat.last_action.lower()
        if status:
            detail.append(f" {status}", style="bold" if seat.is_to_act else "dim")
        if seat.amount_won:
            detail.append(f" wins {chips(seat.amount_won)}", style="bold green")
        return (
            Text(TO_ACT, style="bold yellow") if seat.is_to_act else "",
            str(seat.seat),
            name,
            marks,
            chips(seat.stack),
            chips(seat.bet) if seat.bet else "",
            detail,
        )

    def _label(self, name: str) -> str:
        """A bot's name with its strategy: ``🤖 Ada (smart)``."""
        if name.startswith(BOT_MARK):
            bot_name = name.removeprefix(BOT_MARK)
            return f"{name} ({strategy_of(bot_name, self.strategies)})"
        return name

    def _show_tabled(self, event: HandsTabled) -> None:
        chances = dict(event.equities)
        self.console.print("All in, hands face up:", style="bold")
        for shown in event.hands:
            line = Text(f"  {shown.name} ").append(cards_text(shown.cards))
            if shown.seat_no in chances:
                line.append(f"  {chances[shown.seat_no]:.0%} to win", style="yellow")
            self.console.print(line)

    def _show_result(self, event: HandFinished) -> None:
        self.show_table(event.snapshot)
        shown = {hand.seat_no: hand.description for hand in event.shown}
        for pot in event.pots:
            which = "the pot" if len(event.pots) == 1 else (
                "the main pot" if pot.pot_index == 0 else f"side pot {pot.pot_index}"
            )  # fmt: skip
            for seat_no, name, share in pot.winners:
                # A pot won at showdown against mucked hands carries no description of its own.
                description = pot.description or shown.get(seat_no, "")
                how = f" with {description}" if description else ""
                self.console.print(
                    Text(f"{name} wins {chips(share)} from {which}{how}.", style="bold green")
                )
        for seat_no, _, net in event.net:
            if seat_no == self._seat:
                self.console.print(Text("Your result: ").append(signed(net)))


def choices(legal: Offer) -> Text:
    """``f fold · c call 10 · r 20..990 raise to · a all-in 990 · q leave``."""
    parts = ["f fold"] if legal.can_fold else []
    if legal.can_check:
        parts.append("c check")
    elif legal.call_amount is not None:
        parts.append(f"c call {chips(legal.call_amount)}")
    if legal.min_raise_to is not None and legal.max_raise_to is not None:
        verb = "bet" if legal.is_bet else "raise to"
        if legal.min_raise_to < legal.max_raise_to:
            parts.append(f"r {legal.min_raise_to}..{legal.max_raise_to} {verb}")
        parts.append(f"a all-in {chips(legal.max_raise_to)}")
    parts.append("q leave")
    return Text(" · ".join(parts))
