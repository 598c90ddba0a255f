"""What a site's data looks like from outside, to compare a database before and after a
backup and restore, or an upgrade: run `SNAPSHOT` with `manage.py shell -c` against it.

Per tournament: its archive export (the text `export_tournament` writes, its "exported_at"
set to one moment: the only thing that differs from one export to the next); its standings,
overall, per session and the final's; every sheet's numbers as stored (each hand's points,
reduction and running total, each seat's total and rank). It uses only what every release
since 0.1.0 has, so a release's own code can take it before an upgrade.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SNAPSHOT = """
import json
from datetime import UTC, datetime
from unittest import mock
try:
    from printing import archive
except ImportError:  # a release before the printing app (the upgrade test runs it too)
    from tournaments import archive
from tournaments.models import Hand, Seat, Tournament
every = {}
moment = datetime(2026, 11, 28, 18, 0, tzinfo=UTC)
for tournament in Tournament.objects.order_by("slug"):
    with mock.patch("django.utils.timezone.now", return_value=moment):
        text = archive.dumps(archive.tournament_to_data(tournament))
    every[tournament.slug] = {
        "archive": text,
        "standings": tournament.standings(),
        "sessions": [tournament.standings(session) for session in tournament.sessions.all()],
        "final": tournament.final_standings(),
        "seats": list(
            Seat.objects.filter(table__session__tournament=tournament)
            .order_by("pk").values_list("pk", "player_id", "total", "rank")
        ),
        "hands": list(
            Hand.objects.filter(round__game__table__session__tournament=tournament)
            .order_by("round__game_id", "round__number", "seat_id")
            .values_list(
                "round__game_id", "round__number", "seat_id", "hand_total", "along",
                "points", "reduction", "total",
            )
        ),
    }
print(json.dumps(every, default=str))
"""


def manage(database_url: str, *args: str, root: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """`manage.py` of the checkout at `root` in its own process, on `database_url`."""
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE", "CACHE_URL"}
    }
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=root,
        env={**environment, "DATABASE_URL": database_url},
        capture_output=True,
        text=True,
        check=False,
    )


def ok(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def on_postgresql() -> bool:
    return os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://"))


@contextmanager
def own_database(folder: Path, name: str) -> Iterator[tuple[str, Callable[[], None]]]:
    """A database of a test's own, empty: its URL, and how to wipe it (leave it empty).
    A SQLite file in `folder`; with DATABASE_URL on PostgreSQL, `<its name>_<name>` on that
    server, dropped afterwards."""
    if not on_postgresql():
        file = folder / f"{name}.sqlite3"

        def wipe_file() -> None:
            for suffix in ("", "-wal", "-shm"):
                file.with_name(file.name + suffix).unlink(missing_ok=True)

        yield f"sqlite:///{file}", wipe_file
        return

    import psycopg

    server, site = os.environ["DATABASE_URL"].rsplit("/", 1)
    database = f"{site}_{name}"

    def recreate(create: bool = True) -> None:
        with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
            if create:
                admin.execute(f'CREATE DATABASE "{database}"')

    recreate()
    try:
        yield f"{server}/{database}", recreate
    finally:
        recreate(create=False)
