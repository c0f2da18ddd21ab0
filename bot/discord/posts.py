"""Channel posts: a new message's embed and content, and merging a burst into one message.

Both games' presenters queue ``Post``s; those waiting together go out as one message within
Discord's limits (content 2,000 characters, 10 embeds and 6,000 characters of embeds).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import discord

from bot.render.text import EMBED_DESCRIPTION_LIMIT

CONTENT_LIMIT = 2000
EMBEDS_PER_MESSAGE = 10
EMBED_TOTAL_LIMIT = 6000
TITLE_LIMIT = 256
NOTICE_COLOUR = 0x6B7280


@dataclass(frozen=True, slots=True)
class Post:
    """A new message in the channel (one embed, maybe a content line with mentions).

    Posts waiting together are merged into one message, within Discord's limits.
    """

    title: str = ""
    description: str = ""
    colour: int = NOTICE_COLOUR
    content: str = ""
    mentions: tuple[int, ...] = field(default=())

    @property
    def size(self) -> int:
        return len(self.title) + len(self.description)

    def embed(self) -> discord.Embed:
        return discord.Embed(
            title=self.title or None, description=self.description or None, colour=self.colour
        )


def merge_posts(posts: Sequence[Post]) -> tuple[str, list[discord.Embed], int]:
    """Content and embeds for as many of ``posts`` as fit in one message; and how many fit.

    Title-less posts of one colour that follow each other (short notices) share one embed.
    """
    contents: list[str] = []
    blocks: list[Post] = []
    total = 0
    used = 0
    for post in posts:
        wanted = [*contents, post.content] if post.content else contents
        if used and len("\n".join(wanted)) > CONTENT_LIMIT:
            break
        last = blocks[-1] if blocks else None
        if (
            last is not None
            and post.description
            and not post.title
            and not last.title
            and last.colour == post.colour
        ):
            joined = f"{last.description}\n{post.description}"
            if len(joined) <= EMBED_DESCRIPTION_LIMIT and total + post.size < EMBED_TOTAL_LIMIT:
                blocks[-1] = Post(description=joined, colour=post.colour)
                total += post.size + 1
                contents = wanted
                used += 1
                continue
        has_embed = bool(post.title or post.description)
        if (
            used
            and has_embed
            and (len(blocks) >= EMBEDS_PER_MESSAGE or total + post.size > EMBED_TOTAL_LIMIT)
        ):
            break
        if has_embed:
            blocks.append(post)
            total += post.size
        contents = wanted
        used += 1
    text = "\n".join(contents)[:CONTENT_LIMIT]
    return text, [block.embed() for block in blocks], used
