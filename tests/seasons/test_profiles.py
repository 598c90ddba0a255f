"""A player's page across tournaments and a club's page: what they show, and that nothing of a
private tournament ever appears there, not even as a number."""

from __future__ import annotations

import pytest
from django.urls import reverse

from seasons import profiles
from tests.factories import make_tournament, make_user
from tests.season_factories import finished_tables, make_season, players
from tournaments.models import Club, Player, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def gent():
    return Club.objects.create(name="YC Gent", city="Gent")


@pytest.fixture
def people(gent):
    """Ann (YC Gent), Bart, Chris, Dirk; and Zoë, who only ever played in private."""
    ann, bart, chris, dirk, zoe = players("Ann", "Bart", "Chris", "Dirk", "Zoë")
    Player.objects.filter(pk__in=[ann.pk, zoe.pk]).update(club=gent)
    return {p.name: Player.objects.get(pk=p.pk) for p in (ann, bart, chris, dirk, zoe)}


@pytest.fixture
def history(people, gent):
    """Two public tournaments, a public club night of YC Gent, and a private one."""
    ann, bart, chris, dirk, zoe = (people[n] for n in ("Ann", "Bart", "Chris", "Dirk", "Zoë"))
    open_ = make_tournament(
        name="Ghent open", slug="open", status="finished", starts_on="2027-02-01", club=gent
    )
    # Session 1: Ann 10, Bart 20, Chris 30, Dirk 200; session 2: Bart 5, Ann 50, Dirk 60.
    finished_tables(open_, 1, [[(ann, 10), (bart, 20), (chris, 30), (dirk, 200)]])
    finished_tables(open_, 2, [[(bart, 5), (ann, 50), (dirk, 60)]])
    night = make_tournament(
        name="Club night 1",
        slug="night",
        status="finished",
        starts_on="2027-03-01",
        club=gent,
        entry=Tournament.Entry.TABLE_CODES,
    )
    finished_tables(night, 1, [[(ann, 0), (chris, 0), (bart, 90)]])
    secret = make_tournament(
        name="Secret night", slug="secret", status="finished", is_public=False, club=gent
    )
    finished_tables(secret, 1, [[(ann, 160), (zoe, 0), (dirk, 3)]])
    season = make_season(open_, night, secret, name="Gent ladder", slug="ladder", club=gent)
    return {"open": open_, "night": night, "secret": secret, "season": season}


def profile_html(client, player: Player) -> str:
    response = client.get(reverse("public:profile", args=[player.pk]))
    assert response.status_code == 200
    return response.content.decode()


# --- the player ------------------------------------------------------------------------------


def test_a_profile_lists_every_public_tournament_with_place_and_season_points(
    client, people, history
):
    html = profile_html(client, people["Ann"])
    assert "Ghent open" in html and "Club night 1" in html
    # Ghent open: Ann 1.5 + 1 = 2.5 points… placed among 4; the club night: shared 1st of 3.
    assert "Place 1 of 3" in html
    assert "Gent ladder" in html and "season points" in html
    assert 'href="/clubs/' in html
    assert "2 tournaments · 3 games · 2 won" in html


def test_a_profile_counts_head_to_head_results_at_the_same_table(people, history):
    profile = profiles.player_profile(people["Ann"])
    assert profile is not None
    met = {
        rival.player.name: (rival.games, rival.above, rival.below, rival.level)
        for rival in profile.rivals
    }
    # Bart: open session 1 Ann above, session 2 Ann below, the night Ann above.
    # Chris: open above, the night level (both 0). Dirk: above twice.
    assert met == {"Bart": (3, 2, 1, 0), "Chris": (2, 1, 0, 1), "Dirk": (2, 2, 0, 0)}


def test_a_profile_shows_nothing_of_a_private_tournament(client, people, history):
    html = profile_html(client, people["Ann"])
    assert "Secret night" not in html
    assert "Zoë" not in html  # met only in the private tournament
    profile = profiles.player_profile(people["Ann"])
    assert profile is not None
    assert [line.tournament.slug for line in profile.tournaments] == ["night", "open"]
    # Dirk met Ann twice in public (and once in private): 2.
    assert {r.player.name: r.games for r in profile.rivals}["Dirk"] == 2


@pytest.fixture
def draft(people, gent):
    """A public tournament of YC Gent set back to a draft after its games: Ann, Bart, and Eva
    (of YC Gent), who played only there."""
    (eva,) = players("Eva")
    Player.objects.filter(pk=eva.pk).update(club=gent)
    draft = make_tournament(name="Draft cup", slug="draft-cup", status="running", club=gent)
    finished_tables(draft, 1, [[(people["Ann"], 0), (people["Bart"], 40), (eva, 70)]])
    Tournament.objects.filter(pk=draft.pk).update(status=Tournament.Status.DRAFT)
    return Player.objects.get(pk=eva.pk)


def test_a_draft_never_appears_on_a_profile_even_when_public(client, people, history, draft):
    html = profile_html(client, people["Ann"])
    assert "Draft cup" not in html
    assert "Eva" not in html  # met only in the draft
    assert "2 tournaments · 3 games · 2 won" in html
    # Who played in a draft alone has no public profile.
    assert client.get(reverse("public:profile", args=[draft.pk])).status_code == 404


def test_a_draft_and_its_players_never_appear_on_a_club_page(client, people, history, draft, gent):
    html = client.get(reverse("public:club", args=[gent.pk])).content.decode()
    assert "Draft cup" not in html and "Eva" not in html
    assert [member.name for member in profiles.club_page(gent).members] == ["Ann"]


def test_a_player_of_private_tournaments_only_has_no_public_profile(client, people, history):
    assert client.get(reverse("public:profile", args=[people["Zoë"].pk])).status_code == 404
    assert client.get(reverse("public:profile", args=[999_999])).status_code == 404
    # Not even a director of the private tournament sees it there: a profile is public.
    director = make_user("hilde")
    history["secret"].directors.add(director)
    client.force_login(director)
    assert client.get(reverse("public:profile", args=[people["Zoë"].pk])).status_code == 404


def test_the_rating_graph_is_included_when_the_rating_provides_it(client, people, history):
    from seasons.views.profiles import has_rating_partial

    response = client.get(reverse("public:profile", args=[people["Ann"].pk]))
    assert response.context["rating"] is has_rating_partial()


def test_a_profile_costs_the_same_queries_for_one_or_many_tournaments(
    client, people, history, django_assert_num_queries
):
    url = reverse("public:profile", args=[people["Ann"].pk])
    # With the two of its version (site_version: it follows every tournament).
    with django_assert_num_queries(13) as few:
        client.get(url)
    for number in range(3):
        more = make_tournament(status="finished")
        finished_tables(more, 1, [[(people["Ann"], number), (people["Bart"], 10)]])
        history["season"].tournaments.add(more)
    with django_assert_num_queries(len(few.captured_queries)):
        client.get(url)


def test_the_per_tournament_player_page_and_the_standings_link_the_profile_and_club(
    client, people, history, gent
):
    page = client.get(reverse("public:player", args=["open", people["Ann"].pk])).content.decode()
    assert reverse("public:profile", args=[people["Ann"].pk]) in page
    assert reverse("public:club", args=[gent.pk]) in page
    standings = client.get(reverse("public:standings", args=["open"])).content.decode()
    assert reverse("public:club", args=[gent.pk]) in standings


# --- the club --------------------------------------------------------------------------------


def test_a_club_page_shows_members_tournaments_club_nights_and_season_ranking(
    client, people, history, gent
):
    html = client.get(reverse("public:club", args=[gent.pk])).content.decode()
    assert "YC Gent" in html and "Gent" in html
    assert "Ghent open" in html and "Club night 1" in html
    tournaments, club_nights = (
        html.index("<h2>Tournaments</h2>"),
        html.index("<h2>Club nights</h2>"),
    )
    assert html.index("Club night 1") < tournaments and club_nights < html.index("Club night 1")
    assert "Gent ladder" in html
    assert f'href="/players/{people["Ann"].pk}/"' in html


def test_a_club_page_shows_nothing_private(client, people, history, gent):
    html = client.get(reverse("public:club", args=[gent.pk])).content.decode()
    assert "Secret night" not in html
    # Zoë, a member who only played in private, is not listed.
    assert "Zoë" not in html
    page = profiles.club_page(gent)
    assert [member.name for member in page.members] == ["Ann"]


def test_a_club_with_nothing_public_has_no_page(client, people, history):
    hidden = Club.objects.create(name="Hidden club")
    Player.objects.filter(pk=people["Zoë"].pk).update(club=hidden)
    make_tournament(club=hidden, is_public=False)
    assert client.get(reverse("public:club", args=[hidden.pk])).status_code == 404
    assert client.get(reverse("public:club", args=[999_999])).status_code == 404


def test_the_season_page_links_players_to_their_profiles(client, people, history):
    html = client.get(reverse("public:season", args=["ladder"])).content.decode()
    assert f'href="/players/{people["Ann"].pk}/"' in html
    assert "Zoë" not in html and "Secret night" not in html
