"""Member wallets: opening with the starting grant, the daily bonus, admin grants and transfers.

Each function here is the body of one transaction (see ``storage/store.py`` for the async API).
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

from storage.backend import Transaction
from storage.errors import (
    DailyAlreadyClaimed,
    DailyDisabled,
    InvalidTransfer,
    TransfersDisabled,
)
from storage.ledger import Work, parse_time, require_amount
from storage.models import MAX_CHIPS, Account, BalanceChange, DailyClaim, LedgerKind, Transfer


def read_account(tx: Transaction, guild_id: int, user_id: int) -> Account | None:
    """A member's wallet with the chips they have at tables and in rounds, or None."""
    row = tx.one(
        "SELECT a.balance, m.daily_streak, m.last_daily_on, m.joined_at FROM members m "
        "JOIN accounts a ON a.account_id = m.account_id WHERE m.guild_id = ? AND m.user_id = ?",
        (guild_id, user_id),
    )
    if row is None:
        return None
    held: dict[str, int] = {
        str(kind): int(total)
        for kind, total in tx.all(
            "SELECT kind, SUM(balance) FROM accounts WHERE guild_id = ? AND user_id = ? "
            "AND kind IN ('seat', 'bet') GROUP BY kind",
            (guild_id, user_id),
        )
    }
    return Account(
        guild_id=guild_id,
        user_id=user_id,
        balance=int(row[0]),
        at_tables=held.get("seat", 0),
        in_play=held.get("bet", 0),
        daily_streak=int(row[1]),
        last_daily_on=None if row[2] is None else date.fromisoformat(row[2]),
        created_at=parse_time(row[3]),
    )


def open_account(work: Work, guild_id: int, user_id: int) -> Account:
    work.open_member(guild_id, user_id)
    account = read_account(work.tx, guild_id, user_id)
    assert account is not None
    return account


def _midnight_after(day: date) -> datetime:
    return datetime.combine(day + timedelta(days=1), time(0), tzinfo=UTC)


def claim_daily(work: Work, guild_id: int, user_id: int) -> DailyClaim:
    """The daily bonus for the current UTC day, growing with the streak of consecutive days."""
    work.guild_id = guild_id
    work.actor_id = user_id
    member = work.open_member(guild_id, user_id)
    economy = work.economy(guild_id)
    if economy.daily_amount == 0:
        raise DailyDisabled()
    today = work.now.astimezone(UTC).date()
    streak = 1
    if member.last_daily_on is not None:
        last = date.fromisoformat(member.last_daily_on)
        if last >= today:
            # A clock that went backwards is treated like a second claim the same day.
            raise DailyAlreadyClaimed(_midnight_after(last))
        if last == today - timedelta(days=1):
            streak = member.daily_streak + 1
    counted = min(streak, max(economy.daily_streak_max, 1))
    amount = min(economy.daily_amount + economy.daily_streak_bonus * (counted - 1), MAX_CHIPS)
    balance = work.move(guild_id, member.account_id, amount, LedgerKind.DAILY, user_id)
    work.tx.execute(
        "UPDATE members SET daily_streak = ?, last_daily_on = ? WHERE guild_id = ? AND user_id = ?",
        (streak, today.isoformat(), guild_id, user_id),
    )
    return DailyClaim(guild_id, user_id, amount, streak, balance, _midnight_after(today))


def admin_grant(
    work: Work, guild_id: int, user_id: int, amount: int, actor_id: int
) -> BalanceChange:
    """Mint chips into a member's wallet (opening it if needed)."""
    require_amount(amount)
    work.guild_id, work.actor_id = guild_id, actor_id
    member = work.open_member(guild_id, user_id)
    balance = work.move(guild_id, member.account_id, amount, LedgerKind.ADMIN_GRANT, user_id)
    return BalanceChange(guild_id, user_id, amount, balance)


def admin_take(
    work: Work, guild_id: int, user_id: int, amount: int, actor_id: int
) -> BalanceChange:
    """Burn chips from a member's wallet; refused beyond what the wallet holds."""
    require_amount(amount)
    work.guild_id, work.actor_id = guild_id, actor_id
    member = work.member(guild_id, user_id)
    balance = work.move(guild_id, member.account_id, -amount, LedgerKind.ADMIN_TAKE, user_id)
    return BalanceChange(guild_id, user_id, -amount, balance)


def admin_set(
    work: Work, guild_id: int, user_id: int, balance: int, actor_id: int
) -> BalanceChange:
    """Set a wallet to ``balance``, recorded as the grant or take of the difference."""
    require_amount(balance, what="balance", allow_zero=True)
    work.guild_id, work.actor_id = guild_id, actor_id
    member = work.open_member(guild_id, user_id)
    current = work.balance(member.account_id)
    delta = balance - current
    if delta != 0:
        kind = LedgerKind.ADMIN_GRANT if delta > 0 else LedgerKind.ADMIN_TAKE
        work.move(guild_id, member.account_id, delta, kind, user_id)
    return BalanceChange(guild_id, user_id, delta, balance)


def transfer(work: Work, guild_id: int, sender_id: int, recipient_id: int, amount: int) -> Transfer:
    """Send chips from one member's wallet to another's (who must already have an account)."""
    require_amount(amount)
    work.guild_id, work.actor_id = guild_id, sender_id
    if sender_id == recipient_id:
        raise InvalidTransfer(sender_id)
    if not work.economy(guild_id).transfers_enabled:
        raise TransfersDisabled()
    recipient = work.member(guild_id, recipient_id)
    sender = work.open_member(guild_id, sender_id)
    sender_balance, recipient_balance = work.transfer(
        guild_id,
        sender.account_id,
        recipient.account_id,
        amount,
        LedgerKind.TRANSFER,
        user_id=sender_id,
    )
    return Transfer(guild_id, sender_id, recipient_id, amount, sender_balance, recipient_balance)
