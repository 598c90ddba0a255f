from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from tournaments.models import Round, Session, SessionClockEvent, Tournament


class Command(BaseCommand):
    help = (
        "Load the demo (fixtures/demo.json: a club night and the championship in one season, "
        "hall screens, a session clock, ratings) into a site that has no tournament yet; the "
        "running session's clock starts again from now. With DEBUG off (production) it refuses "
        "unless --force: the demo's accounts have the passwords the README prints."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--force",
            action="store_true",
            help="load it with DEBUG off too (a demonstration site, never a real one)",
        )

    def handle(self, *args: object, force: bool = False, **options: object) -> None:
        if not settings.DEBUG and not force:
            raise CommandError(
                "DEBUG is off: this looks like a production site, and the demo's accounts "
                "(director, referee1…4) have the passwords the README prints. Nothing was "
                "loaded; use --force for a demonstration site."
            )
        # Loading over existing data would reset cached totals under newer rounds.
        if Tournament.objects.exists():
            self.stdout.write("The site already has tournaments: the demo is not loaded.")
            return
        with transaction.atomic():
            call_command("loaddata", "demo", verbosity=0)
            restart_clocks(timezone.now())
        self.stdout.write(self.style.SUCCESS("Demo loaded (see README for accounts)."))


def restart_clocks(now: datetime) -> int:
    """Start the fixture's running clocks again so that each reads now as it read when the
    demo was built: the same time gone, the same time left, counting down from here.

    The fixture is frozen at a moment of the demo day (the session's last round or clock
    change); its clock started then would have run out long ago. Only the clock and its log
    move; the rounds keep the demo day's times. How many clocks were moved."""
    moved = 0
    running = Session.objects.filter(status=Session.Status.RUNNING, clock_started_at__isnull=False)
    for session in running:
        frozen_at = max(
            moment
            for moment in (
                Round.objects.filter(game__table__session=session).aggregate(at=Max("entered_at"))[
                    "at"
                ],
                session.clock_events.aggregate(at=Max("at"))["at"],
                session.clock_started_at,
            )
            if moment is not None
        )
        shift = now - frozen_at
        assert session.clock_started_at is not None
        Session.objects.filter(pk=session.pk).update(
            clock_started_at=session.clock_started_at + shift,
            clock_paused_at=(
                session.clock_paused_at + shift if session.clock_paused_at is not None else None
            ),
            changed_at=now,
        )
        for event in session.clock_events.all():
            SessionClockEvent.objects.filter(pk=event.pk).update(at=event.at + shift)
        moved += 1
    return moved
