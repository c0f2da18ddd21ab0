"""The seam between the lobby (registration, start time) and the director that runs a
tournament: the lobby decides *when* a tournament starts, the director runs it from there.

The lobby calls ``runner.start(tournament_id)`` exactly once per tournament, after
``Storage.start_tournament`` has frozen the field (status ``running``; bots that fill a Sit & Go
are already seated and house-paid, see ``storage/tournaments.py``). From then on the director
owns the tournament: its tables, its state saves (``Storage.save_tournament_state``), its hands
(``Storage.record_tournament_hand``) and its finish (``Storage.finish_tournament``) or
cancellation (``Storage.cancel_tournament``). A restart resumes running tournaments through
``Storage.running_tournaments``; the lobby never calls ``start`` for those again.
"""

from __future__ import annotations

from typing import Protocol


class TournamentRunner(Protocol):
    """What the lobby needs from whoever runs tournaments."""

    async def start(self, tournament_id: int) -> None:
        """Begin running a tournament the lobby has just started in storage. Must return
        promptly (schedule the long work); an error is logged by the lobby, and the tournament
        stays ``running`` in storage for a restart to resume."""
        ...
