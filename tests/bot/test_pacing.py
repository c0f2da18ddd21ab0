"""The bot has one request budget, shared by every game's tables."""

from __future__ import annotations

from types import SimpleNamespace

from bot.discord.pacing import ChannelBudget, Pacer, RequestKind, bot_pacer


def test_pacing_every_caller_gets_the_bots_one_pacer() -> None:
    bot = SimpleNamespace()
    first = bot_pacer(bot)
    assert isinstance(first, Pacer)
    assert bot_pacer(bot) is first
    assert bot_pacer(SimpleNamespace()) is not first


def test_pacing_budget_stays_under_discords_global_limit() -> None:
    pacer = Pacer()
    assert pacer.per_second + pacer.burst < 50


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_pacing_a_channel_allows_its_limit_then_waits_a_window_from_the_oldest_answer() -> None:
    clock = _Clock()
    budget = ChannelBudget(limit=5, window=5.0, clock=clock)
    for _ in range(5):
        assert budget.ready_in(RequestKind.EDIT) == 0.0
        stamp = budget.spend(RequestKind.EDIT)
        clock.now += 0.25  # the answer comes back a quarter second later
        budget.answered(stamp)
    assert budget.ready_in(RequestKind.EDIT) == 5.0 - 1.0  # the first answer came at 100.25
    assert budget.ready_in(RequestKind.POST) == 0.0  # posts are counted apart


def test_pacing_a_channel_first_contact_is_once_per_game() -> None:
    budget = ChannelBudget(limit=5, window=5.0, clock=_Clock())
    assert budget.first_contact("holdem") is True
    assert budget.first_contact("holdem") is False
    assert budget.first_contact("blackjack") is True


def test_pacing_after_a_restart_a_channel_starts_with_its_window_spent() -> None:
    clock = _Clock()
    budget = ChannelBudget(limit=5, window=5.0, clock=clock)
    budget.assume_spent()
    assert budget.ready_in(RequestKind.POST) == 5.0
    assert budget.ready_in(RequestKind.EDIT) == 5.0
    clock.now += 5.0
    assert budget.ready_in(RequestKind.POST) == 0.0


def test_pacing_both_games_share_a_channels_budget() -> None:
    pacer = Pacer(channel_limit=3, channel_window=2.0)
    assert pacer.channel(7) is pacer.channel(7)
    assert pacer.channel(7) is not pacer.channel(8)
    assert (pacer.channel(7).limit, pacer.channel(7).window) == (3, 2.0)
