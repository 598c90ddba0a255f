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
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from printing import backups
from tests.snapshots import SNAPSHOT, manage, ok, own_database


@pytest.fixture
def drill_database(tmp_path: Path, request) -> Iterator[tuple[str, Callable[[], None]]]:
    # A name per test: on PostgreSQL, tests on two workers must not drop each other's.
    name = f"drill_{zlib.crc32(request.node.name.encode()):08x}"
    with own_database(tmp_path, name) as (url, wipe):
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
    # No half-written file is left beside them; the settings file is there once.
    names = sorted(path.name for path in tmp_path.iterdir())
    assert names == sorted([*(path.name for path in kept), backups.SETTINGS_FILE])


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


# --- issue 35: recovery from the backup alone ----------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_every_backup_carries_the_settings_a_new_server_needs_readable_by_the_site_alone(
    tmp_path, settings
):
    settings.SECRET_KEY = "the-old-servers-secret-key-of-more-than-fifty-characters-0123"
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = "private-key", "public-key"
    settings.VAPID_SUBJECT = "mailto:hilde@example.be"
    out = io.StringIO()
    call_command("backup", directory=tmp_path, keep=2, stdout=out)
    carried = tmp_path / backups.SETTINGS_FILE
    lines = carried.read_text().splitlines()
    assert [line for line in lines if not line.startswith("#")] == [
        f"SECRET_KEY={settings.SECRET_KEY}",
        "VAPID_PRIVATE_KEY=private-key",
        "VAPID_PUBLIC_KEY=public-key",
        "VAPID_SUBJECT=mailto:hilde@example.be",
    ]
    assert any("whoever reads this file can sign in as anyone" in line for line in lines)
    assert carried.stat().st_mode & 0o777 == 0o600
    assert f"Beside it, {backups.SETTINGS_FILE}: the secret key" in out.getvalue()
    # Unchanged, it is not written again (a copy taken off the server sees the same file).
    before = carried.stat().st_mtime_ns
    call_command("backup", directory=tmp_path, keep=2, stdout=io.StringIO())
    assert carried.stat().st_mtime_ns == before
    settings.SECRET_KEY = "a-rotated-secret-key-of-more-than-fifty-characters-0123456789"
    call_command("backup", directory=tmp_path, keep=2, stdout=io.StringIO())
    assert f"SECRET_KEY={settings.SECRET_KEY}" in carried.read_text().splitlines()


def test_without_web_push_keys_the_settings_file_carries_the_secret_key_alone(settings):
    settings.VAPID_PRIVATE_KEY = settings.VAPID_PUBLIC_KEY = settings.VAPID_SUBJECT = ""
    lines = [line for line in backups.recovery_settings().splitlines() if "=" in line]
    assert [line.split("=")[0] for line in lines if not line.startswith("#")] == ["SECRET_KEY"]


def demo_backed_up(url: str, folder: Path) -> tuple[dict, Path]:
    """The demo on a migrated database, its snapshot, and its backup in `folder`."""
    ok(manage(url, "migrate", "--noinput"))
    ok(manage(url, "load_demo"))
    snapshot = json.loads(ok(manage(url, "shell", "--no-imports", "-c", SNAPSHOT)))
    ok(manage(url, "backup", "--directory", str(folder)))
    (backup,) = backups.backups_in(folder)
    return snapshot, backup


@pytest.mark.slow  # manage.py processes
@pytest.mark.database  # manage.py on a database of its own beside the configured one
def test_restore_replaces_a_fresh_installs_database_even_its_newer_tables(
    drill_database, tmp_path
):
    """A new server's install migrated and made its first director before the backup comes:
    `restore --replace` leaves the backup's database alone, the install's newer tables (which
    the backup's migration history does not know) gone, and migrate then works."""
    url, wipe = drill_database
    before, backup = demo_backed_up(url, tmp_path / "backups")

    wipe()  # the new server: installed, migrated, its own first director and a newer table
    ok(manage(url, "migrate", "--noinput"))
    newer = (
        "from django.db import connection\n"
        "with connection.cursor() as c:\n"
        "    c.execute('CREATE TABLE tournaments_newer (id integer PRIMARY KEY)')\n"
        "from django.contrib.auth.models import User\n"
        "User.objects.create_user('fresh-director')\n"
    )
    ok(manage(url, "shell", "--no-imports", "-c", newer))
    assert "Restored" in ok(manage(url, "restore", "--replace", str(backup)))

    after = json.loads(ok(manage(url, "shell", "--no-imports", "-c", SNAPSHOT)))
    assert after == before
    tables = (
        "from django.db import connection\n"
        "from django.contrib.auth.models import User\n"
        "print('tournaments_newer' in connection.introspection.table_names(),"
        " User.objects.filter(username='fresh-director').exists())"
    )
    assert ok(manage(url, "shell", "--no-imports", "-c", tables)).split() == ["False", "False"]
    assert "No planned migration operations" in ok(manage(url, "migrate", "--plan"))


@pytest.mark.slow  # manage.py processes
@pytest.mark.database
def test_a_restore_that_fails_leaves_the_database_as_it_was(drill_database, tmp_path):
    url, _ = drill_database
    before, backup = demo_backed_up(url, tmp_path / "backups")
    broken = tmp_path / f"yaniv-broken{backup.suffix}"
    broken.write_bytes(backup.read_bytes()[: backup.stat().st_size // 2])

    failed = manage(url, "restore", "--replace", str(broken))
    assert failed.returncode != 0
    assert json.loads(ok(manage(url, "shell", "--no-imports", "-c", SNAPSHOT))) == before


def test_restore_forgets_only_this_sites_cache_keys_on_a_shared_redis(settings):
    """Issue 34: `restore` emptied the whole Redis database (FLUSHDB); another site or program
    sharing it keeps its keys now, and this site's go, whatever their version."""
    import os
    import uuid

    import redis
    from django.core.cache import caches

    try:
        redis.Redis(host="127.0.0.1", port=6379, socket_connect_timeout=2).ping()
    except redis.RedisError as error:
        if os.environ.get("CI"):
            pytest.fail(f"CI runs this against Redis, but it is not answering: {error}")
        pytest.skip(
            f"Redis is not answering on 127.0.0.1:6379 ({error}): `redis-server --daemonize yes`"
        )
    prefix = f"yaniv-test-{uuid.uuid4().hex[:12]}"
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:6379/15",
            "KEY_PREFIX": prefix,
        }
    }
    client = redis.Redis(host="127.0.0.1", port=6379, db=15)
    neighbour, bare = f"{prefix}-neighbour:1:their-page", f"no-prefix-{prefix}"
    try:
        site = caches["default"]
        for number in range(1200):  # more than one batch of the scan
            site.set(f"fragment-{number}", b"x", 60)
        site.set("standings", b"y", 60, version=7)
        client.set(neighbour, b"theirs")
        client.set(bare, b"theirs too")

        backups.clear_site_cache()

        assert list(client.scan_iter(match=f"{prefix}:*")) == []
        assert client.get(neighbour) == b"theirs"
        assert client.get(bare) == b"theirs too"
    finally:
        client.delete(neighbour, bare, *client.scan_iter(match=f"{prefix}:*"))
