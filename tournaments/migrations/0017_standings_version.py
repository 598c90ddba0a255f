"""The standings' version kept on the tournament's row, moved on by the database (issue 14).

The hall's standings poll read an aggregate over the tournament's sessions and game changes;
now it reads one row. Triggers move the version with every session written or deleted and
every game change that touches the standings, whatever code writes them (a save, a bulk
update, a cascade): a write site that forgot to would show stale standings.
"""

import secrets

from django.db import migrations, models

import tournaments.models.tournaments

# A session written or deleted, or a game change of a finished game, moves the standings.
SQLITE = [
    """CREATE TRIGGER tournaments_session_added_moves_standings
    AFTER INSERT ON tournaments_session BEGIN
        UPDATE tournaments_tournament SET standings_version = standings_version + 1
        WHERE id = NEW.tournament_id;
    END""",
    """CREATE TRIGGER tournaments_session_changed_moves_standings
    AFTER UPDATE ON tournaments_session BEGIN
        UPDATE tournaments_tournament SET standings_version = standings_version + 1
        WHERE id IN (OLD.tournament_id, NEW.tournament_id);
    END""",
    """CREATE TRIGGER tournaments_session_deleted_moves_standings
    AFTER DELETE ON tournaments_session BEGIN
        UPDATE tournaments_tournament SET standings_version = standings_version + 1
        WHERE id = OLD.tournament_id;
    END""",
    """CREATE TRIGGER tournaments_standing_change_moves_standings
    AFTER INSERT ON scoring_gamechange WHEN NEW.standing BEGIN
        UPDATE tournaments_tournament SET standings_version = standings_version + 1
        WHERE id = NEW.tournament_id;
    END""",
]
SQLITE_REVERSE = [
    "DROP TRIGGER IF EXISTS tournaments_session_added_moves_standings",
    "DROP TRIGGER IF EXISTS tournaments_session_changed_moves_standings",
    "DROP TRIGGER IF EXISTS tournaments_session_deleted_moves_standings",
    "DROP TRIGGER IF EXISTS tournaments_standing_change_moves_standings",
]
POSTGRESQL = [
    """CREATE FUNCTION tournaments_standings_moved() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP = 'DELETE' THEN
            UPDATE tournaments_tournament SET standings_version = standings_version + 1
            WHERE id = OLD.tournament_id;
            RETURN OLD;
        END IF;
        UPDATE tournaments_tournament SET standings_version = standings_version + 1
        WHERE id = NEW.tournament_id
           OR (TG_OP = 'UPDATE' AND id = OLD.tournament_id);
        RETURN NEW;
    END
    $$""",
    """CREATE TRIGGER tournaments_session_moves_standings
    AFTER INSERT OR UPDATE OR DELETE ON tournaments_session
    FOR EACH ROW EXECUTE FUNCTION tournaments_standings_moved()""",
    """CREATE TRIGGER tournaments_standing_change_moves_standings
    AFTER INSERT ON scoring_gamechange
    FOR EACH ROW WHEN (NEW.standing) EXECUTE FUNCTION tournaments_standings_moved()""",
]
POSTGRESQL_REVERSE = [
    "DROP TRIGGER IF EXISTS tournaments_standing_change_moves_standings ON scoring_gamechange",
    "DROP TRIGGER IF EXISTS tournaments_session_moves_standings ON tournaments_session",
    "DROP FUNCTION IF EXISTS tournaments_standings_moved()",
]


def _run(schema_editor, statements: dict[str, list[str]]) -> None:
    vendor = schema_editor.connection.vendor
    if vendor not in statements:
        raise NotImplementedError(f"the standings' triggers are written for {list(statements)}")
    for statement in statements[vendor]:
        schema_editor.execute(statement)


def add_triggers(apps, schema_editor) -> None:
    # AddField gave every tournament the same first version: each its own, as new ones get.
    Tournament = apps.get_model("tournaments", "Tournament")
    for tournament_id in Tournament.objects.values_list("pk", flat=True):
        Tournament.objects.filter(pk=tournament_id).update(
            standings_version=secrets.randbits(48)
        )
    _run(schema_editor, {"sqlite": SQLITE, "postgresql": POSTGRESQL})


def drop_triggers(apps, schema_editor) -> None:
    _run(schema_editor, {"sqlite": SQLITE_REVERSE, "postgresql": POSTGRESQL_REVERSE})


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0016_session_clock"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="standings_version",
            field=models.PositiveBigIntegerField(
                default=tournaments.models.tournaments._standings_start, editable=False
            ),
        ),
        migrations.RunPython(add_triggers, drop_triggers),
    ]
