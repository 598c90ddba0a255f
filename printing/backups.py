"""Backups of the whole database, and putting one back (`manage.py backup`, `manage.py restore`).

PostgreSQL: its own dump in custom format (`pg_dump -Fc`), put back with `pg_restore`. The
client must be the server's major version (an older pg_dump refuses a newer server), so it is
looked for under /usr/lib/postgresql/<major>/bin first, where Debian keeps each version.
SQLite: its online backup API, a consistent copy while the site keeps writing.

A backup is written under a temporary name and renamed when complete: rotation, and a copy
taken off the server meanwhile, never see half a file.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.core.cache import cache
from django.db import connection

PREFIX = "yaniv-"
SUFFIXES = {"postgresql": ".dump", "sqlite": ".sqlite3"}
# What each kind of backup file starts with: a restore refuses the other kind by name.
MAGIC = {"postgresql": b"PGDMP", "sqlite": b"SQLite format 3\x00"}


class BackupError(Exception):
    """Nothing was backed up or restored; the message says why."""


def vendor() -> str:
    if connection.vendor not in SUFFIXES:
        raise BackupError(f"backups know PostgreSQL and SQLite, not {connection.vendor}")
    return connection.vendor


def backup(directory: Path, keep: int) -> tuple[Path, list[Path]]:
    """Back the database up into `directory`; keep the `keep` newest backups there.
    The new file and the ones removed."""
    kind = vendor()
    directory.mkdir(parents=True, exist_ok=True)
    # Microseconds: two backups in one second (a test, a volunteer's double run) differ.
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S-%f")
    target = directory / f"{PREFIX}{stamp}{SUFFIXES[kind]}"
    partial = target.with_name(f".{target.name}.partial")
    try:
        if kind == "postgresql":
            _pg_dump(partial)
        else:
            _sqlite_copy(partial)
        partial.rename(target)
    finally:
        partial.unlink(missing_ok=True)
    return target, rotate(directory, keep)


def backups_in(directory: Path) -> list[Path]:
    """The backups in `directory`, oldest first (their names sort by time)."""
    if not directory.is_dir():
        return []
    return sorted(
        path
        for path in directory.iterdir()
        if path.name.startswith(PREFIX) and path.suffix in SUFFIXES.values()
    )


def rotate(directory: Path, keep: int) -> list[Path]:
    """Remove all but the `keep` newest backups; the ones removed."""
    every = backups_in(directory)
    removed = every[: max(len(every) - keep, 0)]
    for path in removed:
        path.unlink()
    return removed


def is_empty() -> bool:
    """The database has no table at all: a restore cannot mix with a site's own data."""
    return not connection.introspection.table_names(include_views=True)


def restore(source: Path, replace: bool = False) -> None:
    """Put the backup `source` into the database: an empty one, or with `replace` the site's
    own, whose every table the backup's replace."""
    kind = vendor()
    try:
        with source.open("rb") as file:
            head = file.read(len(MAGIC[kind]))
    except OSError as error:
        raise BackupError(f"cannot read {source}: {error.strerror}") from error
    if head != MAGIC[kind]:
        other = "SQLite" if kind == "postgresql" else "PostgreSQL"
        expected = "a PostgreSQL custom-format dump" if kind == "postgresql" else "a SQLite file"
        raise BackupError(
            f"{source} is not {expected}; the site's database is {kind}"
            + (f" (is it a {other} backup?)" if head == MAGIC.get(other.lower()) else "")
        )
    if not replace and not is_empty():
        raise BackupError(
            "the database is not empty: nothing was restored. Restore into a new, empty "
            "database, or use --replace to overwrite this one."
        )
    connection.close()
    if kind == "postgresql":
        _pg_restore(source, replace)
    else:
        _sqlite_restore(source)
    # Cached pages and totals describe the database before; the backup's are read anew.
    cache.clear()


# --- SQLite ----------------------------------------------------------------------------


def _sqlite_copy(target: Path) -> None:
    # SQLite's backup waits, forever, for a write transaction of its own connection.
    if connection.in_atomic_block:
        raise BackupError("a SQLite backup cannot run inside a transaction")
    connection.ensure_connection()
    live = connection.connection
    with sqlite3.connect(target) as copy:
        live.backup(copy)
    copy.close()


def _sqlite_restore(source: Path) -> None:
    connection.ensure_connection()
    with sqlite3.connect(f"file:{source}?mode=ro", uri=True) as backup_file:
        backup_file.backup(connection.connection)
    backup_file.close()
    connection.close()


# --- PostgreSQL ------------------------------------------------------------------------


def _server_major() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version_num")
        (number,) = cursor.fetchone()
    return int(number) // 10000


def pg_tool(name: str, major: int) -> str:
    """The path of `pg_dump` or `pg_restore` of the server's major version."""
    debian = Path(f"/usr/lib/postgresql/{major}/bin/{name}")
    if debian.is_file():
        return str(debian)
    found = shutil.which(name)
    if found is None:
        raise BackupError(
            f"{name} not found: install postgresql-client-{major} (the server is PostgreSQL "
            f"{major}, and {name} must be the same major version)"
        )
    return found


def _pg_environment() -> dict[str, str]:
    """The connection as libpq's variables: the password never shows in a process list."""
    settings: dict[str, Any] = connection.settings_dict
    variables = {
        "PGDATABASE": settings["NAME"],
        "PGHOST": settings.get("HOST") or "",
        "PGPORT": str(settings.get("PORT") or ""),
        "PGUSER": settings.get("USER") or "",
        "PGPASSWORD": settings.get("PASSWORD") or "",
    }
    return {**os.environ, **{key: value for key, value in variables.items() if value}}


def _run(command: list[str]) -> None:
    done = subprocess.run(
        command, env=_pg_environment(), capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise BackupError(f"{Path(command[0]).name} failed: {done.stderr.strip()}")


def _pg_dump(target: Path) -> None:
    _run([pg_tool("pg_dump", _server_major()), "--format=custom", f"--file={target}"])


def _pg_restore(source: Path, replace: bool) -> None:
    command = [
        pg_tool("pg_restore", _server_major()),
        "--dbname",
        connection.settings_dict["NAME"],
        # The site's database user owns what it restores, whoever owned the dump's.
        "--no-owner",
        "--no-privileges",
        # All or nothing: a failed restore leaves the database as it was.
        "--single-transaction",
        "--exit-on-error",
    ]
    if replace:
        command += ["--clean", "--if-exists"]
    _run([*command, str(source)])
    connection.close()
