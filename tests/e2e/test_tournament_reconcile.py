"""A rebuy paid into storage just before a crash in a tournament that sells none (the engine can
never take it), through the fake Discord: the resumed tournament refunds it to the wallet and
tells the member in one line in the tournament's channel; ``db check`` is exact."""

from __future__ import annotations

from bot.discord.cogs.holdem import Holdem
from storage.tournaments import EntryPayment
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.support.bot_world import StartBot, World
from tests.e2e.test_tournament_buy_deal import three_members_running
from tests.e2e.test_tournament_sng import start


async def test_a_rebuy_paid_before_a_crash_that_cannot_be_applied_is_refunded_and_told(
    fake_discord: FakeDiscord, start_bot: StartBot, world: World
) -> None:
    fake = fake_discord
    run = await start(fake, start_bot)
    storage, guild, alice = run.bot.storage, world.guild.id, world.alice
    director = await three_members_running(fake, run, world)
    tid = director.tournament_id
    wallet = await storage.balance(guild, alice.id)
    await storage.pay_tournament_entry(tid, alice.id, EntryPayment.REBUY, key="lost-rebuy")
    assert await storage.balance(guild, alice.id) < wallet

    holdem = run.bot.get_cog("Holdem")  # a crash: no shutdown hook, no save after the payment
    assert isinstance(holdem, Holdem)
    run.runner.halt()
    await holdem.halt()
    await run.bot.close()

    again = await start(fake, start_bot)
    await fake.wait_until(lambda: again.director(tid) is not None, what="the resume")

    def told() -> list[str]:
        said = fake.channel_messages(world.channel)
        return [m.content for m in said if m.content.startswith(f"<@{alice.id}> Your rebuy")]

    await fake.wait_until(lambda: bool(told()), what="the refund to be told")
    [line] = told()
    assert "could no longer be applied" in line and "back in your wallet" in line
    assert "\n" not in line
    assert await storage.balance(guild, alice.id) == wallet
    [entry] = [e for e in await storage.tournament_entries(tid) if e.user_id == alice.id]
    assert entry.rebuys == 0
    assert (await storage.check()).ok
