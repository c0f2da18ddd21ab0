"""Settled hands as Open Hand History (OHH, hh-specs.handhistory.org, spec 1.4.6) JSON.

Each hand is one ``{"ohh": {...}}`` object; a file of several holds them separated by one blank
line, as the spec's storage format says. Choices of ours (also in the README): the site and
network are ``Felt``, the currency is ``"Chips"`` with whole-chip amounts, ``game_number`` is the
same id as the PokerStars export (``pokerstars.hand_id_of``), ``start_date_utc`` is ISO 8601 in
UTC, player ids are seat numbers (Felt numbers seats from 1), and an action's ``amount`` is the
chips it put in (the spec: "the amount the player put into the pot for this action"), so a
raise from 2 to 6 by a player who had posted 2 has amount 4. Uncalled bets have no OHH action:
the pots are what was left after they went back. The hero's hole cards are a ``Dealt Cards``
action; anyone else's cards appear only in ``Shows Cards``. A hand with no hero is flagged
``Observed``.

Home games as the spec has them: a straddle is a ``Straddle`` action; a hand with several boards
(run twice or more, or a double board) is flagged ``Run_It_Twice`` and has a round for each
board's street, in the order they were dealt (the spec: "two round objects with different id's
that are both Flop for run it twice hands"), its pots listing each winner's whole share; a
bomb pot is flagged ``Bomb_Pot`` (its antes, then no preflop action).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import UTC
from typing import Any

from engine.holdem.pokerstars import HandLabel
from engine.holdem.story import HandStory, Step, StepKind
from engine.holdem.streets import Street

SPEC_VERSION = "1.4.6"
SITE_NAME = "Felt"
CURRENCY = "Chips"
HAND_SEPARATOR = "\n\n"
"""A blank line between hands (the spec's storage format)."""

_STREETS = ("Preflop", "Flop", "Turn", "River")
_ACTIONS = {
    StepKind.ANTE: "Post Ante",
    StepKind.SMALL_BLIND: "Post SB",
    StepKind.BIG_BLIND: "Post BB",
    StepKind.STRADDLE: "Straddle",
    StepKind.FOLD: "Fold",
    StepKind.CHECK: "Check",
    StepKind.CALL: "Call",
    StepKind.BET: "Bet",
    StepKind.RAISE: "Raise",
    StepKind.SHOW: "Shows Cards",
    StepKind.MUCK: "Mucks Cards",
}


def document(story: HandStory, label: HandLabel, *, hero: int | None = None) -> dict[str, Any]:
    """The hand as an OHH object (``{"ohh": {...}}``), ready for ``json.dumps``."""
    stakes = story.stakes
    ids = [player.seat_no for player in story.players]
    antes = [ante for ante in stakes.antes if ante]
    body: dict[str, Any] = {
        "spec_version": SPEC_VERSION,
        "site_name": SITE_NAME,
        "network_name": SITE_NAME,
        "internal_version": SPEC_VERSION,
        "tournament": False,
        "game_number": str(label.hand_id),
        "start_date_utc": label.started_at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "table_name": label.shown_table,
        "table_handle": "",
        "table_skin": "",
        "game_type": "Holdem",
        "bet_limit": {"bet_type": "NL", "bet_cap": 0},
        "table_size": story.seat_count,
        "currency": CURRENCY,
        "dealer_seat": story.button.seat_no,
        "small_blind_amount": stakes.blinds_or_straddles[0],
        "big_blind_amount": stakes.blinds_or_straddles[1],
        "ante_amount": max(antes, default=0),
        "flags": _flags(story, hero),
        "players": [
            {
                "id": ids[player.number],
                "seat": player.seat_no,
                "name": player.name,
                "display": player.name,
                "starting_stack": player.starting_stack,
                "player_bounty": 0,
                "is_sitting_out": False,
            }
            for player in sorted(story.players, key=lambda p: p.seat_no)
        ],
        "rounds": _rounds(story, ids, hero),
        "pots": _pots(story, ids),
    }
    if hero is not None:
        body["hero_player_id"] = ids[hero]
    return {"ohh": body}


def _flags(story: HandStory, hero: int | None) -> list[str]:
    flags = [] if hero is not None else ["Observed"]
    if story.boards:
        flags.append("Run_It_Twice")
    if story.bomb_pot:
        flags.append("Bomb_Pot")
    return flags


def _pots(story: HandStory, ids: list[int]) -> list[dict[str, Any]]:
    return [
        {
            "number": pot.number,
            "amount": pot.amount,
            "rake": 0,
            "jackpot": 0,
            "player_wins": [
                {
                    "player_id": ids[player],
                    "win_amount": share,
                    "cashout_amount": 0,
                    "cashout_fee": 0,
                    "bonus_amount": 0,
                    "contributed_rake": 0,
                }
                for player, share in pot.shares
            ],
        }
        for pot in story.pots
    ]


def _rounds(story: HandStory, ids: list[int], hero: int | None) -> list[dict[str, Any]]:
    rounds: list[dict[str, Any]] = [{"id": 0, "street": _STREETS[0], "cards": [], "actions": []}]
    showdown: dict[str, Any] | None = None
    number = 0

    def action(step: Step, name: str) -> dict[str, Any]:
        nonlocal number
        number += 1
        entry: dict[str, Any] = {"action_number": number, "player_id": ids[step.player]}
        entry["action"] = name
        if step.amount:
            entry["amount"] = step.amount
        if step.all_in:
            entry["is_allin"] = True
        if step.cards:
            entry["cards"] = [str(card) for card in step.cards]
        return entry

    dealt = False
    for step in story.steps:
        kind = step.kind
        if kind is StepKind.RETURNED:
            continue
        if kind is StepKind.BOARD:
            street = _STREETS[step.street]
            rounds.append(
                {
                    "id": len(rounds),
                    "street": street,
                    "cards": [str(card) for card in step.cards],
                    "actions": [],
                }
            )
            continue
        if not dealt and kind not in (StepKind.ANTE, StepKind.SMALL_BLIND, StepKind.BIG_BLIND):
            dealt = True
            _deal_hero(story, hero, rounds[0], action)
        if kind in (StepKind.SHOW, StepKind.MUCK):
            if showdown is None:
                showdown = {"id": -1, "street": "Showdown", "cards": [], "actions": []}
            showdown["actions"].append(action(step, _ACTIONS[kind]))
            continue
        rounds[-1]["actions"].append(action(step, _ACTIONS[kind]))
    if not dealt:
        _deal_hero(story, hero, rounds[0], action)
    if showdown is not None:
        showdown["id"] = len(rounds)
        rounds.append(showdown)
    return rounds


def _deal_hero(story: HandStory, hero: int | None, preflop: dict[str, Any], action: Any) -> None:
    if hero is None or story.players[hero].hole is None:
        return
    dealt = Step(StepKind.SHOW, Street.PREFLOP, hero, cards=story.players[hero].hole or ())
    preflop["actions"].append(action(dealt, "Dealt Cards"))


def dumps(story: HandStory, label: HandLabel, *, hero: int | None = None) -> str:
    """One hand as OHH JSON text (one line)."""
    return json.dumps(document(story, label, hero=hero), separators=(",", ":"))


def dumps_all(hands: Iterable[tuple[HandStory, HandLabel, int | None]]) -> str:
    """Several hands, one JSON object each, separated by a blank line."""
    return HAND_SEPARATOR.join(dumps(story, label, hero=hero) for story, label, hero in hands)
