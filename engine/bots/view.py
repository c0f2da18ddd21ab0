"""What one seat may know when it must act: the read-only ``SeatView`` a strategy decides from.

A view is built from a ``Hand`` for the player to act and copies out only public facts plus that
player's own hole cards: no other hole cards, no deck, no reference to the hand. A strategy given
a view therefore cannot cheat, whatever it does; a test walks every field of many views to prove
that the only cards in it are the seat's own and the board.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.bots.errors import NotSeatsTurnError
from engine.bots.stats import NO_STATS, PlayerStats
from engine.cards import Card
from engine.holdem.actions import ActionKind, LegalActions
from engine.holdem.events import BoardDealt, PlayerActed
from engine.holdem.hand import Hand
from engine.holdem.pots import Pot
from engine.holdem.stakes import Stakes
from engine.holdem.streets import Street


@dataclass(frozen=True, slots=True)
class PublicAction:
    """A player's action in this hand, as everyone at the table saw it."""

    street: Street
    player: int
    kind: ActionKind
    added: int
    bet_to: int
    all_in: bool

    @property
    def is_aggressive(self) -> bool:
        """Whether it was a bet or a raise."""
        return self.kind in (ActionKind.BET, ActionKind.RAISE)


@dataclass(frozen=True, slots=True)
class SeatView:
    """Everything player ``seat`` may know when it is their turn to act.

    Players are PHH-ordered as in ``Hand`` (0 is first left of the button, ``players - 1`` is
    the button). ``stacks`` are chips behind, ``bets`` this street's bets, ``contributed`` the
    chips put in on earlier streets. ``history`` is this hand's actions; ``stats[i]`` player
    ``i``'s public statistics from earlier hands at the table (zero when unknown).
    """

    seat: int
    players: int
    hole: tuple[Card, Card]
    board: tuple[Card, ...]
    street: Street
    stakes: Stakes
    starting_stacks: tuple[int, ...]
    stacks: tuple[int, ...]
    bets: tuple[int, ...]
    contributed: tuple[int, ...]
    live: tuple[bool, ...]
    pot_total: int
    pots: tuple[Pot, ...]
    legal: LegalActions
    history: tuple[PublicAction, ...]
    stats: tuple[PlayerStats, ...]

    @classmethod
    def from_hand(
        cls, hand: Hand, player: int, *, stats: Sequence[PlayerStats] | None = None
    ) -> SeatView:
        """The view of ``player``, who must be the player to act in a betting round."""
        legal = hand.turn
        if legal is None or legal.at_showdown or legal.player != player:
            raise NotSeatsTurnError(f"player {player + 1} has nothing to decide now")
        n = hand.player_count
        if stats is not None and len(stats) != n:
            raise NotSeatsTurnError(f"stats are for {len(stats)} players, not {n}")
        history: list[PublicAction] = []
        street = Street.PREFLOP
        # Only two event types are read; private ``HoleCardsDealt`` events never are.
        for event in hand.events:
            if isinstance(event, BoardDealt):
                street = event.street
            elif isinstance(event, PlayerActed):
                history.append(
                    PublicAction(
                        street, event.player, event.kind, event.added, event.bet_to, event.all_in
                    )
                )
        first, second = hand.hole_cards[player]
        return cls(
            seat=player,
            players=n,
            hole=(first, second),
            board=hand.board,
            street=hand.street,
            stakes=hand.stakes,
            starting_stacks=hand.starting_stacks,
            stacks=hand.stacks,
            bets=hand.bets,
            contributed=hand.contributed,
            live=hand.live,
            pot_total=hand.pot_total,
            pots=tuple(hand.pots()),
            legal=legal,
            history=tuple(history),
            stats=tuple(stats) if stats is not None else (NO_STATS,) * n,
        )

    # ------------------------------------------------------------------ derived facts

    @property
    def button(self) -> int:
        """The button's player index (the last one)."""
        return self.players - 1

    @property
    def big_blind(self) -> int:
        """The big blind in chips."""
        return self.stakes.big_blind

    @property
    def to_call(self) -> int:
        """Chips a call costs now (0 when the seat can check)."""
        return self.legal.call_amount or 0

    @property
    def current_bet(self) -> int:
        """The biggest bet on this street."""
        return max(self.bets)

    @property
    def opponents(self) -> tuple[int, ...]:
        """The other players still in the hand."""
        return tuple(i for i in range(self.players) if i != self.seat and self.live[i])

    @property
    def stack(self) -> int:
        """This seat's chips behind."""
        return self.stacks[self.seat]

    @property
    def effective_stack(self) -> int:
        """The most this seat can still win or lose from one opponent: its stack, capped by the
        biggest live opponent's chips (bets on this street included on both sides)."""
        mine = self.stacks[self.seat] + self.bets[self.seat]
        theirs = max((self.stacks[i] + self.bets[i] for i in self.opponents), default=0)
        return max(0, min(mine, theirs) - self.bets[self.seat])

    @property
    def stack_to_pot(self) -> float:
        """The effective stack over the pot (SPR)."""
        return self.effective_stack / self.pot_total if self.pot_total else float("inf")

    @property
    def average_stack(self) -> float:
        """The table's average stack at the start of the hand."""
        return sum(self.starting_stacks) / self.players

    @property
    def acts_last(self) -> bool:
        """Whether this seat acts after every live opponent on later streets (in position)."""
        return all(i < self.seat for i in self.opponents)

    def yet_to_act(self) -> tuple[int, ...]:
        """Live opponents with chips who have not acted on this street yet (preflop, the blinds
        count as not having acted: posting is not acting)."""
        acted = {a.player for a in self.history if a.street is self.street}
        return tuple(i for i in self.opponents if self.stacks[i] > 0 and i not in acted)

    def street_actions(self) -> tuple[PublicAction, ...]:
        """This street's actions so far."""
        return tuple(a for a in self.history if a.street is self.street)

    def aggressor(self) -> int | None:
        """The last player to bet or raise on this street, if anyone did."""
        for action in reversed(self.history):
            if action.street is not self.street:
                break
            if action.is_aggressive:
                return action.player
        return None

    def preflop_raiser(self) -> int | None:
        """The last player to raise before the flop, if anyone did."""
        raiser = None
        for action in self.history:
            if action.street is Street.PREFLOP and action.is_aggressive:
                raiser = action.player
        return raiser
