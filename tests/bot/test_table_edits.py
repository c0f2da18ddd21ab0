"""Which table-message edits go first, and how long a redraw waits (``bot/discord/table_edits``)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bot.discord.table_edits import IMMEDIATE_EDITS, EditPolicy, pressing


def _payload(*custom_ids: str, news: str = "") -> SimpleNamespace:
    buttons = tuple(SimpleNamespace(custom_id=c) for c in custom_ids)
    return SimpleNamespace(buttons=buttons, news=news)


BOT_THINKING = _payload("cards")
MEMBER_TURN = _payload("act:7:fold", "act:7:call", "cards")
NEXT_MEMBER_TURN = _payload("act:9:fold", "act:9:call", "cards")


def test_table_edits_a_turn_offer_is_pressing_and_a_bots_move_is_a_redraw() -> None:
    policy = EditPolicy()
    assert pressing(policy, MEMBER_TURN, BOT_THINKING, final=False)
    assert pressing(policy, NEXT_MEMBER_TURN, MEMBER_TURN, final=False)  # new refs: a new turn
    assert not pressing(policy, BOT_THINKING, MEMBER_TURN, final=False)  # buttons taken away
    assert not pressing(policy, _payload("cards"), BOT_THINKING, final=False)  # a log line
    assert pressing(policy, MEMBER_TURN, None, final=False)  # nothing sent yet


def test_table_edits_the_last_state_of_a_message_with_buttons_is_pressing() -> None:
    policy = EditPolicy()
    assert pressing(policy, _payload(), MEMBER_TURN, final=True)
    assert not pressing(policy, _payload(), _payload(), final=True)


def test_table_edits_news_on_the_message_is_pressing_once() -> None:
    policy = EditPolicy()
    result = _payload(news="Hand #4 · Result")
    assert pressing(policy, result, BOT_THINKING, final=False)  # the hand's result
    assert pressing(policy, _payload(news="Hand #5 · Result"), result, final=False)
    told = _payload("cards", news="Hand #4 · Result")
    assert not pressing(policy, result, told, final=False)  # told already: a redraw


def test_table_edits_immediate_policy_presses_every_button_change_as_before() -> None:
    assert pressing(IMMEDIATE_EDITS, BOT_THINKING, MEMBER_TURN, final=False)
    assert not pressing(IMMEDIATE_EDITS, _payload("cards"), BOT_THINKING, final=False)


def test_table_edits_a_redraw_waits_for_quiet_but_not_past_the_longest_hold() -> None:
    policy = EditPolicy(reserve=2, quiet_seconds=1.0, longest_hold_seconds=3.0)
    assert policy.hold(changed_at=10.0, dirty_since=10.0, now=10.25) == pytest.approx(0.75)
    # a change at 12.5 would push the quiet moment to 13.5; the hold ends at 13.0 anyway
    assert policy.hold(changed_at=12.5, dirty_since=10.0, now=12.75) == pytest.approx(0.25)
    assert policy.hold(changed_at=12.5, dirty_since=10.0, now=13.0) == 0.0
    assert policy.hold(changed_at=10.0, dirty_since=None, now=10.0) == 0.0  # nothing unsent
    assert IMMEDIATE_EDITS.hold(changed_at=10.0, dirty_since=10.0, now=10.0) == 0.0
