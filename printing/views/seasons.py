"""A season's standings to download: CSV for a spreadsheet, PDF for the wall (anyone who may
see the season, within the downloads' limit)."""

from __future__ import annotations

import io

from django.http import (
    FileResponse,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseBase,
)
from django.views.decorators.http import require_safe

from printing import downloads, season_downloads
from printing.seasons import season_standings_pdf
from seasons.access import get_season_for_viewer
from tournaments import access

CSV = "text/csv; charset=utf-8"


def _separator(request: HttpRequest) -> str | None:
    return downloads.SEPARATORS.get(request.GET.get("sep", "comma"))


@require_safe
@access.downloads_limited
def season_csv(request: HttpRequest, slug: str) -> HttpResponseBase:
    """The season standings for a spreadsheet (`?sep=semicolon` for Belgian settings)."""
    season = get_season_for_viewer(request, slug)
    separator = _separator(request)
    if separator is None:
        return HttpResponseBadRequest("sep must be comma or semicolon.", content_type="text/plain")
    content = season_downloads.season_csv(season.standings(), separator)
    return HttpResponse(
        content,
        content_type=CSV,
        headers={"Content-Disposition": f'attachment; filename="{season.slug}-season.csv"'},
    )


@require_safe
@access.downloads_limited
def season_pdf(request: HttpRequest, slug: str) -> HttpResponseBase:
    """The season standings for the wall (A4, landscape when it counts many tournaments)."""
    season = get_season_for_viewer(request, slug)
    content = season_standings_pdf(season.standings())
    response = FileResponse(
        io.BytesIO(content), filename=f"{season.slug}-season.pdf", content_type="application/pdf"
    )
    response["Cache-Control"] = "no-store"
    return response
