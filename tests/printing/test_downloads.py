"""The CSV downloads: the standings and every round, for spreadsheets (printing.downloads).

Most tests read the `championship` (tests.factories.make_championship).
"""

from __future__ import annotations

import codecs
import csv
import io

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from printing import downloads
from tests.factories import (
    ANN,
    BART,
    CELIK,
    CHRIS,
    DIRK,
    EVA,
    HELENE,
    JURGEN,
    make_table,
    make_tournament,
    make_user,
    record,
)
from tests.tournaments.test_final import play_out, qualify
from tournaments.models import Hand, Player, Tournament

pytestmark = pytest.mark.django_db

DIRK_45 = {"hands": {"Ann": 0, "Bart": 1, "Chris": 9, "Dirk": 45}, "yaniv": "Ann"}


def csv_rows(response, separator: str = ",") -> list[list[str]]:
    content = b"".join(response.streaming_content) if response.streaming else response.content
    assert content.startswith(codecs.BOM_UTF8)
    return list(csv.reader(io.StringIO(content.decode("utf-8-sig")), delimiter=separator))


# --- CSV ------------------------------------------------------------------------

STANDINGS = [
    ["1", BART, "Yaniv Club Gent", "3", "1", "1", "29", "3", "yes", "no"],
    ["2", HELENE, "Yaniv Club Liège", "2.5", "1", "1", "0", "3.5", "no", "no"],
    ["2", JURGEN, "Yaniv Club Gent", "2.5", "1", "1", "0", "3.5", "no", "no"],
    ["4", ANN, "Yaniv Club Gent", "2", "1", "0", "38", "4", "yes", "no"],
    ["5", CELIK, "Yaniv Club Gent", "1", "1", "0", "7", "5", "no", "no"],
    ["6", CHRIS, "Yaniv Club Liège", "1", "1", "0", "53", "5", "yes", "no"],
    ["7", EVA, "", "0", "1", "0", "66", "6", "yes", "no"],
    ["8", DIRK, "", "0", "1", "0", "180", "6", "no", "no"],
]


def test_the_standings_csv_is_utf8_with_a_bom_and_comma_separated(client, championship):
    response = client.get(reverse("public:standings_csv", args=["bk"]))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="bk-standings.csv"'
    rows = csv_rows(response)
    assert rows[0] == list(downloads.STANDINGS_HEADER)
    assert rows[1:] == STANDINGS


def test_with_semicolons_the_half_points_get_a_decimal_comma(client, championship):
    response = client.get(reverse("public:standings_csv", args=["bk"]), {"sep": "semicolon"})
    content = response.content.decode("utf-8-sig")
    assert content.startswith("place;player;club;points;")
    assert f"2;{HELENE};Yaniv Club Liège;2,5;1;1;0;3,5;no;no\r\n" in content
    rows = csv_rows(response, ";")
    decimal_comma = [[cell.replace(".", ",") for cell in row] for row in STANDINGS]
    assert rows[1:] == decimal_comma


def test_a_session_has_its_own_standings_csv(client, championship):
    response = client.get(reverse("public:session_standings_csv", args=["bk", 1]))
    assert response["Content-Disposition"] == 'attachment; filename="bk-standings-session-1.csv"'
    assert csv_rows(response)[1:] == STANDINGS
    # Session 2 has no finished game yet; session 9 does not exist.
    response = client.get(
        reverse("public:session_standings_csv", args=["bk", 2]), {"sep": "semicolon"}
    )
    assert csv_rows(response, ";") == [list(downloads.STANDINGS_HEADER)]
    assert client.get(reverse("public:session_standings_csv", args=["bk", 9])).status_code == 404


def test_an_unknown_separator_is_a_bad_request(client, championship):
    for name in ("public:standings_csv", "public:rounds_csv"):
        response = client.get(reverse(name, args=["bk"]), {"sep": "tab"})
        assert response.status_code == 400


def test_the_rounds_csv_has_one_line_per_player_per_round(client, championship):
    response = client.get(reverse("public:rounds_csv", args=["bk"]))
    assert response.streaming
    assert response["Content-Disposition"] == 'attachment; filename="bk-rounds.csv"'
    rows = csv_rows(response)
    assert rows[0] == list(downloads.ROUNDS_HEADER)
    # 4 rounds at session 1's table 1, 3 at its table 2 (one undone), 2 in session 2.
    assert len(rows) == 1 + (4 + 3 + 2) * 4
    name = "Championnat de Belgique — Liège"
    line = {(row[1], row[2], row[3], row[4]): row for row in rows[1:]}
    # Çelik arrives on 50 and is reduced to 0.
    assert line["1", "1", "3", CELIK] == [name, "1", "1", "3", CELIK, "32", "", "no"] + [
        "32",
        "50",
        "0",
    ]
    assert line["1", "1", "3", HELENE][5:] == ["0", "yaniv", "no", "0", "0", "0"]
    # Chris's false Yaniv: 32 + Eva's 14; the others score their hands (others_score_hand).
    assert line["1", "2", "2", CHRIS][5:] == ["8", "false yaniv", "no", "46", "0", "53"]
    assert line["1", "2", "2", ANN][5:] == ["6", "", "no", "6", "0", "6"]
    # The corrected round 3: Eva went along with 19 against Ann's 4.
    assert line["1", "2", "3", EVA][5:] == ["19", "", "yes", "32", "0", "66"]
    assert line["1", "2", "3", ANN][5:] == ["4", "yaniv", "no", "32", "0", "38"]
    assert line["2", "1", "1", HELENE][5:] == ["0", "empty hand", "no", "0", "0", "0"]
    # Every line is the database's, in order: session, table, round, seat.
    stored = Hand.objects.order_by(
        "round__game__table__session__number",
        "round__game__table__number",
        "round__number",
        "seat__position",
    ).values_list(
        "round__game__table__session__number",
        "round__game__table__number",
        "round__number",
        "seat__player__name",
        "hand_total",
        "points",
        "reduction",
        "total",
    )
    assert [
        (int(r[1]), int(r[2]), int(r[3]), r[4], int(r[5]), int(r[8]), int(r[9]), int(r[10]))
        for r in rows[1:]
    ] == list(stored)


def test_the_rounds_csv_parses_back_with_semicolons(client, championship):
    response = client.get(reverse("public:rounds_csv", args=["bk"]), {"sep": "semicolon"})
    rows = csv_rows(response, ";")
    assert len(rows) == 1 + 9 * 4
    assert {len(row) for row in rows} == {len(downloads.ROUNDS_HEADER)}


def rounds_csv_queries(client, slug: str) -> tuple[int, list[list[str]]]:
    """The queries the rounds CSV costs, written afresh (not from the cache), and its rows."""
    cache.clear()
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("public:rounds_csv", args=[slug]))
        rows = csv_rows(response)
    return len(queries), rows


@pytest.mark.parametrize("tables", [1, 6])
def test_the_rounds_csv_costs_the_same_queries_for_one_game_or_many(client, tables):
    tournament = make_tournament(slug="many")
    referee = make_user("ref")
    for _ in range(tables):
        record(make_table(tournament=tournament, referee=referee).game, referee, *[DIRK_45] * 4)
    count, rows = rounds_csv_queries(client, "many")
    # The tournament and its version, its games, then their seats and their rounds with
    # their hands (the games' sheets).
    assert count == 5
    assert len(rows) == 1 + tables * 4 * 4


def test_the_rounds_csv_reads_the_sheets_a_few_hundred_tables_at_a_time(client, monkeypatch):
    tournament = make_tournament(slug="many")
    referee = make_user("ref")
    for _ in range(5):
        record(make_table(tournament=tournament, referee=referee).game, referee, *[DIRK_45] * 3)
    count, rows = rounds_csv_queries(client, "many")
    assert count == 5
    # Two tables at a time: three chunks of sheets, two queries each; the same lines.
    monkeypatch.setattr(downloads, "TABLES_PER_CHUNK", 2)
    assert rounds_csv_queries(client, "many") == (3 + 3 * 2, rows)
    assert [row[2] for row in rows[1::12]] == ["1", "2", "3", "4", "5"]


def test_a_name_is_never_a_formula(client):
    table = make_table(players=("=HYPERLINK(1)", "Bart"), tournament=make_tournament(slug="f"))
    referee = make_user("ref")
    record(table.game, referee, {"hands": {"=HYPERLINK(1)": 3, "Bart": 9}, "yaniv": "Bart"})
    rows = csv_rows(client.get(reverse("public:rounds_csv", args=["f"])))
    assert rows[1][4] == "'=HYPERLINK(1)"


def test_the_standings_page_links_its_csv(client, championship):
    html = client.get(reverse("public:session_standings", args=["bk", 1])).content.decode()
    assert reverse("public:session_standings_csv", args=["bk", 1]) in html
    assert reverse("public:rounds_csv", args=["bk"]) in html


# --- permissions ----------------------------------------------------------------


def test_a_private_tournament_s_csv_is_404_for_strangers(client):
    referee, director = make_user("ref"), make_user("boss")
    private = make_tournament(slug="secret", is_public=False, directors=[director])
    record(make_table(tournament=private, referee=referee).game, referee, *[DIRK_45] * 4)
    urls = [
        reverse("public:standings_csv", args=["secret"]),
        reverse("public:session_standings_csv", args=["secret", 1]),
        reverse("public:rounds_csv", args=["secret"]),
    ]
    for url in urls:
        assert client.get(url).status_code == 404
    client.force_login(make_user("stranger"))
    for url in urls:
        assert client.get(url).status_code == 404
    for user in (referee, director):
        client.force_login(user)
        for url in urls:
            assert client.get(url).status_code == 200


def test_the_dashboard_links_the_exports(client, championship):
    client.force_login(get_user_model().objects.get(username="director"))
    html = client.get(reverse("manage:tournament", args=["bk"])).content.decode()
    assert reverse("manage:export_json", args=["bk"]) in html
    assert reverse("public:standings_csv", args=["bk"]) in html
    assert reverse("public:rounds_csv", args=["bk"]) in html


# --- a tournament with a final -------------------------------------------------------


def final_csv(client, tournament, name: str = "public:standings_csv") -> list[list[str]]:
    return csv_rows(client.get(reverse(name, args=[tournament.slug])))


FINAL_HEADER = [
    "place",
    "player",
    "club",
    "stage",
    "final rank",
    "final total",
    "final points",
    "carried over",
    "final score",
    "qualifying place",
    "points",
    "games",
    "wins",
    "sum of totals",
    "table-mates' points",
    "provisional",
    "withdrawn",
]
# Everyone's qualifying columns (tests.tournaments.test_final.qualify): place, points, games,
# wins, sum of totals, table-mates' points; no game signed off.
QUALIFYING = {
    "Ann": ["1", "3", "1", "1", "0", "3", "yes", "no"],
    "Eva": ["1", "3", "1", "1", "0", "3", "yes", "no"],
    "Finn": ["3", "2", "1", "0", "8", "4", "yes", "no"],
    "Bart": ["4", "1.5", "1", "0", "4", "4.5", "yes", "no"],
    "Chris": ["4", "1.5", "1", "0", "4", "4.5", "yes", "no"],
    "Gina": ["6", "1", "1", "0", "12", "5", "yes", "no"],
    "Dirk": ["7", "0", "1", "0", "180", "6", "yes", "no"],
    "Hugo": ["7", "0", "1", "0", "180", "6", "yes", "no"],
}
NOT_IN_THE_FINAL = [
    ["4", "Bart", "", "Qualifying", "", "", "", "", "", *QUALIFYING["Bart"]],
    ["4", "Chris", "", "Qualifying", "", "", "", "", "", *QUALIFYING["Chris"]],
    ["6", "Gina", "", "Qualifying", "", "", "", "", "", *QUALIFYING["Gina"]],
    ["7", "Dirk", "", "Qualifying", "", "", "", "", "", *QUALIFYING["Dirk"]],
    ["7", "Hugo", "", "Qualifying", "", "", "", "", "", *QUALIFYING["Hugo"]],
]


@pytest.fixture
def with_final(tournament) -> Tournament:
    """Ann, Eva and Finn qualified for a final of 3 (tests.tournaments.test_final.qualify)."""
    return qualify(tournament)


@pytest.mark.parametrize(
    ("carry", "finalists"),
    [
        # The final alone: Ann 2 points, Finn 1, Eva 0; nothing carried.
        (
            "none",
            [
                ["1", "Ann", "", "Final", "1", "0", "2", "", "2"],
                ["2", "Finn", "", "Final", "2", "8", "1", "", "1"],
                ["3", "Eva", "", "Final", "3", "180", "0", "", "0"],
            ],
        ),
        # Placement points: Ann 3 + 2, Eva 3 + 0, Finn 2 + 1; Eva's better qualifying place
        # breaks her tie with Finn.
        (
            "placement",
            [
                ["1", "Ann", "", "Final", "1", "0", "2", "3", "5"],
                ["2", "Eva", "", "Final", "3", "180", "0", "3", "3"],
                ["3", "Finn", "", "Final", "2", "8", "1", "2", "3"],
            ],
        ),
        # Totals, lowest first: Ann 0 + 0, Finn 8 + 8, Eva 0 + 180.
        (
            "totals",
            [
                ["1", "Ann", "", "Final", "1", "0", "2", "0", "0"],
                ["2", "Finn", "", "Final", "2", "8", "1", "8", "16"],
                ["3", "Eva", "", "Final", "3", "180", "0", "0", "180"],
            ],
        ),
    ],
)
def test_the_standings_csv_of_a_tournament_with_a_final_puts_the_finalists_first(
    client, with_final, carry, finalists
):
    with_final.final_carry_over = carry
    with_final.save()
    play_out(with_final.open_final().tables.get(), (0, 45, 2))  # Ann, Eva, Finn
    rows = final_csv(client, with_final)
    assert rows[0] == FINAL_HEADER
    assert rows[1:4] == [row + QUALIFYING[row[1]] for row in finalists]
    assert rows[4:] == NOT_IN_THE_FINAL


def test_until_the_final_is_over_its_csv_shows_the_qualifying_places(client, with_final):
    rows = final_csv(client, with_final)
    assert rows[0] == FINAL_HEADER
    qualifying = [
        ["1", "Ann", "", "Qualifying", "", "", "", "", "", *QUALIFYING["Ann"]],
        ["1", "Eva", "", "Qualifying", "", "", "", "", "", *QUALIFYING["Eva"]],
        ["3", "Finn", "", "Qualifying", "", "", "", "", "", *QUALIFYING["Finn"]],
    ]
    assert rows[1:] == qualifying + NOT_IN_THE_FINAL
    # The final opened, half played: the same.
    table = with_final.open_final().tables.get()
    half = {"hands": {"Ann": 0, "Eva": 9, "Finn": 2}, "yaniv": "Ann"}
    record(table.game, make_user("ref-final"), half)
    assert final_csv(client, with_final)[1:] == qualifying + NOT_IN_THE_FINAL
    # A session's own standings are as without a final.
    url = reverse("public:session_standings_csv", args=[with_final.slug, 1])
    session = csv_rows(client.get(url))
    assert session[0] == list(downloads.STANDINGS_HEADER)
    assert [row[1] for row in session[1:]] == [row[1] for row in rows[1:]]


def test_with_semicolons_the_final_s_half_points_get_a_decimal_comma(client, with_final):
    with_final.final_carry_over = "placement"
    with_final.final_players, with_final.final_tables = 6, 2
    with_final.save()
    final = with_final.open_final()
    a_final, b_final = final.tables.order_by("number")
    play_out(a_final, (0, 45, 2))  # Ann, Eva, Finn
    play_out(b_final, (0, 45, 2))  # Bart, Chris, Gina
    response = client.get(
        reverse("public:standings_csv", args=[with_final.slug]), {"sep": "semicolon"}
    )
    rows = csv_rows(response, ";")
    assert [row[:4] for row in rows[1:7]] == [
        ["1", "Ann", "", "A final"],
        ["2", "Eva", "", "A final"],
        ["3", "Finn", "", "A final"],
        # The B final: Bart 1.5 + 2, Gina 1 + 1, Chris 1.5 + 0.
        ["4", "Bart", "", "B final"],
        ["5", "Gina", "", "B final"],
        ["6", "Chris", "", "B final"],
    ]
    assert rows[4][4:11] == ["1", "0", "2", "1,5", "3,5", "4", "1,5"]
    assert rows[6][4:11] == ["3", "180", "0", "1,5", "1,5", "4", "1,5"]
    assert [row[:4] for row in rows[7:]] == [
        ["7", "Dirk", "", "Qualifying"],
        ["7", "Hugo", "", "Qualifying"],
    ]


def test_the_rounds_csv_of_a_tournament_with_a_final_says_each_table_s_stage(client, with_final):
    with_final.final_players, with_final.final_tables = 6, 2
    with_final.save()
    referee = make_user("ref-final")
    a_final, b_final = with_final.open_final().tables.order_by("number")
    record(a_final.game, referee, {"hands": {"Ann": 0, "Eva": 9, "Finn": 2}, "yaniv": "Ann"})
    record(b_final.game, referee, {"hands": {"Bart": 0, "Chris": 9, "Gina": 2}, "yaniv": "Bart"})
    count, rows = rounds_csv_queries(client, with_final.slug)
    header = list(downloads.ROUNDS_HEADER)
    assert rows[0] == [*header[:2], "stage", *header[2:]]
    stages = {(row[1], row[2], row[3]) for row in rows[1:]}
    assert stages == {
        ("1", "Qualifying", "1"),
        ("1", "Qualifying", "2"),
        ("2", "A final", "1"),
        ("2", "B final", "2"),
    }
    # 4 rounds at each qualifying table of 4, one at each final table of 3.
    assert len(rows) == 1 + 2 * 4 * 4 + 2 * 3
    assert {len(row) for row in rows} == {len(header) + 1}
    assert rows[-1][4:] == ["1", "Gina", "2", "", "no", "2", "0", "2"]
    # The stage costs no query.
    assert count == 5


@pytest.mark.parametrize(
    "name",
    [
        " =HYPERLINK(1)",
        "\n=HYPERLINK(1)",
        "\t=1+1",
        "\r=1+1",
        "\u200b=HYPERLINK(1)",
        "\ufeff=1+1",
        "\u00a0=1+1",
        "\uff1dHYPERLINK(1)",
        "\uff0b1",
        "\uff0d1",
        "\uff20SUM(A1)",
        "\ufe66HYPERLINK(1)",
        "=HYPERLINK(1)",
        "+1",
        "-1",
        "@SUM(A1)",
    ],
)
def test_no_way_a_spreadsheet_starts_a_formula_gets_through(name):
    assert downloads._text(name) == f"'{name}"


@pytest.mark.parametrize("name", ["Ann", "Émile", "O'Brien", "李小龍", "Jean-Marie", "1 Ann"])
def test_a_name_that_starts_no_formula_is_written_as_it_is(name):
    assert downloads._text(name) == name


def test_a_name_imported_from_an_archive_is_never_a_formula_either(client):
    """The archive import stores names the form would have tidied (a leading space, a zero-
    width space, a fullwidth equals sign): the CSV guards them all the same."""
    table = make_table(
        players=("Ann", "\u200b=HYPERLINK(1)", "\uff1d1+1", "Dirk"),
        tournament=make_tournament(slug="g"),
    )
    referee = make_user("ref")
    record(
        table.game,
        referee,
        {"hands": {"Ann": 3, "\u200b=HYPERLINK(1)": 9, "\uff1d1+1": 5, "Dirk": 7}, "yaniv": "Ann"},
    )
    # As the archive import stores it (bulk_create: no tidying of the name).
    Player.objects.filter(name="Ann").update(name=" =HYPERLINK(2)")
    rows = csv_rows(client.get(reverse("public:rounds_csv", args=["g"])))
    names = {row[4] for row in rows[1:]}
    assert {" =HYPERLINK(2)", "\u200b=HYPERLINK(1)", "\uff1d1+1"}.isdisjoint(names)
    assert {"' =HYPERLINK(2)", "'\u200b=HYPERLINK(1)", "'\uff1d1+1"} <= names
