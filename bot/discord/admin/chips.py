"""``/felt-admin grant``, ``take`` and ``set-balance``: mint, burn or set a member's chips.

The three share one body (:func:`_move`); what differs is the storage operation and
the wording, kept side by side in :data:`_MOVES`. Setting a balance asks for confirmation first.
"""

from __future__ import annotations

import enum
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot.discord.admin.base import AdminCommands, refuse_bot, tell
from bot.discord.chips import checked_amount, chips, signed
from bot.discord.client import FeltBot
from bot.discord.permissions import guild_member
from storage import MAX_CHIPS, BalanceChange, Storage

NOTIFY = "Tell the member by DM (default: yes)"


class WalletMove(enum.Enum):
    """What an admin does to a member's wallet."""

    GRANT = "grant"
    TAKE = "take"
    SET = "set"

    def operation(self, storage: Storage) -> Callable[..., Awaitable[BalanceChange]]:
        """The storage method that makes this move."""
        match self:
            case WalletMove.GRANT:
                return storage.admin_grant
            case WalletMove.TAKE:
                return storage.admin_take
            case WalletMove.SET:
                return storage.admin_set


@dataclass(frozen=True, slots=True)
class _Wording:
    """What the member is told (DM) and what the admin reads, as ``str.format`` templates."""

    dm: str
    reply: str


# Fields: guild, amount, balance, delta (chips, formatted), member (a mention), note.
_MOVES = {
    WalletMove.GRANT: _Wording(
        "An admin of **{guild}** gave you {amount}. You now have {balance}.",
        "Granted {amount} to {member}: they now have {balance}.{note}",
    ),
    WalletMove.TAKE: _Wording(
        "An admin of **{guild}** took {amount} from you. You now have {balance}.",
        "Took {amount} from {member}: they now have {balance}.{note}",
    ),
    WalletMove.SET: _Wording(
        "An admin of **{guild}** set your balance to {balance}.",
        "Done: {member} now has {balance} ({delta}).{note}",
    ),
}


def _mint_or_burn_command(
    move: WalletMove, description: str, *, member: str, amount: str
) -> app_commands.Command[AdminCommands, ..., None]:
    """``grant`` or ``take``: the same options and one body; only the words differ."""

    async def command(
        cog: AdminCommands,
        interaction: discord.Interaction[FeltBot],
        member: discord.Member,
        amount: app_commands.Range[int, 1, MAX_CHIPS],
        notify: bool = True,
    ) -> None:
        guild_member(interaction)
        refuse_bot(member)
        amount = checked_amount(amount)
        answer = await _move(cog.storage, interaction, member, amount, notify, move)
        await interaction.followup.send(answer, ephemeral=True)

    # discord.py tells a cog's method (whose first parameter is the cog) from a plain function by
    # its qualified name; this one is made here, then bound to the cog like a method.
    command.__qualname__ = f"ChipCommands.{move.value}"
    described = app_commands.describe(member=member, amount=amount, notify=NOTIFY)(command)
    return app_commands.command(name=move.value, description=description)(described)


class ChipCommands(AdminCommands):
    """Grant, take and set chips."""

    grant = _mint_or_burn_command(
        WalletMove.GRANT,
        "Give a member new chips (minted).",
        member="Who gets the chips",
        amount="How many chips",
    )
    take = _mint_or_burn_command(
        WalletMove.TAKE,
        "Take chips away from a member (burned).",
        member="Whose chips",
        amount="How many chips (at most what their wallet holds)",
    )

    @app_commands.command(name="set-balance", description="Set a member's wallet (asks first).")
    @app_commands.describe(
        member="Whose wallet", balance="The new balance, in chips", notify=NOTIFY
    )
    async def set_balance(
        self,
        interaction: discord.Interaction[FeltBot],
        member: discord.Member,
        balance: app_commands.Range[int, 0, MAX_CHIPS],
        notify: bool = True,
    ) -> None:
        admin = guild_member(interaction)
        refuse_bot(member)
        balance = checked_amount(balance, what="balance", allow_zero=True)
        account = await self.storage.get_account(admin.guild.id, member.id)
        now = (
            f"It is {chips(account.balance)} now."
            if account is not None
            else "They have no account yet: it opens with the starting chips, then is set."
        )

        async def apply(click: discord.Interaction[Any]) -> str:
            return await _move(self.storage, interaction, member, balance, notify, WalletMove.SET)

        await self.bot.confirmations.ask(
            interaction,
            f"Set {member.mention}'s wallet to **{chips(balance)}**? {now}",
            apply,
            confirm_label="Set balance",
        )


async def _move(
    storage: Storage,
    interaction: discord.Interaction[Any],
    member: discord.Member,
    amount: int,
    notify: bool,
    move: WalletMove,
) -> str:
    """Make ``move`` (keyed by the command's interaction), tell the member if asked; the
    admin's answer."""
    admin = guild_member(interaction)
    change = await move.operation(storage)(
        admin.guild.id, member.id, amount, actor_id=admin.id, key=str(interaction.id)
    )
    wording = _MOVES[move]
    fields = {
        "guild": admin.guild.name,
        "amount": chips(amount),
        "balance": chips(change.balance),
        "delta": signed(change.delta),
        "member": member.mention,
    }
    note = await tell(member, notify, wording.dm.format(**fields))
    return wording.reply.format(**fields, note=note)
