"""A player's Yaniv statistics page (issue 38.5): the figures of the fixed games played through
the site (tests/statistics_world.py) as computed by hand, per tournament and per season, with
its charts; public data only, in three languages, at a fixed number of queries."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring.statistics import HAND_BINS
from seasons import statistics
from tests.factories import HTMX, make_user
from tests.statistics_world import play, statistics_world
from tournaments.models import Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    return statistics_world()


def url(player: Player) -> str:
    return reverse("public:profile_statistics", args=[player.pk])


def page(client, player: Player, **headers) -> str:
    response = client.get(url(player), headers=headers)
    assert response.status_code == 200
    return response.content.decode()


def text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def row(html: str, name: str) -> list[str]:
    """The cells of a statistics table's row, by the tournament's or season's name."""
    found = re.search(rf"<tr>\s*<th scope=\"row\"><a [^>]+>{name}</a>.*?</tr>", html, re.S)
    assert found, name
    return [text(cell) for cell in re.findall(r"<td>(.*?)</td>", found[0], re.S)]


def test_anns_figures_are_those_of_her_public_games_computed_by_hand(world):
    figures = statistics.player_statistics(world["people"]["Ann"])
    overall = figures.overall
    # Game 1 and game 2 (tests/scoring/statistics_games.py); the secret night's call is not.
    assert (overall.games, overall.rounds, overall.calls) == (2, 10, 4)
    assert (overall.held, overall.caught, overall.assafs, overall.false_yanivs) == (2, 1, 1, 0)
    assert (overall.waiting_rounds, overall.waiting_hands) == (6, 84)
    assert (overall.reductions, overall.reduced, overall.longest_run) == (1, 50, 1)
    assert [line.tournament.slug for line in figures.tournaments] == ["night", "cup"]
    assert [(line.season.slug, line.tournaments) for line in figures.seasons] == [("ladder", 2)]


def test_the_page_shows_the_figures_the_tables_and_the_charts(client, world):
    html = page(client, world["people"]["Ann"])
    words = text(html)
    assert "Games 2 Rounds 10" in words
    assert "Yaniv calls 4 : held 2 · caught going along 1 · Assaf 1 · false 0" in words
    # 2 of the 4 valid calls (an Assaf is a valid call, caught by the rules).
    assert "Calls held 50% of the valid calls" in words
    assert "Average hand when not calling 14.0 (over 6 rounds other players ended)" in words
    assert "Reductions 1 (−50 points)" in words
    # Per tournament: the cup's 3 calls (2 held, 1 caught), 17.25 on average when not calling.
    assert row(html, "Ghent Cup") == ["1", "3", "2", "1", "0", "0", "0 / 0", "17.3", "1", "1"]
    assert row(html, "Club night") == ["1", "1", "0", "0", "1", "0", "0 / 0", "7.5", "0", "0"]
    assert row(html, "Gent ladder") == ["2", "4", "2", "1", "1", "0", "0 / 0", "14.0", "1", "1"]
    assert "Secret night" not in html and "Hidden ladder" not in html
    charts = re.findall(r'<svg [^>]*role="img" aria-label="([^"]+)"', html)
    assert len(charts) == 2
    cup = "Ghent Cup: Yaniv calls: 3; held: 2; caught going along: 1; Assaf: 0; false: 0"
    assert cup in charts[0]
    assert "over 6 rounds: most often 5–9 points (67%)" in charts[1]
    # The hands' figures for who does not see the chart.
    assert '<th scope="row">Rounds</th>' + "".join(
        f"<td>{count}</td>" for count in (0, 4, 1, 0, 0, 0, 0, 0, 0, 1)
    ) in html.replace("\n", "")
    assert HAND_BINS == 10


def test_a_player_who_went_along_sees_the_comparisons(client, world):
    words = text(page(client, world["people"]["Chris"]))
    assert "Going along 2 : caught the caller 2 · lost the comparison 0" in words
    assert "false 1" in words


def test_the_page_links_back_to_the_profile_and_the_profile_links_here(client, world):
    ann = world["people"]["Ann"]
    assert reverse("public:profile", args=[ann.pk]) in page(client, ann)
    profile = client.get(reverse("public:profile", args=[ann.pk])).content.decode()
    assert f'href="{url(ann)}"' in profile


def test_an_htmx_request_gets_the_same_page(client, world):
    ann = world["people"]["Ann"]
    assert "Ghent Cup" in page(client, ann, **HTMX)


def test_a_player_of_private_tournaments_only_is_unknown_to_anyone(client, world):
    zoe = world["people"]["Zoë"]
    assert client.get(url(zoe)).status_code == 404
    # Not even to the private tournament's own director: the page is public data only.
    client.force_login(world["director"])
    assert client.get(url(zoe)).status_code == 404
    assert client.get(reverse("public:profile_statistics", args=[99999])).status_code == 404


def test_the_private_tournaments_director_sees_the_public_figures_only(client, world):
    client.force_login(world["director"])
    html = page(client, world["people"]["Dirk"])
    assert "Secret night" not in html
    assert "Games 1 Rounds 7" in text(html)


def test_a_logged_in_stranger_and_anyone_see_the_same_figures(client, world):
    ann = world["people"]["Ann"]

    def main(html: str) -> str:
        return html.split("<main", 1)[1].split("</main>", 1)[0]

    anonymous = main(page(client, ann))
    client.force_login(make_user("someone"))
    assert main(page(client, ann)) == anonymous


def test_a_merged_players_address_leads_to_the_player_kept(client, world):
    ann = world["people"]["Ann"]
    twin = Player.objects.create(name="Ann B.")
    twin.merge_into(ann, by=make_user("root", is_superuser=True))
    response = client.get(reverse("public:profile_statistics", args=[twin.pk]))
    assert response.status_code == 301
    assert response["Location"] == url(ann)


def test_a_player_without_a_recorded_round_says_so(client, world):
    newcomer = Player.objects.create(name="Newcomer")
    from tournaments.models import Registration

    Registration.objects.create(tournament=world["cup"], player=newcomer)
    words = text(page(client, newcomer))
    assert "No round of this player recorded in a public tournament yet." in words
    assert "<svg" not in words


@pytest.mark.parametrize(
    ("language", "heading", "figure"),
    [
        ("nl", "Yaniv-statistieken", "Spellen 2 Rondes 10"),
        ("fr", "Statistiques de Yaniv", "Parties 2 Manches 10"),
    ],
)
def test_the_page_speaks_dutch_and_french(client, world, language, heading, figure):
    words = text(page(client, world["people"]["Ann"], **{"Accept-Language": language}))
    assert heading in words and figure in words
    # Decimals as the language writes them.
    assert "17,3" in words


def test_the_page_costs_the_same_queries_however_long_the_history(
    client, world, django_assert_num_queries
):
    ann = world["people"]["Ann"]
    # The version (two: it polls), the player, the hands, tournaments, seasons.
    with django_assert_num_queries(6) as few:
        page(client, ann)
    cup, bart, chris, dirk = world["cup"], *(world["people"][n] for n in ("Bart", "Chris", "Dirk"))
    from tests.scoring.statistics_games import GAME_1

    for _ in range(3):
        play(cup, [ann, bart, chris, dirk], GAME_1, world["director"])
    with django_assert_num_queries(len(few.captured_queries)):
        assert "Games 5 Rounds 31" in text(page(client, ann))


def test_a_long_career_lists_the_latest_tournaments_and_counts_them_all(
    client, world, monkeypatch
):
    monkeypatch.setattr("seasons.views.profiles.TOURNAMENTS_SHOWN", 1)
    html = page(client, world["people"]["Ann"])
    assert "Club night" in html.split("By tournament", 1)[1]
    assert "Ghent Cup" not in html.split("By tournament", 1)[1].split("</table>")[0]
    words = text(html)
    assert "1 earlier tournament counts in the figures above" in words
    assert "Games 2 Rounds 10" in words
