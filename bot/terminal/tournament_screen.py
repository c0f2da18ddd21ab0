"""What `felt play tournament` shows: the level, the table with your cards, each action as it
happens, eliminations and the final standings. The cards, chips and the choices line are the
Hold'em screen's own (``bot.terminal.style``, ``bot.terminal.holdem_screen.choices``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from bot.holdem.events import Offer
from bot.terminal.holdem_screen import BOT_MARK, choices
from bot.terminal.style import TO_ACT, cards_text, chips, signed
from engine.holdem import (
    ActionKind,
    BoardDealt,
    CardsShown,
    Event,
    Hand,
    LegalActions,
    PlayerActed,
    PotAwarded,
)
from engine.tournament import Finish, HandSetup, Level, Tournament

_YOUR_VERBS = {
    ActionKind.FOLD: "fold",
    ActionKind.CHECK: "check",
    ActionKind.CALL: "call",
    ActionKind.BET: "bet",
    ActionKind.RAISE: "raise to",
}
_VERBS = {
    ActionKind.FOLD: "folds",
    ActionKind.CHECK: "checks",
    ActionKind.CALL: "calls",
    ActionKind.BET: "bets",
    ActionKind.RAISE: "raises to",
}


def place_text(place: int) -> str:
    """``1st``, ``2nd``, ``11th``, ``23rd``."""
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


class TournamentScreen:
    """Prints a Sit & Go for one human player (``me`` is their entry number)."""

    def __init__(self, console: Console, names: Mapping[int, str], me: int) -> None:
        self.console = console
        self.names = names
        self.me = me
        self.quiet = False
        """Set once the player has left or busted: hands are no longer narrated."""

    def name(self, entry: int) -> str:
        """A player's name, bots marked."""
        return self.names[entry] if entry == self.me else f"{BOT_MARK}{self.names[entry]}"

    def _subject(self, entry: int, verb: str) -> str:
        """``You show`` for the player at the keyboard, ``🤖 Ada shows`` for anyone else, as the
        actions read (``You call``, ``🤖 Ada calls``)."""
        return f"You {verb}" if entry == self.me else f"{self.name(entry)} {verb}s"

    def level_line(self, tournament: Tournament, setup: HandSetup, number: int, now: float) -> None:
        """``Hand #12 · Level 3 · 25/50 ante 50 (BB) · next level in 3:20``."""
        if self.quiet:
            return
        level: Level = tournament.level
        title = (
            f"Hand #{number} · Level {setup.level} · {level.label(tournament.structure.ante_kind)}"
        )
        due = tournament.next_change_at
        if due is not None:
            left = max(0, int(due - now))
            title += f" · next level in {left // 60}:{left % 60:02d}"
        elif level.hands is not None:
            title += f" · {level.hands} hands a level"
        self.console.rule(title, style="green")

    def hole_cards(self, hand: Hand, player: int) -> None:
        if not self.quiet:
            self.console.print(Text("Your cards: ").append(cards_text(hand.hole_cards[player])))

    def events(self, setup: HandSetup, events: Sequence[Event]) -> None:
        """Narrate what an action caused: the action, new board cards, showdowns and pots."""
        if self.quiet:
            return
        for event in events:
            match event:
                case PlayerActed(player=player, kind=kind, bet_to=bet_to, all_in=all_in):
                    entry = setup.entries[player]
                    verbs = _YOUR_VERBS if entry == self.me else _VERBS
                    who = "You" if entry == self.me else self.name(entry)
                    text = f"{who} {verbs[kind]}"
                    if kind in (ActionKind.BET, ActionKind.RAISE):
                        text += f" {chips(bet_to)}"
                    if all_in:
                        text += " (all in)"
                    style = "bold cyan" if entry == self.me else ""
                    self.console.print(Text(text, style=style))
                case BoardDealt(street=street, cards=cards):
                    line = Text(f"{street.name.title()}: ", style="bold").append(cards_text(cards))
                    self.console.print(line)
                case CardsShown(player=player, cards=cards, description=description):
                    line = Text(f"  {self._subject(setup.entries[player], 'show')} ")
                    self.console.print(line.append(cards_text(cards)).append(f" {description}"))
                case PotAwarded(shares=shares, description=description):
                    how = f" with {description}" if description else ""
                    for player, amount in shares:
                        winner = self._subject(setup.entries[player], "win")
                        self.console.print(
                            Text(f"{winner} {chips(amount)}{how}.", style="bold green")
                        )
                case _:
                    pass

    def table(self, tournament: Tournament, setup: HandSetup, hand: Hand) -> Panel:
        """The table mid-hand: board, pot, and one row per player in seat order."""
        middle = Text("Board ", style="bold").append(cards_text(hand.board))
        middle.append(f"   Pot {chips(hand.pot_total)}", style="bold yellow")
        rows = Table(box=None, padding=(0, 1), show_edge=False)
        for header, justify in (("", "left"), ("#", "right"), ("Player", "left"), ("", "left"),
                                ("Stack", "right"), ("Bet", "right"), ("", "left")):  # fmt: skip
            rows.add_column(header, justify=justify)  # type: ignore[arg-type]
        turn = hand.turn
        for player in sorted(range(len(setup.entries)), key=lambda p: setup.seats[p]):
            entry = setup.entries[player]
            mine = entry == self.me
            name = Text(self.name(entry), style="bold cyan" if mine else "")
            if not hand.live[player]:
                name.stylize("dim")
            mark = "D" if setup.seats[player] == setup.button else ""
            detail = cards_text(hand.hole_cards[player]) if mine else Text("")
            if not hand.live[player]:
                detail.append(" folded", style="dim")
            elif hand.is_all_in(player):
                detail.append(" all in", style="dim")
            rows.add_row(
                Text(TO_ACT, style="bold yellow") if turn and turn.player == player else "",
                str(setup.seats[player]),
                name,
                mark,
                chips(hand.stacks[player]),
                chips(hand.bets[player]) if hand.bets[player] else "",
                detail,
            )
        title = f"{tournament.config.name} · {len(tournament.alive)} left"
        return Panel(Group(middle, Text(""), rows), title=title, title_align="left")

    def your_turn(
        self, tournament: Tournament, setup: HandSetup, hand: Hand, legal: LegalActions
    ) -> None:
        """The table and your choices, then the prompt."""
        self.console.print(self.table(tournament, setup, hand))
        offer = Offer.of(legal, setup.seats[legal.player])
        self.console.print(Text("Your turn. ", style="bold cyan").append(choices(offer)))
        self.prompt()

    def prompt(self) -> None:
        self.console.print("> ", end="")

    def hand_result(self, setup: HandSetup, hand: Hand) -> None:
        if self.quiet or self.me not in setup.entries:
            return
        player = setup.entries.index(self.me)
        net = hand.stacks[player] - setup.stacks[player]
        self.console.print(Text("Your result: ").append(signed(net)))

    def eliminated(self, entry: int, place: int, prize: int | None) -> None:
        if entry == self.me:
            won = f" and win {chips(prize)} chips" if prize else ""
            self.console.print(
                Text(f"You are out in {place_text(place)} place{won}.", style="bold yellow")
            )
        elif not self.quiet:
            self.console.print(
                f"{self.name(entry)} is out in {place_text(place)} place.", style="dim"
            )

    def standings(self, results: Sequence[Finish], pool: int) -> None:
        """The final table of places and prizes."""
        self.console.rule("Final standings", style="green")
        for finish in results:
            prize = f"{chips(finish.prize)}" if finish.prize else "-"
            style = "bold cyan" if finish.entry == self.me else ""
            self.console.print(
                Text(
                    f"{place_text(finish.place):>5}  {self.name(finish.entry):<20} {prize:>8}",
                    style=style,
                )
            )
        self.console.print(f"Prize pool {chips(pool)} chips.", style="dim")
