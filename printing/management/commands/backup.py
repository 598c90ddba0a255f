from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from printing import backups


class Command(BaseCommand):
    help = (
        "Back the whole database up while the site runs (PostgreSQL: pg_dump's custom format; "
        "SQLite: its online backup API) into BACKUP_DIR, keeping the newest BACKUP_KEEP, with "
        f"{backups.SETTINGS_FILE} beside them: the settings a new server needs."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--directory", type=Path, help="instead of BACKUP_DIR")
        parser.add_argument("--keep", type=int, help="how many backups to keep (BACKUP_KEEP)")

    def handle(
        self, *args: object, directory: Path | None, keep: int | None, **options: object
    ) -> None:
        keep = settings.BACKUP_KEEP if keep is None else keep
        if keep < 1:
            raise CommandError("--keep must be at least 1: the backup just made is kept")
        try:
            made, removed = backups.backup(directory or settings.BACKUP_DIR, keep)
        except (backups.BackupError, OSError) as error:
            raise CommandError(f"nothing was backed up: {error}") from error
        self.stdout.write(f"Backed up to {made} ({made.stat().st_size} bytes).")
        self.stdout.write(
            f"Beside it, {backups.SETTINGS_FILE}: the secret key and web push keys a new server "
            'needs (secret: keep it as safe as the backups, README "Recovery").'
        )
        for path in removed:
            self.stdout.write(f"Removed the older {path.name}.")
