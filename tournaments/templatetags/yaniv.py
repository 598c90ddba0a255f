from __future__ import annotations

import datetime
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django import template
from django.utils import formats, timezone
from django.utils.safestring import SafeString, mark_safe

from scoring.errors import GameWarning
from tournaments import slots, texts

register = template.Library()


@register.filter
def points(value: Fraction | int) -> str:
    """Placement points come in halves: 3, 2.5, 0.5 (2,5 in Dutch and French)."""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    return formats.number_format(Decimal(value.numerator) / Decimal(value.denominator))


@register.filter
def points_count(value: Fraction | int) -> int:
    """The number a plural form of "point" follows: a whole number as it is (1 point,
    2 points), halves as plural (1.5 points)."""
    value = Fraction(value)
    return value.numerator if value.denominator == 1 else 2


@register.filter
def datetime_attribute(moment: datetime.datetime | None) -> str:
    """A moment for `<time datetime>`: ISO 8601 to the second, in the site's time zone
    ("2026-11-21T14:32:05+01:00"). HTML allows at most three digits of a second's fraction;
    Django's "c" format writes six."""
    if moment is None:
        return ""
    return timezone.localtime(moment).replace(microsecond=0).isoformat()


@register.filter
def mark_letter(mark: str | None) -> str:
    """A sheet mark ("caller", "assaf", "false", "along", "empty", …) as its letter."""
    return texts.mark_letter(mark)


@register.filter
def mark_meaning(mark: str) -> str:
    """What a sheet mark means, for the legend."""
    return texts.mark_meaning(mark)


@register.filter
def warning_text(warning: GameWarning) -> str:
    """An engine's warning about a round, in the reader's language."""
    return texts.warning(warning)


@register.simple_tag(takes_context=True)
def slot(context: template.Context, place: str, **values: Any) -> SafeString:
    """The parts other apps registered for `place` (`tournaments.slots`), each rendered as an
    inclusion tag renders: its own context and the page's CSRF token."""
    engine = context.template.engine if context.template else template.Engine.get_default()
    html = []
    for part in slots.parts(place):
        own = part.context(**values)
        if own is None:
            continue
        partial = engine.get_template(part.template)
        html.append(partial.render(context.new({**own, "csrf_token": context.get("csrf_token")})))
    # Rendered by the templates, which escaped what they show.
    return mark_safe("".join(html))  # noqa: S308
