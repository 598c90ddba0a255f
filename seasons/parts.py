"""The seasons' parts of the tournaments' pages (`tournaments.slots`, registered by
`SeasonsConfig.ready`): a player's rating on their page in a tournament, and the seasons a
tournament counts for under its title."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser

from seasons.models import Season
from tournaments import slots
from tournaments.models import Player, Tournament


def rating(tournament: Tournament, player: Player) -> dict[str, Any]:
    return {"tournament": tournament, "player": player}


def counts_for(tournament: Tournament, user: Any) -> dict[str, Any] | None:
    """The seasons the tournament counts for that the reader may see (one query); nothing
    when there are none."""
    seasons = Season.objects.visible_to(user or AnonymousUser()).filter(tournaments=tournament)
    if not tournament.is_public:
        # A public season counts public tournaments only (`Season.counts`).
        seasons = seasons.filter(is_public=False)
    found = list(seasons.order_by("name"))
    return {"counts_for": found} if found else None


def register() -> None:
    slots.register("tournament", "seasons/_counts_for.html", counts_for)
    slots.register("player", "seasons/_rating.html", rating)
