"""A throwaway PostgreSQL cluster for tests and the storage benchmark.

``Cluster.start()`` runs ``initdb`` into a fresh temporary directory and starts ``postgres``
listening only on a Unix socket in that directory (no TCP port, so parallel test workers and other
programs on the machine can never collide); ``stop()`` shuts it down and deletes everything.
PostgreSQL refuses to run as root, so as root the server runs as the ``postgres`` system user
(created by Debian's ``postgresql`` package) and owns the directory.

``FELT_TEST_POSTGRES_URL`` points the tests at an existing server instead (a superuser URL; every
test creates its own schema there). The binaries are looked up on PATH, then in
``FELT_PG_BINDIR``, then in Debian's ``/usr/lib/postgresql/<version>/bin``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

SERVER_USER = "postgres"
"""The system user that runs the server when we are root."""
SUPERUSER = "felt"
"""The database superuser initdb creates (trust authentication over the socket)."""

FAST_SETTINGS = {
    # A throwaway cluster: nothing in it must survive a power cut, so skip every fsync.
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
}
COMMON_SETTINGS = {
    "listen_addresses": "",
    "max_connections": "300",
    "shared_buffers": "64MB",
    # Deadlocks are retried by the adapter; find them quickly instead of after 1 s.
    "deadlock_timeout": "100ms",
    "log_min_messages": "warning",
}


class ClusterUnavailable(RuntimeError):
    """No PostgreSQL binaries were found (and no FELT_TEST_POSTGRES_URL was given)."""


def find_bindir() -> Path:
    """The directory holding ``initdb``, ``pg_ctl`` and ``postgres``."""
    on_path = shutil.which("initdb")
    if on_path and shutil.which("pg_ctl"):
        return Path(on_path).resolve().parent
    configured = os.environ.get("FELT_PG_BINDIR")
    if configured and (Path(configured) / "initdb").exists():
        return Path(configured)
    debian = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda path: int(path.parent.parent.name) if path.parent.parent.name.isdigit() else 0,
    )
    if debian:
        return debian[-1].parent
    raise ClusterUnavailable(
        "PostgreSQL is not installed: the storage tests run every test on SQLite and on "
        "PostgreSQL. Install it (`apt-get install -y postgresql`; .ci/run does) or set "
        "FELT_TEST_POSTGRES_URL to a superuser URL of a running server."
    )


@dataclass
class Cluster:
    """One PostgreSQL server in a temporary directory, reachable through a Unix socket."""

    durable: bool = False
    """Keep fsync on (for benchmarks); tests turn it off."""
    directory: Path = field(init=False)
    bindir: Path = field(init=False)
    _as_server_user: list[str] = field(init=False, default_factory=list)

    @property
    def socket_dir(self) -> Path:
        return self.directory

    @property
    def data_dir(self) -> Path:
        return self.directory / "data"

    def url(self, database: str = "postgres") -> str:
        """A libpq URL of a database in this cluster, as the superuser, over the socket."""
        return f"postgresql://{SUPERUSER}@{quote(str(self.socket_dir), safe='')}/{database}"

    def _run(self, *command: str) -> None:
        result = subprocess.run(
            [*self._as_server_user, *command],
            capture_output=True,
            text=True,
            check=False,
            cwd=self.directory,
        )
        if result.returncode != 0:
            raise RuntimeError(
                f"{' '.join(command)} failed ({result.returncode}):\n{result.stdout}{result.stderr}"
            )

    def start(self) -> Cluster:
        self.bindir = find_bindir()
        # Under /tmp, not pytest's tmp_path: the server user must be able to reach it.
        self.directory = Path(tempfile.mkdtemp(prefix="felt-pg-"))
        if os.geteuid() == 0:
            shutil.chown(self.directory, user=SERVER_USER)
            self._as_server_user = ["runuser", "-u", SERVER_USER, "--"]
        try:
            self._run(
                str(self.bindir / "initdb"),
                "--pgdata",
                str(self.data_dir),
                "--username",
                SUPERUSER,
                "--auth",
                "trust",
                "--encoding",
                "UTF8",
                "--no-locale",
                "--no-sync",
            )
            settings = {**COMMON_SETTINGS, "unix_socket_directories": str(self.socket_dir)}
            if not self.durable:
                settings.update(FAST_SETTINGS)
            with (self.data_dir / "postgresql.auto.conf").open("a", encoding="utf-8") as conf:
                for name, value in settings.items():
                    conf.write(f"{name} = '{value}'\n")
            self._run(
                str(self.bindir / "pg_ctl"),
                "--pgdata",
                str(self.data_dir),
                "--log",
                str(self.directory / "server.log"),
                "--wait",
                "--silent",
                "start",
            )
        except BaseException:
            shutil.rmtree(self.directory, ignore_errors=True)
            raise
        return self

    def stop(self) -> None:
        """Stop the server at once (nothing in it needs keeping) and delete the directory."""
        try:
            self._run(
                str(self.bindir / "pg_ctl"),
                "--pgdata",
                str(self.data_dir),
                "--mode",
                "immediate",
                "--wait",
                "--silent",
                "stop",
            )
        finally:
            shutil.rmtree(self.directory, ignore_errors=True)
