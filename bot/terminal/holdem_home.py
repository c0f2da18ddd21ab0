"""Home-game options in the terminal: the `felt play holdem` flags (one per row of the table
options), the typed answers (`run 2`, `hunt`, `show 1|2|both`) and the lines that ask for them."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from rich.text import Text

from bot.cli.common import CliError
from bot.holdem.errors import TableSettingsError
from bot.holdem.events import TableEvent, TableSnapshot
from bot.holdem.home_events import BountyCollected, CardsRevealed, RabbitHuntDealt
from bot.holdem.home_options import OPTIONS
from bot.holdem.settings import HoldemSettings
from bot.numbers import NumberError, quote, read_whole
from bot.terminal.commands import InputError
from bot.terminal.style import cards_text

if TYPE_CHECKING:
    from bot.holdem.host import HoldemTable

SHOWS = {"1": (0,), "2": (1,), "both": (0, 1)}
TERMINAL_OPTIONS = tuple(option for option in OPTIONS if option.terminal)


def add_option_flags(parser: argparse.ArgumentParser) -> None:
    """One flag per table option (``--straddle utg``, ``--rabbit-hunt on``...)."""
    group = parser.add_argument_group("home-game options (see /holdem options)")
    for option in TERMINAL_OPTIONS:
        group.add_argument(
            f"--{option.name.replace('_', '-')}",
            dest=f"option_{option.name}",
            metavar="VALUE",
            help=f"{option.help}: {option.accepted}",
        )


def with_option_flags(settings: HoldemSettings, args: argparse.Namespace) -> HoldemSettings:
    """``settings`` with the option flags given, or a ``CliError`` naming the bad one."""
    changes = {}
    for option in TERMINAL_OPTIONS:
        text = getattr(args, f"option_{option.name}", None)
        if text is None:
            continue
        try:
            changes[option.name] = option.read(text)
        except TableSettingsError as error:
            raise CliError(f"--{option.name.replace('_', '-')}: {error}") from None
    try:
        return settings.with_changes(**changes)
    except TableSettingsError as error:
        raise CliError(str(error)) from None


FAST_AFTER_HAND_SECONDS = 2.0
"""With ``--fast``, the pause between hands at a table that rabbit hunts or pays the 7-2
bounty: time to type ``hunt`` or ``show``."""


def fast_pause(settings: HoldemSettings) -> float:
    """The pause between hands under ``--fast``: none, unless there is something to do after
    a hand (a rabbit hunt, or showing 7-2 for the bounty)."""
    if settings.rabbit_hunt or settings.seven_deuce_bounty:
        return FAST_AFTER_HAND_SECONDS
    return 0.0


async def home_command(table: HoldemTable, user_id: int, text: str) -> bool:
    """Apply ``run N``, ``hunt`` or ``show 1|2|both``; False when ``text`` is none of them
    (the table's refusals are raised as they are; a count that is not a number is an
    ``InputError``)."""
    words = text.strip().lower().split()
    match words:
        case ["run", count]:
            try:
                runs = read_whole(count, what="A number of runs")
            except NumberError:
                raise InputError(f"run takes a whole number of runs, not {quote(count)}.") from None
            await table.choose_runs(user_id, table.hand_id, runs)
        case ["hunt"]:
            done = table.finished_hand
            await table.rabbit_hunt(user_id, done.hand_id if done is not None else 0)
        case ["show", which] if which in SHOWS:
            done = table.finished_hand
            await table.show_cards(user_id, done.hand_id if done is not None else 0, SHOWS[which])
        case _:
            return False
    return True


def home_prompt(snapshot: TableSnapshot, user_id: int, *, after_hand: bool = True) -> str | None:
    """What the player may type now for a home-game option, if anything (``after_hand``:
    whether the pause between hands leaves time to answer the after-hand choices)."""
    ask = snapshot.run_count_ask
    if ask is not None and user_id in ask.user_ids:
        most = ask.max_runs
        return f"All in: run the board up to {most} times? Type run 1 to run {most}."
    offer = snapshot.after_hand
    if offer is not None and after_hand:
        parts = []
        if offer.can_rabbit_hunt:
            parts.append("hunt to see the cards that would have come")
        if offer.can_show:
            parts.append("show 1, show 2 or show both to show your cards")
        return "Before the next hand: type " + ", or ".join(parts) + "."
    return None


def home_line(event: TableEvent) -> Text | None:
    """The line for a reveal, a rabbit hunt or a bounty."""
    match event:
        case CardsRevealed(name=name, cards=cards):
            return Text(f"{name} shows ").append(cards_text(cards))
        case RabbitHuntDealt(name=name, boards=boards):
            line = Text(f"{name} rabbit hunts: ")
            for board in boards:
                line.append(cards_text(board)).append("  ")
            return line.append("(nothing changes)", style="dim")
        case BountyCollected(name=name):
            return Text(f"{name} wins with 7-2 and collects {event.total} chips of bounty.")
    return None
