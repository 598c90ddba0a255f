from __future__ import annotations

import os
from getpass import getpass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

DIRECTORS = "Directors"


def directors_group() -> Group:
    """The group whose members may create tournaments and use the admin for their data."""
    group, _ = Group.objects.get_or_create(name=DIRECTORS)
    group.permissions.set(
        Permission.objects.filter(content_type__app_label__in=["tournaments", "scoring"])
    )
    return group


class Command(BaseCommand):
    help = (
        "Create a tournament director: a staff account in the Directors group, who may create "
        "tournaments. The password comes from DIRECTOR_PASSWORD or is asked for."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--email", default="")

    def handle(self, *args, username: str, email: str, **options) -> None:
        password = os.environ.get("DIRECTOR_PASSWORD")
        if not password:
            if not os.isatty(0):
                raise CommandError("set DIRECTOR_PASSWORD, or run this in a terminal")
            password = getpass("Password: ")
            if password != getpass("Password (again): "):
                raise CommandError("the passwords differ")
        users = get_user_model()
        with transaction.atomic():
            if users.objects.filter(username=username).exists():
                raise CommandError(f"the user {username!r} already exists")
            user = users(username=username, email=email, is_staff=True)
            try:
                validate_password(password, user)
            except ValidationError as error:
                raise CommandError(" ".join(error.messages)) from error
            user.set_password(password)
            user.save()
            user.groups.add(directors_group())
        self.stdout.write(
            self.style.SUCCESS(f"Director {username!r} created: log in at /manage/.")
        )
