"""What happened in a hand. Events are past-tense values; ``HoleCardsDealt`` is private.

Players are numbered in PHH order: 0 is the first seat left of the button, the last is the button.
The events every hand makes are built with ``quick_init`` (see ``engine.values``).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card
from engine.holdem.actions import ActionKind
from engine.holdem.streets import Street
from engine.values import quick_init


@dataclass(frozen=True, slots=True)
class AntePosted:
    """A player posted an ante (possibly all-in for less)."""

    player: int
    amount: int


@quick_init
@dataclass(frozen=True, slots=True)
class BlindPosted:
    """A player posted a blind or straddle (possibly all-in for less)."""

    player: int
    amount: int


@quick_init
@dataclass(frozen=True, slots=True)
class HoleCardsDealt:
    """A player received hole cards. Private to that player until they are shown."""

    player: int
    cards: tuple[Card, ...]

    @property
    def private_to(self) -> int:
        """The only player who may see this event."""
        return self.player


@quick_init
@dataclass(frozen=True, slots=True)
class PlayerActed:
    """A player folded, checked, called, bet or raised.

    ``added`` is how many chips went in with this action, ``bet_to`` the player's bet on the
    street afterwards, ``all_in`` whether the player has no chips left.
    """

    player: int
    kind: ActionKind
    added: int
    bet_to: int
    all_in: bool


@quick_init
@dataclass(frozen=True, slots=True)
class BetReturned:
    """The uncalled part of a bet went back to the player."""

    player: int
    amount: int


@quick_init
@dataclass(frozen=True, slots=True)
class BoardDealt:
    """Community cards were dealt on ``street`` (the flop, turn or river).

    ``board`` says which board they went to: 0 normally; with a double board, 0 or 1; when the
    board is run several times, the run (0 for the first). A run starts with the cards every run
    shares (the streets dealt before everyone was all in), so only its own streets are dealt.
    """

    street: Street
    cards: tuple[Card, ...]
    board: int = 0


@quick_init
@dataclass(frozen=True, slots=True)
class CardsShown:
    """A player showed their hole cards at showdown."""

    player: int
    cards: tuple[Card, ...]
    description: str


@quick_init
@dataclass(frozen=True, slots=True)
class CardsMucked:
    """A player threw their hand away at showdown without showing it."""

    player: int


@quick_init
@dataclass(frozen=True, slots=True)
class PotAwarded:
    """A pot (0 = main, then side pots) was won.

    ``shares`` pairs each winner with the chips they got (the odd chip goes to the first winner
    left of the button). ``description`` names the winning hand, or is empty when everyone else
    folded (a hand that won because the others mucked at showdown is described).
    """

    pot: int
    amount: int
    eligible: tuple[int, ...]
    shares: tuple[tuple[int, int], ...]
    description: str
    board: int = 0
    """With several boards or runs each pot is split between them (the odd chip to board 0)
    and each part is awarded on its own board: one event per pot and board."""


@quick_init
@dataclass(frozen=True, slots=True)
class HandEnded:
    """The hand is over: the final stacks, and each player's net result."""

    stacks: tuple[int, ...]
    net: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RunCountChosen:
    """A player all in before the river chose how many times to run the board (1 = once)."""

    player: int
    count: int


@dataclass(frozen=True, slots=True)
class RunCountSettled:
    """Everyone asked has chosen: the board runs ``count`` times (1 unless all chose alike)."""

    count: int


@dataclass(frozen=True, slots=True)
class HoleCardsRevealed:
    """After the hand, a player showed hole cards nobody had seen (one or both)."""

    player: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class RabbitHunted:
    """After a hand that ended early, ``player`` asked to see the cards that would have come
    on ``board``. Only a look: nothing about the result changes."""

    player: int
    cards: tuple[Card, ...]
    board: int = 0


@dataclass(frozen=True, slots=True)
class BountyPaid:
    """The 7-2 game: ``payer`` owes ``winner``, who won a pot with 7-2 offsuit and showed it.

    Paid from the chips the payer has in play after the pots (``Hand.stacks``), capped at what is
    there; ``Hand.stacks_after_bounties`` applies these events. The table moves the chips.
    """

    payer: int
    winner: int
    amount: int


Event = (
    AntePosted
    | BlindPosted
    | HoleCardsDealt
    | PlayerActed
    | BetReturned
    | BoardDealt
    | CardsShown
    | CardsMucked
    | PotAwarded
    | HandEnded
    | RunCountChosen
    | RunCountSettled
    | HoleCardsRevealed
    | RabbitHunted
    | BountyPaid
)
