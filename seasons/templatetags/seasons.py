"""Seasons and profiles in the templates: season points, the seasons a tournament counts for."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from django import template

from tournaments.templatetags.yaniv import points

register = template.Library()


@register.filter
def season_points(value: Decimal | int) -> str:
    """Season points as the reader's language writes them: 25, 12.5 (12,5), 0.75."""
    return points(Fraction(value))
