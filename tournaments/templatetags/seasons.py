"""Seasons and profiles in the templates: season points, the seasons a tournament counts for."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from django import template
from django.db.models import Q

from tournaments.models import Season, Tournament
from tournaments.templatetags.yaniv import points

register = template.Library()


@register.filter
def season_points(value: Decimal | int) -> str:
    """Season points as the reader's language writes them: 25, 12.5 (12,5), 0.75."""
    return points(Fraction(value))


@register.simple_tag(takes_context=True)
def seasons_of(context: template.Context, tournament: Tournament) -> list[Season]:
    """The seasons the tournament counts for that the reader may see (one query): public
    seasons (which count it only when it is public) and the reader's own."""
    user: Any = getattr(context.get("request"), "user", None)
    # A public season counts public tournaments only.
    shown = Q(is_public=True) if tournament.is_public else Q(pk__in=[])
    if user is not None and user.is_authenticated:
        if user.is_superuser:
            shown = Q()
        else:
            shown |= Q(directors=user.pk)
    return list(Season.objects.filter(shown, tournaments=tournament).distinct().order_by("name"))
