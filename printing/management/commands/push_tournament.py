from __future__ import annotations

import json
import os
import urllib.error
import urllib.request

from django.core.management.base import BaseCommand, CommandError, CommandParser

from printing import archive
from tournaments.models import Tournament


class Command(BaseCommand):
    help = (
        "Send a tournament (its whole archive) to the federation's site in one step, with a "
        "director's import token from there (--token or IMPORT_TOKEN): it is imported there "
        "as import_tournament would, all or nothing."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the tournament's slug here")
        parser.add_argument("--to", required=True, help="the federation site's address")
        parser.add_argument("--token", help="the import token (else IMPORT_TOKEN)")

    def handle(
        self, *args: object, slug: str, to: str, token: str | None, **options: object
    ) -> None:
        token = token or os.environ.get("IMPORT_TOKEN", "")
        if not token:
            raise CommandError("give the import token: --token or IMPORT_TOKEN")
        if not to.startswith(("https://", "http://")):
            raise CommandError("--to must be the site's address, https://…")
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f"there is no tournament with the slug {slug!r}")
        body = archive.dumps(archive.tournament_to_data(tournament)).encode()
        request = urllib.request.Request(
            to.rstrip("/") + "/manage/import.json",
            data=body,
            method="POST",
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=300) as response:  # noqa: S310
                answer = json.loads(response.read())
        except urllib.error.HTTPError as error:
            try:
                reason = json.loads(error.read()).get("error", error.reason)
            except ValueError:
                reason = error.reason
            raise CommandError(f"{to} refused it ({error.code}): {reason}") from error
        except (urllib.error.URLError, OSError) as error:
            raise CommandError(f"cannot reach {to}: {error}. Nothing was sent.") from error
        for line in answer["report"]:
            self.stdout.write(line)
        self.stdout.write(self.style.SUCCESS(f"{tournament.name} is at {answer['url']}"))
