"""Yaniv statistics (issue 38.5): a player's across the listed tournaments and seasons, each
player's in a tournament, and a tournament's facts; the same figures as the site's pages
(`seasons.statistics`, `tournaments.statistics`), written as data by
`tournaments.statistics.figures_data`.

A player's answer is tagged by the last change of a game in the listed tournaments they played
(every recorded round writes one), those tournaments themselves and the public seasons counting
them; a tournament's statistics by its live version, its facts by its standings' version (they
are of finished games only).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Max
from django.http import Http404, HttpRequest
from django.urls import reverse
from django.utils.translation import gettext
from ninja import Query, Router

from api import listed
from api.http import ERRORS, Page, Paging, Tagged, page, rows_digest, tagged, window
from api.players import PlayerId, player_ref
from api.schemas import FactsOut, PlayerStatisticsOut, TournamentPlayerStatistics
from api.tournaments import Slug
from seasons.models import Season, SeasonTournament
from seasons.statistics import player_statistics as read_player_statistics
from tournaments import caching
from tournaments.models import GameChange, Player, Tournament
from tournaments.statistics import (
    fact_data,
    figures_data,
    tournament_facts,
    tournament_statistics,
)

router = Router(tags=["statistics"])


@router.get(
    "/players/{player_id}/statistics",
    response={200: PlayerStatisticsOut, **ERRORS},
    summary="A player's Yaniv statistics in the public tournaments and seasons",
    description="Every round the player played in the public tournaments, finished games or "
    "not, in all, per public season and per tournament: calls and how they went, going along, "
    "emptied hands, the hands when not calling, reductions and the longest run without points.",
)
@tagged
def player_statistics(request: HttpRequest, player_id: PlayerId) -> Tagged:
    player = Player.objects.listed().select_related("club").filter(pk=player_id).first()
    if player is None:
        raise Http404(gettext("No such player."))
    played = list(
        Tournament.objects.listed().filter(sessions__tables__seats__player=player).distinct()
    )
    ids = [tournament.pk for tournament in played]
    last_change = GameChange.objects.filter(tournament_id__in=ids).aggregate(last=Max("pk"))
    seasons = SeasonTournament.objects.filter(
        season__in=Season.objects.listed(), tournament_id__in=ids
    ).values_list("season__slug", "season__name", "tournament_id")
    parts = (
        *player_ref(player).values(),
        last_change["last"],
        rows_digest((caching.stamp(tournament),) for tournament in played),
        rows_digest(seasons.order_by("season_id", "tournament_id")),
    )

    def body() -> dict[str, Any]:
        figures = read_player_statistics(player)
        return {
            **player_ref(player),
            "statistics": figures_data(figures.overall),
            "seasons": [
                {
                    "slug": line.season.slug,
                    "name": line.season.name,
                    "tournaments": line.tournaments,
                    "statistics": figures_data(line.stats),
                }
                for line in figures.seasons
            ],
            "tournaments": [
                {
                    "slug": line.tournament.slug,
                    "name": line.tournament.name,
                    "starts_on": line.tournament.starts_on,
                    "statistics": figures_data(line.stats),
                }
                for line in figures.tournaments
            ],
        }

    return Tagged(parts, body)


@router.get(
    "/tournaments/{slug}/statistics",
    response={200: Page[TournamentPlayerStatistics], **ERRORS},
    summary="Each player's Yaniv statistics in a tournament, by name",
    description="Every round recorded in the tournament, finished games or not.",
)
@tagged
def tournament_players_statistics(
    request: HttpRequest, slug: Slug, paging: Query[Paging]
) -> Tagged:
    tournament = listed.tournament(slug)

    def body() -> dict[str, Any]:
        figures = tournament_statistics(tournament)
        players = sorted(
            Player.objects.filter(pk__in=figures).select_related("club"),
            key=lambda player: (player.name.casefold(), player.pk),
        )
        return page(
            [
                {"player": player_ref(player), "statistics": figures_data(figures[player.pk])}
                for player in window(players, paging)
            ],
            len(players),
            paging,
        )

    return Tagged((tournament.live_version(), caching.stamp(tournament)), body)


@router.get(
    "/tournaments/{slug}/facts",
    response={200: FactsOut, **ERRORS},
    summary="A tournament's facts: the most Yaniv calls held, the best comeback, …",
    description="From the tournament's finished games, as its page and hall screen tell them. "
    "A fact nobody earned is left out; players level on one share it.",
)
@tagged
def tournament_facts_out(request: HttpRequest, slug: Slug) -> Tagged:
    tournament = listed.tournament(slug)

    def body() -> dict[str, Any]:
        return {
            "tournament": tournament.slug,
            "page": reverse("public:tournament", args=[tournament.slug]),
            "facts": [fact_data(fact) for fact in tournament_facts(tournament)],
        }

    # The facts are of finished games: they move with the standings' version (in the stamp).
    return Tagged((tournament.standings_version, caching.stamp(tournament)), body)
