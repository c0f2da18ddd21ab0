"""Open Hand History export: the spec's fields, chips that add up to Felt's stacks, and only the
hero's and shown cards."""

from __future__ import annotations

import json
import random
from collections import defaultdict

from engine.holdem import ohh
from engine.holdem.story import StepKind, tell
from tests.engine.holdem.export_hands import LABEL, stored_hand

REQUIRED = (
    "spec_version",
    "site_name",
    "network_name",
    "internal_version",
    "tournament",
    "game_number",
    "start_date_utc",
    "table_name",
    "game_type",
    "bet_limit",
    "table_size",
    "currency",
    "dealer_seat",
    "small_blind_amount",
    "big_blind_amount",
    "ante_amount",
    "flags",
    "players",
    "rounds",
    "pots",
)


def test_ohh_chips_add_up_to_felts_stacks_on_random_hands() -> None:
    rng = random.Random(51)
    for number in range(200):
        stored = stored_hand(rng, number + 1)
        story = tell(stored.history)
        hero = rng.choice([None, *range(stored.setup.players)])
        body = json.loads(ohh.dumps(story, LABEL, hero=hero))["ohh"]
        assert all(field in body for field in REQUIRED)
        assert body["game_number"] == "7000000042"
        assert body["start_date_utc"] == "2025-01-31T20:05:09Z"
        put_in: dict[int, int] = defaultdict(int)
        for round_ in body["rounds"]:
            for action in round_["actions"]:
                put_in[action["player_id"]] += action.get("amount", 0)
        won: dict[int, int] = defaultdict(int)
        for pot in body["pots"]:
            assert pot["amount"] == sum(w["win_amount"] for w in pot["player_wins"])
            for win in pot["player_wins"]:
                won[win["player_id"]] += win["win_amount"]
        returned: dict[int, int] = defaultdict(int)  # uncalled bets: no OHH action, see ohh.py
        for step in story.steps:
            if step.kind is StepKind.RETURNED:
                returned[story.players[step.player].seat_no] += step.amount
        for player in body["players"]:
            index = next(p.number for p in story.players if p.seat_no == player["seat"])
            final = player["starting_stack"] - put_in[player["id"]] + returned[player["id"]]
            assert final + won[player["id"]] == stored.hand.stacks[index], stored.text


def test_ohh_deals_only_the_heros_cards_and_shows_only_shown_ones() -> None:
    rng = random.Random(52)
    for number in range(100):
        stored = stored_hand(rng, number + 1)
        story = tell(stored.history)
        hero = rng.randrange(stored.setup.players)
        body = ohh.document(story, LABEL, hero=hero)["ohh"]
        hero_id = story.players[hero].seat_no
        assert body["hero_player_id"] == hero_id
        for round_ in body["rounds"]:
            for action in round_["actions"]:
                if "cards" not in action:
                    continue
                owner = next(p for p in story.players if p.seat_no == action["player_id"])
                if action["action"] == "Dealt Cards":
                    assert action["player_id"] == hero_id and round_["street"] == "Preflop"
                else:
                    assert action["action"] == "Shows Cards" and owner.shown
                    assert round_["street"] == "Showdown"
        host = ohh.document(story, LABEL)["ohh"]
        assert "hero_player_id" not in host and host["flags"] == ["Observed"]
        assert not any(
            action["action"] == "Dealt Cards" for r in host["rounds"] for action in r["actions"]
        )


def test_several_ohh_hands_are_separated_by_one_blank_line() -> None:
    rng = random.Random(53)
    hands = [(tell(stored_hand(rng, n).history), LABEL, None) for n in range(1, 4)]
    text = ohh.dumps_all(hands)
    parts = text.split("\n\n")
    assert len(parts) == 3
    assert all("ohh" in json.loads(part) for part in parts)
