"""Backups and the restore drill (issue 25, point 3).

The drill runs as a volunteer would, `manage.py` in its own processes against a database of
its own: the demo loaded, backed up, the database wiped, the backup restored; every
tournament's archive export must come back byte for byte and its standings unchanged. On
SQLite it uses a file; with DATABASE_URL on PostgreSQL (CI's second run), a database of its
own on that server.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from printing import backups
from tests.snapshots import SNAPSHOT, manage, ok, own_database


@pytest.fixture
def drill_database(tmp_path: Path) -> Iterator[tuple[str, Callable[[], None]]]:
    with own_database(tmp_path, "drill") as (url, wipe):
        yield url, wipe


@pytest.mark.slow  # manage.py processes
@pytest.mark.database  # manage.py on a database of its own beside the configured one
def test_the_restore_drill_brings_back_every_archive_byte_for_byte(drill_database, tmp_path):
    url, wipe = drill_database
    ok(manage(url, "migrate", "--noinput"))
    ok(manage(url, "load_demo"))
    before = json.loads(ok(manage(url, "shell", "--no-imports", "-c", SNAPSHOT)))
    assert len(before) >= 2, "the demo has a club night and the championship"
    assert all(tournament["standings"] for tournament in before.values())

    made = ok(manage(url, "backup", "--directory", str(tmp_path / "backups"), "--keep", "3"))
    (backup,) = backups.backups_in(tmp_path / "backups")
    assert str(backup) in made

    wipe()
    assert json.loads(ok(manage(url, "shell", "--no-imports", "-c", "print('[]')"))) == []
    restored = ok(manage(url, "restore", str(backup)))
    assert f"Restored {backup}." in restored

    after = json.loads(ok(manage(url, "shell", "--no-imports", "-c", SNAPSHOT)))
    assert after.keys() == before.keys()
    for slug in before:
        assert after[slug]["archive"] == before[slug]["archive"], slug
        assert after[slug]["standings"] == before[slug]["standings"], slug
        assert after[slug]["sessions"] == before[slug]["sessions"], slug
        assert after[slug]["final"] == before[slug]["final"], slug
        assert after[slug]["seats"] == before[slug]["seats"], slug
        assert after[slug]["hands"] == before[slug]["hands"], slug
    # Nothing is left to migrate: the backup had the schema with the rows.
    assert "No planned migration operations" in ok(manage(url, "migrate", "--plan"))

    # Restoring over the data the site has now is refused unless told.
    again = manage(url, "restore", str(backup))
    assert again.returncode != 0
    assert "the database is not empty: nothing was restored" in again.stderr
    assert "Restored" in ok(manage(url, "restore", "--replace", str(backup)))
    replaced = json.loads(ok(manage(url, "shell", "--no-imports", "-c", SNAPSHOT)))
    assert replaced == before


@pytest.mark.django_db(transaction=True)
def test_backup_keeps_only_the_newest_backups(tmp_path):
    for _ in range(4):
        call_command("backup", directory=tmp_path, keep=2, stdout=io.StringIO())
    kept = backups.backups_in(tmp_path)
    assert len(kept) == 2
    assert [path.suffix for path in kept] == [backups.SUFFIXES[connection.vendor]] * 2
    # No half-written file is left beside them.
    assert sorted(path.name for path in tmp_path.iterdir()) == [path.name for path in kept]


@pytest.mark.django_db(transaction=True)
def test_backup_refuses_to_keep_none(tmp_path):
    with pytest.raises(CommandError, match="--keep must be at least 1"):
        call_command("backup", directory=tmp_path, keep=0)
    assert backups.backups_in(tmp_path) == []


@pytest.mark.django_db(transaction=True)
def test_restore_refuses_a_database_that_has_data(tmp_path):
    call_command("backup", directory=tmp_path, keep=1, stdout=io.StringIO())
    (made,) = backups.backups_in(tmp_path)
    with pytest.raises(CommandError, match="the database is not empty: nothing was restored"):
        call_command("restore", str(made))


@pytest.mark.django_db(transaction=True)
def test_restore_refuses_a_file_that_is_no_backup_of_this_kind(tmp_path):
    other = tmp_path / "yaniv-other.sqlite3"
    other.write_bytes(b"PGDMP" if connection.vendor == "sqlite" else b"SQLite format 3\x00")
    with pytest.raises(CommandError, match="is not a"):
        call_command("restore", str(other))
    with pytest.raises(CommandError, match="cannot read"):
        call_command("restore", str(tmp_path / "missing.dump"))


def test_without_the_servers_pg_dump_the_backup_names_the_package_to_install(monkeypatch):
    monkeypatch.setattr(backups.shutil, "which", lambda name: None)
    with pytest.raises(backups.BackupError, match="install postgresql-client-99"):
        backups.pg_tool("pg_dump", 99)
