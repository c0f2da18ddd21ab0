"""`felt run` against networks that fail: one line on stderr, no traceback, a non-zero exit;
and SIGINT or SIGTERM at any moment of the startup stops it cleanly with exit status 0."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest

from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.fakediscord.faults import HANG
from tests.e2e.fakediscord.misbehaving import MisbehavingEndpoint, Misbehaviour
from tests.e2e.support.felt_process import start_felt_run, write_run_config

TIMEOUT_SECONDS = 2


def write_config(tmp_path: Path, *, api_base_url: str, gateway_url: str) -> Path:
    return write_run_config(
        tmp_path / "config.toml",
        api_base_url=api_base_url,
        gateway_url=gateway_url,
        database=tmp_path / "felt.db",
        discord=f"connect_timeout_seconds = {TIMEOUT_SECONDS}\n",
    )


async def finish(process: asyncio.subprocess.Process) -> list[str]:
    _stdout, stderr = await asyncio.wait_for(process.communicate(), 60)
    return stderr.decode().strip().splitlines()


def assert_no_traceback(lines: list[str]) -> None:
    assert not any("Traceback" in line or line.startswith("  File ") for line in lines), lines


@pytest.mark.parametrize(
    ("misbehaviour", "expected"),
    [
        (Misbehaviour.HANG, "felt run: Discord at {url} did not answer within 2 s"),
        (
            Misbehaviour.RESET,
            "felt run: the connection to Discord at {url} was cut: "
            "[Errno 104] Connection reset by peer",
        ),
        (
            Misbehaviour.HTML,
            "felt run: {url} answered 200 with text/html, not Discord's JSON: "
            "check [discord] api_base_url (a proxy or a wrong address?)",
        ),
    ],
)
async def test_felt_run_reports_a_misbehaving_api_in_one_line(
    tmp_path: Path, misbehaviour: Misbehaviour, expected: str
) -> None:
    async with MisbehavingEndpoint(misbehaviour) as endpoint:
        config = write_config(tmp_path, api_base_url=endpoint.http_url, gateway_url=endpoint.ws_url)
        process = await start_felt_run(config, "token")
        lines = await finish(process)

    assert process.returncode == 1
    assert_no_traceback(lines)
    assert f"connecting to Discord at {endpoint.http_url}" in "\n".join(lines)
    assert lines[-1] == expected.format(url=endpoint.http_url)
    assert endpoint.requests >= 1


@pytest.mark.parametrize("misbehaviour", list(Misbehaviour))
async def test_felt_run_reports_a_gateway_that_does_not_let_it_in_in_one_line(
    fake_discord: FakeDiscord, tmp_path: Path, misbehaviour: Misbehaviour
) -> None:
    async with MisbehavingEndpoint(misbehaviour) as gateway:
        config = write_config(
            tmp_path, api_base_url=fake_discord.api_base_url, gateway_url=gateway.ws_url
        )
        process = await start_felt_run(config, fake_discord.token)
        lines = await finish(process)

    assert process.returncode == 1
    assert_no_traceback(lines)
    assert lines[-1] == (
        f"felt run: the Discord gateway at {gateway.ws_url} did not let the bot in within 2 s"
    )


async def test_felt_run_reports_a_command_sync_that_never_answers_in_one_line(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake_discord.fail_next(HANG, route="PUT /applications/{application_id}/commands")
    config = write_config(
        tmp_path, api_base_url=fake_discord.api_base_url, gateway_url=fake_discord.gateway_url
    )

    process = await start_felt_run(config, fake_discord.token)
    lines = await finish(process)

    assert process.returncode == 1
    assert_no_traceback(lines)
    assert lines[-1] == (
        f"felt run: Discord at {fake_discord.api_base_url} did not answer the command sync "
        "within 2 s"
    )
    assert fake_discord.faults.served == [(HANG, "PUT /applications/{application_id}/commands")]


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
async def test_felt_run_stops_cleanly_on_a_signal_while_discord_hangs(
    tmp_path: Path, stop: signal.Signals
) -> None:
    async with MisbehavingEndpoint(Misbehaviour.HANG) as endpoint:
        config = write_config(tmp_path, api_base_url=endpoint.http_url, gateway_url=endpoint.ws_url)
        # A long timeout: the signal, not the timeout, must end this run.
        config.write_text(
            config.read_text().replace(
                f"connect_timeout_seconds = {TIMEOUT_SECONDS}", "connect_timeout_seconds = 600"
            )
        )
        process = await start_felt_run(config, "token")
        await endpoint.wait_for_request(within=60)
        process.send_signal(stop)
        lines = await finish(process)

    assert process.returncode == 0, lines
    assert_no_traceback(lines)
    assert f"received {stop.name}" in lines[-3]
    assert "shutdown complete" in lines[-1]


async def test_felt_run_stops_cleanly_on_a_signal_while_the_database_hangs(tmp_path: Path) -> None:
    async with MisbehavingEndpoint(Misbehaviour.HANG) as database:
        config = write_config(tmp_path, api_base_url=database.http_url, gateway_url=database.ws_url)
        with config.open("a", encoding="utf-8") as extra:
            extra.write(f'url = "postgresql://felt@127.0.0.1:{database.port}/felt"\n')
        process = await start_felt_run(config, "token")
        await database.wait_for_connection(within=60)
        process.send_signal(signal.SIGINT)
        lines = await finish(process)

    assert process.returncode == 0, lines
    assert_no_traceback(lines)
    assert "stopped before connecting reason=SIGINT" in lines[-1]
    assert not any("connecting to Discord" in line for line in lines)
