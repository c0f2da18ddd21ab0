"""Pieces shared by the game table hosts: scheduling turn timers and bot pacing."""
