"""Seasons and profiles in the templates: season points, the seasons a tournament counts for."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from django import template
from django.contrib.auth.models import AnonymousUser

from seasons.models import Season
from tournaments.models import Tournament
from tournaments.templatetags.yaniv import points

register = template.Library()


@register.filter
def season_points(value: Decimal | int) -> str:
    """Season points as the reader's language writes them: 25, 12.5 (12,5), 0.75."""
    return points(Fraction(value))


@register.simple_tag(takes_context=True)
def seasons_of(context: template.Context, tournament: Tournament) -> list[Season]:
    """The seasons the tournament counts for that the reader may see (one query)."""
    user: Any = getattr(context.get("request"), "user", None)
    seasons = Season.objects.visible_to(user or AnonymousUser()).filter(tournaments=tournament)
    if not tournament.is_public:
        # A public season counts public tournaments only (`Season.counts`).
        seasons = seasons.filter(is_public=False)
    return list(seasons.order_by("name"))
