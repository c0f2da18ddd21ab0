"""Blackjack tables: the async table host (no Discord import), its settings, errors and events."""
