"""Which guilds one process of a sharded deployment owns: those on its Discord shards.

Discord puts a guild on shard ``(guild_id >> 22) % shard_count``. Several processes share one
PostgreSQL database, each running some of the shards; a process recovers and restores only the
tables and rounds of its own guilds, so it never voids a hand another process is playing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from storage.errors import InvalidArgument


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord delivers a guild's events on."""
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True, slots=True)
class Shards:
    """A process's shards: ``ids`` out of ``count`` in the whole deployment."""

    ids: frozenset[int]
    count: int

    def __post_init__(self) -> None:
        if isinstance(self.count, bool) or not isinstance(self.count, int) or self.count < 1:
            raise InvalidArgument(
                f"A shard count must be a positive whole number, not {self.count!r}."
            )
        if not self.ids or any(
            isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < self.count
            for i in self.ids
        ):
            raise InvalidArgument(
                f"Shard ids must be between 0 and {self.count - 1}, not {sorted(self.ids)!r}."
            )

    @classmethod
    def of(cls, ids: Iterable[int], count: int) -> Shards:
        return cls(frozenset(ids), count)

    def owns(self, guild_id: int) -> bool:
        """Whether this process runs the shard of ``guild_id``."""
        return shard_of(guild_id, self.count) in self.ids
