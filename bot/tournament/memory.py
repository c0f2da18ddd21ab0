"""What a tournament's director keeps beside the engine's snapshot, and how players are named
in the engine: ``u<user id>`` for members, ``b<name>`` for bots."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


def player_key(user_id: int | None, bot_name: str | None) -> str:
    """The engine's name for a member or a bot."""
    return f"u{user_id}" if user_id is not None else f"b{bot_name}"


def user_of(player: str) -> int | None:
    """The member behind an engine name (None for a bot)."""
    return int(player[1:]) if player.startswith("u") else None


@dataclass(slots=True)
class Memory:
    """What the director keeps beside the engine's own snapshot."""

    names: dict[str, str]
    """Display names by engine player."""
    hands: dict[int, int] = field(default_factory=dict)
    """The last hand number played at each table."""
    homes: dict[int, tuple[int, int]] = field(default_factory=dict)
    """Each table's (table id, channel id) in the front."""
    away: set[str] = field(default_factory=set)
    """Players sitting out (they move with it)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "names": self.names,
            "hands": {str(n): hand for n, hand in self.hands.items()},
            "homes": {str(n): list(home) for n, home in self.homes.items()},
            "away": sorted(self.away),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Memory:
        return cls(
            dict(data["names"]),
            {int(n): hand for n, hand in data["hands"].items()},
            {int(n): (home[0], home[1]) for n, home in data["homes"].items()},
            set(data["away"]),
        )
