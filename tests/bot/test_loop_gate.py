"""Table requests are admitted one per prompt pass of the event loop, turn offers first."""

from __future__ import annotations

import asyncio

from bot.discord.loop_gate import LONGEST_HOLD_SECONDS, LoopGate


class _SlowPasses:
    """A clock on which every pass of the loop takes ``step`` seconds (a congested loop)."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step / 2  # read twice a pass: before and after it
        return self.now


async def test_loop_gate_a_new_table_then_turn_offers_are_admitted_before_the_rest() -> None:
    gate = LoopGate()
    order: list[str] = []

    async def enter(name: str, *, pressing: bool, opening: bool = False) -> None:
        await gate.enter(pressing=pressing, opening=opening)
        order.append(name)

    await asyncio.gather(
        enter("redraw", pressing=False),
        enter("post", pressing=False),
        enter("offer 1", pressing=True),
        enter("offer 2", pressing=True),
        enter("new table", pressing=True, opening=True),
    )
    assert order == ["new table", "offer 1", "offer 2", "redraw", "post"]
    assert gate.long_passes == 0


async def test_loop_gate_a_congested_loop_holds_admissions_up_to_the_longest_hold() -> None:
    clock = _SlowPasses(step=0.04)  # every pass four times too long
    gate = LoopGate(congested=0.01, clock=clock)
    await gate.enter(pressing=True)
    began = clock.now
    await gate.enter(pressing=True)
    assert gate.long_passes >= 2  # held while passes ran long...
    assert clock.now - began <= LONGEST_HOLD_SECONDS + 0.1  # ...but not for longer than this


async def test_loop_gate_a_prompt_loop_admits_at_once() -> None:
    gate = LoopGate(congested=0.01, clock=_SlowPasses(step=0.001))
    for _ in range(20):
        await gate.enter(pressing=False)
    assert gate.long_passes == 0
