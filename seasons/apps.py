"""Seasons, ratings, and the players' and clubs' pages across tournaments."""

from __future__ import annotations

from django.apps import AppConfig


class SeasonsConfig(AppConfig):
    name = "seasons"
    verbose_name = "Seasons and ratings"

    def ready(self) -> None:
        # The ratings follow the tournaments' finished games through a signal: the
        # tournaments app never imports this one.
        from seasons import parts, ratings, tasks  # noqa: F401

        # Its parts of the tournaments' pages, in the places those pages name.
        parts.register()
