from __future__ import annotations

from fractions import Fraction

from django import template

register = template.Library()


@register.filter
def points(value: Fraction | int) -> str:
    """Placement points come in halves: 3, 2.5, 0.5."""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):g}"
