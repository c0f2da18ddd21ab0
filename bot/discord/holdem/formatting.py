"""What the Hold'em front writes in Discord: the table message and the posts, from host events.

Pure functions of the host's public snapshots and events (no Discord I/O), so everything here is
built only from face-up cards. The one exception is ``hole_cards_text``, which the presenter
uses for a member's DM and ephemeral replies only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import discord

from bot.discord.holdem.home_table import home_buttons, run_boards_lines, run_question
from bot.discord.holdem.ids import ActionRef, Move, action_id, cards_id
from bot.discord.posts import (
    TITLE_LIMIT,
    Post,
)
from bot.discord.table_components import ButtonSpec
from bot.discord.table_look import TablePayload
from bot.holdem.events import (
    HandCancelled,
    HandFinished,
    HandsTabled,
    HoldemTableClosed,
    PlayerJoined,
    PlayerLeft,
    PlayerReturned,
    PlayerSatOut,
    StreetDealt,
    TableLifecycle,
    TableSnapshot,
)
from bot.holdem.home_options import option_summary
from bot.holdem.settings import HoldemSettings
from bot.holdem.view import table_view
from bot.render.cards import card_label
from bot.render.models import HoldemTableView
from bot.render.text import EMBED_DESCRIPTION_LIMIT, holdem_table_text
from engine.cards import Card

IMAGE_NAME = "holdem-table.png"
CARDS_IMAGE_NAME = "my-cards.png"
LOG_LINES = 10
RESULT_LIMIT = 1200
"""The longest result text on a table message (the table and this hand's log come first)."""

STREET_COLOUR = 0x3B5BA5
RESULT_COLOUR = 0xD4A017
ALL_IN_COLOUR = 0xC0392B

MY_CARDS = "My cards"


def escape(text: str) -> str:
    """A name or line safe in Discord markdown (mentions are never allowed to ping anyway)."""
    return discord.utils.escape_markdown(text)


def cards_text(cards: Iterable[Card]) -> str:
    """``A♠ 10♥``: cards for people to read."""
    return " ".join(card_label(card) for card in cards)


def hole_cards_text(cards: Sequence[Card]) -> str:
    """PRIVATE: a member's own hole cards, for their DM or an ephemeral reply only."""
    return cards_text(cards)


def pot_name(index: int, count: int) -> str:
    if count == 1:
        return "Pot"
    return "Main pot" if index == 0 else f"Side pot {index}"


# ----- the table message ----------------------------------------------------------------------


def table_payload(
    snapshot: TableSnapshot,
    log: Sequence[str] = (),
    *,
    live: bool = True,
    results: Sequence[HandResult] = (),
    notices: Sequence[str] = (),
) -> TablePayload[HoldemTableView]:
    """The table message for ``snapshot``: the table, this hand's ``log`` (markdown lines:
    moves, streets, hands tabled), the table's latest ``notices`` (markdown lines) and the
    ``results`` of the hands before (oldest first); ``live=False`` (an old table message) drops
    the buttons and the turn line."""
    view = table_view(snapshot)
    text = holdem_table_text(view)
    if snapshot.run_boards:
        text += "\n" + "\n".join(run_boards_lines(snapshot))
    story = results_text(results)
    sections = []
    if log:
        sections.append("\n\n**This hand**\n" + "\n".join(log[-LOG_LINES:]))
    if notices:
        sections.append("\n\n**At the table**\n" + "\n".join(notices))
    for extra in sections:
        if len(text) + len(extra) + len(story) + 2 <= EMBED_DESCRIPTION_LIMIT:
            text += extra
    if story and len(text) + len(story) + 2 <= EMBED_DESCRIPTION_LIMIT:
        text += "\n\n" + story
    hand = f"Hand #{snapshot.hand_id}" if snapshot.hand_id else "Between hands"
    alt = f"Hold'em table {snapshot.name}: {hand}, {view.street.label}"
    footer = f"Table {snapshot.table_id} · blinds {snapshot.small_blind:,}/{snapshot.big_blind:,}"
    if snapshot.options:
        footer += f" · {snapshot.options}"
    if snapshot.rail:
        footer += " · Rail: " + ", ".join(snapshot.rail)
    return TablePayload(
        image_name=IMAGE_NAME,
        content=turn_line(snapshot) if live else "",
        title=escape(snapshot.name)[:TITLE_LIMIT],
        description=text,
        footer=footer,
        view=view,
        buttons=tuple(table_buttons(snapshot) + home_buttons(snapshot)) if live else (),
        alt_text=alt[:1024],
        news=results[-1].title if results else "",
    )


def opened_line(opener: str, settings: HoldemSettings) -> str:
    """The channel's announcement of a new table and how it plays."""
    bots = ", no bots"
    options = option_summary(settings)
    home = f"; {escape(options)}" if options else ""
    if settings.bots:
        bots = f", up to {settings.bots} bot{'s' if settings.bots > 1 else ''}"
    return (
        f"**{escape(opener)}** opened a Hold'em table here: blinds "
        f"{settings.small_blind:,}/{settings.big_blind:,}, buy-in {settings.min_buy_in:,} to "
        f"{settings.max_buy_in:,}, {settings.seats} seats{bots}, {settings.turn_seconds} s to "
        f"act{home}. Sit down with `/holdem join`."
    )


def turn_line(snapshot: TableSnapshot) -> str:
    """Whose turn it is, with a live countdown; or what the table is waiting for."""
    if snapshot.status is TableLifecycle.CLOSED:
        return "This table is closed."
    question = run_question(snapshot)
    if question is not None:
        return question
    seat = snapshot.seat(snapshot.to_act_seat) if snapshot.to_act_seat is not None else None
    if seat is not None and snapshot.legal is not None:
        if seat.is_bot or seat.user_id is None:
            return f"{escape(seat.name)} is thinking…"
        legal = snapshot.legal
        if legal.can_check:
            owed = "check"
        else:
            owed = f"call {legal.call_amount or 0:,}"
        if legal.min_raise_to is not None:
            owed += f", {'bet' if legal.is_bet else 'raise to'} {legal.min_raise_to:,}+"
        line = f"▶ <@{seat.user_id}> to act ({owed})"
        if snapshot.deadline is not None:
            clock = "time bank runs out" if snapshot.time_bank else "times out"
            line += f" · {clock} <t:{int(snapshot.deadline)}:R>"
        return line
    if snapshot.status is TableLifecycle.STOPPING:
        return "This table closes after this hand."
    if snapshot.hand_id is not None:
        return f"Hand #{snapshot.hand_id} is over. The next hand starts in a moment."
    if snapshot.next_hand_at is not None:
        return f"Next hand in a moment (<t:{int(snapshot.next_hand_at)}:R>)."
    return "Waiting for players: `/holdem join` to sit down."


def raise_choices(snapshot: TableSnapshot) -> list[tuple[str, int]]:
    """The quick raise buttons: (label, raise-to amount), smallest first, no duplicates."""
    legal = snapshot.legal
    if legal is None or legal.min_raise_to is None or legal.max_raise_to is None:
        return []
    low, high = legal.min_raise_to, legal.max_raise_to
    call = legal.call_amount or 0
    facing = legal.bet_so_far + call
    pot_after_call = snapshot.total_pot + call
    choices = [("Min", low)]
    for label, share in (("½ pot", 0.5), ("Pot", 1.0)):
        amount = facing + round(pot_after_call * share)
        if low < amount < high:
            choices.append((label, amount))
    if high > low:
        choices.append(("All-in", high))
    elif choices[0][1] == high:
        choices[0] = ("All-in", high)
    seen: set[int] = set()
    unique = []
    for label, amount in choices:
        if amount not in seen:
            seen.add(amount)
            unique.append((f"{label} {amount:,}", amount))
    return unique


def table_buttons(snapshot: TableSnapshot) -> list[ButtonSpec]:
    """Fold / Check or Call / Raise… / My cards, then the quick raises; only while a member is
    to act (My cards alone while a bot thinks; nothing between hands)."""
    if snapshot.hand_id is None or snapshot.legal is None or snapshot.to_act_seat is None:
        return []
    if snapshot.status is TableLifecycle.CLOSED:
        return []
    my_cards = ButtonSpec(cards_id(snapshot.table_id), MY_CARDS, discord.ButtonStyle.secondary, 0)
    seat = snapshot.seat(snapshot.to_act_seat)
    if seat is None or seat.is_bot:
        return [my_cards]
    legal = snapshot.legal
    ref = ActionRef(snapshot.table_id, snapshot.hand_id, snapshot.action_count)
    buttons: list[ButtonSpec] = []
    if legal.can_fold:
        buttons.append(ButtonSpec(action_id(ref, Move.FOLD), "Fold", discord.ButtonStyle.danger, 0))
    if legal.can_check:
        buttons.append(
            ButtonSpec(action_id(ref, Move.CHECK), "Check", discord.ButtonStyle.success, 0)
        )
    elif legal.call_amount is not None:
        label = f"Call {legal.call_amount:,}"
        if legal.max_raise_to is None and seat.stack <= legal.call_amount:
            label += " (all-in)"
        buttons.append(ButtonSpec(action_id(ref, Move.CALL), label, discord.ButtonStyle.success, 0))
    if legal.min_raise_to is not None:
        label = "Bet…" if legal.is_bet else "Raise…"
        buttons.append(
            ButtonSpec(action_id(ref, Move.RAISE), label, discord.ButtonStyle.primary, 0)
        )
    buttons.append(my_cards)
    for label, amount in raise_choices(snapshot):
        buttons.append(
            ButtonSpec(
                action_id(ref, Move.RAISE_TO, amount), label, discord.ButtonStyle.secondary, 1
            )
        )
    return buttons


# ----- the hand's story on the table message ---------------------------------------------------
# Streets, all-in run-outs and results are lines of the one table message (not posts of their
# own): a hand then costs a few edits, not a message per street (issue 21, 1,000 tables).


@dataclass(frozen=True, slots=True)
class HandResult:
    """A finished hand as the table message tells it: in full while it is the last hand, and
    in one line while a newer one is."""

    hand_id: int
    text: str
    summary: str

    @property
    def title(self) -> str:
        return f"Hand #{self.hand_id} · Result"


def action_line(text: str) -> str:
    """A player's move as a line of the hand's log (markdown-safe)."""
    return escape(text)


def street_line(event: StreetDealt) -> str:
    """The log's line for a street dealt: the board (the new cards bold) and the pot."""
    new = len(event.cards)
    old, fresh = event.board[:-new], event.board[-new:]
    board = " ".join([cards_text(old), f"**{cards_text(fresh)}**"]).strip()
    return f"__{event.street.label}__ {board} · pot {event.pot:,}"


def tabled_lines(event: HandsTabled) -> list[str]:
    """The log's lines for hands turned face up before an all-in run-out, with win chances."""
    chances = dict(event.equities)
    order = sorted(event.hands, key=lambda shown: -chances.get(shown.seat_no, 0.0))
    lines = ["__All in__"]
    for shown in order:
        line = f"**{escape(shown.name)}** {cards_text(shown.cards)}"
        if shown.seat_no in chances:
            line += f" — {chances[shown.seat_no] * 100:.1f}%"
        lines.append(line)
    return lines


def hand_result(event: HandFinished) -> HandResult:
    """What the table message says of a finished hand: shown cards, each pot's winners, the
    chips won and lost."""
    lines = []
    if event.board and not event.snapshot.run_boards:
        lines.append(f"Board: {cards_text(event.board)}")
    shown_by_seat: dict[int, str] = {}
    for shown in event.shown:
        # Hands shown before an all-in run-out have no description yet; the final snapshot
        # describes them on the full board.
        seat = event.snapshot.seat(shown.seat_no)
        description = shown.description or (seat.description if seat is not None else "")
        shown_by_seat[shown.seat_no] = description
        line = f"**{escape(shown.name)}** shows {cards_text(shown.cards)}"
        if description:
            line += f" — {escape(description)}"
        lines.append(line)
    for index, board in enumerate(event.snapshot.run_boards, 1):
        lines.append(f"Board {index}: {cards_text(board)}")
    pot_lines = _pot_lines(event, shown_by_seat)
    lines += pot_lines
    changes = [(name, delta) for _seat, name, delta in event.net if delta]
    if changes:
        lines.append(" · ".join(f"{escape(name)} {delta:+,}" for name, delta in changes))
    return HandResult(event.hand_id, _cap("\n".join(lines), RESULT_LIMIT), " · ".join(pot_lines))


def _pot_lines(event: HandFinished, shown_by_seat: dict[int, str]) -> list[str]:
    lines = []
    boards = 1 + max((pot.board for pot in event.pots), default=0)
    pot_count = len({pot.pot_index for pot in event.pots})
    for pot in event.pots:
        winners = [(name, amount) for _seat, name, amount in pot.winners]
        who = ", ".join(f"**{escape(name)}** {amount:,}" for name, amount in winners)
        verb = "split" if len(winners) > 1 else "won by"
        line = f"{pot_name(pot.pot_index, pot_count)} {pot.amount:,} {verb} {who}"
        if boards > 1:
            line = f"{line} on board {pot.board + 1}"
        # The engine leaves the description empty when one hand was left live, which is also
        # the case when the others mucked at showdown: then the winner's shown hand says it.
        winning = pot.description or next(
            (shown_by_seat[seat] for seat, _name, _amount in pot.winners if seat in shown_by_seat),
            "",
        )
        line += f" ({escape(winning)})" if winning else " (everyone else folded)"
        lines.append(line)
    return lines


def results_text(results: Sequence[HandResult]) -> str:
    """The table message's section on the hands before this one: the last in full, the ones
    before it in a line each (newest first)."""
    if not results:
        return ""
    *older, last = results
    lines = [f"**{last.title}**", last.text]
    lines += [f"Hand #{result.hand_id}: {result.summary}" for result in reversed(older)]
    return "\n".join(lines)


# ----- posts ----------------------------------------------------------------------------------


def voided_post(event: HandCancelled) -> Post:
    return Post(
        description=f"Hand #{event.hand_id} was cancelled ({escape(event.reason)}): every stack "
        "is back to what it was when the hand started.",
        colour=ALL_IN_COLOUR,
    )


def joined_line(event: PlayerJoined) -> str:
    who = escape(event.name) + (" (bot)" if event.user_id is None else "")
    return f"{who} sits down in seat {event.seat_no} with {event.buy_in:,} chips."


def left_line(event: PlayerLeft) -> str:
    where = "to the house" if event.user_id is None else "to the wallet"
    return (
        f"{escape(event.name)} leaves seat {event.seat_no} ({escape(event.reason)}): "
        f"{event.cashed_out:,} chips back {where}."
    )


def sat_out_line(event: PlayerSatOut) -> str:
    return f"{escape(event.name)} is away, sitting out ({escape(event.reason)})."


def returned_line(event: PlayerReturned) -> str:
    return f"{escape(event.name)} is back in the game."


def closed_post(event: HoldemTableClosed) -> Post:
    lines = [f"The table is closed ({escape(event.reason)})."]
    members = [(name, amount) for name, user_id, amount in event.cash_outs if user_id is not None]
    house = sum(amount for _name, user_id, amount in event.cash_outs if user_id is None)
    if members:
        lines.append(
            "Cashed out: " + " · ".join(f"{escape(name)} {amount:,}" for name, amount in members)
        )
    if house:
        lines.append(f"The bots return {house:,} chips to the house.")
    return Post(description="\n".join(lines), colour=ALL_IN_COLOUR)


def dm_closed_post(user_id: int) -> Post:
    return Post(
        content=(
            f"<@{user_id}> I cannot send you direct messages, so your cards are not in your DMs: "
            f"press **{MY_CARDS}** on the table message (or use `/holdem cards`) to see them "
            "privately."
        ),
        mentions=(user_id,),
    )


def _cap(text: str, limit: int = EMBED_DESCRIPTION_LIMIT) -> str:
    if len(text) <= limit:
        return text
    return text[: limit - 1] + "…"
