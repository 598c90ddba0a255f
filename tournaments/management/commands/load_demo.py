from __future__ import annotations

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.models import Tournament


class Command(BaseCommand):
    help = (
        "Load the demo tournament (fixtures/demo.json) into a site that has no tournament yet. "
        "With DEBUG off (production) it refuses unless --force: the demo's accounts have the "
        "passwords the README prints."
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
        call_command("loaddata", "demo", verbosity=0)
        self.stdout.write(self.style.SUCCESS("Demo tournament loaded (see README for accounts)."))
