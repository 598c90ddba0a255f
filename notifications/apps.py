from __future__ import annotations

from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        # The tournaments app sends its signals; this app listens. Dependencies point one
        # way: tournaments never imports notifications.
        from notifications import parts, receivers  # noqa: F401

        # Its parts of the tournaments' pages, in the places those pages name.
        parts.register()
