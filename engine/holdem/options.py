"""Home-game options: what one hand plays with (``HandOptions``) and a table's standing choices
(``HomeGameOptions``) that decide, hand by hand, the stakes and the hand options."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from engine.holdem.errors import InvalidSetupError
from engine.holdem.stakes import Stakes

MAX_RUN_COUNT = 4
"""The most times a board may be run: enough for "run it three times" with room to spare, and
few enough that the deck always holds the cards (a run needs at most 8)."""

MAX_BOARDS = 2
"""A single board, or a double board."""


@dataclass(frozen=True, slots=True)
class HandOptions:
    """Rules of one hand beyond the stakes. The defaults play plain No-Limit Hold'em.

    ``max_run_count``: above 1, players all in before the river choose 1..this many runs.
    ``bomb_pot``: no preflop betting; the hand starts on the flop (stakes from
    ``Stakes.bomb_pot``). ``boards``: 2 deals two boards, each pot split between them.
    ``seven_deuce_bounty``: above 0, a pot won with 7-2 offsuit, shown, collects this much from
    every other player dealt in. ``rabbit_hunt``: after a hand ends before the river, players
    may see the cards that would have come.
    """

    max_run_count: int = 1
    bomb_pot: bool = False
    boards: int = 1
    seven_deuce_bounty: int = 0
    rabbit_hunt: bool = False

    def __post_init__(self) -> None:
        for name in ("max_run_count", "boards", "seven_deuce_bounty"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise InvalidSetupError(f"{name} must be a whole number, not {value!r}")
        if not 1 <= self.max_run_count <= MAX_RUN_COUNT:
            raise InvalidSetupError(f"a board runs 1 to {MAX_RUN_COUNT} times")
        if not 1 <= self.boards <= MAX_BOARDS:
            raise InvalidSetupError(f"a hand has 1 to {MAX_BOARDS} boards")
        if self.boards > 1 and self.max_run_count > 1:
            # PokerKit's mapping of runs onto several boards mixes the boards' cards; nobody
            # expects that at a table, so a double board always runs once.
            raise InvalidSetupError("a double board runs once")
        if self.seven_deuce_bounty < 0:
            raise InvalidSetupError("the 7-2 bounty cannot be negative")


PLAIN = HandOptions()
"""No home-game option."""


class StraddleKind(Enum):
    """Which straddle a table plays."""

    OFF = "off"
    """No straddle."""
    UNDER_THE_GUN = "utg"
    """The player after the big blind may straddle (twice the big blind), and the players after
    them may re-straddle (each twice the last), up to the table's maximum."""
    BUTTON = "button"
    """The button may straddle ("Mississippi"); the small blind then acts first preflop."""


@dataclass(frozen=True, slots=True)
class HomeGameOptions:
    """A table's home-game options, as the host sets them. The table layer asks it, each hand,
    for the stakes (``stakes``) and the hand's options (``hand_options``).

    ``max_straddles`` bounds an under-the-gun straddle and its re-straddles. ``run_it_max``: 1
    is off, 2 allows running it twice (more allows more). ``bomb_pot_every``: every Nth hand is
    a bomb pot (0 = never) with ``bomb_pot_ante`` from everyone and ``bomb_pot_double_board``.
    """

    straddle: StraddleKind = StraddleKind.OFF
    max_straddles: int = 1
    run_it_max: int = 1
    bomb_pot_every: int = 0
    bomb_pot_ante: int = 0
    bomb_pot_double_board: bool = False
    seven_deuce_bounty: int = 0
    rabbit_hunt: bool = False

    def __post_init__(self) -> None:
        if self.straddle is StraddleKind.BUTTON and self.max_straddles != 1:
            raise InvalidSetupError("the button straddles once: no re-straddles after it")
        if self.max_straddles < 1:
            raise InvalidSetupError("at most 1 or more straddles")
        if self.bomb_pot_every < 0:
            raise InvalidSetupError("bomb pots come every N >= 1 hands, or never (0)")
        if self.bomb_pot_every and self.bomb_pot_ante < 1:
            raise InvalidSetupError("a bomb pot needs an ante of at least 1")
        HandOptions(self.run_it_max, seven_deuce_bounty=self.seven_deuce_bounty)

    def is_bomb_pot(self, hand_number: int) -> bool:
        """Whether hand ``hand_number`` (counted from 1) is a bomb pot."""
        return self.bomb_pot_every > 0 and hand_number % self.bomb_pot_every == 0

    def hand_options(self, hand_number: int) -> HandOptions:
        """The options of hand ``hand_number`` (from 1)."""
        bomb = self.is_bomb_pot(hand_number)
        double = bomb and self.bomb_pot_double_board
        return HandOptions(
            max_run_count=1 if double else self.run_it_max,
            bomb_pot=bomb,
            boards=2 if double else 1,
            seven_deuce_bounty=self.seven_deuce_bounty,
            rabbit_hunt=self.rabbit_hunt,
        )

    def stakes(
        self,
        hand_number: int,
        players: int,
        small_blind: int,
        big_blind: int,
        ante: int = 0,
        *,
        straddles: int = 0,
    ) -> Stakes:
        """The forced bets of hand ``hand_number``: a bomb pot's antes, or the blinds with the
        ``straddles`` the players chose to post this hand (0 to the table's maximum)."""
        if self.is_bomb_pot(hand_number):
            return Stakes.bomb_pot(players, self.bomb_pot_ante, big_blind)
        if straddles and self.straddle is StraddleKind.OFF:
            raise InvalidSetupError("this table plays no straddle")
        if straddles > self.max_straddles:
            raise InvalidSetupError(f"this table allows at most {self.max_straddles} straddles")
        if not straddles:
            return Stakes.standard(players, small_blind, big_blind, ante)
        button = self.straddle is StraddleKind.BUTTON
        return Stakes.straddled(
            players, small_blind, big_blind, ante, straddles=straddles, button=button
        )
