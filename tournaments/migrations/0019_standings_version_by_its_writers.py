"""The standings' version is moved by the writers of games and sessions (`move_standings`, in
their transaction), no longer by the triggers of migration 0017: triggers written by hand for
each database, which SQLite drops when a migration rebuilds a table."""

import importlib

from django.db import migrations

# Migration 0017's statements, to put the triggers back when this one is reversed.
_0017 = importlib.import_module("tournaments.migrations.0017_standings_version")


def drop_triggers(apps, schema_editor) -> None:
    _0017.drop_triggers(apps, schema_editor)


def add_triggers(apps, schema_editor) -> None:
    _0017._run(schema_editor, {"sqlite": _0017.SQLITE, "postgresql": _0017.POSTGRESQL})


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0018_issue22_access"),
    ]

    operations = [
        migrations.RunPython(drop_triggers, add_triggers),
    ]
