"""Players: a search over everyone who played in (or entered) a listed tournament, and a
player with their games in the listed tournaments only; each with their rating as their public
page shows it (`api.ratings`).

A player seen only in private or draft tournaments is unknown here (404), and a player of
both kinds shows the listed tournaments alone.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Exists, OuterRef
from django.http import Http404, HttpRequest
from django.utils.translation import gettext
from ninja import Query, Router
from ninja.params import P, PathEx, QueryEx

from api.http import ERRORS, Page, Paging, Tagged, paged, rows_digest, tagged
from api.ratings import Shown, rating_out, rating_row, shown_ratings
from api.schemas import PlayerDetail, PlayerOut
from tournaments import caching
from tournaments.models import Player, Registration, Seat, Tournament
from tournaments.models.people import clean_name

router = Router(tags=["players"])

PlayerId = PathEx[int, P(ge=1, le=2**63 - 1, description="The player's id.")]
Search = QueryEx[
    str, P(max_length=100, description="Part of the player's name, any case (empty: all).")
]


def player_ref(player: Player) -> dict[str, Any]:
    """A player as the API names them: id, name, club."""
    return {
        "id": player.pk,
        "name": player.name,
        "club": player.club.name if player.club else None,
    }


def _about(player: Player) -> tuple[object, ...]:
    return (player.pk, player.name, player.club.name if player.club else None)


@router.get(
    "/players",
    response={200: Page[PlayerOut], **ERRORS},
    summary="Players of the public tournaments, by name",
)
@tagged
def player_list(request: HttpRequest, paging: Query[Paging], q: Search = "") -> Tagged:
    players = Player.objects.listed().select_related("club").order_by("name", "pk")
    # Names are stored without direction controls and with single spaces: search alike.
    query = clean_name(q.replace("\x00", ""))
    if query:
        players = players.filter(name__icontains=query)
    # The page's ratings, read once for its tag and its body.
    ratings: dict[int, Shown] = {}

    def shown(rows: list[Player]) -> Iterable[tuple[object, ...]]:
        ratings.update(shown_ratings(player.pk for player in rows))
        return ((*_about(p), *rating_row(ratings.get(p.pk))) for p in rows)

    return paged(
        players,
        paging,
        shown=shown,
        out=lambda rows: [
            {**player_ref(player), "rating": rating_out(ratings.get(player.pk))} for player in rows
        ],
    )


@router.get(
    "/players/{player_id}",
    response={200: PlayerDetail, **ERRORS},
    summary="A player and their games in the public tournaments",
)
@tagged
def player_detail(request: HttpRequest, player_id: PlayerId) -> Tagged:
    player = Player.objects.listed().select_related("club").filter(pk=player_id).first()
    if player is None:
        raise Http404(gettext("No such player."))
    shown = Tournament.objects.listed()
    seats = list(
        Seat.objects.filter(player=player, table__session__tournament__in=shown)
        .select_related("table__session", "table__game")
        .order_by("table__session__number", "table__number")
    )
    # Every tournament the player entered or played in (one query, both ways).
    tournaments = list(
        shown.filter(
            Exists(Registration.objects.filter(tournament=OuterRef("pk"), player=player))
            | Exists(Seat.objects.filter(table__session__tournament=OuterRef("pk"), player=player))
        ).order_by("-starts_on", "name", "pk")
    )
    rating = shown_ratings([player.pk]).get(player.pk)
    parts = (
        *_about(player),
        rating_row(rating),
        rows_digest(
            (
                seat.table.session.tournament_id,
                seat.table.session.number,
                seat.table.number,
                seat.position,
                seat.total,
                seat.rank,
                seat.table.game.finished,
                seat.table.game.signed_off_at,
            )
            for seat in seats
        ),
        rows_digest((caching.stamp(tournament),) for tournament in tournaments),
    )

    def body() -> dict[str, Any]:
        games: dict[int, list[dict[str, Any]]] = {t.pk: [] for t in tournaments}
        for seat in seats:
            game = seat.table.game
            games[seat.table.session.tournament_id].append(
                {
                    "session": seat.table.session.number,
                    "table": seat.table.number,
                    "seat": seat.position,
                    "total": seat.total,
                    "rank": seat.rank,
                    "finished": game.finished,
                    "provisional": game.finished and game.signed_off_at is None,
                }
            )
        return {
            **player_ref(player),
            "rating": rating_out(rating),
            "tournaments": [
                _tournament(tournament, games[tournament.pk]) for tournament in tournaments
            ],
        }

    return Tagged(parts, body)


def _tournament(tournament: Tournament, games: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "slug": tournament.slug,
        "name": tournament.name,
        "starts_on": tournament.starts_on,
        "status": tournament.status,
        "games": games,
    }
