"""Every range a table setting may take: one source for config, slash commands and views."""

from __future__ import annotations

from typing import Final

from engine.blackjack.sidebets import TwentyOneThreePaytable

HOLDEM_MIN_SEATS: Final = 2
HOLDEM_MAX_SEATS: Final = 10
"""Chairs at a Hold'em table (the renderer draws 2 to 10)."""
HOLDEM_MAX_BOTS: Final = HOLDEM_MAX_SEATS - 1
"""At least one chair is always left for a member."""
MIN_TURN_SECONDS: Final = 5
MAX_TURN_SECONDS: Final = 600
"""Time a player has to act, at either game."""
MAX_BLIND: Final = 1_000_000_000
"""The largest small or big blind."""
MIN_BUY_IN_BIG_BLINDS: Final = 1
"""The smallest buy-in is at least this many big blinds."""
DEFAULT_BUY_IN_BIG_BLINDS: Final = 100
"""A buy-in given no amount: this many big blinds, within the table's limits."""
MIN_SIT_OUT_HANDS: Final = 1
MAX_SIT_OUT_HANDS: Final = 1000
BLACKJACK_MAX_SEATS: Final = 7
"""Players in one Blackjack round (the engine's ``SEATS``)."""
BLACKJACK_MAX_BOTS: Final = BLACKJACK_MAX_SEATS - 1
"""House bots dealt in at a Blackjack round: at least one seat is always left for a member."""
BLACKJACK_BOT_STRATEGIES: Final = ("basic", "hilo")
"""How a Blackjack table's house bots play: basic strategy, or Hi-Lo counting (index plays and
a bet spread by the true count)."""
BLACKJACK_MAX_BOT_SPREAD: Final = 16
"""The top of a counting bot's bet ramp, in table minimum bets (1 is a flat bet)."""
BLACKJACK_MAX_SIDE_BET: Final = 1_000_000_000
"""The largest a table's side-bet limit may be (a 21+3 win pays 100 times the bet)."""
BLACKJACK_SIDE_21_3_CHOICES: Final = ("off", *(table.value for table in TwentyOneThreePaytable))
"""A table's 21+3 side bet: none, or its pay table."""
BLACKJACK_MAX_HANDS: Final = 4
"""Hands one Blackjack player can hold after splits."""
MIN_BETTING_SECONDS: Final = 3
MAX_BETTING_SECONDS: Final = 120
