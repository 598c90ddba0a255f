"""Downloads: standings and rounds as CSV for anyone who may see the tournament (a season's
standings for anyone who may see the season), and the whole tournament as JSON for its
directors (it holds the audit log, with usernames).

Each tournament's CSV is made once per version of what it shows and kept in the shared cache
(`tournaments.caching`), within the bound of expensive renders; the JSON archive (directors
only, never cached: it is the backup) is made afresh each time."""

from __future__ import annotations

from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseBase,
    StreamingHttpResponse,
)
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from printing import archive, downloads, season_downloads
from seasons.access import get_season_for_viewer
from tournaments import access, caching
from tournaments.access import (
    get_tournament_for_director,
    get_tournament_for_viewer,
    login_to_read,
)

CSV = "text/csv; charset=utf-8"


def _attachment(name: str) -> dict[str, str]:
    # Slugs are ASCII letters, digits, - and _: safe in the header as they are.
    return {"Content-Disposition": f'attachment; filename="{name}"'}


def _separator(request: HttpRequest) -> str | None:
    """`?sep=semicolon` for Belgian spreadsheets; a comma by default."""
    return downloads.SEPARATORS.get(request.GET.get("sep", "comma"))


def _bad_separator() -> HttpResponse:
    return HttpResponseBadRequest("sep must be comma or semicolon.", content_type="text/plain")


@require_safe
@access.downloads_limited
def standings_csv(request: HttpRequest, slug: str, number: int | None = None) -> HttpResponseBase:
    tournament = get_tournament_for_viewer(request, slug)
    separator = _separator(request)
    if separator is None:
        return _bad_separator()
    session = None
    name = f"{tournament.slug}-standings.csv"
    if number is not None:
        session = get_object_or_404(tournament.sessions, number=number)
        name = f"{tournament.slug}-standings-session-{number}.csv"
    return caching.download(
        (
            "standings.csv",
            tournament.pk,
            number,
            separator,
            tournament.live_version(finished_games_only=True),
            caching.stamp(tournament),
        ),
        lambda: downloads.standings_csv(tournament, session, separator),
        lambda content: HttpResponse(content, content_type=CSV, headers=_attachment(name)),
    )


@require_safe
@access.downloads_limited
def rounds_csv(request: HttpRequest, slug: str) -> HttpResponseBase:
    """Every round of the tournament, written from the games' sheets a few hundred tables at
    a time (the queries do not grow with the number of rounds), once per version of the
    tournament (every change of a game or a session makes a new one), then streamed."""
    tournament = get_tournament_for_viewer(request, slug)
    separator = _separator(request)
    if separator is None:
        return _bad_separator()
    return caching.download(
        (
            "rounds.csv",
            tournament.pk,
            separator,
            tournament.live_version(),
            caching.stamp(tournament),
        ),
        lambda: b"".join(downloads.rounds_csv_chunks(tournament, separator)),
        lambda content: StreamingHttpResponse(
            [content], content_type=CSV, headers=_attachment(f"{tournament.slug}-rounds.csv")
        ),
    )


@never_cache
@login_to_read
@require_safe
@access.downloads_limited
def tournament_json(request: HttpRequest, slug: str) -> HttpResponse:
    """The whole tournament for the club's archive (`manage.py import_tournament` reads it)."""
    tournament = get_tournament_for_director(request, slug)
    day = timezone.localdate().isoformat()
    return HttpResponse(
        archive.dumps(archive.tournament_to_data(tournament)),
        content_type="application/json; charset=utf-8",
        headers=_attachment(f"{tournament.slug}-{day}.json"),
    )


@require_safe
@access.downloads_limited
def season_csv(request: HttpRequest, slug: str) -> HttpResponseBase:
    """The season standings for a spreadsheet (`?sep=semicolon` for Belgian settings)."""
    season = get_season_for_viewer(request, slug)
    separator = _separator(request)
    if separator is None:
        return _bad_separator()
    content = season_downloads.season_csv(season.standings(), separator)
    return HttpResponse(
        content, content_type=CSV, headers=_attachment(f"{season.slug}-season.csv")
    )
