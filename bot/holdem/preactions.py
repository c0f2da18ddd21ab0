"""Pre-actions: what a member ticks before their turn, played the moment the turn comes.

The rules, as poker sites have them (PokerStars' "Check/Fold", "Check", "Call any"):

- A pre-action belongs to one seat, one hand and one betting round. It lasts until it is
  played, until the member unticks it or acts themselves, or until the street changes (a new
  street clears every pre-action); a new hand starts with none.
- **Check/Fold**: check if nothing is owed, else fold. Never cleared by a bet: that is its point.
- **Check**: check. Cleared as soon as a bet or raise in front means the seat owes chips (it
  would no longer be a check); the member then gets their turn and timer as usual.
- **Call any**: check if nothing is owed, else call whatever is owed (all in if that is what a
  call costs). Not cleared by a raise: "any" is any amount.
- Only in a betting round: a run-count vote or a showdown choice is always the member's own.
- A member cannot tick one on their own turn (they act instead), nor when they are not in the
  hand, have folded or are all in.

Pure: the host keeps one ``PreActions`` per table and asks it at each turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.holdem import Action, Call, Check, Fold, Hand, LegalActions, Phase


class PreAction(StrEnum):
    """A pre-action a member can tick."""

    CHECK_FOLD = "check_fold"
    CHECK = "check"
    CALL_ANY = "call_any"

    @property
    def label(self) -> str:
        return _LABELS[self]


_LABELS = {
    PreAction.CHECK_FOLD: "Check/Fold",
    PreAction.CHECK: "Check",
    PreAction.CALL_ANY: "Call any",
}


@dataclass(frozen=True, slots=True)
class Armed:
    """A pre-action ticked for one seat, at one hand's betting round."""

    hand_id: int
    street: int
    choice: PreAction


class PreActions:
    """The pre-actions ticked at one table, by seat number."""

    def __init__(self) -> None:
        self._armed: dict[int, Armed] = {}

    def arm(self, seat_no: int, hand_id: int, hand: Hand, choice: PreAction | None) -> None:
        """Tick ``choice`` for the seat (None unticks); the host checked the seat may."""
        if choice is None:
            self._armed.pop(seat_no, None)
        else:
            self._armed[seat_no] = Armed(hand_id, int(hand.street), choice)

    def armed(self, seat_no: int, hand_id: int, hand: Hand, player: int) -> PreAction | None:
        """The seat's pre-action still standing now (cleared ones are forgotten)."""
        armed = self._armed.get(seat_no)
        if armed is None:
            return None
        owes = max(hand.bets) > hand.bets[player]
        stale = armed.hand_id != hand_id or armed.street != int(hand.street)
        if stale or hand.is_complete or (armed.choice is PreAction.CHECK and owes):
            del self._armed[seat_no]
            return None
        return armed.choice

    def take(self, seat_no: int, hand_id: int, hand: Hand, legal: LegalActions) -> Action | None:
        """The action to play for the seat now that it is its turn, if a pre-action stands
        (it is used up); None to give the member their turn."""
        if hand.phase is not Phase.BETTING or legal.at_showdown or legal.max_run_count:
            return None
        choice = self.armed(seat_no, hand_id, hand, legal.player)
        self._armed.pop(seat_no, None)
        match choice:
            case PreAction.CHECK_FOLD:
                return Check() if legal.can_check else Fold()
            case PreAction.CHECK:
                return Check() if legal.can_check else None
            case PreAction.CALL_ANY:
                return Check() if legal.can_check else Call()
            case None:
                return None

    def forget(self, seat_no: int) -> None:
        """The member acted themselves, or left: their pre-action goes."""
        self._armed.pop(seat_no, None)
