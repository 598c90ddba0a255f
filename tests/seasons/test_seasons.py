"""Seasons: the standings from the tournaments' final places, their pages, CSV and PDF, and the
organisers' pages (normal, htmx, anonymous, wrong role)."""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.urls import reverse

from printing.document import page_count
from scoring.seasons import SeasonError
from seasons.models import Season, SeasonTournament
from tests.factories import HTMX, make_table, make_tournament, make_user, record
from tests.season_factories import finished_tables, make_season, players, ranked_tournament
from tournaments.errors import Refused
from tournaments.models import Club, Player, Session, Tournament

pytestmark = pytest.mark.django_db

ENDS = {"hands": {"Ann": 0, "Bart": 1, "Chris": 9, "Dirk": 45}, "yaniv": "Ann"}


def lines(season: Season) -> list[tuple[int, str, Decimal]]:
    return [
        (row.standing.place, row.player.name, row.standing.points)
        for row in season.standings().rows
    ]


@pytest.fixture
def four():
    return players("Ann", "Bart", "Chris", "Dirk")


# --- the standings -------------------------------------------------------------------------


def test_a_tournament_with_a_final_counts_by_its_final_places():
    """The final decides the finalists' places (no carry-over here): the season follows the
    tournament's final standings, not the placement points of all its games added up."""
    ann, bart, chris, dirk, eva = players("Ann", "Bart", "Chris", "Dirk", "Eva")
    tournament = make_tournament(
        status=Tournament.Status.FINISHED, final_players=4, final_carry_over="none"
    )
    finished_tables(tournament, 1, [[(ann, 0), (bart, 10), (chris, 20), (dirk, 30), (eva, 40)]])
    final = finished_tables(tournament, 2, [[(dirk, 0), (chris, 10), (bart, 20), (ann, 30)]])
    Session.objects.filter(pk=final[0].session_id).update(stage=Session.Stage.FINAL)
    # Dirk, Chris, Bart and Ann in the final's order, then Eva: 5 − place + 1 points.
    assert lines(make_season(tournament)) == [
        (1, "Dirk", Decimal("5.00")),
        (2, "Chris", Decimal("4.00")),
        (3, "Bart", Decimal("3.00")),
        (4, "Ann", Decimal("2.00")),
        (5, "Eva", Decimal("1.00")),
    ]


def test_a_tournament_ranked_by_average_counts_by_that_order():
    """Bart won his one game (2 points a game), Ann has 3 points from 2 games: by average
    Bart is first, although by points he is second."""
    ann, bart, chris, dave = players("Ann", "Bart", "Chris", "Dave")
    tournament = make_tournament(status=Tournament.Status.FINISHED, ranking="average")
    finished_tables(tournament, 1, [[(ann, 0), (chris, 10), (dave, 200)]])
    finished_tables(tournament, 2, [[(bart, 0), (chris, 10), (dave, 200)]])
    finished_tables(tournament, 3, [[(ann, 0), (dave, 10)]])
    assert lines(make_season(tournament)) == [
        (1, "Bart", Decimal("4.00")),
        (2, "Ann", Decimal("3.00")),
        (3, "Chris", Decimal("2.00")),
        (4, "Dave", Decimal("1.00")),
    ]


def test_placement_points_times_the_coefficient_add_up_over_the_tournaments(four):
    ann, bart, chris, dirk = four
    spring = ranked_tournament([ann, bart, chris, dirk], starts_on="2027-03-01")
    final = ranked_tournament([dirk, chris, bart, ann], starts_on="2027-06-01")
    season = make_season(spring, final, coefficients=["1", "1.5"])
    # Ann 4 + 1.5, Bart 3 + 3, Chris 2 + 4.5, Dirk 1 + 6.
    assert lines(season) == [
        (1, "Dirk", Decimal("7.00")),
        (2, "Chris", Decimal("6.50")),
        (3, "Bart", Decimal("6.00")),
        (4, "Ann", Decimal("5.50")),
    ]
    table = season.standings()
    assert [entry.tournament for entry in table.counted] == [spring, final]
    dirk_row = table.rows[0]
    assert [
        (cell.place, cell.field, cell.points) if cell else None for cell in dirk_row.cells
    ] == [
        (4, 4, Decimal("1.00")),
        (1, 4, Decimal("6.00")),
    ]


def test_a_tournament_counting_for_two_seasons_counts_by_each_seasons_scheme(four):
    ann, bart, chris, dirk = four
    night = ranked_tournament([ann, bart, chris, dirk])
    other = ranked_tournament([bart, ann])
    federation = make_season(
        night, other, slug="federation", scheme="table", points_table=[25, 20, 16, 13]
    )
    club = make_season(night, slug="club", best_of=1, coefficients=["2"])
    assert lines(federation) == [
        (1, "Ann", Decimal("45.00")),
        (1, "Bart", Decimal("45.00")),
        (3, "Chris", Decimal("16.00")),
        (4, "Dirk", Decimal("13.00")),
    ]
    assert lines(club) == [
        (1, "Ann", Decimal("8.00")),
        (2, "Bart", Decimal("6.00")),
        (3, "Chris", Decimal("4.00")),
        (4, "Dirk", Decimal("2.00")),
    ]
    assert set(night.seasons.all()) == {federation, club}


def test_best_n_of_m_strikes_the_worst_results_through_and_ties_share_the_place():
    ann, bart = players("Ann", "Bart")
    nights = [
        ranked_tournament([ann, bart]),
        ranked_tournament([bart, ann]),
        ranked_tournament([ann, bart]),
        ranked_tournament([bart, ann]),
    ]
    season = make_season(*nights, best_of=2)
    table = season.standings()
    assert lines(season) == [(1, "Ann", Decimal("4.00")), (1, "Bart", Decimal("4.00"))]
    for row in table.rows:
        assert [cell is not None and cell.counted for cell in row.cells].count(True) == 2
        assert row.standing.counted == 2


def test_a_public_season_counts_public_tournaments_only_a_private_one_counts_all(four):
    ann, bart, chris, dirk = four
    public = ranked_tournament([ann, bart])
    private = ranked_tournament([chris, dirk], is_public=False)
    open_season = make_season(public, private, slug="open")
    closed = make_season(public, private, slug="closed", is_public=False)
    assert [name for _, name, _ in lines(open_season)] == ["Ann", "Bart"]
    assert open_season.standings().counted == (
        SeasonTournament.objects.get(season=open_season, tournament=public),
    )
    assert {name for _, name, _ in lines(closed)} == {"Ann", "Bart", "Chris", "Dirk"}


def test_a_running_tournament_and_an_unsigned_game_make_results_provisional(four):
    ann, bart, chris, dirk = four
    done = ranked_tournament([ann, bart])
    running = make_tournament(status=Tournament.Status.RUNNING)
    finished_tables(running, 1, [[(chris, 0), (dirk, 10)]])
    unsigned = make_tournament(status=Tournament.Status.FINISHED)
    finished_tables(unsigned, 1, [[(ann, 5), (bart, 0)]], signed_off=False)
    season = make_season(done, running, slug="s1")
    flags = {row.player.name: row.standing.provisional for row in season.standings().rows}
    assert flags == {"Ann": False, "Bart": False, "Chris": True, "Dirk": True}
    season = make_season(unsigned, slug="s2")
    assert all(row.standing.provisional for row in season.standings().rows)


def test_games_still_being_played_do_not_count(referee):
    tournament = make_tournament()
    make_table(tournament=tournament, referee=referee)
    season = make_season(tournament)
    assert season.standings().rows == ()


def test_the_standings_follow_a_game_finishing(referee):
    tournament = make_tournament()
    table = make_table(tournament=tournament, referee=referee)
    season = make_season(tournament)
    before = season.live_version()
    record(table.game, referee, *[ENDS] * 4)
    assert season.live_version() != before
    assert [name for _, name, _ in lines(season)] == ["Ann", "Bart", "Chris", "Dirk"]


def test_the_version_changes_with_the_settings_and_the_tournaments(four):
    tournament = ranked_tournament(four[:2])
    season = make_season(tournament)
    versions = {season.live_version()}
    entry = season.entries.get()
    season.set_coefficient(entry, "2")
    versions.add(season.live_version())
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    versions.add(season.live_version())
    Tournament.objects.filter(pk=tournament.pk).update(is_public=False)
    versions.add(season.live_version())
    season.remove_tournament(entry)
    versions.add(season.live_version())
    assert len(versions) == 5


def test_a_tournament_is_added_once_with_a_checked_coefficient(four):
    tournament = ranked_tournament(four[:2])
    season = make_season()
    with pytest.raises(SeasonError, match="from 0.01 to 100"):
        season.add_tournament(tournament, "0")
    season.add_tournament(tournament, "1.25")
    assert season.entries.get().coefficient == Decimal("1.25")
    with pytest.raises(Refused, match="already counts for this season"):
        season.add_tournament(tournament, "1")


def test_a_season_checks_its_table_of_points_and_best_of():
    season = Season(name="S", slug="s", scheme="table", points_table=[10, 20], best_of=3)
    with pytest.raises(ValidationError) as raised:
        season.full_clean()
    assert raised.value.message_dict == {
        "points_table": ["Place 2 cannot get more points than place 1."]
    }
    season.points_table = [20, 10]
    season.best_of = 0
    with pytest.raises(ValidationError) as raised:
        season.full_clean()
    assert "best_of" in raised.value.message_dict


def build_big_season(count: int, tournaments: int = 2) -> Season:
    """`tournaments` finished tournaments of `count` players, two sessions of tables of 4."""
    field = Player.objects.bulk_create(Player(name=f"Player {n:03d}") for n in range(count))
    held = []
    for index in range(tournaments):
        tournament = make_tournament(status=Tournament.Status.FINISHED)
        for session in (1, 2):
            order = field[index + session :] + field[: index + session]
            finished_tables(
                tournament,
                session,
                [
                    [(player, 10 * seat) for seat, player in enumerate(order[i : i + 4])]
                    for i in range(0, count, 4)
                ],
                register=False,
            )
        held.append(tournament)
    return make_season(*held, slug=f"big-{count}-{tournaments}", best_of=1)


def test_the_season_standings_page_costs_the_same_queries_at_500_players(
    client, django_assert_num_queries
):
    small = build_big_season(8)
    # The season, its tournaments (with their settings), the final tables, the finished seats,
    # the players… whatever the number of players.
    with django_assert_num_queries(7) as few:
        response = client.get(reverse("public:season", args=[small.slug]))
    assert response.status_code == 200
    big = build_big_season(500, tournaments=3)
    with django_assert_num_queries(len(few.captured_queries)):
        response = client.get(reverse("public:season", args=[big.slug]))
    assert response.content.decode().count('<th scope="row">') == 500


# --- the public pages ----------------------------------------------------------------------


@pytest.fixture
def season(four):
    ann, bart, chris, dirk = four
    club = Club.objects.create(name="YC Gent")
    Player.objects.filter(pk=ann.pk).update(club=club)
    spring = ranked_tournament([ann, bart, chris, dirk], name="Spring open", slug="spring")
    summer = ranked_tournament([dirk, ann], name="Summer night", slug="summer")
    return make_season(
        spring, summer, name="Belgian ranking 2027", slug="be-2027", club=club, best_of=1
    )


def test_the_season_page_shows_the_standings_with_struck_results(client, season):
    html = client.get(reverse("public:season", args=["be-2027"])).content.decode()
    assert "Belgian ranking 2027" in html and "YC Gent" in html
    # Ann: 4 (spring) counted, 1 (summer) struck through.
    assert "<del>1</del>" in html
    assert 'href="/players/' in html
    assert "the best result counts" in html
    assert "How the season standings are made" in html
    # Every tournament is finished, and the page still asks again: a finished game may be
    # corrected, a tournament added (issue 33).
    url = reverse("public:season", args=["be-2027"])
    assert f'data-hx-get="{url}?since=' in html


def test_the_season_page_polls_while_a_tournament_is_played(client, season):
    Tournament.objects.filter(slug="summer").update(status=Tournament.Status.RUNNING)
    url = reverse("public:season", args=["be-2027"])
    html = client.get(url).content.decode()
    assert f'data-hx-get="{url}?since=' in html
    version = season.live_version()
    part = client.get(url, headers=HTMX)
    assert part.status_code == 200
    assert part.content.decode().lstrip().startswith('<div id="live"')
    assert client.get(url, {"since": version}, headers=HTMX).status_code == 204
    assert client.get(url, {"since": "old"}, headers=HTMX).status_code == 200


def test_a_private_season_is_404_for_anyone_but_its_organisers(client, season):
    season.is_public = False
    season.save()
    organiser, stranger = make_user("organiser"), make_user("stranger")
    season.directors.add(organiser)
    for url in (
        reverse("public:season", args=["be-2027"]),
        reverse("public:season_csv", args=["be-2027"]),
        reverse("public:season_pdf", args=["be-2027"]),
    ):
        assert client.get(url).status_code == 404
        client.force_login(stranger)
        assert client.get(url).status_code == 404
        client.force_login(organiser)
        assert client.get(url).status_code == 200
        client.logout()
    assert "Belgian ranking" not in client.get(reverse("public:seasons")).content.decode()


def test_the_season_csv_has_a_column_per_tournament_and_guards_formulas(client, season):
    Player.objects.filter(name="Bart").update(name="=HYPERLINK(1)")
    content = client.get(reverse("public:season_csv", args=["be-2027"])).content.decode()
    assert content.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(content.lstrip("\ufeff"))))
    assert rows[0] == [
        "place",
        "player",
        "club",
        "season points",
        "results counted",
        "Spring open",
        "Summer night",
        "provisional",
    ]
    assert rows[1] == ["1", "Ann", "YC Gent", "4", "1", "4", "(1)", "no"]
    assert rows[2] == ["2", "'=HYPERLINK(1)", "", "3", "1", "3", "", "no"]
    assert rows[3:] == [
        ["3", "Chris", "", "2", "1", "2", "", "no"],
        ["3", "Dirk", "", "2", "1", "(1)", "2", "no"],
    ]


def test_the_semicolon_csv_writes_decimal_commas(client, season):
    SeasonTournament.objects.filter(tournament__slug="spring").update(coefficient="1.5")
    url = reverse("public:season_csv", args=["be-2027"])
    content = client.get(url, {"sep": "semicolon"}).content.decode()
    assert "1;Ann;YC Gent;6;1;6;(1);no" in content.replace("\r", "")
    assert client.get(url, {"sep": "tab"}).status_code == 400


def test_the_season_pdf_prints_the_standings(client, season):
    response = client.get(reverse("public:season_pdf", args=["be-2027"]))
    assert response["Content-Type"] == "application/pdf"
    content = b"".join(response.streaming_content)
    assert page_count(content) == 1


def test_the_season_pdf_of_many_tournaments_is_landscape_and_in_the_language_asked(client):
    people = players(*"ABCDEFGH")
    season = make_season(
        *[ranked_tournament(people[n:] + people[:n]) for n in range(8)], slug="long"
    )
    client.cookies["django_language"] = "fr"
    response = client.get(reverse("public:season_pdf", args=[season.slug]))
    content = b"".join(response.streaming_content)
    assert b"/MediaBox [ 0 0 841.8898 595.2756 ]" in content


def test_the_tournament_page_names_the_public_seasons_it_counts_for(client, season):
    make_season(
        season.tournaments.get(slug="spring"), slug="hidden", name="Hidden", is_public=False
    )
    html = client.get(reverse("public:tournament", args=["spring"])).content.decode()
    assert "Counts for the seasons:" in html and "Belgian ranking 2027" in html
    assert "Hidden" not in html


def test_the_seasons_list_shows_public_seasons_and_ones_own(client, season):
    organiser = make_user("organiser")
    mine = make_season(slug="mine", name="My private ladder", is_public=False)
    mine.directors.add(organiser)
    html = client.get(reverse("public:seasons")).content.decode()
    assert "Belgian ranking 2027" in html and "My private ladder" not in html
    client.force_login(organiser)
    assert "My private ladder" in client.get(reverse("public:seasons")).content.decode()


# --- the organisers ------------------------------------------------------------------------


@pytest.fixture
def organiser(season):
    user = make_user("organiser")
    season.directors.add(user)
    return user


@pytest.fixture
def organiser_client(client, organiser):
    client.force_login(organiser)
    return client


def test_a_tournament_director_creates_a_season_and_organises_it(client, director, tournament):
    client.force_login(director)
    response = client.post(
        reverse("public:season_new"),
        {
            "name": "Club nights autumn 2027",
            "slug": "",
            "scheme": "table",
            "points_table": "25, 20, 16",
            "best_of": "8",
            "is_public": "on",
        },
    )
    season = Season.objects.get(slug="club-nights-autumn-2027")
    assert response.status_code == 302
    assert response["Location"] == reverse("public:season_manage", args=[season.slug])
    assert (season.points_table, season.best_of, list(season.directors.all())) == (
        [25, 20, 16],
        8,
        [director],
    )


def test_a_season_form_says_what_is_wrong_where_it_was_typed(client, director, tournament):
    client.force_login(director)
    response = client.post(
        reverse("public:season_new"),
        {"name": "Ladder", "slug": "new", "scheme": "table", "points_table": "10, 20"},
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "The address new is reserved" in html
    assert "Place 2 cannot get more points than place 1." in html
    assert not Season.objects.exists()


def test_an_account_directing_nothing_may_not_create_a_season(client):
    client.force_login(make_user("nobody"))
    assert client.get(reverse("public:season_new")).status_code == 403
    assert client.post(reverse("public:season_new"), {"name": "X"}).status_code == 403
    assert not Season.objects.exists()


def test_anonymous_visitors_are_sent_to_log_in_and_cannot_post(client, season):
    manage = reverse("public:season_manage", args=["be-2027"])
    assert client.get(manage)["Location"].startswith(reverse("login"))
    assert client.post(manage, {"name": "Hacked"}).status_code == 403
    add = reverse("public:season_add_tournament", args=["be-2027"])
    assert client.post(add, {"tournament": "1", "coefficient": "1"}).status_code == 403
    season.refresh_from_db()
    assert season.name == "Belgian ranking 2027" and season.entries.count() == 2


def test_who_does_not_organise_the_season_may_only_follow_it(client, season):
    client.force_login(make_user("stranger"))
    entry = season.entries.first()
    urls = [
        (reverse("public:season_manage", args=["be-2027"]), {"name": "Hacked"}),
        (reverse("public:season_add_tournament", args=["be-2027"]), {}),
        (reverse("public:season_entry", args=["be-2027", entry.pk]), {"remove": "1"}),
    ]
    for url, data in urls:
        assert client.post(url, data).status_code == 403
    assert client.get(urls[0][0]).status_code == 403
    assert season.entries.count() == 2


def test_the_organiser_changes_the_settings(organiser_client, season):
    response = organiser_client.post(
        reverse("public:season_manage", args=["be-2027"]),
        {"name": "Belgian ranking 2027", "slug": "be-2027", "scheme": "placement", "best_of": ""},
    )
    assert response.status_code == 302
    season.refresh_from_db()
    assert season.best_of is None and not season.is_public


def test_the_organiser_adds_a_public_tournament_not_a_private_one_of_others(
    organiser_client, season, four
):
    autumn = ranked_tournament(four, name="Autumn cup", slug="autumn")
    secret = ranked_tournament(four[:2], name="Secret night", slug="secret", is_public=False)
    page = organiser_client.get(reverse("public:season_manage", args=["be-2027"])).content
    assert b"Autumn cup" in page and b"Secret night" not in page
    url = reverse("public:season_add_tournament", args=["be-2027"])
    response = organiser_client.post(url, {"tournament": autumn.pk, "coefficient": "1.5"})
    assert response.status_code == 302
    assert season.entries.get(tournament=autumn).coefficient == Decimal("1.5")
    response = organiser_client.post(url, {"tournament": secret.pk, "coefficient": "1"})
    assert response.status_code == 400
    assert not season.entries.filter(tournament=secret).exists()


def test_the_organiser_sets_a_coefficient_and_removes_a_tournament(organiser_client, season):
    entry = season.entries.get(tournament__slug="summer")
    url = reverse("public:season_entry", args=["be-2027", entry.pk])
    organiser_client.post(url, {"coefficient": "2"})
    entry.refresh_from_db()
    assert entry.coefficient == Decimal("2")
    response = organiser_client.post(url, {"coefficient": "0"}, follow=True)
    assert "Summer night: " in response.content.decode()
    entry.refresh_from_db()
    assert entry.coefficient == Decimal("2")
    organiser_client.post(url, {"remove": "1"})
    assert not season.entries.filter(pk=entry.pk).exists()


def test_a_coefficient_typed_with_a_decimal_comma_counts_in_dutch(organiser_client, season):
    entry = season.entries.get(tournament__slug="summer")
    organiser_client.cookies["django_language"] = "nl"
    organiser_client.post(
        reverse("public:season_entry", args=["be-2027", entry.pk]), {"coefficient": "1,5"}
    )
    entry.refresh_from_db()
    assert entry.coefficient == Decimal("1.5")


def test_an_organiser_sees_why_a_private_tournament_does_not_count(organiser_client, season, four):
    secret = ranked_tournament(four[:2], name="Secret night", is_public=False)
    SeasonTournament.objects.create(season=season, tournament=secret)
    html = organiser_client.get(reverse("public:season", args=["be-2027"])).content.decode()
    assert "Not counted, because a public season counts public tournaments only" in html
    assert "Secret night" in html


# --- the season page reads as words (issue 23, point 4): a result's points and place apart
# and styled, words for screen readers; a private tournament said not to count ---------------


def ann_cells(html: str) -> list[str]:
    """Ann's result cells (spring, summer)."""
    row = re.search(r"<tr[^>]*>(?:(?!</tr>).)*<bdi>Ann</bdi>.*?</tr>", html, re.S)
    assert row
    return re.findall(r'<td class="season-result">(.*?)</td>', row.group(0), re.S)


def heard(cell: str) -> str:
    """The cell as a screen reader reads it: what is hidden from it left out."""
    cell = re.sub(r'<span [^>]*aria-hidden="true">.*?</span>', "", cell)
    return " ".join(re.sub(r"<[^>]+>", "", cell).split())


def seen(cell: str) -> str:
    """The cell as the eye reads it: the words for screen readers left out, blocks apart."""
    cell = re.sub(r'<span class="visually-hidden">.*?</span>', "", cell)
    return " ".join(re.sub(r"<[^>]+>", " ", cell).split())


def test_points_and_place_are_apart_and_said_in_words(client, season):
    html = client.get(reverse("public:season", args=["be-2027"])).content.decode()
    spring, summer = ann_cells(html)
    assert seen(spring) == "4 1/4"
    assert heard(spring) == "Points: 4, place 1 of 4"
    # Best 1 of 2: the summer result (place 2 of 2, 1 point) is struck through.
    assert seen(summer) == "1 2/2"
    assert "<del>1</del>" in summer
    assert heard(summer) == "Points: 1 (not counted), place 2 of 2"


def test_the_place_and_the_points_have_their_own_style():
    css = (Path(settings.BASE_DIR) / "static/css/site.css").read_text()
    assert re.search(r"\.season-standings \.place \{[^}]*display: block", css)
    assert re.search(r"\.season-standings \.result-points \{[^}]*display: block", css)


def test_a_private_tournament_added_to_a_public_season_is_said_not_to_count(
    organiser_client,
    organiser,
    season,
    four,
):
    secret = ranked_tournament(four[:2], name="Secret night", slug="secret", is_public=False)
    secret.directors.add(organiser)
    url = reverse("public:season_add_tournament", args=["be-2027"])
    response = organiser_client.post(
        url, {"tournament": secret.pk, "coefficient": "1"}, follow=True
    )
    page = response.content.decode()
    assert season.entries.filter(tournament=secret).exists()
    assert "Secret night counts for the season" not in page
    assert (
        "Secret night is in the season but does not count: a public season counts public "
        "tournaments only."
    ) in page


def test_a_public_tournament_added_is_said_to_count(organiser_client, season, four):
    autumn = ranked_tournament(four, name="Autumn cup", slug="autumn")
    url = reverse("public:season_add_tournament", args=["be-2027"])
    response = organiser_client.post(
        url, {"tournament": autumn.pk, "coefficient": "1"}, follow=True
    )
    assert "Autumn cup counts for the season." in response.content.decode()
