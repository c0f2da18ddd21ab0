"""`felt play tournament`: you and bots in a Sit & Go, played to the end in the terminal.

The tournament is ``engine.tournament``'s state machine and every hand the real engine, with
the bots every table uses (``engine.bots`` strategies, each with its own personality). Levels
run on the clock passed in (wall time by default, as at a live tournament). You type what
`felt play holdem` takes (``bot.terminal.commands``): f, c, r 100, a, Enter for the table, ?
for help; q (or the end of input) leaves: from then on you check or fold every hand, as a
player who walks away from a tournament is blinded out, and the bots play on to the end. A
custom structure with rebuys and an add-on offers them to you (y/n) and the bots take them.
It is a practice game: each buy-in is 100 chips of the prize pool and no wallet chips move.
"""

from __future__ import annotations

import argparse
import random
import secrets
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from rich.console import Console
from rich.text import Text

from bot.cli.common import CliError, seed_value, whole
from bot.cli.tournament import load_sit_and_go_structure
from bot.holdem.events import Offer
from bot.holdem.seating import BOT_NAMES
from bot.terminal.commands import (
    HOLDEM_HELP,
    InputError,
    PlayHoldem,
    Quit,
    ShowHelp,
    ShowTable,
    parse_holdem,
)
from bot.terminal.tournament_screen import TournamentScreen, place_text
from engine.bots import BotSpec, Personality, SeatView, UnknownStrategyError, make_strategy
from engine.bots.strategy import Strategy
from engine.holdem import Action, Check, Fold, Hand
from engine.tournament import (
    Break,
    Format,
    HandSetup,
    PlayerEliminated,
    Structure,
    Tournament,
    TournamentConfig,
)
from engine.tournament.simulate import SECONDS_PER_HAND
from engine.tournament.tournament import Phase

BUY_IN = 100
"""The practice buy-in: the prize pool is this many chips per player."""
HUMAN = "you"
TOURNAMENT_HELP = (
    "Type f (fold), c (check or call), r 100 (raise to 100), a (all-in), q (leave); "
    "Enter shows the table."
)
MIN_PLAYERS, MAX_PLAYERS = 2, 10
NAME_LIMIT = 20


@dataclass(frozen=True, slots=True)
class TournamentOptions:
    """What ``felt play tournament`` was asked for, already checked."""

    structure: Structure
    players: int
    seed: int | None
    name: str
    strategy: str


class TournamentSession:
    """One Sit & Go: the human's lines in, the screen out."""

    def __init__(
        self,
        options: TournamentOptions,
        console: Console,
        read_line: Callable[[], str | None],
        clock: Callable[[], float],
    ) -> None:
        seed = options.seed if options.seed is not None else secrets.randbits(63)
        config = TournamentConfig(
            "Felt Sit & Go",
            options.structure,
            BUY_IN,
            Format.SIT_AND_GO,
            seats_per_table=max(options.players, 2),
            max_entries=options.players,
            seed=seed,
        )
        self.tournament = Tournament(config)
        self.tournament.register(HUMAN)
        bots = BOT_NAMES[: options.players - 1]
        for bot in bots:
            self.tournament.register(bot)
        spec = BotSpec.parse(options.strategy)
        self.strategies: dict[str, Strategy] = {
            bot: make_strategy(spec, personality=Personality.draw(spec.difficulty, bot))
            for bot in bots
        }
        self.rngs = {bot: random.Random(f"felt-terminal-tournament:{seed}:{bot}") for bot in bots}
        self.deck = random.Random(f"felt-terminal-tournament:{seed}:deck")
        names = {
            e.number: (options.name if e.player == HUMAN else e.player)
            for e in self.tournament.entries.values()
        }
        self.me = 1
        self.screen = TournamentScreen(console, names, self.me)
        self.console = console
        self.read_line = read_line
        self.clock = clock
        self.leaving = False
        self.skipped = 0.0
        """Seconds the clock was moved on while nobody watched (see ``now``)."""

    def now(self) -> float:
        """The tournament's time: the clock, plus the simulator's pace per hand once you are
        out or gone, so the bots' levels still rise when the hands fly by unwatched."""
        return self.clock() + self.skipped

    def run(self) -> int:
        """Play to the end; the exit status (0)."""
        tournament = self.tournament
        tournament.start(self.now())
        self.console.print(TOURNAMENT_HELP, style="dim", markup=False)
        number = 0
        while tournament.phase is Phase.RUNNING:
            if tournament.on_break:  # Sit & Go presets have none; a custom structure may
                self.take_break()
                continue
            number += 1
            self.play_hand(number)
            if self.screen.quiet:
                self.skipped += SECONDS_PER_HAND
            if tournament.phase is Phase.RUNNING:
                tournament.advance_clock(max(self.now(), tournament.clock.now))
        self.finish()
        return 0

    def play_hand(self, number: int) -> None:
        tournament = self.tournament
        table = next(iter(tournament.seating.tables))
        setup = tournament.start_hand(table)
        self.screen.level_line(tournament, setup, number, self.now())
        hand = Hand(setup.stakes, setup.stacks, rng=self.deck)
        if self.me in setup.entries:
            self.screen.hole_cards(hand, setup.entries.index(self.me))
        while not hand.is_complete:
            legal = hand.turn
            assert legal is not None
            entry = setup.entries[legal.player]
            if entry == self.me:
                action = self.your_action(setup, hand)
            else:
                player = tournament.entries[entry].player
                view = SeatView.from_hand(hand, legal.player)
                action = self.strategies[player].decide(view, self.rngs[player])
            self.screen.events(setup, hand.act(legal.player, action))
        self.screen.hand_result(setup, hand)
        final = dict(zip(setup.entries, hand.stacks, strict=True))
        rebuys = [entry for entry, stack in final.items() if stack == 0 and self.rebuys(entry)]
        for event in tournament.finish_hand(table, final, rebuys):
            if isinstance(event, PlayerEliminated):
                self.screen.eliminated(event.entry, event.place, None)
                if event.entry == self.me and not self.screen.quiet:
                    self.screen.quiet = True
                    self.console.print("The bots play on to the end...", style="dim")

    def rebuys(self, entry: int) -> bool:
        """Whether a busted entry buys back in: bots whenever the rules allow, you if you say
        so."""
        if not self.tournament.may_rebuy(entry, stack=0):
            return False
        if entry != self.me:
            return True
        if self.leaving:
            return False
        chips = self.tournament.structure.rebuy_chips
        return self.ask(f"You are out of chips: rebuy {chips:,} chips for {BUY_IN} (y/n)? ")

    def take_break(self) -> None:
        """A break: the add-on is offered (bots take it), then the clock jumps to its end."""
        tournament = self.tournament
        step = tournament.step
        assert isinstance(step, Break)
        self.console.print(f"Break: {step.minutes} minutes.", style="dim")
        for entry in tournament.alive:
            if not tournament.can_add_on(entry.number):
                continue
            chips = tournament.structure.add_on_chips
            if entry.number != self.me or (
                not self.leaving and self.ask(f"Add-on: {chips:,} chips for {BUY_IN} (y/n)? ")
            ):
                tournament.add_on(entry.number)
        due = tournament.next_change_at
        assert due is not None
        self.skipped += max(0.0, due - self.now())  # nobody waits out a break at a terminal
        tournament.advance_clock(max(self.now(), due))

    def ask(self, question: str) -> bool:
        """A yes/no question; the end of input is a no."""
        self.console.print(question, end="", markup=False)
        while True:
            text = self.read_line()
            if text is None:
                return False
            answer = text.strip().lower()
            if answer in ("y", "yes", "n", "no"):
                return answer.startswith("y")
            self.console.print("Type y or n: ", end="")

    def your_action(self, setup: HandSetup, hand: Hand) -> Action:
        """Read lines until one is a legal action (or the player leaves)."""
        legal = hand.turn
        assert legal is not None
        if self.leaving:
            return Check() if legal.can_check else Fold()
        self.screen.your_turn(self.tournament, setup, hand, legal)
        offer = Offer.of(legal, setup.seats[legal.player])
        while True:
            text = self.read_line()
            if text is None:
                return self.leave(legal.can_check)
            try:
                command = parse_holdem(text, offer)
            except InputError as error:
                message = str(error).replace(HOLDEM_HELP, TOURNAMENT_HELP)
                self.console.print(message, style="yellow", markup=False)
                self.screen.prompt()
                continue
            match command:
                case PlayHoldem(action=action):
                    return action
                case Quit():
                    return self.leave(legal.can_check)
                case ShowHelp():
                    self.console.print(TOURNAMENT_HELP, markup=False)
                case ShowTable():
                    self.console.print(self.screen.table(self.tournament, setup, hand))
                case _:
                    self.console.print(
                        "In a tournament rebuys are offered when you bust (in the rebuy "
                        "period), and there is no sitting out.",
                        style="yellow",
                    )
            self.screen.prompt()

    def leave(self, can_check: bool) -> Action:
        """Walk away: check or fold from now on, the bots play on."""
        self.leaving = True
        self.screen.quiet = True
        self.console.print()
        self.console.print("You leave the table: you check or fold from now on.", style="yellow")
        return Check() if can_check else Fold()

    def finish(self) -> None:
        tournament = self.tournament
        self.screen.standings(tournament.results, tournament.prize_pool)
        mine = next(f for f in tournament.results if f.entry == self.me)
        line = f"You finished {place_text(mine.place)}"
        line += f" and won {mine.prize:,} chips." if mine.prize else " (no prize)."
        self.console.print(Text(line, style="bold"))


def read_stdin_line() -> str | None:
    """One typed line (without its newline), or ``None`` at the end of input."""
    sys.stdout.flush()
    line = sys.stdin.readline()
    return line.rstrip("\r\n") if line else None


def tournament_command(args: argparse.Namespace) -> int:
    """`felt play tournament`: check the options (one line, exit 2 on a bad one) and play."""
    players = whole(args.players, "--players", MIN_PLAYERS, MAX_PLAYERS)
    structure = load_sit_and_go_structure(args.preset)
    seed = seed_value(args.seed)
    try:
        strategy = BotSpec.parse(args.bots).label
    except UnknownStrategyError as error:
        raise CliError(f"--bots: {error}") from None
    name = " ".join((args.name or "You").split())[:NAME_LIMIT] or "You"
    options = TournamentOptions(structure, players, seed, name, strategy)
    session = TournamentSession(options, Console(), read_stdin_line, time.monotonic)
    return session.run()
