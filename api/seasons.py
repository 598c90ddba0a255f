"""Seasons: the public seasons, and one with its rules, its tournaments and its standings.

The standings are the season page's (`Season.standings`, `seasons.models.seasons`): the
same numbers in the same order, read in the same few queries. A private season is unknown
(404), uncounted and unlisted; a public season counts public tournaments only
(`Season.counts`), so a private tournament of it never shows, not even as a count.

A tournament set back to draft after its games still counts on the season's page; the API
never shows a draft (`api.listed`), so it reads such a tournament's standings as empty: its
results count for nobody here.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Q
from django.http import HttpRequest
from django.urls import reverse
from ninja import Query, Router
from ninja.params import P, PathEx

from api import listed
from api.http import ERRORS, Page, Paging, Tagged, page, paged, tagged, window
from api.schemas import SeasonDetail, SeasonOut
from api.tournaments import StandingsPaging
from seasons.models import Season
from seasons.models.seasons import SeasonTable, season_tables
from tournaments.models import Tournament

router = Router(tags=["seasons"])

SeasonSlug = PathEx[
    str, P(pattern=r"^[-a-zA-Z0-9_]+$", max_length=80, description="The season's address.")
]


def season_out(season: Season, tournament_count: int) -> dict[str, Any]:
    return {
        "slug": season.slug,
        "name": season.name,
        "description": season.description,
        "club": season.club.name if season.club else None,
        "rules": {
            "scheme": season.scheme,
            # Kept for a switch back while the scheme is placement points: not the rules then.
            "points_table": (
                list(season.rules.points_table) if season.scheme == Season.Scheme.TABLE else []
            ),
            "best_of": season.best_of,
        },
        "tournament_count": tournament_count,
        "page": reverse("public:season", args=[season.slug]),
    }


def _about(season: Season) -> tuple[object, ...]:
    """What a season's answers show of the season itself (its `changed_at` moves with any
    change of its settings; its club's name, with nothing)."""
    return (season.pk, season.changed_at, season.club.name if season.club else None)


@router.get(
    "/seasons",
    response={200: Page[SeasonOut], **ERRORS},
    summary="The public seasons, latest first",
)
@tagged
def season_list(request: HttpRequest, paging: Query[Paging]) -> Tagged:
    seasons = (
        Season.objects.listed()
        .select_related("club")
        .annotate(
            listed_count=Count(
                "entries",
                filter=Q(entries__tournament__in=Tournament.objects.listed()),
                distinct=True,
            )
        )
        .order_by("-created_at", "name", "pk")
    )
    return paged(
        seasons,
        paging,
        shown=lambda rows: ((*_about(s), s.listed_count) for s in rows),
        out=lambda rows: [season_out(s, s.listed_count) for s in rows],
    )


def _table(season: Season) -> SeasonTable:
    """The season's standings as its page reads them, drafts' results left out."""
    table = season.standings()
    drafts = {
        entry.tournament_id
        for entry in table.counted
        if entry.tournament.status == Tournament.Status.DRAFT
    }
    if drafts:
        # The same read model, each draft's standings given as empty (not read).
        table = season_tables([season], places={pk: [] for pk in drafts})[season.pk]
    return table


@router.get(
    "/seasons/{slug}",
    response={200: SeasonDetail, **ERRORS},
    summary="A season: its rules, its tournaments and its standings (as its page shows them)",
)
@tagged
def season_detail(
    request: HttpRequest, slug: SeasonSlug, paging: Query[StandingsPaging]
) -> Tagged:
    season = listed.season(slug)
    # Moves with the season's settings and tournaments, their finished games and statuses.
    return Tagged((season.live_version(), *_about(season)), lambda: _season_out(season, paging))


def _season_out(season: Season, paging: Paging) -> dict[str, Any]:
    table = _table(season)
    shown = [
        entry.tournament
        for entry in table.counted
        if entry.tournament.status != Tournament.Status.DRAFT
    ]
    coefficients = {entry.tournament_id: entry.coefficient for entry in table.counted}
    return {
        **season_out(season, len(shown)),
        "tournaments": [
            {
                "slug": tournament.slug,
                "name": tournament.name,
                "starts_on": tournament.starts_on,
                "status": tournament.status,
                "coefficient": float(coefficients[tournament.pk]),
                "page": reverse("public:tournament", args=[tournament.slug]),
            }
            for tournament in shown
        ],
        "standings": page(
            [
                {
                    "place": row.standing.place,
                    "player": {
                        "id": row.player.pk,
                        "name": row.player.name,
                        "club": row.player.club.name if row.player.club else None,
                    },
                    "points": float(row.standing.points),
                    "results": len(row.standing.results),
                    "results_counted": row.standing.counted,
                    "provisional": bool(row.standing.provisional),
                }
                for row in window(table.rows, paging)
            ],
            len(table.rows),
            paging,
        ),
    }
