from __future__ import annotations

from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        # The tournaments app sends its signals; this app listens. Dependencies point one
        # way: tournaments never imports notifications.
        from notifications import receivers  # noqa: F401
