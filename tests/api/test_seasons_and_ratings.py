"""Seasons and ratings in the API: the season page's standings and the players' pages'
ratings, public data only, with ETags and a constant number of queries."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from seasons import ratings
from seasons.models import PlayerRating, Season
from tests.api.conftest import (
    PRIVATE_SEASON_SLUG,
    PRIVATE_SLUG,
    PUBLIC_DRAFT_PLAYERS,
    PUBLIC_DRAFT_SLUG,
    SEASON_SLUG,
    World,
)
from tests.factories import make_user
from tests.season_factories import finished_tables, make_season, players, ranked_tournament
from tournaments.models import Player, Tournament

pytestmark = pytest.mark.django_db

V1 = "/api/v1"


def get(api: Client, path: str, **query: Any) -> Any:
    response = api.get(V1 + path, query)
    assert response.status_code == 200, (path, response.content)
    return response.json()


def etag_of(api: Client, path: str) -> str:
    response = api.get(V1 + path)
    assert response.status_code == 200
    assert response["Cache-Control"] == "public, no-cache"
    return response["ETag"]


def again(api: Client, path: str, etag: str) -> int:
    return api.get(V1 + path, headers={"If-None-Match": etag}).status_code


def standings_of(answer: Any) -> list[tuple[int, str, float, int, int]]:
    return [
        (
            row["place"],
            row["player"]["name"],
            row["points"],
            row["results"],
            row["results_counted"],
        )
        for row in answer["standings"]["items"]
    ]


@pytest.fixture
def ladder(db) -> Season:
    """Two finished tournaments in a season of a table of points, best result counting; the
    second counts double.

    Spring: Ann, Bart, Chris. Summer (× 2): Bart, Ann, Dirk.
    """
    ann, bart, chris, dirk = players("Ann", "Bart", "Chris", "Dirk")
    spring = ranked_tournament(
        [ann, bart, chris], name="Spring open", slug="spring", starts_on=datetime.date(2027, 4, 1)
    )
    summer = ranked_tournament(
        [bart, ann, dirk], name="Summer night", slug="summer", starts_on=datetime.date(2027, 7, 1)
    )
    return make_season(
        spring,
        summer,
        coefficients=["1", "2"],
        name="Club ladder 2027",
        slug="ladder",
        scheme=Season.Scheme.TABLE,
        points_table=[25, 20, 16],
        best_of=1,
    )


# --- seasons ---------------------------------------------------------------------------------


def test_the_seasons_are_the_public_ones_with_their_rules(api, world: World):
    seasons = get(api, "/seasons")
    assert seasons == {
        "count": 1,
        "limit": 50,
        "offset": 0,
        "items": [
            {
                "slug": SEASON_SLUG,
                "name": "Flanders ranking 2027",
                "description": "",
                "club": None,
                "rules": {"scheme": "placement", "points_table": [], "best_of": None},
                # The championship: the private tournament and the draft are not counted.
                "tournament_count": 1,
                "page": reverse("public:season", args=[SEASON_SLUG]),
            }
        ],
    }


def test_a_private_season_is_unknown_even_to_its_organiser(world: World):
    organiser = make_user("season-organiser")
    world.private_season.directors.add(organiser)
    client = Client()
    client.force_login(organiser)
    response = client.get(f"{V1}/seasons/{PRIVATE_SEASON_SLUG}")
    assert response.status_code == 404
    assert response.json() == {"code": "not_found", "detail": "No such season."}
    assert get(client, "/seasons")["count"] == 1
    # Any ETag: still a 404, never a 304.
    assert again(client, f"/seasons/{PRIVATE_SEASON_SLUG}", "*") == 404


def test_a_public_season_names_and_counts_its_listed_tournaments_only(api, world: World):
    season = get(api, f"/seasons/{SEASON_SLUG}")
    assert season["tournaments"] == [
        {
            "slug": "bk",
            "name": "Championnat de Belgique — Liège",
            "starts_on": "2026-03-14",
            "status": "running",
            "coefficient": 1.5,
            "page": "/t/bk/",
        }
    ]
    # The private tournament (not counted) and the public draft (counted on the season's
    # page) had finished games: none of their players is ranked here.
    names = {row["player"]["name"] for row in season["standings"]["items"]}
    assert len(names) == 8 and not names & set(PUBLIC_DRAFT_PLAYERS)
    assert world.both.name in names
    for hidden in (PRIVATE_SLUG, PUBLIC_DRAFT_SLUG):
        assert hidden not in api.get(f"{V1}/seasons/{SEASON_SLUG}").content.decode()


def test_the_standings_count_the_best_results_times_their_coefficient(api, ladder):
    season = get(api, "/seasons/ladder")
    assert season["rules"] == {"scheme": "table", "points_table": [25, 20, 16], "best_of": 1}
    assert [(t["slug"], t["coefficient"], t["status"]) for t in season["tournaments"]] == [
        ("spring", 1.0, "finished"),
        ("summer", 2.0, "finished"),
    ]
    # Bart: 20 in spring, 25 × 2 in summer; Ann: 25, then 20 × 2; Dirk 16 × 2; Chris 16.
    assert standings_of(season) == [
        (1, "Bart", 50.0, 2, 1),
        (2, "Ann", 40.0, 2, 1),
        (3, "Dirk", 32.0, 1, 1),
        (4, "Chris", 16.0, 1, 1),
    ]
    assert all(row["provisional"] is False for row in season["standings"]["items"])


def test_the_standings_are_those_of_the_season_page(api, client, ladder):
    page = client.get(reverse("public:season", args=["ladder"]))
    shown = [
        (row.standing.place, row.player.pk, float(row.standing.points), row.standing.counted)
        for row in page.context["table"].rows
    ]
    answer = get(api, "/seasons/ladder")
    assert [
        (row["place"], row["player"]["id"], row["points"], row["results_counted"])
        for row in answer["standings"]["items"]
    ] == shown


def test_players_level_on_points_share_the_place(api, db):
    ann, bart, chris, dirk = players("Ann", "Bart", "Chris", "Dirk")
    first = ranked_tournament([ann, chris], slug="first")
    second = ranked_tournament([bart, dirk], slug="second")
    make_season(first, second, slug="level")
    assert standings_of(get(api, "/seasons/level")) == [
        (1, "Ann", 2.0, 1, 1),
        (1, "Bart", 2.0, 1, 1),
        (3, "Chris", 1.0, 1, 1),
        (3, "Dirk", 1.0, 1, 1),
    ]


def test_a_tournament_counting_for_two_seasons_counts_in_each_by_its_rules(api, ladder):
    summer = Tournament.objects.get(slug="summer")
    make_season(summer, slug="summer-only")
    assert standings_of(get(api, "/seasons/summer-only")) == [
        (1, "Bart", 3.0, 1, 1),
        (2, "Ann", 2.0, 1, 1),
        (3, "Dirk", 1.0, 1, 1),
    ]
    assert get(api, "/seasons")["count"] == 2


def test_the_standings_are_paged(api, ladder):
    season = get(api, "/seasons/ladder", limit=2, offset=1)
    assert season["standings"]["count"] == 4
    assert (season["standings"]["limit"], season["standings"]["offset"]) == (2, 1)
    assert [row["player"]["name"] for row in season["standings"]["items"]] == ["Ann", "Dirk"]
    assert get(api, "/seasons/ladder")["standings"]["limit"] == 100


def test_a_season_answers_304_until_its_standings_may_change(api, ladder):
    path = "/seasons/ladder"
    etag = etag_of(api, path)
    assert again(api, path, etag) == 304
    entry = ladder.entries.get(tournament__slug="summer")
    ladder.set_coefficient(entry, "3")
    assert again(api, path, etag) == 200
    assert get(api, path)["standings"]["items"][0]["points"] == 75.0
    etag = etag_of(api, path)
    # A tournament turned private leaves the public season.
    Tournament.objects.filter(slug="summer").update(is_public=False)
    assert again(api, path, etag) == 200
    assert get(api, path)["tournament_count"] == 1


def test_the_season_list_answers_304_until_a_season_or_its_tournaments_change(api, ladder):
    etag = etag_of(api, "/seasons")
    assert again(api, "/seasons", etag) == 304
    Tournament.objects.filter(slug="spring").update(is_public=False)
    assert again(api, "/seasons", etag) == 200
    assert get(api, "/seasons")["items"][0]["tournament_count"] == 1


def _big_season(count: int) -> Season:
    """A finished tournament of `count` players at tables of 4, in a season of its own."""
    field = players(*(f"Player {number:03}" for number in range(count)))
    tournament = ranked_tournament([], slug=f"open-{count}")
    finished_tables(
        tournament,
        2,
        [
            [(player, 5 * seat) for seat, player in enumerate(field[i : i + 4])]
            for i in range(0, count, 4)
        ],
    )
    return make_season(tournament, slug=f"season-{count}", best_of=1)


def test_a_season_costs_the_same_queries_at_500_players(api, db, django_assert_num_queries):
    small = _big_season(8)
    # The season, its version, then the standings as the season page reads them: its
    # tournaments, the finished seats, the tournaments' rankings and final tables, the players.
    with django_assert_num_queries(7):
        assert get(api, f"/seasons/{small.slug}")["standings"]["count"] == 8
    big = _big_season(500)
    with django_assert_num_queries(7):
        answer = get(api, f"/seasons/{big.slug}", limit=500)
    assert answer["standings"]["count"] == len(answer["standings"]["items"]) == 500
    # A 304 costs the season and its version.
    etag = etag_of(api, f"/seasons/{big.slug}")
    with django_assert_num_queries(2):
        assert again(api, f"/seasons/{big.slug}", etag) == 304


# --- ratings ---------------------------------------------------------------------------------


def _card(player: Player) -> tuple[int, float | None, float | None, float | None]:
    """What the player's public page shows of their rating."""
    card = ratings.rating_card(player)
    return (card.games, card.rating, card.mu, card.sigma)


def test_a_players_rating_is_the_one_their_public_page_shows(api, world: World):
    for player in Player.objects.filter(
        pk__in=[item["id"] for item in get(api, "/players")["items"]]
    ):
        shown = get(api, f"/players/{player.pk}")["rating"]
        assert shown["minimum"] == 1 and shown["provisional"] is False
        assert (shown["games"], shown["rating"], shown["mu"], shown["sigma"]) == _card(player)


def test_a_private_game_rates_the_player_but_never_shows(api, world: World):
    # Dirk played the private tournament after the championship: his current rating counts
    # two games; the API, as his page, shows the one after the championship's game.
    current = PlayerRating.objects.get(player=world.both)
    assert current.games == 2
    shown = get(api, f"/players/{world.both.pk}")["rating"]
    assert shown["games"] == 1
    assert shown["rating"] == pytest.approx(_card(world.both)[1])
    assert shown["rating"] != pytest.approx(current.rating)
    in_list = next(
        item for item in get(api, "/ratings")["items"] if item["player"]["id"] == world.both.pk
    )
    assert (in_list["games"], in_list["rating"]) == (1, shown["rating"])


def test_the_private_and_draft_tournaments_players_are_rated_but_never_listed(api, world):
    hidden = world.hidden_player_ids
    # The private tournament's and the public draft's finished games rated their players…
    assert PlayerRating.objects.filter(player__in=hidden).count() == 5
    # …whom the rating list never shows.
    listed = {item["player"]["id"] for item in get(api, "/ratings")["items"]}
    assert len(listed) == 8 and not listed & hidden


def test_no_rating_shows_before_the_minimum_of_games(api, world, settings):
    settings.RATING_MIN_GAMES = 2
    helene = Player.objects.get(name="Hélène Dubois")
    assert get(api, f"/players/{helene.pk}")["rating"] == {
        "games": 1,
        "minimum": 2,
        "provisional": True,
        "rating": None,
        "mu": None,
        "sigma": None,
    }
    assert get(api, "/ratings")["count"] == 0


def test_a_player_without_a_rated_game_has_no_rating(api, world):
    newcomer = Player.objects.create(name="Newcomer Nora")
    world.championship.registrations.create(player=newcomer)
    assert get(api, f"/players/{newcomer.pk}")["rating"] == {
        "games": 0,
        "minimum": 1,
        "provisional": True,
        "rating": None,
        "mu": None,
        "sigma": None,
    }


def test_the_rating_list_is_best_first_then_by_name_and_paged(api, world):
    whole = get(api, "/ratings", limit=100)
    assert whole["count"] == 8
    lines = [(item["rating"], item["player"]["name"]) for item in whole["items"]]
    assert lines == sorted(lines, key=lambda line: (-line[0], line[1]))
    # Hélène and Jürgen tied for the win: the same rating, by name.
    tied = [name for rating, name in lines if name in ("Hélène Dubois", "Jürgen Peeters")]
    assert tied == ["Hélène Dubois", "Jürgen Peeters"]
    for item in whole["items"]:
        player = Player.objects.get(pk=item["player"]["id"])
        assert (item["games"], item["rating"], item["mu"], item["sigma"]) == _card(player)
    page = get(api, "/ratings", limit=3, offset=3)
    assert page["items"] == whole["items"][3:6]


def test_a_newly_rated_game_changes_the_ratings_etags(api, world: World):
    paths = ["/ratings", f"/players/{world.both.pk}", "/players"]
    etags = {path: etag_of(api, path) for path in paths}
    assert all(again(api, path, etag) == 304 for path, etag in etags.items())
    championship = Player.objects.filter(
        name__in=["Hélène Dubois", "Jürgen Peeters", "Dirk Maes"]
    ).order_by("name")
    finished_tables(
        world.championship, 3, [[(player, 10 * i) for i, player in enumerate(championship)]]
    )
    ratings.recompute()
    assert all(again(api, path, etag) == 200 for path, etag in etags.items())
    assert get(api, f"/players/{world.both.pk}")["rating"]["games"] == 2


def test_the_rating_list_and_a_page_of_players_cost_the_same_queries_for_more_players(
    api, world, django_assert_num_queries
):
    # The list: its count and its page. The players: their count, the page, their ratings.
    with django_assert_num_queries(2):
        get(api, "/ratings")
    with django_assert_num_queries(3):
        get(api, "/players")
    more = players(*(f"Player {number:02}" for number in range(40)))
    finished_tables(
        world.championship,
        3,
        [
            [(player, 5 * seat) for seat, player in enumerate(more[i : i + 4])]
            for i in range(0, 40, 4)
        ],
    )
    ratings.recompute()
    with django_assert_num_queries(2):
        assert get(api, "/ratings", limit=100)["count"] == 48
    with django_assert_num_queries(3):
        assert len(get(api, "/players", limit=100)["items"]) == 48
