"""The marks beside a player (penalty and bonus points, a seat that changed hands) and the
door's QR code, for the templates of every app that shows them."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from tournaments.models import Door
from tournaments.notes import Note
from tournaments.qr import qr_svg

register = template.Library()


@register.filter
def notes_of(notes: Any, player_id: int) -> list[Note]:
    """The notes of one player (`standings_notes`' dict; nothing when there is none)."""
    if not notes:
        return []
    return notes.get(player_id, [])


@register.simple_tag(takes_context=True)
def door_link(context: Any, door: Door, size: int = 320) -> dict[str, str | SafeString]:
    """The door's address (whole and short) and its QR code, from the request's host."""
    address = context["request"].build_absolute_uri(reverse("public:door", args=[door.code]))
    return {
        "address": address,
        "short": address.split("://", 1)[-1].rstrip("/"),
        # Drawn by attributes only (tournaments.qr): the CSP holds.
        "qr": mark_safe(qr_svg(address, size=size)),  # noqa: S308 - our own SVG, no user text
    }
