"""One player per member number (issue 16): the federation's member number is the person.

Until now a member number was unique within a club only. Before it becomes unique on its own
(0013), players sharing one are made one where that is safe, and told apart otherwise; every
game is kept either way:

- players with the same number and the same name (case and spaces aside) who never played or
  registered in the same tournament are one person (e.g. a player who changed club): the later
  ones are merged into the first the site knew (their seats and registrations follow; a
  `PlayerMerge` entry by nobody, with a note, says so);
- any other player holding a number already taken keeps it with their id appended
  ("1024 (#57)"), and the migration prints a line for each: an administrator checks them and
  merges the real duplicates on /manage/players/merge/.
"""

from __future__ import annotations

import sys

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

NOTE = "migration 0012: same member number and name"


def fold(name: str) -> str:
    return " ".join(name.casefold().split())


def tournaments_of(apps, player) -> set[int]:
    seat = apps.get_model("tournaments", "Seat")
    registration = apps.get_model("tournaments", "Registration")
    return set(
        seat.objects.filter(player=player).values_list("table__session__tournament_id", flat=True)
    ) | set(registration.objects.filter(player=player).values_list("tournament_id", flat=True))


def merge(apps, merged, into) -> None:
    seat = apps.get_model("tournaments", "Seat")
    registration = apps.get_model("tournaments", "Registration")
    session = apps.get_model("tournaments", "Session")
    sessions = list(
        session.objects.filter(
            pk__in=seat.objects.filter(player=merged).values("table__session")
        )
    )
    moved = {
        "seats": seat.objects.filter(player=merged).update(player=into),
        "registrations": registration.objects.filter(player=merged).update(player=into),
    }
    for each in sessions:
        if merged.pk in each.moved_players:
            each.moved_players = sorted(
                {into.pk if pk == merged.pk else pk for pk in each.moved_players}
            )
            each.save(update_fields=["moved_players"])
    if into.club_id is None and merged.club_id is not None:
        into.club_id = merged.club_id
        into.save(update_fields=["club"])
    club = apps.get_model("tournaments", "Club").objects.filter(pk=merged.club_id).first()
    apps.get_model("tournaments", "PlayerMerge").objects.create(
        into=into,
        into_name=into.name,
        merged_id=merged.pk,
        merged_name=merged.name,
        merged_club=club.name if club else "",
        merged_member_number=merged.member_number,
        moved={kind: count for kind, count in moved.items() if count},
        note=NOTE,
    )
    merged.delete()


def qualified(number: str, pk: int) -> str:
    suffix = f" (#{pk})"
    return number[: 40 - len(suffix)] + suffix


def one_player_per_member_number(apps, schema_editor) -> None:
    player = apps.get_model("tournaments", "Player")
    shared = (
        player.objects.exclude(member_number="")
        .values("member_number")
        .annotate(holders=models.Count("pk"))
        .filter(holders__gt=1)
        .values_list("member_number", flat=True)
    )
    for number in list(shared):
        holders = list(player.objects.filter(member_number=number).order_by("pk"))
        keepers: list = []  # one per name, the first the site knew
        for holder in holders:
            same = next((k for k in keepers if fold(k.name) == fold(holder.name)), None)
            if same is not None and not tournaments_of(apps, same) & tournaments_of(apps, holder):
                merge(apps, holder, same)
                continue
            keepers.append(holder)
        for other in keepers[1:]:
            other.member_number = qualified(number, other.pk)
            other.save(update_fields=["member_number"])
            sys.stdout.write(
                f"\n  player {other.pk} {other.name!r}: member number {number!r} is also "
                f"player {keepers[0].pk} {keepers[0].name!r}'s; stored as "
                f"{other.member_number!r} (merge them on /manage/players/merge/ if they are one "
                "person)"
            )


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0011_the_final"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="PlayerMerge",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("into_name", models.CharField(max_length=120, verbose_name="merged into (name)")),
                (
                    "merged_id",
                    models.PositiveIntegerField(db_index=True, verbose_name="merged player's id"),
                ),
                ("merged_name", models.CharField(max_length=120, verbose_name="merged player")),
                (
                    "merged_club",
                    models.CharField(blank=True, max_length=120, verbose_name="their club"),
                ),
                (
                    "merged_member_number",
                    models.CharField(blank=True, max_length=40, verbose_name="their member number"),
                ),
                (
                    "at",
                    models.DateTimeField(
                        default=django.utils.timezone.now, verbose_name="merged at"
                    ),
                ),
                ("moved", models.JSONField(blank=True, default=dict, verbose_name="rows moved")),
                ("note", models.CharField(blank=True, max_length=200, verbose_name="note")),
                (
                    "by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="merged by",
                    ),
                ),
                (
                    "into",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="merges",
                        to="tournaments.player",
                        verbose_name="merged into",
                    ),
                ),
            ],
            options={
                "verbose_name": "player merge",
                "verbose_name_plural": "player merges",
                "ordering": ["-at", "-pk"],
            },
        ),
        migrations.RunPython(one_player_per_member_number, migrations.RunPython.noop),
    ]
