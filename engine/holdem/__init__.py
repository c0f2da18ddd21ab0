"""No-Limit Texas Hold'em: a sans-IO hand state machine, side pots, and PHH hand histories."""

from engine.errors import ActionNotAllowedError, NotYourTurnError
from engine.holdem.actions import (
    Action,
    ActionKind,
    Call,
    Check,
    Fold,
    LegalActions,
    Muck,
    RaiseTo,
    Show,
)
from engine.holdem.errors import (
    HandCompleteError,
    HoldemError,
    InvalidSetupError,
    RaiseAmountError,
)
from engine.holdem.events import (
    AntePosted,
    BetReturned,
    BlindPosted,
    BoardDealt,
    CardsMucked,
    CardsShown,
    Event,
    HandEnded,
    HoleCardsDealt,
    PlayerActed,
    PotAwarded,
)
from engine.holdem.hand import Hand, Phase, ShowdownMode, stacked_deck
from engine.holdem.pots import Pot
from engine.holdem.stakes import Stakes
from engine.holdem.streets import Street

__all__ = [
    "Action",
    "ActionKind",
    "ActionNotAllowedError",
    "AntePosted",
    "BetReturned",
    "BlindPosted",
    "BoardDealt",
    "Call",
    "CardsMucked",
    "CardsShown",
    "Check",
    "Event",
    "Fold",
    "Hand",
    "HandCompleteError",
    "HandEnded",
    "HoldemError",
    "HoleCardsDealt",
    "InvalidSetupError",
    "LegalActions",
    "Muck",
    "NotYourTurnError",
    "Phase",
    "PlayerActed",
    "Pot",
    "PotAwarded",
    "RaiseAmountError",
    "RaiseTo",
    "Show",
    "ShowdownMode",
    "Stakes",
    "Street",
    "stacked_deck",
]
