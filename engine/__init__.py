"""Felt's pure game rules: cards, hand evaluation, Hold'em, Blackjack, bots and simulators.

Nothing in this package does I/O, reads a clock or uses the global random generator.
"""
