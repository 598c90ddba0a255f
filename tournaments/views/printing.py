"""The printable PDFs: blank score sheets, a game's filled sheet, standings, the report.

Each view checks access as the page it prints does, then streams the PDF inline
(the browser shows it; printing or saving keeps the file name).
"""

from __future__ import annotations

import io

from django.contrib.auth.decorators import login_required
from django.http import FileResponse, HttpRequest
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_GET

from tournaments import pdf
from tournaments.views.director import get_tournament_for_director
from tournaments.views.public import _get_tournament_for_viewer
from tournaments.views.tables import _get_table_for_user


def _pdf_response(content: bytes, filename: str) -> FileResponse:
    response = FileResponse(io.BytesIO(content), filename=filename, content_type="application/pdf")
    # The data changes with every round: always fetch the current sheet.
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_GET
def score_sheets(request: HttpRequest, slug: str, number: int) -> FileResponse:
    """Blank sheets for every table of a session, one page each (the director prints them)."""
    tournament = get_tournament_for_director(request, slug)
    session = get_object_or_404(tournament.sessions.select_related("tournament"), number=number)
    return _pdf_response(
        pdf.blank_score_sheets(session), f"{slug}-session-{number}-score-sheets.pdf"
    )


@require_GET
def table_sheet(request: HttpRequest, table_id: int) -> FileResponse:
    """A game's filled sheet, for whoever may follow the table."""
    table = _get_table_for_user(request, table_id)
    tournament = table.session.tournament
    user = request.user
    # As on the table page: account names only for the people running the table.
    show_names = user.is_authenticated and (
        table.referee_id == user.pk or tournament.is_director(user)
    )
    filename = f"{tournament.slug}-session-{table.session.number}-table-{table.number}-sheet.pdf"
    return _pdf_response(pdf.filled_score_sheet(table.game, show_names=show_names), filename)


@require_GET
def standings(request: HttpRequest, slug: str, number: int | None = None) -> FileResponse:
    tournament = _get_tournament_for_viewer(request, slug)
    session = None
    if number is not None:
        session = get_object_or_404(tournament.sessions, number=number)
    name = f"session-{number}-standings" if session else "standings"
    return _pdf_response(pdf.standings_pdf(tournament, session), f"{slug}-{name}.pdf")


@require_GET
def report(request: HttpRequest, slug: str) -> FileResponse:
    tournament = _get_tournament_for_viewer(request, slug)
    content = pdf.tournament_report(tournament, show_names=tournament.is_director(request.user))
    return _pdf_response(content, f"{slug}-report.pdf")
