"""Errors of the Discord front, and the router that turns any error into the right reply.

Two kinds of failure reach a member:

- a *refusal* (``Refusal``, the app-command checks, or an error type another layer registered
  with ``ErrorRouter.register_refusal``): the member gets the message, ephemerally, and the log
  gets a debug line;
- anything else: the log gets the traceback with the interaction's context and a short error id,
  and the member gets an apology quoting that id, so an admin can find the traceback.

Either way the interaction is answered: a member never sees "This interaction failed".
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Mapping
from typing import Any, Protocol, runtime_checkable

import discord
from discord import app_commands

from bot.discord.replies import Interaction, send_ephemeral
from storage import (
    AlreadySeated,
    BalanceLimitExceeded,
    DailyAlreadyClaimed,
    DailyDisabled,
    EmptySeat,
    IdempotencyConflict,
    InsufficientChips,
    InvalidTransfer,
    NotInRound,
    SeasonResetBlocked,
    SeatInHand,
    SeatTaken,
    TableClosed,
    TransfersDisabled,
    UnknownAccount,
    UnknownHand,
    UnknownRound,
    UnknownSeason,
    UnknownTable,
)

_log = logging.getLogger("felt.discord.errors")

APOLOGY = (
    "Sorry, something went wrong on our side and nothing was changed. "
    "If it keeps happening, give the server's admins this error id: `{error_id}`."
)
OUT_OF_DATE = (
    "This command is out of date: Felt is updating its commands. Try again in a minute "
    "(Discord may need you to restart your app to see the new version)."
)


class FeltDiscordError(Exception):
    """Base of the errors the Discord front raises itself."""


class Refusal(FeltDiscordError, app_commands.AppCommandError):
    """A request Felt turns down, with a message fit to show the member (ephemerally).

    Raise it anywhere in a command, a check, a view or a modal callback. It is also an
    ``AppCommandError`` so that checks and ``interaction_check`` may raise it too.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class ShuttingDown(Refusal):
    """Refuses new work while the bot finishes or voids games before a restart."""

    def __init__(self) -> None:
        super().__init__("Felt is restarting. Please try again in a minute.")


class StartupError(FeltDiscordError):
    """The bot cannot start; the message is one line saying why and what to do."""


def new_error_id() -> str:
    """A short id to quote in an apology and find in the log (8 hex digits)."""
    return secrets.token_hex(4)


RefusalRenderer = Callable[[BaseException], str]


@runtime_checkable
class ErrorRoutingClient(Protocol):
    """What answering errors needs of the client an interaction arrived on (``FeltBot`` is one).

    The tree, views, modals and ``DynamicItem`` callbacks reach the bot only through this, so they
    need not import the bot (which imports them).
    """

    error_router: ErrorRouter
    shutting_down: bool


class ErrorRouter:
    """Decides what a member sees for an error, logs it, and answers the interaction."""

    def __init__(self, *, make_error_id: Callable[[], str] = new_error_id) -> None:
        self._make_error_id = make_error_id
        self._refusals: list[tuple[type[BaseException], RefusalRenderer]] = [(Refusal, str)]

    def register_refusal(
        self, error_type: type[BaseException], render: RefusalRenderer = str
    ) -> None:
        """Show errors of ``error_type`` (e.g. the table host's "not your turn") as refusals.

        ``render`` makes the member's message from the error (default: its ``str``).
        """
        self._refusals.insert(0, (error_type, render))

    def message_for(self, error: BaseException) -> tuple[str, str | None]:
        """What the member sees, and the error id when it is an unexpected error."""
        error = unwrap(error)
        for error_type, render in self._refusals:
            if isinstance(error, error_type):
                return render(error), None
        known = describe_app_command_error(error)
        if known is not None:
            return known, None
        error_id = self._make_error_id()
        return APOLOGY.format(error_id=error_id), error_id

    async def handle(
        self, interaction: Interaction, error: BaseException, *, where: str
    ) -> str | None:
        """Log ``error`` and answer ``interaction``; returns the error id, if one was made."""
        message, error_id = self.message_for(error)
        context = interaction_context(interaction)
        context["where"] = where
        original = unwrap(error)
        if error_id is None:
            _log.debug(
                "refused: %s", message, extra={**context, "refusal": type(original).__name__}
            )
        else:
            context["error_id"] = error_id
            _log.error(
                "unexpected error in %s (error id %s)",
                where,
                error_id,
                exc_info=(type(original), original, original.__traceback__),
                extra=context,
            )
        try:
            await send_ephemeral(interaction, message)
        except discord.DiscordException as failure:
            # The token expired, or the interaction was never acknowledged in time: nothing more
            # can be shown to the member; the log line above is what is left.
            _log.warning(
                "could not tell the member about an error: %s",
                failure,
                extra={
                    **context,
                    "status": getattr(failure, "status", None),
                    "code": getattr(failure, "code", None),
                },
            )
        return error_id


def describe_storage_refusal(error: BaseException) -> str:
    """A storage refusal worded for the member, from its ids and amounts (Discord markup)."""
    match error:
        case InsufficientChips(user_id=None, needed=needed, available=available):
            return f"Not enough chips: there are {available:,}, and this needs {needed:,}."
        case InsufficientChips(user_id=user_id, needed=needed, available=available):
            return f"Not enough chips: <@{user_id}> has {available:,}, and this needs {needed:,}."
        case UnknownAccount(user_id=user_id):
            return f"<@{user_id}> does not have any chips here yet."
        case BalanceLimitExceeded(limit=limit):
            return f"That would take a balance beyond the limit of {limit:,} chips."
        case IdempotencyConflict():
            return "This request was already used for something else; please try the command again."
        case TransfersDisabled():
            return "Chip transfers are turned off in this server."
        case InvalidTransfer():
            return "You cannot send chips to yourself."
        case DailyAlreadyClaimed(next_claim_at=next_claim_at):
            opens = int(next_claim_at.timestamp())
            return f"You already claimed today's chips. The next claim opens <t:{opens}:R>."
        case DailyDisabled():
            return "The daily bonus is turned off in this server."
        case UnknownTable(table_id=table_id):
            return f"Table {table_id} does not exist."
        case TableClosed():
            return "This table is closed."
        case SeatTaken(seat_no=seat_no):
            return f"Seat {seat_no} is taken."
        case AlreadySeated(seat_no=seat_no):
            return f"You are already sitting at this table, in seat {seat_no}."
        case EmptySeat(seat_no=seat_no):
            return f"Nobody is sitting in seat {seat_no}."
        case SeatInHand(seat_no=seat_no, hand_id=hand_id):
            return f"Seat {seat_no} is playing hand #{hand_id}; chips can move once it is over."
        case UnknownHand(hand_id=hand_id):
            return f"There is no hand #{hand_id} at this table."
        case UnknownRound(round_id=round_id):
            return f"Blackjack round {round_id} does not exist."
        case NotInRound(user_id=user_id, round_id=round_id):
            return f"<@{user_id}> has no bet in blackjack round {round_id}."
        case SeasonResetBlocked(seats=seats, rounds=rounds):
            return (
                f"Balances cannot be reset while chips are in play ({seats} occupied seat(s) at "
                f"tables, {rounds} unfinished blackjack round(s)). Close the tables first."
            )
        case UnknownSeason(number=number):
            return f"There is no season {number} in this server."
    # InvalidAmount and InvalidSetting name the value and its range in plain words already.
    return str(error)


def unwrap(error: BaseException) -> BaseException:
    """The error a command or view really raised, out of discord.py's wrappers."""
    while isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    return error


def describe_app_command_error(error: BaseException) -> str | None:
    """The member's message for the errors discord.py raises before a command runs."""
    if isinstance(error, app_commands.TransformerError):
        if isinstance(error.value, discord.User):
            return f"{error.value.display_name} is not a member of this server."
        return f"`{error.value}` is not a valid {_option_type_name(error.type)} here."
    if isinstance(error, app_commands.NoPrivateMessage):
        return "This command only works in a server, not in direct messages."
    if isinstance(error, app_commands.MissingPermissions):
        return f"You need the {_permission_names(error.missing_permissions)} permission for this."
    if isinstance(error, app_commands.BotMissingPermissions):
        return (
            f"I need the {_permission_names(error.missing_permissions)} permission in this "
            "channel; ask an admin to grant it."
        )
    if isinstance(error, (app_commands.MissingRole, app_commands.MissingAnyRole)):
        return "You do not have the role this command needs."
    if isinstance(error, app_commands.CommandOnCooldown):
        return f"Slow down: you can use this again in {error.retry_after:.0f} s."
    if isinstance(error, (app_commands.CommandNotFound, app_commands.CommandSignatureMismatch)):
        _log.warning("a member used an out-of-date command: %s", error)
        return OUT_OF_DATE
    if isinstance(error, app_commands.CheckFailure):
        return "You cannot use this command here."
    return None


def _option_type_name(option_type: discord.AppCommandOptionType) -> str:
    return {
        discord.AppCommandOptionType.user: "member",
        discord.AppCommandOptionType.channel: "channel",
        discord.AppCommandOptionType.role: "role",
        discord.AppCommandOptionType.mentionable: "member or role",
        discord.AppCommandOptionType.integer: "whole number",
        discord.AppCommandOptionType.number: "number",
        discord.AppCommandOptionType.attachment: "file",
    }.get(option_type, "value")


def _permission_names(names: list[str]) -> str:
    return " and ".join(name.replace("_", " ").replace("guild", "server").title() for name in names)


def interaction_context(interaction: Interaction) -> dict[str, Any]:
    """The interaction's identifying facts, as structured log fields."""
    context: dict[str, Any] = {
        "interaction_id": interaction.id,
        "interaction_type": interaction.type.name,
        "user_id": interaction.user.id if interaction.user else None,
        "guild_id": interaction.guild_id,
        "channel_id": interaction.channel_id,
    }
    command = interaction.command
    if command is not None:
        context["command"] = command.qualified_name
        namespace = getattr(interaction, "namespace", None)
        if namespace is not None:
            context["options"] = {key: str(value) for key, value in namespace}
    data: Mapping[str, Any] = interaction.data or {}
    custom_id = data.get("custom_id")
    if custom_id is not None:
        context["custom_id"] = custom_id
    return context
