"""Make the site's VAPID key pair for web push, printed as environment lines."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from notifications.push import new_vapid_keys


class Command(BaseCommand):
    help = (
        "Print a new VAPID key pair as VAPID_PRIVATE_KEY=… and VAPID_PUBLIC_KEY=… lines for "
        "the site's environment. A new pair ends every phone's subscription: make it once."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        private, public = new_vapid_keys()
        self.stdout.write(f"VAPID_PRIVATE_KEY={private}")
        self.stdout.write(f"VAPID_PUBLIC_KEY={public}")
