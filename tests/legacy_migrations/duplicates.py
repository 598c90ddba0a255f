"""Build a database as migration 0011 left it, with players sharing member numbers, then
migrate it to today (0012 makes one player per member number) and print what is left.

Run in its own process against an empty database (`DATABASE_URL`), as `upgrade.py` is.
"""

from __future__ import annotations

import io
import json
import os
import sys
from contextlib import redirect_stdout

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yaniv_club.settings")
django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.db.migrations.executor import MigrationExecutor  # noqa: E402

BEFORE = [("tournaments", "0011_the_final")]


def build() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    apps = executor.loader.project_state(BEFORE).apps
    club = apps.get_model("tournaments", "Club")
    player = apps.get_model("tournaments", "Player")
    tournament = apps.get_model("tournaments", "Tournament")
    session = apps.get_model("tournaments", "Session")
    table = apps.get_model("tournaments", "Table")
    seat = apps.get_model("tournaments", "Seat")
    registration = apps.get_model("tournaments", "Registration")
    game = apps.get_model("tournaments", "Game")
    gent, liege = club.objects.create(name="Gent"), club.objects.create(name="Liège")

    def played(slug: str, *people, total=10) -> None:
        held = tournament.objects.create(name=slug, slug=slug, starts_on="2026-01-10")
        sitting = session.objects.create(tournament=held, number=1, status="finished")
        at = table.objects.create(session=sitting, number=1)
        game.objects.create(table=at, finished=True)
        for position, person in enumerate(people, start=1):
            registration.objects.create(tournament=held, player=person)
            seat.objects.create(
                table=at, position=position, player=person, total=total * position, rank=position
            )
        sitting.moved_players = [person.pk for person in people]
        sitting.save()

    # One person who changed club: the same number and name in two clubs, two tournaments.
    ann_gent = player.objects.create(name="Ann Peeters", club=gent, member_number="1024")
    ann_liege = player.objects.create(name="ann  peeters", club=liege, member_number="1024")
    # Two people of two clubs numbered alike by their clubs: told apart.
    bart = player.objects.create(name="Bart", club=gent, member_number="7")
    chris = player.objects.create(name="Chris", club=liege, member_number="7")
    # The same name and number, but they met at a table: two people, told apart.
    dirk = player.objects.create(name="Dirk", club=gent, member_number="9")
    dirk_too = player.objects.create(name="Dirk", club=liege, member_number="9")
    other = player.objects.create(name="Eva")
    played("gent-1", ann_gent, bart, other)
    played("liege-1", ann_liege, chris)
    played("meeting", dirk, dirk_too)


def read_back(report: str) -> dict[str, object]:
    from tournaments.models import Player, PlayerMerge, Seat, Session

    return {
        "players": sorted(
            (p.name, p.club.name if p.club else None, p.member_number)
            for p in Player.objects.select_related("club")
        ),
        "seats": sorted(
            (s.table.session.tournament.slug, s.player.name, s.total)
            for s in Seat.objects.select_related("player", "table__session__tournament")
        ),
        "merges": [
            (m.merged_name, m.merged_member_number, m.into_name, m.moved, m.note, m.by_id)
            for m in PlayerMerge.objects.all()
        ],
        "moved": sorted(
            (s.tournament.slug, sorted(Player.objects.get(pk=pk).name for pk in s.moved_players))
            for s in Session.objects.select_related("tournament")
        ),
        "report": report,
    }


if __name__ == "__main__":
    build()
    printed = io.StringIO()
    with redirect_stdout(printed):
        call_command("migrate", verbosity=0)
    json.dump(read_back(printed.getvalue()), sys.stdout)
