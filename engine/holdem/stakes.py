"""The forced bets of a hand: antes, blinds or straddles and the minimum bet, as PHH lists them."""

from __future__ import annotations

from dataclasses import dataclass

from engine.holdem.errors import InvalidSetupError


@dataclass(frozen=True, slots=True)
class Stakes:
    """Forced bets per position, in PHH order: position 0 posts the small blind, 1 the big blind.

    Heads-up the button posts the small blind, so with two players position 0 of these lists is
    paid by player 1 (the button) and position 1 by player 0, exactly as PokerKit does.

    ``ante_trimming`` decides what happens to antes when stacks are short. When true (Felt's
    default for live play, and correct poker) antes are collected like bets: an ante bigger than
    anyone else's is trimmed and the antes join the side-pot layering. When false (PHH's default
    when the field is absent) all antes are dead money in the main pot.
    """

    antes: tuple[int, ...]
    blinds_or_straddles: tuple[int, ...]
    min_bet: int
    ante_trimming: bool = True

    def __post_init__(self) -> None:
        if len(self.antes) != len(self.blinds_or_straddles):
            raise InvalidSetupError("antes and blinds must list the same number of players")
        for value in (*self.antes, *self.blinds_or_straddles, self.min_bet):
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise InvalidSetupError(f"forced bets must be whole numbers >= 0, not {value!r}")
        if self.min_bet < 1:
            raise InvalidSetupError("the minimum bet must be at least 1 chip")

    @classmethod
    def standard(
        cls,
        players: int,
        small_blind: int,
        big_blind: int,
        ante: int = 0,
        *,
        ante_trimming: bool = True,
    ) -> Stakes:
        """The usual structure: small and big blind, an equal ante from everyone."""
        if players < 2:
            raise InvalidSetupError("a hand needs at least two players")
        if not 0 <= small_blind <= big_blind or big_blind < 1:
            raise InvalidSetupError("blinds must satisfy 0 <= small blind <= big blind, big >= 1")
        blinds = (small_blind, big_blind) + (0,) * (players - 2)
        return cls((ante,) * players, blinds, big_blind, ante_trimming)

    @property
    def players(self) -> int:
        """How many players these stakes are laid out for."""
        return len(self.antes)

    @property
    def big_blind(self) -> int:
        """The largest blind or straddle (the big blind in a standard game)."""
        return max(self.blinds_or_straddles, default=0)

    def ante_of(self, player: int) -> int:
        """The nominal ante player ``player`` (PHH index) owes."""
        return self.antes[_position(player, self.players)]

    def blind_of(self, player: int) -> int:
        """The nominal blind or straddle player ``player`` (PHH index) owes."""
        return self.blinds_or_straddles[_position(player, self.players)]


def _position(player: int, players: int) -> int:
    if players == 2:
        return 1 - player
    return player
