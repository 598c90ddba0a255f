from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from printing import archive
from tournaments.models import Tournament


class Command(BaseCommand):
    help = (
        "Export a whole tournament as JSON (players, sessions, tables, every game as a game "
        "record with its audit log), for the club's archive; import_tournament reads it back."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the tournament's slug (its address: /t/<slug>/)")
        parser.add_argument("-o", "--output", help="write to this file instead of stdout")

    def handle(self, *args: object, slug: str, output: str | None, **options: object) -> None:
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f"there is no tournament with the slug {slug!r}")
        text = archive.dumps(archive.tournament_to_data(tournament))
        if output is None:
            self.stdout.write(text, ending="")
            return
        try:
            Path(output).write_text(text, encoding="utf-8")
        except OSError as error:
            raise CommandError(f"cannot write {output}: {error.strerror}") from error
        self.stderr.write(f"{tournament.name} written to {output}.")
