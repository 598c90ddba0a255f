"""The marks beside a player (penalty and bonus points, a seat that changed hands) and the
door's QR code, for the templates of every app that shows them."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from tournaments.models import Adjustment, Door
from tournaments.models.substitutions import played_rounds
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


@register.inclusion_tag("tournaments/_seat_notes.html")
def seat_notes(table: Any, seats: Any) -> dict[str, Any]:
    """Beside a game's sheet: who played which rounds of a seat that changed hands, and the
    game points given at its seats (with each seat's total counting them). No query for a
    tournament that never gave points nor took a substitute."""
    tournament = table.session.tournament
    seats = list(seats)
    turns = played_rounds(seats) if tournament.has_substitutes else {}
    given = (
        list(
            Adjustment.objects.filter(seat__table=table, removed_at__isnull=True)
            .select_related("player")
            .order_by("given_at", "pk")
        )
        if tournament.has_adjustments
        else []
    )
    return {
        "turns": [(seat, turns[seat.pk]) for seat in seats if seat.pk in turns],
        "given": given,
        "adjusted": [seat for seat in seats if seat.adjustment],
    }
