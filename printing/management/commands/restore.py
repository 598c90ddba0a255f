from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from printing import backups


class Command(BaseCommand):
    help = (
        "Put a backup made by `backup` into the database: an empty one (a new server, a "
        "restore drill), or with --replace the site's own, every table of it replaced (stop "
        "the app servers and the worker first: deploy/restore.sh does all of it)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="a backup file (.dump or .sqlite3)")
        parser.add_argument(
            "--replace",
            action="store_true",
            help="replace a database that has data (stop the app servers and the worker first)",
        )

    def handle(self, *args: object, file: Path, replace: bool, **options: object) -> None:
        try:
            backups.restore(file, replace=replace)
        except backups.BackupError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(f"Restored {file}.")
