"""The archive's statistics (issue 38.5): each player's Yaniv figures and the tournament's facts
in the export, as the site computes them; an import ignores them, whatever they hold, and the
imported tournament's export gives them again from its rounds."""

from __future__ import annotations

import json

import pytest

from printing import archive
from tests.factories import make_user
from tests.printing.test_archive import import_file, wipe
from tests.statistics_world import statistics_world
from tournaments.models import Player, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    return statistics_world()


def by_name(statistics: dict, names: dict[int, str]) -> dict:
    """The statistics with players named instead of numbered (ids differ between sites)."""
    return {
        "players": {
            names[line["player"]]: {k: v for k, v in line.items() if k != "player"}
            for line in statistics["players"]
        },
        "facts": [
            {**fact, "players": [names[pk] for pk in fact["players"]]}
            for fact in statistics["facts"]
        ],
    }


def names_of(data: dict) -> dict[int, str]:
    return {player["id"]: player["name"] for player in data["players"]}


def test_the_export_holds_each_players_figures_and_the_facts(world):
    data = archive.tournament_to_data(world["cup"])
    shown = by_name(data["statistics"], names_of(data))
    assert list(shown["players"]) == ["Ann", "Bart", "Chris", "Dirk"]
    ann = shown["players"]["Ann"]
    assert (ann["games"], ann["rounds"], ann["calls"], ann["held"], ann["caught"]) == (
        1, 7, 3, 2, 1,
    )  # fmt: skip
    assert (ann["average_hand"], ann["reductions"], ann["hand_bins"][1]) == (17.25, 1, 3)
    assert shown["facts"][4] == {
        "code": "best_comeback",
        "value": 25.0,
        "players": ["Ann"],
        "session": 1,
        "table": 1,
        "round": 2,
    }


def test_a_tournament_without_a_finished_game_exports_figures_and_no_facts(world):
    data = archive.tournament_to_data(world["night"])
    assert data["statistics"]["facts"] == []
    ann = by_name(data["statistics"], names_of(data))["players"]["Ann"]
    assert (ann["calls"], ann["assafs"]) == (1, 1)


def test_an_import_ignores_the_statistics_and_the_export_gives_them_again(world, tmp_path):
    before = archive.tournament_to_data(world["cup"])
    path = tmp_path / "cup.json"
    path.write_text(archive.dumps(before))
    wipe()
    import_file(path)
    again = archive.tournament_to_data(Tournament.objects.get(slug="cup"))
    assert by_name(again["statistics"], names_of(again)) == by_name(
        before["statistics"], names_of(before)
    )


@pytest.mark.parametrize(
    "statistics", ["nonsense", {"players": [{"player": 1, "held": -5}]}, None]
)
def test_whatever_the_files_statistics_hold_the_import_takes_the_rounds(
    world, tmp_path, statistics
):
    data = archive.tournament_to_data(world["cup"])
    data["statistics"] = statistics
    path = tmp_path / "cup.json"
    path.write_text(json.dumps(data))
    wipe()
    import_file(path)
    imported = Tournament.objects.get(slug="cup")
    names = dict(Player.objects.values_list("pk", "name"))
    figures = by_name(archive.tournament_to_data(imported)["statistics"], names)
    assert figures["players"]["Ann"]["held"] == 2


def test_the_json_download_carries_the_statistics(client, world):
    director = world["director"]
    client.force_login(director)
    response = client.get("/manage/cup/export.json")
    assert response.status_code == 200
    body = json.loads(
        b"".join(response.streaming_content) if response.streaming else response.content
    )
    assert {fact["code"] for fact in body["statistics"]["facts"]} >= {
        "most_yanivs",
        "best_comeback",
    }
    stranger = make_user("stranger")
    client.force_login(stranger)
    assert client.get("/manage/cup/export.json").status_code in (403, 404)


def test_a_session_drawn_with_clubmates_apart_comes_back_so(tmp_path):
    from tests.factories import make_tournament
    from tournaments.models import Club, Registration, Session

    tournament = make_tournament(slug="clubs", status=Tournament.Status.DRAFT)
    gent = Club.objects.create(name="Gent")
    for number in range(8):
        player = Player.objects.create(name=f"Player {number}", club=gent if number < 2 else None)
        Registration.objects.create(tournament=tournament, player=player, checked_in=True)
    session = Session.objects.create(tournament=tournament, number=1)
    session.draw("clubs_last", seed=4)
    path = tmp_path / "clubs.json"
    path.write_text(archive.dumps(archive.tournament_to_data(tournament)))
    wipe()
    import_file(path)
    again = Session.objects.get(tournament__slug="clubs", number=1)
    assert (again.seating, again.seed) == ("clubs_last", 4)
