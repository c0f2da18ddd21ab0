"""What `felt play` runs: checks the options, opens the local wallet, puts back what a killed
session left, claims the daily bonus, then hands over to the Hold'em or Blackjack front.

``bot.cli.play`` only declares the options and imports this module when a game starts, so other
``felt`` commands do not pay for rich and the table hosts.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path

from rich.console import Console
from rich.text import Text

from bot.blackjack.host import BlackjackSettings
from bot.blackjack.seats import BOT_THINK_SECONDS, BotStrategy
from bot.cli.common import CliError, seed_value, whole
from bot.cli.db import database
from bot.cli.rules import build_rules
from bot.config import ConfigError, FeltConfig, load_config
from bot.holdem.errors import TableSettingsError
from bot.holdem.settings import MAX_SEATS, MAX_TURN_SECONDS, MIN_SEATS, HoldemSettings
from bot.numbers import quote
from bot.render.text import NAME_LIMIT
from bot.terminal import wallet
from bot.terminal.blackjack import (
    BlackjackOptions,
    auto_round,
    play_blackjack,
    side_bet_options,
)
from bot.terminal.bots import DEFAULT_STRATEGY, UnknownBotError, parse_strategies
from bot.terminal.holdem import HoldemOptions, play_holdem
from bot.terminal.holdem_home import fast_pause, with_option_flags
from bot.terminal.style import chips
from storage import DatabaseProblem, Storage, StorageError

DEFAULT_SEATS = 6
DEFAULT_DEALER_DELAY = 0.8
"""Seconds between the Blackjack dealer's cards, so people can follow them."""
MAX_DELAY = 30.0
TURN_SECONDS = MAX_TURN_SECONDS
"""A terminal player's time to act: the longest a table allows. The table is theirs alone, so a
timeout only matters if they walk away (then they check or fold, and sit out after two)."""

# ---------------------------------------------------------------------------- commands


def wallet_command(args: argparse.Namespace) -> int:
    """`felt play` alone: the wallet, and the bonus with ``--daily``."""
    config = _config(args.config)

    async def show(storage: Storage, console: Console) -> int:
        console.print("Games: felt play holdem · felt play blackjack (--help for options)")
        return 0

    return _run(args, config, show, hosts_games=False)


def holdem_command(args: argparse.Namespace) -> int:
    """`felt play holdem`."""
    config = _config(args.config)
    seats, strategies = _seats_and_bots(args.seats, args.bots)
    base = config.holdem
    fast = bool(args.fast)
    delay = 0.0 if fast else _delay(args.delay, base.bot_delay_seconds)
    try:
        settings = HoldemSettings(
            small_blind=base.small_blind,
            big_blind=base.big_blind,
            min_buy_in=base.min_buy_in,
            max_buy_in=base.max_buy_in,
            seats=seats,
            bots=len(strategies),
            bot_strategy=strategies[0] if len(set(strategies)) == 1 else "mixed",
            bot_delay_seconds=delay,
            turn_seconds=TURN_SECONDS,
            max_sit_out_hands=base.max_sit_out_hands,
        )
        settings = settings.validated()
    except TableSettingsError as error:
        raise CliError(f"the [holdem] config cannot make a table: {error}") from None
    settings = with_option_flags(settings, args)
    if fast:
        settings = replace(settings, between_hands_seconds=fast_pause(settings))
    buy_in = None
    if args.buy_in is not None:
        buy_in = _whole(args.buy_in, "--buy-in", settings.min_buy_in, settings.max_buy_in)
    options = HoldemOptions(
        name=_name(args.name), strategies=strategies, buy_in=buy_in, seed=_seed(args.seed)
    )
    guild_id = _guild(options.seed)

    async def play(storage: Storage, console: Console) -> int:
        funds = await wallet.balance(storage, guild_id)
        needed = options.buy_in or settings.min_buy_in
        if funds < needed:
            raise CliError(
                f"you have {chips(funds)} chips, not enough for a buy-in of {chips(needed)} "
                "(felt play --daily adds chips once a day, felt db grant AMOUNT at any time)"
            )
        # Without --buy-in: the table's usual buy-in, or all you have if that is less.
        chosen = replace(options, buy_in=options.buy_in or min(settings.default_buy_in, funds))
        return await play_holdem(storage, settings, chosen, console, guild_id=guild_id)

    return _run(args, config, play, guild_id)


def _seats_and_bots(seats_text: str | None, bots_text: str | None) -> tuple[int, tuple[str, ...]]:
    """``--seats`` and ``--bots`` checked together: the chairs, and a strategy per bot."""
    seats_given = seats_text is not None
    seats = (
        DEFAULT_SEATS if seats_text is None else _whole(seats_text, "--seats", MIN_SEATS, MAX_SEATS)
    )
    if bots_text is None:
        return seats, (DEFAULT_STRATEGY,) * (seats - 1)
    try:
        strategies = parse_strategies(bots_text)
    except UnknownBotError as error:
        raise CliError(str(error)) from None
    if not seats_given:
        seats = max(seats, min(MAX_SEATS, len(strategies) + 1))
    if len(strategies) == 1:  # `--bots random`: that strategy in every other chair
        strategies *= seats - 1
    if len(strategies) > seats - 1:
        raise CliError(
            f"{seats} seats leave room for {seats - 1} bots, but --bots names {len(strategies)}"
        )
    return seats, strategies


def blackjack_command(args: argparse.Namespace) -> int:
    """`felt play blackjack`."""
    rules = build_rules(args.rules, list(args.rule))
    config = _config(args.config)
    base = config.blackjack
    sides = side_bet_options(args.side_21_3, args.perfect_pairs, rules, base.max_side_bet)
    settings = BlackjackSettings(
        rules=rules,
        min_bet=base.min_bet,
        max_bet=base.max_bet,
        betting_seconds=base.betting_seconds,
        turn_seconds=TURN_SECONDS,
        hints=base.hints,
        bot_seats=base.bot_seats,
        bot_delay_seconds=0.0 if args.fast else BOT_THINK_SECONDS,
        bot_strategy=BotStrategy(base.bot_strategy),
        bot_spread=base.bot_spread,
        max_side_bet=base.max_side_bet,
    )
    bet = base.min_bet
    if args.bet is not None:
        bet = _whole(args.bet, "--bet", base.min_bet, base.max_bet)
    fast = bool(args.fast)
    options = BlackjackOptions(
        name=_name(args.name),
        bet=bet,
        dealer_delay=0.0 if fast else _delay(args.delay, DEFAULT_DEALER_DELAY),
        seed=_seed(args.seed),
        train=bool(args.train),
        side_bets=sides,
    )
    game = auto_round if args.auto else play_blackjack
    guild_id = _guild(options.seed)

    async def play(storage: Storage, console: Console) -> int:
        funds = await wallet.balance(storage, guild_id)
        if funds < settings.min_bet:
            raise CliError(
                f"you have {chips(funds)} chips; the smallest bet is {chips(settings.min_bet)} "
                "(felt play --daily adds chips once a day, felt db grant AMOUNT at any time)"
            )
        console.print(f"Rules: {args.rules.strip().lower()} ({rules.describe()})", style="dim")
        return await game(storage, settings, options, console, guild_id=guild_id)

    return _run(args, config, play, guild_id)


# ---------------------------------------------------------------------------- running


Game = Callable[[Storage, Console], Awaitable[int]]


def _run(
    args: argparse.Namespace,
    config: FeltConfig,
    game: Game,
    guild_id: int = wallet.LOCAL_GUILD_ID,
    *,
    hosts_games: bool = True,
) -> int:
    # Found as `felt run` finds it: --db, else the config's [database] url or path.
    where = database(args.db or config.database.url or config.database.path)
    console = Console(highlight=False, markup=False, emoji=False)
    daily = bool(args.daily)
    return asyncio.run(_session(where, config, daily, game, console, guild_id, hosts_games))


def _guild(seed: int | None) -> int:
    """Seeded cards can be replayed, so a seeded game plays from the practice wallet."""
    return wallet.LOCAL_GUILD_ID if seed is None else wallet.PRACTICE_GUILD_ID


async def _session(
    where: str | Path,
    config: FeltConfig,
    daily: bool,
    game: Game,
    console: Console,
    guild_id: int,
    hosts_games: bool,
) -> int:
    """Open the wallet, take a lease and put back what a killed session left (only when a game
    is played: the wallet alone never touches another session's game), claim the bonus, play."""
    try:
        storage = await wallet.open_wallet(where, config)
    except DatabaseProblem as error:
        raise CliError(str(error)) from None
    except StorageError as error:
        raise CliError(str(error)) from None
    try:
        if hosts_games:
            await wallet.take_lease(storage)
        returned = await wallet.put_back_leftovers(storage) if hosts_games else 0
        if returned:
            console.print(
                f"Put back chips from {returned} game(s) an earlier session left open.",
                style="yellow",
            )
        if daily:
            result = await wallet.claim_daily(storage)
            if result.claim is not None:
                console.print(
                    Text(
                        f"Daily bonus: +{chips(result.claim.amount)} chips", style="bold green"
                    ).append(f" (day {result.claim.streak} of your streak).", style="green")
                )
            else:
                console.print(result.refusal, style="yellow")
        funds = await wallet.balance(storage)
        line = Text(f"Wallet: {chips(funds)} chips", style="bold")
        if not daily and await wallet.daily_available(storage):
            line.append("  (daily bonus available: felt play --daily)", style="dim")
        console.print(line)
        if guild_id == wallet.PRACTICE_GUILD_ID:
            practice = await wallet.reset_practice_wallet(storage, config.economy.starting_chips)
            console.print(
                f"Practice wallet: {chips(practice)} chips. A game with --seed deals cards that "
                "can be replayed, so it never touches your real wallet.",
                style="bold yellow",
            )
        if not hosts_games:
            return await game(storage, console)
        async with storage.keep_lease():
            return await game(storage, console)
    finally:
        await storage.close()


# ---------------------------------------------------------------------------- checking


def _config(path: Path | None) -> FeltConfig:
    try:
        return load_config(path)
    except ConfigError as error:
        raise CliError(str(error)) from None


def _whole(text: str, option: str, low: int, high: int) -> int:
    return whole(text, option, low, high)


def _delay(text: str | None, default: float) -> float:
    if text is None:
        return default
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= MAX_DELAY:
        raise CliError(
            f"--delay must be a number of seconds from 0 to {MAX_DELAY:g}, not {quote(text)}"
        )
    return value


def _seed(text: str | None) -> int | None:
    return seed_value(text)


def _name(text: str | None) -> str:
    if text is None:
        try:
            text = getpass.getuser().strip().capitalize()[:NAME_LIMIT]
        except (OSError, KeyError, ImportError):
            text = ""
        return text or "Player"
    cleaned = " ".join(text.split())
    if not 1 <= len(cleaned) <= NAME_LIMIT or not cleaned.isprintable():
        raise CliError(f"--name must be 1 to {NAME_LIMIT} printable characters")
    return cleaned
