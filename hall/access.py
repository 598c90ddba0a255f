"""Who may open a hall screen by its secret link: the tournaments' guess limit (tournaments.access)
carried to the screens' links."""

from __future__ import annotations

from django.http import HttpRequest

from hall.models import HallScreen
from tournaments.access import guessed


def find_screen(request: HttpRequest, key: str) -> HallScreen:
    """The hall screen of a secret link (private tournaments hand these out), or 404;
    guesses limited per address, as table codes are."""
    return guessed(request, lambda: HallScreen.find(key))
