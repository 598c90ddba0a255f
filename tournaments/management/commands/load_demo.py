from __future__ import annotations

from django.core.management import call_command
from django.core.management.base import BaseCommand

from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Load the demo tournament (fixtures/demo.json) into a site that has no tournament yet."

    def handle(self, *args: object, **options: object) -> None:
        # Loading over existing data would reset cached totals under newer rounds.
        if Tournament.objects.exists():
            self.stdout.write("The site already has tournaments: the demo is not loaded.")
            return
        call_command("loaddata", "demo", verbosity=0)
        self.stdout.write(self.style.SUCCESS("Demo tournament loaded (see README for accounts)."))
