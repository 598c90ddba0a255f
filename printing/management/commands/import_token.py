from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from printing import transfer
from tournaments.access import can_create_tournament


class Command(BaseCommand):
    help = (
        "Print an import token for a director of this site (the federation's): with it, a "
        f"venue pushes a tournament here (push_tournament). It lasts {transfer.TOKEN_DAYS} "
        "days and stops working when the director's password changes."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")

    def handle(self, *args: object, username: str, **options: object) -> None:
        users = get_user_model()
        user = users._default_manager.filter(**{users.USERNAME_FIELD: username}).first()
        if user is None or not user.is_active:
            raise CommandError(f"no active account is named {username!r}")
        if not can_create_tournament(user):
            raise CommandError(f"{username} may not create tournaments (createdirector makes one)")
        self.stdout.write(transfer.import_token(user))
