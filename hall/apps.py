"""The hall's screens: what a projector shows, and the director's controls."""

from __future__ import annotations

from django.apps import AppConfig


class HallConfig(AppConfig):
    name = "hall"
    verbose_name = "Hall"

    def ready(self) -> None:
        # The screens follow the door (hall.receivers).
        from hall import receivers  # noqa: F401
