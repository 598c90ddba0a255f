"""Backups of the whole database, and putting one back (`manage.py backup`, `manage.py restore`).

PostgreSQL: its own dump in custom format (`pg_dump -Fc`), put back with `pg_restore`. The
client must be the server's major version (an older pg_dump refuses a newer server), so it is
looked for under /usr/lib/postgresql/<major>/bin first, where Debian keeps each version.
SQLite: its online backup API, a consistent copy while the site keeps writing.

A backup is written under a temporary name and renamed when complete: rotation, and a copy
taken off the server meanwhile, never see half a file. Beside the backups, every backup
writes `yaniv-settings.env`: the settings a new server needs to take this one's place (the
secret key, the web push keys), which the database does not hold (README, "Recovery").

Putting one back replaces the whole database: on PostgreSQL, every table the site's user owns
is dropped and the backup's are made, in one transaction (a fresh install's newer tables
included, which the backup's older migration history would otherwise trip over); then only
this site's keys leave the cache, never a Redis database's others.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.db import connection

PREFIX = "yaniv-"
SUFFIXES = {"postgresql": ".dump", "sqlite": ".sqlite3"}
# What each kind of backup file starts with: a restore refuses the other kind by name.
MAGIC = {"postgresql": b"PGDMP", "sqlite": b"SQLite format 3\x00"}
# The settings a new server cannot make again without ending what the old one signed: every
# login, import token and password-reset link (SECRET_KEY), every phone's push subscription
# (the VAPID key pair, and the subject the push services know the site by).
SETTINGS_FILE = "yaniv-settings.env"
RECOVERY_SETTINGS = ("SECRET_KEY", "VAPID_PRIVATE_KEY", "VAPID_PUBLIC_KEY", "VAPID_SUBJECT")
SETTINGS_WARNING = """\
# Yaniv Club: the settings a new server needs to take this site's place (README, "Recovery"):
# `deploy/restore.sh` (or the image's `restore`) puts them in place with the backup.
# SECRET: whoever reads this file can sign in as anyone on the site. Keep it as safe as the
# backups themselves (they hold every account): copy it off the server with them, to a place
# only the site's operators can read; never into a repository or a shared folder.
"""


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
    write_settings(directory)
    return target, rotate(directory, keep)


def recovery_settings() -> str:
    """The settings file's text: the warning, then a KEY=VALUE line for each setting set."""
    lines = [
        f"{name}={value}"
        for name in RECOVERY_SETTINGS
        if (value := str(getattr(settings, name, "") or ""))
    ]
    return SETTINGS_WARNING + "".join(f"{line}\n" for line in lines)


def write_settings(directory: Path) -> Path:
    """`yaniv-settings.env` in `directory`, readable by the site's user alone; rewritten only
    when it changed, so that a copy taken off the server sees it unchanged."""
    target = directory / SETTINGS_FILE
    text = recovery_settings()
    if target.is_file() and target.read_text() == text:
        return target
    partial = target.with_name(f".{target.name}.partial")
    try:
        partial.unlink(missing_ok=True)
        with os.fdopen(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as out:
            out.write(text)
        partial.rename(target)
    finally:
        partial.unlink(missing_ok=True)
    return target


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
    clear_site_cache()


def clear_site_cache() -> None:
    """Forget what the cache keeps of this site. On Redis only the keys under this site's
    prefix (KEY_PREFIX), whatever their version: another site or program may share the
    database, and FLUSHDB would empty theirs too. Other backends are the site's alone."""
    site = caches["default"]
    if not isinstance(site, RedisCache):
        site.clear()
        return
    # Django's own client of the primary server (RedisCache keeps it in `_cache`).
    client = site._cache.get_client(write=True)  # type: ignore[attr-defined]
    pattern = f"{site.key_prefix}:*" if site.key_prefix else site.make_key("*")
    batch: list[bytes] = []
    for key in client.scan_iter(match=pattern, count=1000):
        batch.append(key)
        if len(batch) == 500:
            client.unlink(*batch)
            batch = []
    if batch:
        client.unlink(*batch)


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


# Every table, view and sequence of the public schema that the site's user owns: what a restore
# replaces. Sequences last: a table takes its own (an identity column's cannot go before it).
DROP_SITE_TABLES = """
DO $$
DECLARE relation record;
BEGIN
    FOR relation IN
        SELECT c.relname AS name,
               CASE c.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW'
                              WHEN 'S' THEN 'SEQUENCE' ELSE 'TABLE' END AS kind
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm', 'S')
          AND pg_get_userbyid(c.relowner) = current_user
        ORDER BY c.relkind = 'S'
    LOOP
        EXECUTE format('DROP %s IF EXISTS public.%I CASCADE', relation.kind, relation.name);
    END LOOP;
END $$;
"""


def _pg_restore(source: Path, replace: bool) -> None:
    """pg_restore's script of the backup, whole, then run by psql in one transaction (all or
    nothing: a failed restore leaves the database as it was), after the site's tables are
    dropped when they are replaced."""
    major = _server_major()
    script = [
        pg_tool("pg_restore", major),
        # The site's database user owns what it restores, whoever owned the dump's.
        "--no-owner",
        "--no-privileges",
        "--file=-",
        str(source),
    ]
    psql = [pg_tool("psql", major), "--no-psqlrc", "--quiet", "--single-transaction"]
    psql += ["--set=ON_ERROR_STOP=1", "--dbname", connection.settings_dict["NAME"]]
    if replace:
        psql += ["--command", DROP_SITE_TABLES]
    psql += ["--file=-"]
    environment = _pg_environment()
    # The whole script first: pg_restore stopping half-way (a truncated file) must leave the
    # database untouched, and psql would commit what it had been given up to there.
    with tempfile.TemporaryFile() as sql:
        dump = subprocess.run(script, stdout=sql, stderr=subprocess.PIPE, env=environment)
        if dump.returncode != 0:
            errors = dump.stderr.decode(errors="replace").strip()
            raise BackupError(f"pg_restore failed, nothing was restored: {errors}")
        sql.seek(0)
        load = subprocess.run(psql, stdin=sql, capture_output=True, env=environment)
    if load.returncode != 0:
        errors = load.stderr.decode(errors="replace").strip()
        raise BackupError(f"psql failed, nothing was restored: {errors}")
    connection.close()
