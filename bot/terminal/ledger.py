"""The session ledger printed when a `felt play holdem` session ends: each player's totals and
who pays whom (the same settle-up as Discord's closing post)."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from bot.holdem.ledger import SettleUp


def print_ledger(console: Console, settled: SettleUp) -> None:
    """A table of buy-ins, rebuys, cash-outs, chips at the table and nets; then the transfers."""
    table = Table(title="Session ledger", title_justify="left")
    for column in ("player", "buy-in", "rebuys", "cash-out", "at table", "net"):
        table.add_column(column, justify="left" if column == "player" else "right")
    for player in settled.players:
        table.add_row(
            settled.label(player),
            f"{player.buy_in:,}",
            f"{player.rebuys:,}",
            f"{player.cash_out:,}",
            f"{player.stack:,}",
            f"{player.net:+,}",
        )
    console.print(table)
    if not settled.transfers:
        console.print("Everyone is square: nobody pays anybody.")
    for transfer in settled.transfers:
        console.print(f"{transfer.payer} pays {transfer.payee} {transfer.amount:,}")
