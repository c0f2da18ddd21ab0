"""Running tournaments: the director that plays a tournament's tables (no discord import)."""
