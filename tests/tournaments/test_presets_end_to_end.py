"""Every preset end to end: a game of tests/vectors played through the referee's page."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.urls import reverse

from tests.factories import HTMX, make_table, make_tournament, make_user
from tests.scoring.vectors import load

pytestmark = pytest.mark.django_db

VECTORS = Path(__file__).resolve().parents[1] / "vectors"
GAMES = {
    "belgian": VECTORS / "belgian" / "random_0.json",
    "israeli": VECTORS / "presets" / "israeli" / "random_0.json",
    "wikipedia_en": VECTORS / "presets" / "wikipedia_en" / "random_0.json",
    "wikipedia_fr": VECTORS / "presets" / "wikipedia_fr" / "random_0.json",
}


def form_post(number: int, entry: dict, seats: dict[str, int]) -> dict:
    """The round as the referee types it: hands of the players still in, the ending, along."""
    post = {f"hand_{seats[player]}": hand for player, hand in entry["hands"].items()}
    if "yaniv" in entry:
        post["ending"] = f"yaniv:{seats[entry['yaniv']]}"
    else:
        post["ending"] = f"empty:{seats[entry['empty_hand']]}"
    post["along"] = [str(seats[player]) for player in entry.get("along", [])]
    post["number"] = number
    return post


@pytest.mark.parametrize("preset", list(GAMES))
def test_a_whole_game_under_each_preset_through_the_referees_page(client, preset):
    vector = load(GAMES[preset])
    assert vector["game"]["ruleset"] == preset and vector["expected"]["finished"]
    referee = make_user("ref")
    table = make_table(
        players=vector["game"]["players"],
        referee=referee,
        tournament=make_tournament(preset=preset, slug=f"t-{preset.replace('_', '-')}"),
    )
    seats = {seat.player.name: seat.position for seat in table.seats.select_related("player")}
    client.force_login(referee)
    url = reverse("tables:record", args=[table.pk])
    for number, entry in enumerate(vector["game"]["rounds"], start=1):
        response = client.post(url, form_post(number, entry, seats), headers=HTMX)
        assert response.status_code == 200
        assert f"Round {number + 1}" in response.content.decode() or number == len(
            vector["game"]["rounds"]
        ), response.content.decode()[:2000]
    table.game.refresh_from_db()
    totals = {seat.player.name: seat.total for seat in table.seats.select_related("player")}
    assert totals == vector["expected"]["totals"]
    assert table.game.finished
    ranks = {seat.player.name: seat.rank for seat in table.seats.select_related("player")}
    assert ranks == {p["player"]: p["rank"] for p in vector["expected"]["ranking"]}
    standings = client.get(reverse("public:standings", args=[table.session.tournament.slug]))
    assert standings.status_code == 200
