"""``Presenter``: where a table host sends its events (a front: Discord, the terminal, a test)."""

from __future__ import annotations

from typing import Protocol, TypeVar

E_contra = TypeVar("E_contra", contravariant=True)


class Presenter(Protocol[E_contra]):
    """Where a table's events go. Must return quickly: queue slow work (Discord requests)."""

    async def publish(self, event: E_contra, /) -> None: ...
