"""The fake Discord's rate limiter counts requests the way Discord documents its limits."""

from __future__ import annotations

from tests.e2e.fakediscord.ratelimits import RateLimiter

EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
POST = "POST /channels/{channel_id}/messages"


class _Clock:
    def __init__(self) -> None:
        self.now = 10.0

    def __call__(self) -> float:
        return self.now


def test_fake_global_limit_refuses_a_51st_request_in_any_second_even_across_a_window_edge() -> None:
    clock = _Clock()
    limiter = RateLimiter(clock, rules={})
    clock.now = 10.9
    allowed = [limiter.check("GET /users/@me", "", counts_globally=True).allowed for _ in range(50)]
    clock.now = 11.1  # a fixed window opened at 10.0 would have reset at 11.0
    late = limiter.check("GET /users/@me", "", counts_globally=True)
    clock.now = 11.95  # the 50 of 10.9 are a second old
    later = limiter.check("GET /users/@me", "", counts_globally=True)

    assert all(allowed)
    assert not late.allowed and late.is_global
    assert abs(late.retry_after - 0.8) < 1e-9
    assert later.allowed


def test_fake_global_limit_does_not_count_interaction_requests() -> None:
    clock = _Clock()
    limiter = RateLimiter(clock, rules={})
    for _ in range(50):
        limiter.check("GET /users/@me", "", counts_globally=True)
    callback = limiter.check(
        "POST /interactions/{interaction_id}/{token}/callback", "", counts_globally=False
    )

    assert callback.allowed
    assert not limiter.check("GET /users/@me", "", counts_globally=True).allowed


def test_fake_route_buckets_are_per_channel_and_per_kind_five_per_five_seconds() -> None:
    clock = _Clock()
    limiter = RateLimiter(clock, global_per_second=None)
    edits = [limiter.check(EDIT, "1", counts_globally=True).allowed for _ in range(6)]
    other_channel = limiter.check(EDIT, "2", counts_globally=True).allowed
    post = limiter.check(POST, "1", counts_globally=True).allowed
    clock.now += 5.0
    after_window = limiter.check(EDIT, "1", counts_globally=True).allowed

    assert edits == [True] * 5 + [False]
    assert other_channel and post and after_window
