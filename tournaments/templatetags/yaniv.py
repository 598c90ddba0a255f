from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from django import template
from django.utils import formats
from django.utils.translation import pgettext_lazy

register = template.Library()

# How a score sheet marks a hand, on the pages and in the PDFs (a letter of the language).
MARK_LETTERS = {
    "caller": pgettext_lazy("sheet mark: Yaniv caller", "Y"),
    # An Assaf: the caller did not hold the lowest hand (automatic Assaf presets).
    "assaf": pgettext_lazy("sheet mark: Assaf", "S"),
    "false": pgettext_lazy("sheet mark: false Yaniv", "F"),
    "along": pgettext_lazy("sheet mark: went along", "A"),
    "empty": pgettext_lazy("sheet mark: emptied hand", "E"),
}


@register.filter
def points(value: Fraction | int) -> str:
    """Placement points come in halves: 3, 2.5, 0.5 (2,5 in Dutch and French)."""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    return formats.number_format(Decimal(value.numerator) / Decimal(value.denominator))


@register.filter
def mark_letter(mark: str) -> str:
    """A sheet mark ("caller", "assaf", "false", "along", "empty") as its letter; "" for none."""
    letter = MARK_LETTERS.get(mark)
    return str(letter) if letter is not None else ""
