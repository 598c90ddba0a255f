"""The season page reads as words (issue 23, point 4): a result's points and its place are
apart and styled ("4" above "1/4", never "41/4"), a struck result is said to be not counted,
a screen reader hears "Points: 4, place 1 of 4"; adding a private tournament to a public
season says it does not count instead of flashing that it counts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from tests.season_factories import ranked_tournament
from tests.tournaments.test_seasons import four, organiser, organiser_client, season  # noqa: F401

pytestmark = pytest.mark.django_db


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
    four,  # noqa: F811
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


def test_a_public_tournament_added_is_said_to_count(organiser_client, season, four):  # noqa: F811
    autumn = ranked_tournament(four, name="Autumn cup", slug="autumn")
    url = reverse("public:season_add_tournament", args=["be-2027"])
    response = organiser_client.post(
        url, {"tournament": autumn.pk, "coefficient": "1"}, follow=True
    )
    assert "Autumn cup counts for the season." in response.content.decode()
