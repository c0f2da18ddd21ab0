"""The channel posts of home-game options: a reveal, a rabbit hunt, a 7-2 bounty."""

from __future__ import annotations

from bot.discord.holdem.formatting import RESULT_COLOUR, STREET_COLOUR, cards_text, escape
from bot.discord.posts import Post
from bot.holdem.home_events import BountyCollected, CardsRevealed, HomeEvent, RabbitHuntDealt


def home_post(event: HomeEvent) -> Post:
    """The channel post of a reveal, a rabbit hunt or a bounty."""
    match event:
        case CardsRevealed():
            return Post(
                description=f"**{escape(event.name)}** shows {cards_text(event.cards)} "
                f"(hand #{event.hand_id})",
                colour=STREET_COLOUR,
            )
        case RabbitHuntDealt():
            boards = " · ".join(cards_text(board) for board in event.boards if board)
            return Post(
                description=f"🐇 {escape(event.name)} rabbit hunts hand #{event.hand_id}: "
                f"{boards} would have come (nothing changes).",
                colour=STREET_COLOUR,
            )
        case BountyCollected():
            paid = ", ".join(f"{escape(name)} {amount:,}" for _s, name, amount in event.payments)
            return Post(
                description=f"**{escape(event.name)}** wins with 7-2 and collects the bounty: "
                f"{event.total:,} chips ({paid}).",
                colour=RESULT_COLOUR,
            )
