"""Downloads: standings and rounds as CSV for anyone who may see the tournament, and the
whole tournament as JSON for its directors (it holds the audit log, with usernames)."""

from __future__ import annotations

from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    StreamingHttpResponse,
)
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tournaments import exports
from tournaments.views.director import _login_to_read, get_tournament_for_director
from tournaments.views.public import _get_tournament_for_viewer

CSV = "text/csv; charset=utf-8"


def _attachment(name: str) -> dict[str, str]:
    # Slugs are ASCII letters, digits, - and _: safe in the header as they are.
    return {"Content-Disposition": f'attachment; filename="{name}"'}


def _separator(request: HttpRequest) -> str | None:
    """`?sep=semicolon` for Belgian spreadsheets; a comma by default."""
    return exports.SEPARATORS.get(request.GET.get("sep", "comma"))


def _bad_separator() -> HttpResponse:
    return HttpResponseBadRequest("sep must be comma or semicolon.", content_type="text/plain")


@require_GET
def standings_csv(request: HttpRequest, slug: str, number: int | None = None) -> HttpResponse:
    tournament = _get_tournament_for_viewer(request, slug)
    separator = _separator(request)
    if separator is None:
        return _bad_separator()
    session = None
    name = f"{tournament.slug}-standings.csv"
    if number is not None:
        session = get_object_or_404(tournament.sessions, number=number)
        name = f"{tournament.slug}-standings-session-{number}.csv"
    return HttpResponse(
        exports.standings_csv(tournament, session, separator),
        content_type=CSV,
        headers=_attachment(name),
    )


@require_GET
def rounds_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """Every round of the tournament, streamed: one query, whatever its length."""
    tournament = _get_tournament_for_viewer(request, slug)
    separator = _separator(request)
    if separator is None:
        return _bad_separator()
    return StreamingHttpResponse(
        exports.rounds_csv_chunks(tournament, separator),
        content_type=CSV,
        headers=_attachment(f"{tournament.slug}-rounds.csv"),
    )


@never_cache
@_login_to_read
@require_GET
def tournament_json(request: HttpRequest, slug: str) -> HttpResponse:
    """The whole tournament for the club's archive (`manage.py import_tournament` reads it)."""
    tournament = get_tournament_for_director(request, slug)
    day = timezone.localdate().isoformat()
    return HttpResponse(
        exports.dumps(exports.tournament_to_data(tournament)),
        content_type="application/json; charset=utf-8",
        headers=_attachment(f"{tournament.slug}-{day}.json"),
    )
