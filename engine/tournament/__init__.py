"""Tournaments: structures and presets, payouts, ICM deals, TDA seating, and a sans-IO
tournament state machine the Discord, terminal and simulator hosts drive.

    config = TournamentConfig("Friday", preset("turbo"), buy_in=100)
    tournament = Tournament(config)
    events = tournament.register("alice")
"""

from engine.tournament.errors import (
    IcmError,
    PayoutError,
    StructureError,
    TournamentSetupError,
    TournamentStateError,
)
from engine.tournament.events import (
    AddOnBought,
    BreakStarted,
    BustHeld,
    Finish,
    LevelStarted,
    PlayerEliminated,
    PlayerRegistered,
    PlayerSeated,
    PlayerUnregistered,
    RebuyBought,
    Refund,
    RegistrationClosed,
    TableClosed,
    TournamentCancelled,
    TournamentEvent,
    TournamentFinished,
    TournamentStarted,
)
from engine.tournament.icm import chip_chop, icm, icm_exact, icm_monte_carlo, whole_deal
from engine.tournament.payouts import custom_shares, prizes, standard_shares
from engine.tournament.seating import Move, Seating, SeatReason
from engine.tournament.structure import (
    PRESET_NAMES,
    AnteKind,
    Break,
    Clock,
    Format,
    Level,
    Structure,
    parse_structure,
    preset,
)
from engine.tournament.tournament import (
    EntryState,
    HandSetup,
    Phase,
    Tournament,
    TournamentConfig,
)

__all__ = [
    "PRESET_NAMES",
    "AddOnBought",
    "AnteKind",
    "Break",
    "BreakStarted",
    "BustHeld",
    "Clock",
    "EntryState",
    "Finish",
    "Format",
    "HandSetup",
    "IcmError",
    "Level",
    "LevelStarted",
    "Move",
    "PayoutError",
    "Phase",
    "PlayerEliminated",
    "PlayerRegistered",
    "PlayerSeated",
    "PlayerUnregistered",
    "RebuyBought",
    "Refund",
    "RegistrationClosed",
    "SeatReason",
    "Seating",
    "Structure",
    "StructureError",
    "TableClosed",
    "Tournament",
    "TournamentCancelled",
    "TournamentConfig",
    "TournamentEvent",
    "TournamentFinished",
    "TournamentSetupError",
    "TournamentStarted",
    "TournamentStateError",
    "chip_chop",
    "custom_shares",
    "icm",
    "icm_exact",
    "icm_monte_carlo",
    "parse_structure",
    "preset",
    "prizes",
    "standard_shares",
    "whole_deal",
]
