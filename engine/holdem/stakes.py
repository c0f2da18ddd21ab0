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

    @classmethod
    def straddled(
        cls,
        players: int,
        small_blind: int,
        big_blind: int,
        ante: int = 0,
        *,
        straddles: int = 1,
        button: bool = False,
        ante_trimming: bool = True,
    ) -> Stakes:
        """Blinds plus straddles, each twice the one before (the first twice the big blind).

        Under the gun (``button=False``) the straddles are posted by the players after the big
        blind, up to ``straddles`` of them (a straddle and its re-straddles). The button straddle
        ("Mississippi", ``button=True``, a single straddle) is posted by the button, and then the
        small blind opens the betting. Either way the player after the biggest straddle acts
        first preflop, as PokerKit reads ``blinds_or_straddles``. ``min_bet`` is the biggest
        straddle: the straddle plays as the big blind of the hand, so raises go to at least twice
        it preflop and bets after the flop are at least it (PokerKit has one minimum bet for
        every street).
        """
        base = cls.standard(players, small_blind, big_blind, ante, ante_trimming=ante_trimming)
        if players < 3:
            raise InvalidSetupError("straddles need at least three players")
        if button and straddles != 1:
            raise InvalidSetupError("the button straddles once: no re-straddles after it")
        if not 1 <= straddles <= players - 2:
            raise InvalidSetupError(
                f"{players} players can post 1 to {players - 2} straddles, not {straddles}"
            )
        blinds = list(base.blinds_or_straddles)
        amount = big_blind
        for n in range(straddles):
            amount *= 2
            blinds[players - 1 if button else 2 + n] = amount
        return cls(base.antes, tuple(blinds), amount, ante_trimming)

    @classmethod
    def bomb_pot(cls, players: int, ante: int, big_blind: int) -> Stakes:
        """A bomb pot: everyone antes ``ante`` and there are no blinds; bets after the flop are
        at least ``big_blind``. Play with ``HandOptions(bomb_pot=True)`` to skip preflop."""
        if players < 2:
            raise InvalidSetupError("a hand needs at least two players")
        if ante < 1 or big_blind < 1:
            raise InvalidSetupError("a bomb pot needs an ante and a big blind of at least 1")
        return cls((ante,) * players, (0,) * players, big_blind, True)

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
