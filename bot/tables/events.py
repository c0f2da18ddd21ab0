"""What either table host may tell its front besides its game's own events."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Notice:
    """Something worth saying in the channel that fits no other event."""

    text: str
