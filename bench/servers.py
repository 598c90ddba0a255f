"""The servers a benchmark runs the site on, started, stopped and faulted here, once for all.

- `Database`: the benchmark's own database on a PostgreSQL server, created afresh and dropped
  afterwards; `empty_cache`: the Redis database the gunicorn workers share;
- `AppServer`: one gunicorn serving the site, in a process group of its own so that a stop or
  a kill reaches its workers too;
- the PostgreSQL a fault restarts: `MachineCluster`, one of the machine's clusters (Debian's
  `pg_ctlcluster`), or `OwnPostgres`, a throwaway cluster of the benchmark's own, beside
  `OwnRedis`, a throwaway Redis (on free ports: the machine's servers are never touched);
- `Site`: the site as `bench load` and `bench downloads` serve it, as in production
  (gunicorn, DEBUG=0) on the benchmark's database, its setup and its checks run by the
  benchmark's own command in child processes (`--stage`) with DATABASE_URL pointing there.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from django.conf import settings

from bench import BenchError, load_clients, say

LOCAL = {"127.0.0.1", "localhost", "::1"}
SUBPROCESS_TIMEOUT = 600


def add_server_arguments(parser: argparse.ArgumentParser, database: str, cache: str) -> None:
    """The database the benchmark creates afresh and the Redis its gunicorn workers share."""
    parser.add_argument("--database-url", default=database, help="created afresh")
    parser.add_argument(
        "--cache-url",
        default=cache,
        help="the workers' shared Redis cache, emptied first ('' for each process's memory)",
    )


def add_site_arguments(parser: argparse.ArgumentParser, stages: Sequence[str]) -> None:
    """--keep (the database is not dropped), and the benchmark's stages, run by `Site.stage`
    in child processes with DATABASE_URL set: hidden, for the benchmark itself."""
    parser.add_argument("--keep", action="store_true", help="keep the database")
    parser.add_argument("--stage", choices=stages, help=argparse.SUPPRESS)
    parser.add_argument("--file", help=argparse.SUPPRESS)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_port(port: int, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
            return
        time.sleep(0.05)
    raise BenchError(f"nothing answers on 127.0.0.1:{port}")


def answers(url: str, timeout: float = 5.0) -> bool:
    """The URL answers 200."""
    import httpx

    try:
        return httpx.get(url, trust_env=False, timeout=timeout).status_code == 200
    except httpx.HTTPError:
        return False


def processes_named(command: str) -> list[int]:
    """Every process of the machine running this command (its CPU is part of the site's when
    the benchmark cannot tell its own server's processes apart)."""
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                if Path(f"/proc/{entry}/comm").read_text().strip() == command:
                    pids.append(int(entry))
    return pids


# --- PostgreSQL -----------------------------------------------------------------------------


class Database:
    """The benchmark's database, named by its URL, on a PostgreSQL server."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        if parts.scheme not in {"postgres", "postgresql"}:
            raise BenchError("--database-url must be a PostgreSQL URL")
        self.url = url
        self.name = parts.path.lstrip("/")
        if not self.name.replace("_", "").isalnum():
            raise BenchError("the database name may hold letters, digits and _ only")
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 5432
        self.maintenance_url = urlunsplit(parts._replace(path="/postgres"))

    def connect_maintenance(self):
        import psycopg

        return psycopg.connect(self.maintenance_url, autocommit=True, connect_timeout=10)

    def create(self) -> None:
        with self.connect_maintenance() as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
            connection.execute(f'CREATE DATABASE "{self.name}"')

    def drop(self) -> None:
        with self.connect_maintenance() as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


@dataclass
class MachineCluster:
    """One of the machine's PostgreSQL clusters, as (version, name)."""

    version: str
    name: str

    @classmethod
    def serving(cls, database: Database, named: str) -> MachineCluster:
        """The local cluster serving the database's port, or the one named VERSION/NAME."""
        if database.host not in LOCAL:
            raise BenchError("a restart needs a local PostgreSQL: use --no-restart")
        if named:
            version, _, name = named.partition("/")
            return cls(version, name)
        try:
            listing = subprocess.run(
                ["pg_lsclusters", "--no-header"],
                capture_output=True,
                text=True,
                check=True,
                timeout=30,
            ).stdout
        except (OSError, subprocess.SubprocessError) as error:
            raise BenchError(f"pg_lsclusters failed ({error}): use --no-restart") from error
        for line in listing.splitlines():
            fields = line.split()
            if len(fields) >= 4 and fields[2] == str(database.port) and fields[3] == "online":
                return cls(fields[0], fields[1])
        raise BenchError(f"no online cluster on port {database.port}: use --no-restart")

    def __str__(self) -> str:
        return f"{self.version}/{self.name}"

    def pg_ctl(self, action: str) -> list[str]:
        return ["pg_ctlcluster", "--skip-systemctl-redirect", self.version, self.name, action]

    def ensure_running(self) -> None:
        """Never leave PostgreSQL stopped: start it if the restart left it down."""
        status = subprocess.run(self.pg_ctl("status"), capture_output=True, timeout=60)
        if status.returncode != 0:
            say("PostgreSQL is not running after the restart: starting it")
            subprocess.run(self.pg_ctl("start"), timeout=120, check=False)

    def pids(self) -> list[int]:
        """The postmaster and its children, or every postgres when its pid file is unread."""
        pid_file = Path(f"/var/lib/postgresql/{self.version}/{self.name}/postmaster.pid")
        with contextlib.suppress(OSError, ValueError, IndexError):
            return load_clients.children_of(int(pid_file.read_text().split()[0]))
        return processes_named("postgres")


def pg_bin() -> Path:
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    if not versions:
        raise BenchError(
            "no PostgreSQL server under /usr/lib/postgresql (apt-get install postgresql)"
        )
    return versions[-1].parent


@dataclass
class OwnPostgres:
    """A PostgreSQL cluster of the benchmark's own in a temporary folder (run as root: the
    server runs as the user postgres), removed with the folder."""

    folder: Path
    port: int = field(default_factory=free_port)

    @property
    def data(self) -> Path:
        return self.folder / "pg"

    def __str__(self) -> str:
        return f"own/{self.port}"

    @staticmethod
    def as_postgres(*command: str) -> list[str]:
        return ["runuser", "-u", "postgres", "--", *command]

    def pg_ctl(self, action: str) -> list[str]:
        return self.as_postgres(
            str(pg_bin() / "pg_ctl"),
            "-D",
            str(self.data),
            "-l",
            str(self.folder / "pg.log"),
            "-w",
            "-m",
            "fast",
            "-o",
            f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.data}",
            action,
        )

    def start(self) -> None:
        os.chmod(self.folder, 0o755)
        self.data.mkdir()
        shutil.chown(self.data, "postgres", "postgres")
        subprocess.run(
            self.as_postgres(
                str(pg_bin() / "initdb"),
                "-D",
                str(self.data),
                "-U",
                "postgres",
                "-A",
                "trust",
                "--no-sync",
                "-E",
                "UTF8",
                "--locale=C.UTF-8",
            ),
            check=True,
            capture_output=True,
        )
        shutil.chown(self.folder, "postgres", "postgres")
        subprocess.run(self.pg_ctl("start"), check=True, capture_output=True)

    def ensure_running(self) -> None:
        if subprocess.run(self.pg_ctl("status"), capture_output=True).returncode != 0:
            say("PostgreSQL is not running after the restart: starting it")
            subprocess.run(self.pg_ctl("start"), capture_output=True)

    def stop(self) -> None:
        if self.data.exists():
            subprocess.run(self.pg_ctl("stop"), capture_output=True)
        shutil.rmtree(self.folder, ignore_errors=True)

    def pids(self) -> list[int]:
        try:
            postmaster = int((self.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return []
        return load_clients.children_of(postmaster)


# --- Redis ----------------------------------------------------------------------------------


def empty_cache(url: str) -> None:
    """The benchmark's Redis database, emptied: nothing kept from an earlier run (its tables
    have the same ids and versions) is served to this one."""
    if not url:
        say("cache: each gunicorn worker's own memory (--cache-url '')")
        return
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=5).flushdb()
    except redis.RedisError as error:
        raise BenchError(
            f"Redis at {url} does not answer ({error}): start it, or --cache-url ''"
        ) from error
    say(f"cache: Redis at {url}, shared by the workers, emptied")


@dataclass
class OwnRedis:
    """A Redis server of the benchmark's own, keeping nothing on disk."""

    port: int = field(default_factory=free_port)
    process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--bind",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for_port(self.port)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)

    def pids(self) -> list[int]:
        if self.process is None or self.process.poll() is not None:
            return []
        return [self.process.pid]


# --- gunicorn -------------------------------------------------------------------------------


class AppServer:
    """One gunicorn serving the site on 127.0.0.1:`port`, its output appended to `log_path`
    (the report reads the server log back)."""

    def __init__(
        self,
        port: int,
        options: dict[str, Any],
        env: dict[str, str],
        log_path: Path,
        serves: Sequence[str] = ("yaniv_club.wsgi:application",),
    ) -> None:
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        with open(log_path, "ab") as log:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "gunicorn",
                    *serves,
                    f"--bind=127.0.0.1:{port}",
                    f"--workers={options['workers']}",
                    f"--threads={options['threads']}",
                    "--timeout=60",
                    "--graceful-timeout=10",
                ],
                cwd=settings.BASE_DIR,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                # Its own process group: a kill reaches the workers too.
                start_new_session=True,
            )

    @property
    def pid(self) -> int:
        return self.process.pid

    def exited(self) -> bool:
        return self.process.poll() is not None

    def stop(self) -> None:
        """SIGTERM (its requests finish), then SIGKILL to the group after 30 s."""
        if self.exited():
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def kill(self) -> None:
        """SIGKILL to the master and its workers at once, as a crashed machine would."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)


def wait_until_serving(
    servers: dict[str, AppServer], serving: Callable[[], bool], log_path: Path
) -> bool:
    """Whether `serving()` came true within 60 s; a server that exits meanwhile is an error,
    with the end of the server log."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for name, server in servers.items():
            if server.exited():
                raise BenchError(f"{name} exited:\n{log_path.read_text()[-3000:]}")
        if serving():
            return True
        time.sleep(0.2)
    return False


# --- the site -------------------------------------------------------------------------------


class Site:
    """The site on the benchmark's database, its stages run by `python -m bench <command>`."""

    command = ""

    def __init__(self, options: dict[str, Any]) -> None:
        self.options = options
        self.database = Database(options["database_url"])
        self.url = self.database.url
        self.workdir = Path(tempfile.mkdtemp(prefix=f"bench_{self.command}-"))
        # What the setup stage planned (the tournament, its tables and referees).
        self.plan_file = self.workdir / "plan.json"
        self.log_path = self.workdir / "gunicorn.log"
        self.gunicorn: AppServer | None = None
        self.setup_seconds = 0.0
        self.env = {
            **os.environ,
            "DATABASE_URL": self.url,
            "DEBUG": "0",
            "SECRET_KEY": "bench",
            "ALLOWED_HOSTS": "127.0.0.1",
            "SECURE_SSL_REDIRECT": "0",
            "SECURE_COOKIES": "0",
            "SECURE_HSTS_SECONDS": "0",
            "CONN_MAX_AGE": "60",
            # The server log is read back for the report.
            "LOG_FORMAT": "json",
            # The workers share their cache (fragments, downloads, sessions) as in production.
            "CACHE_URL": options["cache_url"],
            # Collected into the run's own folder: a test beside it may be collecting too.
            "STATIC_ROOT": str(self.workdir / "static"),
        }

    def prepare(self, *setup: str) -> dict:
        """The database created afresh and migrated, the static files collected, the cache
        emptied and the setup stage run with these arguments and the seed: the plan it wrote
        (how long it all took in `setup_seconds`)."""
        started = time.perf_counter()
        self.database.create()
        say(f"database {self.database.name} created on {self.database.host}:{self.database.port}")
        empty_cache(self.options["cache_url"])
        self.manage("migrate", "--noinput")
        self.manage("collectstatic", "--noinput")
        self.stage(
            "--stage=setup", f"--file={self.plan_file}", *setup, f"--seed={self.options['seed']}"
        )
        self.setup_seconds = time.perf_counter() - started
        return json.loads(self.plan_file.read_text())

    def clean_up(self) -> None:
        """gunicorn stopped, the database dropped (unless --keep), the work folder removed."""
        self.stop_gunicorn()
        if not self.options["keep"]:
            try:
                self.database.drop()
            except Exception as error:  # the figures are printed; say why it is left
                say(f"could not drop {self.database.name}: {error}")
        shutil.rmtree(self.workdir, ignore_errors=True)

    def manage(self, *args: str) -> None:
        self.child(["manage.py", *args], f"manage.py {args[0]}")

    def stage(self, *args: str) -> None:
        """This benchmark in a child process, on the benchmark's database (a `--stage`)."""
        self.child(["-m", "bench", self.command, *args], f"the {args[0].partition('=')[2]} stage")

    def child(self, args: list[str], name: str) -> None:
        result = subprocess.run(
            [sys.executable, *args],
            cwd=settings.BASE_DIR,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=SUBPROCESS_TIMEOUT,
        )
        if result.returncode != 0:
            raise BenchError(f"{name} failed:\n{result.stdout}{result.stderr}")

    def start_gunicorn(self, plan: dict) -> str:
        """gunicorn on a free port, once it serves the tournament's standings: its address."""
        self.gunicorn = AppServer(free_port(), self.options, self.env, self.log_path)
        base = self.gunicorn.base
        standings = f"{base}/t/{plan['slug']}/standings/"
        if not wait_until_serving(
            {"gunicorn": self.gunicorn}, lambda: answers(standings), self.log_path
        ):
            raise BenchError("gunicorn did not answer within 60 s")
        say(
            f"gunicorn on {base}: {self.options['workers']} workers × "
            f"{self.options['threads']} threads"
        )
        return base

    def stop_gunicorn(self) -> None:
        if self.gunicorn is not None:
            self.gunicorn.stop()


def write_json(path: str, data: object) -> None:
    """A stage's file: the plan the setup stage writes, what a check reads and answers."""
    Path(path).write_text(json.dumps(data))
