"""The printable PDFs: blank score sheets, a game's filled sheet, standings, the report.

Each view checks access as the page it prints does, then streams the PDF inline
(the browser shows it; printing or saving keeps the file name). Each PDF is rendered once per
version of what it shows and kept in the shared cache (`tournaments.caching`): a second
request for an unchanged sheet renders nothing; renders beyond the process's bound get 503.
The report, the heaviest, is rendered by the task worker instead and kept in the database
(`PreparedDownload`): the request never renders it.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import FileResponse, HttpRequest, HttpResponseBase
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from printing import pdfs, tasks
from printing.door_poster import door_poster as door_poster_pdf
from printing.models import PreparedDownload
from printing.seasons import season_standings_pdf
from seasons.access import get_season_for_viewer
from tournaments import access, caching
from tournaments.access import get_session_for_director
from tournaments.models import Door
from tournaments.sheets import GameSheet

# How often the page of a report being prepared asks again, in seconds.
PREPARING_REFRESH_SECONDS = 3


def _pdf_response(content: bytes, filename: str) -> FileResponse:
    response = FileResponse(io.BytesIO(content), filename=filename, content_type="application/pdf")
    # The data changes with every round: always fetch the current sheet.
    response["Cache-Control"] = "no-store"
    return response


def _pdf(
    parts: tuple[object, ...], render: Callable[[], bytes], filename: str
) -> HttpResponseBase:
    """The PDF of what `parts` name (with its version), rendered once (tournaments.caching)."""
    return caching.download(
        ("pdf", *parts), render, lambda content: _pdf_response(content, filename)
    )


@require_safe
@access.downloads_limited
def table_sheet(
    request: HttpRequest, table_id: int | None = None, code: str | None = None
) -> HttpResponseBase:
    """A game's filled sheet, for whoever may follow the table (or holds its code)."""
    table = access.get_table_for_viewer(request, table_id, code)
    tournament = table.session.tournament
    # As on the table page: account names only for the people running the table.
    show_names = code is None and access.can_see_names(request.user, table)
    filename = f"{tournament.slug}-session-{table.session.number}-table-{table.number}-sheet.pdf"
    return _pdf(
        ("sheet", table.pk, table.game.version, show_names, caching.stamp(tournament)),
        lambda: pdfs.filled_score_sheet(GameSheet.load(table.game), show_names=show_names),
        filename,
    )


@require_safe
@access.downloads_limited
def standings(request: HttpRequest, slug: str, number: int | None = None) -> HttpResponseBase:
    tournament = access.get_tournament_for_viewer(request, slug)
    session = None
    if number is not None:
        session = get_object_or_404(tournament.sessions, number=number)
    name = f"session-{number}-standings" if session else "standings"
    return _pdf(
        (
            "standings",
            tournament.pk,
            number,
            tournament.live_version(finished_games_only=True),
            caching.stamp(tournament),
        ),
        lambda: pdfs.standings_pdf(tournament, session),
        f"{slug}-{name}.pdf",
    )


@require_safe
@access.downloads_limited
def report(request: HttpRequest, slug: str) -> HttpResponseBase:
    """The report takes seconds to render at a championship's size: a background task renders
    it once per version (`PreparedDownload`); until it is ready the answer is 202, a page
    that asks again by itself every few seconds, and then the PDF."""
    tournament = access.get_tournament_for_viewer(request, slug)
    show_names = access.can_direct(request.user, tournament)
    version = tournament.live_version()
    kind = PreparedDownload.Kind.REPORT
    key = caching.key(
        "prepared", kind, tournament.pk, show_names, version, caching.stamp(tournament)
    )
    prepared, asked = PreparedDownload.ask(tournament, kind, key, version, show_names)
    if prepared.ready_at is not None:
        return _pdf_response(prepared.file, f"{slug}-report.pdf")
    if asked:
        language = get_language()
        # Robust: a queue that failed leaves a file asked for, asked again later.
        transaction.on_commit(
            lambda: tasks.prepare_download.enqueue(prepared.pk, language), robust=True
        )
    response = render(
        request,
        "tournaments/preparing.html",
        {"tournament": tournament, "refresh": PREPARING_REFRESH_SECONDS},
        status=202,
    )
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_safe
def score_sheets(request: HttpRequest, slug: str, number: int) -> FileResponse:
    """Blank sheets for every table of a session, one page each (the director prints them);
    while the session takes table codes, each sheet carries its table's link and QR code."""
    session = get_session_for_director(request, slug, number)
    links = {
        table_id: request.build_absolute_uri(reverse("codes:detail", args=[code.code]))
        for table_id, code in session.ensure_codes().items()
    }
    # Never kept: the codes change when reissued, and the sheets print the current ones.
    return _pdf_response(
        pdfs.blank_score_sheets(session, links=links), f"{slug}-session-{number}-score-sheets.pdf"
    )


@require_safe
@access.downloads_limited
def season_pdf(request: HttpRequest, slug: str) -> HttpResponseBase:
    """The season standings for the wall (A4, landscape when it counts many tournaments)."""
    season = get_season_for_viewer(request, slug)
    return _pdf_response(season_standings_pdf(season.standings()), f"{season.slug}-season.pdf")


@login_required
@require_safe
def door_poster(request: HttpRequest, slug: str) -> HttpResponseBase:
    """The door's poster to print: its QR code and short address (never kept: a new address
    is a new poster)."""
    tournament = access.get_tournament_for_director(request, slug)
    door = Door.of(tournament)
    address = request.build_absolute_uri(reverse("public:door", args=[door.code]))
    return _pdf_response(door_poster_pdf(door, address), f"{slug}-check-in-poster.pdf")
