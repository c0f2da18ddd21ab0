"""The fixtures every test package may use, registered as plugins (no path tricks, no imports
kept alive for their side effects)."""

pytest_plugins = [
    "tests.e2e.support.bot_world",
    "tests.e2e.support.probe",
    "tests.e2e.support.holdem",
    "tests.e2e.support.blackjack",
]
