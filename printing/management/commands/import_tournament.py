from __future__ import annotations

import sys
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from printing import archive_import


class Command(BaseCommand):
    help = (
        "Import a tournament exported by export_tournament, in one transaction: a file that "
        "is broken, inconsistent or already imported changes nothing. Players are matched "
        "with the site's by club and member number, else by name and club; other players "
        "are created; unknown usernames become inactive accounts without a usable password. "
        "--director gives the imported tournament to an existing account too."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="the exported JSON file; '-' reads stdin")
        parser.add_argument(
            "--director",
            metavar="USERNAME",
            help="an existing account that directs the imported tournament (with the file's)",
        )

    def handle(
        self, *args: object, path: str, director: str | None = None, **options: object
    ) -> None:
        account = None
        if director is not None:
            users = get_user_model()
            account = users._default_manager.filter(**{users.USERNAME_FIELD: director}).first()
            if account is None:
                raise CommandError(f"no account is named {director!r}. Nothing was imported.")
        try:
            text = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
        except OSError as error:
            raise CommandError(f"cannot read {path}: {error.strerror}") from error
        try:
            report = archive_import.import_tournament(archive_import.loads(text), director=account)
        except archive_import.ImportRefused as error:
            raise CommandError(f"{error}. Nothing was imported.") from error
        for line in report.lines():
            self.stdout.write(line)
