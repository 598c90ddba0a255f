from __future__ import annotations

import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments import exports


class Command(BaseCommand):
    help = (
        "Import a tournament exported by export_tournament, in one transaction: a file that "
        "is broken, inconsistent or already imported changes nothing. Players with a club and "
        "a member number are matched with the site's, other players are created; unknown "
        "usernames become inactive accounts without a usable password."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="the exported JSON file; '-' reads stdin")

    def handle(self, *args: object, path: str, **options: object) -> None:
        try:
            text = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
        except OSError as error:
            raise CommandError(f"cannot read {path}: {error.strerror}") from error
        try:
            report = exports.import_tournament(exports.loads(text))
        except exports.ImportRefused as error:
            raise CommandError(f"{error}. Nothing was imported.") from error
        for line in report.lines():
            self.stdout.write(line)
