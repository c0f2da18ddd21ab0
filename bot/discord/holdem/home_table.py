"""The home-game options on the table message: the run-count and after-hand buttons, the
question line while the players all in choose a run count, and each run's board."""

from __future__ import annotations

import discord

from bot.discord.holdem import ids
from bot.discord.table_components import ButtonSpec
from bot.holdem.events import TableSnapshot
from bot.holdem.home_runs import RUN_WORDS
from bot.render.cards import card_label
from engine.cards import Card


def _cards(cards: tuple[Card, ...]) -> str:
    return " ".join(card_label(card) for card in cards)


RUN_LABELS = {1: "Run once", 2: "Run twice", 3: "Run 3 times", 4: "Run 4 times"}


def home_buttons(snapshot: TableSnapshot) -> list[ButtonSpec]:
    """The run-count answers while they are asked, or the after-hand buttons between hands."""
    ask = snapshot.run_count_ask
    if ask is not None:
        return [
            ButtonSpec(
                ids.runs_id(snapshot.table_id, ask.hand_id, count),
                RUN_LABELS[count],
                discord.ButtonStyle.primary if count > 1 else discord.ButtonStyle.secondary,
                0,
            )
            for count in range(1, ask.max_runs + 1)
        ]
    offer = snapshot.after_hand
    if offer is None:
        return []
    buttons = []
    if offer.can_rabbit_hunt:
        what = ids.AfterHand.RABBIT_HUNT
        buttons.append(
            ButtonSpec(
                ids.after_id(snapshot.table_id, offer.hand_id, what),
                "Rabbit hunt",
                discord.ButtonStyle.secondary,
                0,
            )
        )
    if offer.can_show:
        for what, label in (
            (ids.AfterHand.SHOW_FIRST, "Show 1st card"),
            (ids.AfterHand.SHOW_SECOND, "Show 2nd card"),
            (ids.AfterHand.SHOW_BOTH, "Show both"),
        ):
            buttons.append(
                ButtonSpec(
                    ids.after_id(snapshot.table_id, offer.hand_id, what),
                    label,
                    discord.ButtonStyle.secondary,
                    0,
                )
            )
    return buttons


def run_question(snapshot: TableSnapshot) -> str | None:
    """The table message's line while the players all in are asked to run it more than once."""
    ask = snapshot.run_count_ask
    if ask is None:
        return None
    who = ", ".join(f"<@{user}>" for user in ask.user_ids) or "the players all in"
    most = RUN_WORDS.get(ask.max_runs, f"{ask.max_runs} times")
    return (
        f"▶ {who}: run the board up to {most}? All must agree; no answer means once "
        f"· <t:{int(ask.deadline)}:R>"
    )


def run_boards_lines(snapshot: TableSnapshot) -> list[str]:
    """Each run's (or board's) cards, when there are several."""
    return [f"Board {index}: {_cards(board)}" for index, board in enumerate(snapshot.run_boards, 1)]
