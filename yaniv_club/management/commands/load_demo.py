from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.db.models import Max
from django.utils import timezone, translation
from django.utils.translation import gettext, gettext_noop

from hall.models import HallScreen
from seasons.models import Season
from tournaments.models import Round, Session, SessionClockEvent, Tournament

# The demo's own words, in the language it is loaded in (a club types its tournaments' names
# and the hall's message in its own language: issue 33.8 saw English ones on Dutch pages).
TOURNAMENT_NAMES = {
    "belgisch-kampioenschap-2026": gettext_noop("Belgian Championship 2026 (demo)"),
    "clubavond-november-2026": gettext_noop("Club night November 2026 (demo)"),
}
SEASON_NAME = gettext_noop("Yaniv Club Gent ranking 2026 (demo)")
SCREEN_NAMES = {1: gettext_noop("Main hall"), 2: gettext_noop("Bar")}
HALL_MESSAGE = gettext_noop(
    "Session 2 is under way: 90 minutes on the clock. When it reaches 0:00, finish the round "
    "being played: it is the last. Prize-giving at 18:00 by the bar."
)


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
        parser.add_argument(
            "--language",
            choices=[code for code, _ in settings.LANGUAGES],
            default=settings.LANGUAGE_CODE,
            help="the language of the demo's names and hall message (the players' are names)",
        )

    def handle(
        self, *args: object, force: bool = False, language: str = "en", **options: object
    ) -> None:
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
            with translation.override(language):
                name_in_language()
        self.stdout.write(self.style.SUCCESS("Demo loaded (see README for accounts)."))


def name_in_language() -> None:
    """The demo's names and hall message in the active language."""
    for slug, name in TOURNAMENT_NAMES.items():
        Tournament.objects.filter(slug=slug).update(name=gettext(name))
    Season.objects.filter(name=SEASON_NAME).update(name=gettext(SEASON_NAME))
    screens = HallScreen.objects.filter(tournament__slug="belgisch-kampioenschap-2026")
    for number, name in SCREEN_NAMES.items():
        screens.filter(number=number).update(name=gettext(name))
    screens.filter(number=1).update(message=gettext(HALL_MESSAGE))


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
