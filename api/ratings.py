"""Ratings: the rating list, and a player's rating as their public page shows it.

The rating is the site's (`seasons.ratings`, openskill): every finished game rates its
players, a private tournament's too. What the API shows of it is what a player's public page
shows (`seasons.ratings.rating_card`): the rating after the player's last rated game of a
listed tournament, the number of those games, and no rating before the minimum
(`seasons.ratings.min_games`). A private game never appears, nor its count: it only
moved the belief a later public game started from, as on the page.

Each player's shown rating is one row of `RatingChange` (their last of a listed tournament),
found with window functions in one query for a whole list.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, F, Window
from django.db.models.functions import RowNumber
from django.http import HttpRequest
from ninja import Query, Router

from api import listed
from api.http import ERRORS, Page, Paging, Tagged, paged, tagged
from api.schemas import RatedPlayer
from scoring.rating import DISPLAY_SIGMAS, ordinal
from seasons.ratings import min_games

router = Router(tags=["ratings"])


@dataclass(frozen=True)
class Shown:
    """A player's rating as a public page shows it: after their last public game."""

    games: int
    mu: float
    sigma: float

    @property
    def rating(self) -> float:
        return ordinal(self.mu, self.sigma)


def _latest() -> Any:
    """Each player's last row of a listed tournament's game (in the rating order: when the
    game finished, then its id), with how many such rows the player has (`shown_games`)."""
    return listed.rating_changes().annotate(
        newest=Window(
            RowNumber(), partition_by=F("player"), order_by=[F("at").desc(), F("game").desc()]
        ),
        shown_games=Window(Count("pk"), partition_by=F("player")),
    )


def shown_ratings(player_ids: Iterable[int]) -> dict[int, Shown]:
    """The shown rating of each of these players who has a rated public game (one query)."""
    ids = sorted(set(player_ids))
    if not ids:
        return {}
    # The players are the window's partitions: choosing some leaves each one's rows whole.
    rows = _latest().filter(player__in=ids).filter(newest=1)
    return {
        player: Shown(games, mu, sigma)
        for player, games, mu, sigma in rows.values_list("player", "shown_games", "mu", "sigma")
    }


def rating_out(shown: Shown | None) -> dict[str, Any]:
    """A player's rating, or how many games they have while provisional (as the page says)."""
    minimum = min_games()
    games = shown.games if shown else 0
    if shown is None or games < minimum:
        return {
            "games": games,
            "minimum": minimum,
            "provisional": True,
            "rating": None,
            "mu": None,
            "sigma": None,
        }
    return {
        "games": games,
        "minimum": minimum,
        "provisional": False,
        "rating": shown.rating,
        "mu": shown.mu,
        "sigma": shown.sigma,
    }


def rating_row(shown: Shown | None) -> tuple[object, ...]:
    """What an answer shows of a rating, for its ETag (the minimum is a setting)."""
    return (min_games(), *((shown.games, shown.mu, shown.sigma) if shown else (0,)))


@router.get(
    "/ratings",
    response={200: Page[RatedPlayer], **ERRORS},
    summary="The rating list: players with the minimum of rated games, best first",
)
@tagged
def rating_list(request: HttpRequest, paging: Query[Paging]) -> Tagged:
    rated = (
        _latest()
        .filter(newest=1, shown_games__gte=min_games())
        .annotate(shown=F("mu") - DISPLAY_SIGMAS * F("sigma"))
        .select_related("player__club")
        .order_by("-shown", "player__name", "player_id")
    )
    return paged(
        rated,
        paging,
        shown=lambda rows: (
            (
                row.player_id,
                row.player.name,
                row.player.club.name if row.player.club else None,
                row.shown_games,
                row.mu,
                row.sigma,
            )
            for row in rows
        ),
        out=lambda rows: [
            {
                "player": {
                    "id": row.player_id,
                    "name": row.player.name,
                    "club": row.player.club.name if row.player.club else None,
                },
                "rating": ordinal(row.mu, row.sigma),
                "mu": row.mu,
                "sigma": row.sigma,
                "games": row.shown_games,
            }
            for row in rows
        ],
    )
