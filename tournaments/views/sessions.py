"""The director's sessions: draw the seating, adjust it, assign referees, start, print."""

from __future__ import annotations

import random

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from tournaments import texts
from tournaments.models import Session, Table, Tournament
from tournaments.qr import qr_svg
from tournaments.views.director import get_tournament_for_director


def _session_for_director(request: HttpRequest, slug: str, number: int) -> Session:
    tournament = get_tournament_for_director(request, slug)
    return get_object_or_404(tournament.sessions.select_related("tournament"), number=number)


def _seed(request: HttpRequest) -> int:
    """The seed typed by the director (to repeat a draw), else a fresh one."""
    try:
        seed = int(request.POST.get("seed", ""))
    except ValueError:
        seed = -1
    # The seed is stored in a 64-bit column: anything else gets a fresh one.
    if not 0 < seed < 2**63:
        seed = random.SystemRandom().randrange(1, 10**9)
    return seed


def _render_session(request, session: Session, message: str = "", status: int = 200):
    tables = list(
        session.tables.select_related("referee")
        .prefetch_related("seats__player")
        .order_by("number")
    )
    players = sorted(
        (seat.player for table in tables for seat in table.seats.all()), key=lambda p: p.name
    )
    return render(
        request,
        "tournaments/sessions/session.html",
        {
            "tournament": session.tournament,
            "session": session,
            "tables": tables,
            "players": players,
            "referees": get_user_model().objects.filter(is_active=True).order_by("username"),
            "message": message,
            "methods": Session.Seating.choices[:2],
        },
        status=status,
    )


@login_required
@require_GET
def session_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return _render_session(request, _session_for_director(request, slug, number))


@login_required
@require_POST
def session_create(request: HttpRequest, slug: str) -> HttpResponse:
    """Open the next session and draw its seating from the checked-in players."""
    tournament = get_tournament_for_director(request, slug)
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        last = locked.sessions.order_by("-number").first()
        if last is not None and last.status == Session.Status.PLANNED:
            return redirect("session_manage", slug, last.number)
        session = Session.objects.create(
            tournament=locked, number=(last.number + 1) if last else 1
        )
        try:
            session.draw(request.POST.get("method", Session.Seating.RANDOM), _seed(request))
        except ValueError as error:
            transaction.set_rollback(True)
            messages.error(request, _sentence(error))
            return redirect("manage_tournament", slug)
    return redirect("session_manage", slug, session.number)


@login_required
@require_POST
def session_redraw(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    session = _session_for_director(request, slug, number)
    try:
        session.draw(request.POST.get("method", Session.Seating.RANDOM), _seed(request))
    except ValueError as error:
        return _render_session(request, session, _sentence(error), status=400)
    return redirect("session_manage", slug, number)


@login_required
@require_POST
def session_adjust(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A manual swap of two players, or a move of one player to another table."""
    session = _session_for_director(request, slug, number)
    try:
        player = int(request.POST.get("player", ""))
        if request.POST.get("action") == "swap":
            session.swap_players(player, int(request.POST.get("other", "")))
        else:
            session.move_player(player, int(request.POST.get("table", "")))
    except ValueError as error:
        text = str(error)
        if text.startswith("invalid literal"):
            text = gettext("choose the players (and the table) first")
        return _render_session(request, session, _sentence(ValueError(text)), status=400)
    return redirect("session_manage", slug, number)


@login_required
@require_POST
def session_referees(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    session = _session_for_director(request, slug, number)
    users = set(get_user_model().objects.values_list("pk", flat=True))
    tables = list(session.tables.all())
    for table in tables:
        chosen = request.POST.get(f"referee_{table.number}", "")
        if chosen and (not chosen.isdigit() or int(chosen) not in users):
            return _render_session(
                request, session, gettext("Choose referees from the list."), 400
            )
        table.referee_id = int(chosen) if chosen else None
    Table.objects.bulk_update(tables, ["referee"])
    return redirect("session_manage", slug, number)


@login_required
@require_POST
def session_status(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    session = _session_for_director(request, slug, number)
    try:
        if request.POST.get("action") == "finish":
            session.finish()
        else:
            session.start()
    except ValueError as error:
        return _render_session(request, session, _sentence(error), status=400)
    return redirect("session_manage", slug, number)


@login_required
@require_GET
def table_list(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Print-ready: every player's table and seat, alphabetically, with the site's QR code."""
    session = _session_for_director(request, slug, number)
    seats = [
        (seat.player, seat.table, seat.position)
        for table in session.tables.prefetch_related("seats__player").order_by("number")
        for seat in table.seats.all()
    ]
    seats.sort(key=lambda row: row[0].name.casefold())
    url = request.build_absolute_uri(reverse("tournament", args=[slug]))
    return render(
        request,
        "tournaments/sessions/table_list.html",
        {
            "tournament": session.tournament,
            "session": session,
            "seats": seats,
            "tables": session.tables.prefetch_related("seats__player").order_by("number"),
            "url": url,
            "qr": mark_safe(qr_svg(url)),  # noqa: S308 - reportlab's own SVG
        },
    )


def _sentence(error: Exception) -> str:
    """A draw's error as a sentence in the director's language (the seating module's English
    messages are translated by their pattern; the models' are translated already)."""
    return texts.seating_error(str(error))
