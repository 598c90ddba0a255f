"""The rating panel's tag: `{% rating_card player tournament as card %}` (_rating.html)."""

from __future__ import annotations

from typing import Any

from django import template

from seasons import ratings
from tournaments.models import Player, Tournament

register = template.Library()


@register.simple_tag
def rating_card(player: Player, tournament: Any = None) -> ratings.RatingCard:
    """The player's rating as the page may show it: with `tournament` (a tournament's own
    page, whose viewer may see it) its games count beside the public ones."""
    return ratings.rating_card(player, tournament if isinstance(tournament, Tournament) else None)
