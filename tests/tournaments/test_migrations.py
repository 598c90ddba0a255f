"""A database built when games were the `scoring` app's migrates with every round intact."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import uuid
from pathlib import Path

import psycopg
import pytest
from django.db import connection

from tests.legacy_migrations.upgrade import schema

# Each builds an old database and migrates it in a process of its own (`make test`, CI).
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


def upgraded(database_url: str) -> dict:
    """Run tests/legacy_migrations/upgrade.py against an empty database; what it read back."""
    done = subprocess.run(
        [sys.executable, "-m", "tests.legacy_migrations.upgrade"],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": database_url, "DEBUG": "1"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture
def legacy_database_url(tmp_path):
    """An empty database of the suite's own kind: a SQLite file, or a PostgreSQL database."""
    if connection.vendor == "sqlite":
        yield f"sqlite:///{tmp_path / 'legacy.sqlite3'}"
        return
    settings = connection.settings_dict
    name = f"yaniv_legacy_{uuid.uuid4().hex[:8]}"
    host, port = settings["HOST"] or "127.0.0.1", settings["PORT"] or 5432
    user, password = settings["USER"] or "postgres", settings["PASSWORD"] or None

    def server() -> psycopg.Connection:
        return psycopg.connect(
            host=host, port=port, user=user, password=password, dbname="postgres", autocommit=True
        )

    with server() as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    secret = f":{password}" if password else ""
    yield f"postgres://{user}{secret}@{host}:{port}/{name}"
    with server() as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.mark.django_db
def test_a_database_of_the_scoring_app_keeps_every_round_and_takes_new_ones(
    legacy_database_url,
):
    after = upgraded(legacy_database_url)
    # The same tables, rows and numbers, read through today's models.
    assert after["tables"] == [
        "scoring_game",
        "scoring_gamechange",
        "scoring_hand",
        "scoring_round",
    ]
    assert after["before"] == {"rounds": 3, "hands": 9}
    assert after["kinds"] == ["yaniv", "empty_hand", "false_yaniv"]
    assert after["totals"] == {"Ann": 74, "Bart": 32, "Chris": 29}
    # A round recorded after the upgrade is stored, scored and logged as any other.
    assert after["after_a_new_round"] == {"Ann": 74, "Bart": 62, "Chris": 33}
    assert after["changes"] == 4
    # The models' content types moved, and the Directors' permissions with them.
    assert after["content_types"] == ["tournaments"]
    assert after["directors_may_view"] == [
        "tournaments.view_game",
        "tournaments.view_gamechange",
        "tournaments.view_hand",
        "tournaments.view_round",
    ]
    # The upgraded schema is the one a fresh database gets: columns and constraint names.
    assert after["schema"] == schema()


def migrated_duplicates(database_url: str) -> dict:
    """Run tests/legacy_migrations/duplicates.py against an empty database."""
    done = subprocess.run(
        [sys.executable, "-m", "tests.legacy_migrations.duplicates"],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": database_url, "DEBUG": "1"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.django_db
def test_players_sharing_a_member_number_become_one_where_safe_and_no_game_is_lost(
    legacy_database_url,
):
    after = migrated_duplicates(legacy_database_url)
    players = [tuple(row) for row in after["players"]]
    # Two of a number held by two people keep it with their id: "7 (#12)".
    told_apart = {name: number for name, club, number in players if "(#" in number}
    assert set(told_apart) == {"Chris", "Dirk"}
    assert re.fullmatch(r"7 \(#\d+\)", told_apart["Chris"])
    assert re.fullmatch(r"9 \(#\d+\)", told_apart["Dirk"])
    # Ann changed club: one player now, her first club kept, both tournaments' seats hers.
    assert players == [
        ("Ann Peeters", "Gent", "1024"),
        ("Bart", "Gent", "7"),
        ("Chris", "Liège", told_apart["Chris"]),
        ("Dirk", "Gent", "9"),
        ("Dirk", "Liège", told_apart["Dirk"]),
        ("Eva", None, ""),
    ]
    assert [tuple(row) for row in after["seats"]] == [
        ("gent-1", "Ann Peeters", 10),
        ("gent-1", "Bart", 20),
        ("gent-1", "Eva", 30),
        ("liege-1", "Ann Peeters", 10),
        ("liege-1", "Chris", 20),
        ("meeting", "Dirk", 10),
        ("meeting", "Dirk", 20),
    ]
    assert [tuple(row) for row in after["merges"]] == [
        (
            "ann  peeters",
            "1024",
            "Ann Peeters",
            {"seats": 1, "registrations": 1},
            "migration 0012: same member number and name",
            None,
        )
    ]
    assert ["liege-1", ["Ann Peeters", "Chris"]] in after["moved"]
    # Each player told apart is reported, for an administrator to check.
    assert "member number '7' is also player" in after["report"]
    assert "member number '9' is also player" in after["report"]
    assert after["report"].count("/manage/players/merge/") == 2
