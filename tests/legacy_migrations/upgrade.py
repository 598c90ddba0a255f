"""Build a database as the migrations of 23 November 2026 left it, then migrate it to today.

Until then games, rounds, hands and the audit log were the models of a `scoring` app; its three
migrations are kept beside this file as test data. Run in its own process against an empty
database (`DATABASE_URL`), it:

1. migrates with those migrations (tournaments 0001–0003, scoring 0001–0003), as a site
   installed then would have;
2. stores a played game through the models of that time, with the content types and a
   Directors group holding the scoring app's permissions;
3. runs today's `migrate`;
4. prints, as JSON, what today's models read back.
"""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import sys

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yaniv_club.settings")
django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.db.migrations.executor import MigrationExecutor  # noqa: E402
from django.db.migrations.loader import MigrationLoader  # noqa: E402

from scoring import rules  # noqa: E402

LEGACY_TARGETS = [
    ("tournaments", "0003_tournament_preset_tournament_rule_options"),
    ("scoring", "0003_remove_round_round_has_one_ending_and_more"),
]
PLAYERS = ("Ann", "Bart", "Chris")
ROUNDS = (
    rules.Round({"Ann": 3, "Bart": 12, "Chris": 20}, yaniv="Ann", along=("Bart",)),
    rules.Round({"Ann": 40, "Bart": 0, "Chris": 9}, empty_hand="Bart"),
    rules.Round({"Ann": 8, "Bart": 2, "Chris": 7}, yaniv="Ann"),
)


class LegacyLoader(MigrationLoader):
    """Today's migrations, and the scoring app's as they were."""

    def load_disk(self) -> None:
        super().load_disk()
        package = importlib.import_module("tests.legacy_migrations.scoring")
        for module in pkgutil.iter_modules(package.__path__):
            migration = importlib.import_module(f"{package.__name__}.{module.name}")
            self.disk_migrations["scoring", module.name] = migration.Migration(
                module.name, "scoring"
            )
        self.migrated_apps.add("scoring")


def build_legacy_database() -> None:
    executor = MigrationExecutor(connection)
    executor.loader = LegacyLoader(connection)
    executor.migrate(LEGACY_TARGETS)
    apps = executor.loader.project_state(LEGACY_TARGETS).apps

    content_type = apps.get_model("contenttypes", "ContentType")
    permission = apps.get_model("auth", "Permission")
    group = apps.get_model("auth", "Group").objects.create(name="Directors")
    for model in ("game", "round", "hand", "gamechange"):
        kind = content_type.objects.create(app_label="scoring", model=model)
        group.permissions.add(
            permission.objects.create(
                content_type=kind, codename=f"view_{model}", name=f"Can view {model}"
            )
        )

    user = apps.get_model("auth", "User").objects.create(username="referee")
    tournament = apps.get_model("tournaments", "Tournament").objects.create(
        name="BK 2026", slug="bk-2026", starts_on="2026-03-14", status="running"
    )
    session = apps.get_model("tournaments", "Session").objects.create(
        tournament=tournament, number=1, status="running"
    )
    table = apps.get_model("tournaments", "Table").objects.create(
        session=session, number=1, referee=user
    )
    seats = [
        apps.get_model("tournaments", "Seat").objects.create(
            table=table,
            position=position,
            player=apps.get_model("tournaments", "Player").objects.create(name=name),
        )
        for position, name in enumerate(PLAYERS, start=1)
    ]
    by_name = dict(zip(PLAYERS, seats, strict=True))
    result = rules.score_game(rules.Game(PLAYERS, ROUNDS))
    game = apps.get_model("scoring", "Game").objects.create(table=table, version=len(ROUNDS))
    for number, (entries, scored) in enumerate(zip(ROUNDS, result.rounds, strict=True), 1):
        stored = apps.get_model("scoring", "Round").objects.create(
            game=game,
            number=number,
            kind=scored.kind.value,
            caller=by_name[entries.yaniv] if entries.yaniv else None,
            empty_hand=by_name[entries.empty_hand] if entries.empty_hand else None,
            entered_by=user,
        )
        for name, hand in entries.hands.items():
            apps.get_model("scoring", "Hand").objects.create(
                round=stored,
                seat=by_name[name],
                hand_total=hand,
                along=name in entries.along,
                points=scored.points[name],
                reduction=scored.reductions.get(name, 0),
                total=scored.totals[name],
            )
        apps.get_model("scoring", "GameChange").objects.create(
            game=game, action="record", round_number=number, user=user, version=number
        )
    for placing in result.ranking:
        seat = by_name[placing.player]
        seat.total, seat.rank = placing.total, placing.rank
        seat.save()


def schema() -> dict[str, list[str]]:
    """The game tables' columns and named constraints, as the database has them."""
    tables = ("scoring_game", "scoring_gamechange", "scoring_hand", "scoring_round")
    with connection.cursor() as cursor:
        return {
            table: sorted(
                [
                    column.name
                    for column in connection.introspection.get_table_description(cursor, table)
                ]
                + [
                    name
                    for name, constraint in connection.introspection.get_constraints(
                        cursor, table
                    ).items()
                    # SQLite names a table's own primary key and unnamed checks itself.
                    if not constraint["primary_key"] and not name.startswith("__")
                ]
            )
            for table in tables
        }


def read_back() -> dict[str, object]:
    from django.contrib.auth.models import Group
    from django.contrib.contenttypes.models import ContentType

    from tournaments.models import Game, GameChange, Hand, Round
    from tournaments.sheets import GameSheet

    game = Game.objects.select_related("table__session__tournament").get()
    sheet = GameSheet.load(game)
    before = {"rounds": Round.objects.count(), "hands": Hand.objects.count()}
    referee = game.table.referee
    game.record_round(
        rules.Round({"Ann": 1, "Bart": 30, "Chris": 4}, yaniv="Ann"), by=referee, number=4
    )
    return {
        "schema": schema(),
        "tables": sorted(model._meta.db_table for model in (Game, Round, Hand, GameChange)),
        "before": before,
        "totals": dict(sheet.sheet.totals),
        "kinds": [str(row.kind) for row in sheet.rows],
        "changes": GameChange.objects.count(),
        "after_a_new_round": {
            seat.player.name: seat.total for seat in game.table.seats.select_related("player")
        },
        "content_types": sorted(
            ContentType.objects.filter(model__in=["game", "round", "hand", "gamechange"])
            .values_list("app_label", flat=True)
            .distinct()
        ),
        "directors_may_view": sorted(
            f"{p.content_type.app_label}.{p.codename}"
            for p in Group.objects.get(name="Directors").permissions.all()
        ),
    }


if __name__ == "__main__":
    build_legacy_database()
    call_command("migrate", verbosity=0)
    json.dump(read_back(), sys.stdout)
