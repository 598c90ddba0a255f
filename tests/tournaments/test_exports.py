"""Exports: standings and rounds as CSV, the whole tournament as JSON, and its import."""

from __future__ import annotations

import codecs
import csv
import io
import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.urls import reverse

from scoring.models import Game, GameChange, Hand, Round
from tests.factories import entries, make_table, make_tournament, make_user, record
from tournaments import exports
from tournaments.models import Club, Player, Registration, Seat, Session, Table, Tournament

pytestmark = pytest.mark.django_db

HELENE, JURGEN, CELIK, DIRK = "Hélène Dubois", "Jürgen Peeters", "Emre Çelik", "Dirk Maes"
ANN, BART, CHRIS, EVA = "Ann Claes", "Bart Janssens", "Chris Wouters", "Eva Smet"
DIRK_45 = {"hands": {"Ann": 0, "Bart": 1, "Chris": 9, "Dirk": 45}, "yaniv": "Ann"}


def seat(session: Session, number: int, players: list[Player], referee) -> Table:
    table = Table.objects.create(session=session, number=number, referee=referee)
    for position, player in enumerate(players, start=1):
        Seat.objects.create(table=table, position=position, player=player)
    return table


def hands(**by_initial: int) -> dict[str, int]:
    names = {"H": HELENE, "J": JURGEN, "C": CELIK, "D": DIRK}
    names |= {"A": ANN, "B": BART, "K": CHRIS, "E": EVA}
    return {names[initial]: hand for initial, hand in by_initial.items()}


@pytest.fixture
def championship() -> Tournament:
    """Two sessions under `others_score_hand`, with every kind of game history.

    Session 1, table 1 (signed off): Hélène and Jürgen tie for the win on 0; Çelik is
    reduced 50 → 0 in round 3; Dirk goes above 150.
    Session 1, table 2 (ended at the time limit, provisional): a false Yaniv by Chris, a
    corrected round 3 (Eva went along too), an undone round 4.
    Session 2: table 1 is playing (an emptied hand, a Yaniv with a player along); table 2
    has no round yet. Session 3 is planned, without tables.
    """
    director, ref1, ref2 = make_user("director"), make_user("ref1"), make_user("ref2")
    liege = Club.objects.create(name="Yaniv Club Liège", city="Liège")
    gent = Club.objects.create(name="Yaniv Club Gent", city="Gent")
    tournament = make_tournament(
        name="Championnat de Belgique — Liège",
        slug="bk",
        directors=[director],
        club=liege,
        venue="Salle des fêtes",
        false_yaniv="others_score_hand",
    )
    people = {
        name: Player.objects.create(name=name, club=club, member_number=number)
        for name, club, number in [
            (HELENE, liege, "L-1"),
            (JURGEN, gent, "G-7"),
            (CELIK, gent, ""),
            (DIRK, None, ""),
            (ANN, gent, "G-1"),
            (BART, gent, "G-2"),
            (CHRIS, liege, "L-2"),
            (EVA, None, "E-5"),
        ]
    }
    for name, player in people.items():
        Registration.objects.create(tournament=tournament, player=player, checked_in=name != EVA)
    first = Session.objects.create(tournament=tournament, number=1, status="finished", seed=42)
    second = Session.objects.create(tournament=tournament, number=2, status="running", seed=7)
    Session.objects.create(tournament=tournament, number=3)

    game = seat(first, 1, [people[n] for n in (HELENE, JURGEN, CELIK, DIRK)], ref1).game
    record(
        game,
        ref1,
        {"hands": hands(H=0, J=0, C=9, D=45), "yaniv": HELENE},
        {"hands": hands(H=0, J=0, C=9, D=45), "yaniv": HELENE},
        {"hands": hands(H=0, J=0, C=32, D=45), "yaniv": HELENE},
        {"hands": hands(H=0, J=0, C=7, D=45), "yaniv": HELENE},
    )
    game.sign_off(by=ref1, version=game.version)

    game = seat(first, 2, [people[n] for n in (ANN, BART, CHRIS, EVA)], ref2).game
    record(
        game,
        ref2,
        {"hands": hands(A=3, B=12, K=7, E=20), "yaniv": ANN},
        {"hands": hands(A=6, B=2, K=8, E=14), "yaniv": CHRIS},
        {"hands": hands(A=4, B=15, K=4, E=19), "yaniv": ANN, "along": [CHRIS]},
        {"hands": hands(A=2, B=10, K=10, E=10), "yaniv": ANN},
    )
    corrected = entries(
        {"hands": hands(A=4, B=15, K=4, E=19), "yaniv": ANN, "along": [CHRIS, EVA]}
    )
    game.correct_round(
        3, corrected, by=director, reason="Eva went along too", version=game.version
    )
    game.undo_last_round(by=ref2, reason="entered at the wrong table", version=game.version)
    game.end_at_time_limit(by=director, reason="90 minutes are up", version=game.version)

    game = seat(second, 1, [people[n] for n in (HELENE, ANN, CHRIS, EVA)], ref1).game
    record(
        game,
        ref1,
        {"hands": hands(H=0, A=5, K=12, E=3), "empty_hand": HELENE},
        {"hands": hands(H=3, A=20, K=1, E=8), "yaniv": HELENE, "along": [CHRIS]},
    )
    seat(second, 2, [people[n] for n in (JURGEN, CELIK, DIRK, BART)], None)
    return tournament


def csv_rows(response, separator: str = ",") -> list[list[str]]:
    content = b"".join(response.streaming_content) if response.streaming else response.content
    assert content.startswith(codecs.BOM_UTF8)
    return list(csv.reader(io.StringIO(content.decode("utf-8-sig")), delimiter=separator))


# --- CSV ------------------------------------------------------------------------

STANDINGS = [
    ["1", BART, "Yaniv Club Gent", "3", "1", "1", "29", "3", "yes"],
    ["2", HELENE, "Yaniv Club Liège", "2.5", "1", "1", "0", "3.5", "no"],
    ["2", JURGEN, "Yaniv Club Gent", "2.5", "1", "1", "0", "3.5", "no"],
    ["4", ANN, "Yaniv Club Gent", "2", "1", "0", "38", "4", "yes"],
    ["5", CELIK, "Yaniv Club Gent", "1", "1", "0", "7", "5", "no"],
    ["6", CHRIS, "Yaniv Club Liège", "1", "1", "0", "53", "5", "yes"],
    ["7", EVA, "", "0", "1", "0", "66", "6", "yes"],
    ["8", DIRK, "", "0", "1", "0", "180", "6", "no"],
]


def test_the_standings_csv_is_utf8_with_a_bom_and_comma_separated(client, championship):
    response = client.get(reverse("standings_csv", args=["bk"]))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="bk-standings.csv"'
    rows = csv_rows(response)
    assert rows[0] == list(exports.STANDINGS_HEADER)
    assert rows[1:] == STANDINGS


def test_with_semicolons_the_half_points_get_a_decimal_comma(client, championship):
    response = client.get(reverse("standings_csv", args=["bk"]), {"sep": "semicolon"})
    content = response.content.decode("utf-8-sig")
    assert content.startswith("place;player;club;points;")
    assert f"2;{HELENE};Yaniv Club Liège;2,5;1;1;0;3,5;no\r\n" in content
    rows = csv_rows(response, ";")
    decimal_comma = [[cell.replace(".", ",") for cell in row] for row in STANDINGS]
    assert rows[1:] == decimal_comma


def test_a_session_has_its_own_standings_csv(client, championship):
    response = client.get(reverse("session_standings_csv", args=["bk", 1]))
    assert response["Content-Disposition"] == 'attachment; filename="bk-standings-session-1.csv"'
    assert csv_rows(response)[1:] == STANDINGS
    # Session 2 has no finished game yet; session 9 does not exist.
    response = client.get(reverse("session_standings_csv", args=["bk", 2]), {"sep": "semicolon"})
    assert csv_rows(response, ";") == [list(exports.STANDINGS_HEADER)]
    assert client.get(reverse("session_standings_csv", args=["bk", 9])).status_code == 404


def test_an_unknown_separator_is_a_bad_request(client, championship):
    for name in ("standings_csv", "rounds_csv"):
        response = client.get(reverse(name, args=["bk"]), {"sep": "tab"})
        assert response.status_code == 400


def test_the_rounds_csv_has_one_line_per_player_per_round(client, championship):
    response = client.get(reverse("rounds_csv", args=["bk"]))
    assert response.streaming
    assert response["Content-Disposition"] == 'attachment; filename="bk-rounds.csv"'
    rows = csv_rows(response)
    assert rows[0] == list(exports.ROUNDS_HEADER)
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
    response = client.get(reverse("rounds_csv", args=["bk"]), {"sep": "semicolon"})
    rows = csv_rows(response, ";")
    assert len(rows) == 1 + 9 * 4
    assert {len(row) for row in rows} == {len(exports.ROUNDS_HEADER)}


@pytest.mark.parametrize("tables", [1, 6])
def test_the_rounds_csv_costs_two_queries_for_one_game_or_many(
    client, django_assert_num_queries, tables
):
    tournament = make_tournament(slug="many")
    referee = make_user("ref")
    for _ in range(tables):
        record(make_table(tournament=tournament, referee=referee).game, referee, *[DIRK_45] * 4)
    # The tournament, then every hand in one query.
    with django_assert_num_queries(2):
        response = client.get(reverse("rounds_csv", args=["many"]))
        rows = csv_rows(response)
    assert len(rows) == 1 + tables * 4 * 4


def test_a_name_is_never_a_formula(client):
    table = make_table(players=("=HYPERLINK(1)", "Bart"), tournament=make_tournament(slug="f"))
    referee = make_user("ref")
    record(table.game, referee, {"hands": {"=HYPERLINK(1)": 3, "Bart": 9}, "yaniv": "Bart"})
    rows = csv_rows(client.get(reverse("rounds_csv", args=["f"])))
    assert rows[1][4] == "'=HYPERLINK(1)"


def test_the_standings_page_links_its_csv(client, championship):
    html = client.get(reverse("session_standings", args=["bk", 1])).content.decode()
    assert reverse("session_standings_csv", args=["bk", 1]) in html
    assert reverse("rounds_csv", args=["bk"]) in html


# --- permissions ----------------------------------------------------------------


def test_a_private_tournament_s_csv_is_404_for_strangers(client):
    referee, director = make_user("ref"), make_user("boss")
    private = make_tournament(slug="secret", is_public=False, directors=[director])
    record(make_table(tournament=private, referee=referee).game, referee, *[DIRK_45] * 4)
    urls = [
        reverse("standings_csv", args=["secret"]),
        reverse("session_standings_csv", args=["secret", 1]),
        reverse("rounds_csv", args=["secret"]),
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


def test_the_json_export_is_for_directors_only(client, championship):
    url = reverse("manage_export_json", args=["bk"])
    response = client.get(url)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    client.force_login(get_user_model().objects.get(username="ref1"))
    assert client.get(url).status_code == 403
    client.force_login(make_user("stranger"))
    assert client.get(url).status_code == 403
    championship.is_public = False
    championship.save()
    assert client.get(url).status_code == 404

    client.force_login(get_user_model().objects.get(username="director"))
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert re.fullmatch(
        r'attachment; filename="bk-\d{4}-\d\d-\d\d\.json"', response["Content-Disposition"]
    )
    assert "no-store" in response["Cache-Control"]
    data = json.loads(response.content)
    assert (data["format"], data["version"]) == ("yaniv-club-tournament", 1)


def test_the_dashboard_links_the_exports(client, championship):
    client.force_login(get_user_model().objects.get(username="director"))
    html = client.get(reverse("manage_tournament", args=["bk"])).content.decode()
    assert reverse("manage_export_json", args=["bk"]) in html
    assert reverse("standings_csv", args=["bk"]) in html
    assert reverse("rounds_csv", args=["bk"]) in html


# --- JSON export ----------------------------------------------------------------


def export(slug: str = "bk") -> dict:
    out = io.StringIO()
    call_command("export_tournament", slug, stdout=out)
    return json.loads(out.getvalue())


def table_data(data: dict, session: int, table: int) -> dict:
    tables = data["sessions"][session - 1]["tables"]
    return next(each for each in tables if each["number"] == table)


def test_each_game_is_a_game_record_with_its_sign_off_and_audit_log(championship):
    data = export()
    assert data["tournament"]["options"] == {"false_yaniv": "others_score_hand"}
    assert data["tournament"]["directors"] == ["director"]
    game = table_data(data, 1, 2)["game"]
    assert game["record"]["players"] == [ANN, BART, CHRIS, EVA]
    assert game["record"]["options"] == {"false_yaniv": "others_score_hand"}
    assert game["record"]["rounds"][2] == {
        "hands": hands(A=4, B=15, K=4, E=19),
        "yaniv": ANN,
        "along": [CHRIS, EVA],
    }
    assert (game["finished"], game["ended_at_time_limit"], game["signed_off_by"]) == (
        True,
        True,
        None,
    )
    assert [(c["action"], c["round"], c["user"]) for c in game["changes"]] == [
        ("record", 1, "ref2"),
        ("record", 2, "ref2"),
        ("record", 3, "ref2"),
        ("record", 4, "ref2"),
        ("correct", 3, "director"),
        ("undo", 4, "ref2"),
        ("end", None, "director"),
    ]
    assert game["changes"][4]["before"]["along"] == [CHRIS]
    assert game["changes"][4]["reason"] == "Eva went along too"
    signed = table_data(data, 1, 1)["game"]
    assert signed["signed_off_by"] == "ref1" and signed["signed_off_at"]
    assert table_data(data, 2, 1)["game"]["record"]["rounds"][0]["empty_hand"] == HELENE
    # The record scores with the score_game command as it is.
    out = io.StringIO()
    path = io.StringIO(json.dumps(game["record"]))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("sys.stdin", path)
        call_command("score_game", "-", stdout=out)
    assert json.loads(out.getvalue())["totals"] == hands(A=38, B=29, K=53, E=66)


def test_exporting_an_unknown_slug_fails():
    with pytest.raises(CommandError, match="no tournament with the slug 'nope'"):
        call_command("export_tournament", "nope")


# --- import ---------------------------------------------------------------------


def snapshot(slug: str = "bk") -> dict:
    """Everything an import must give back, without database ids."""
    tournament = Tournament.objects.get(slug=slug)
    where = {"table__session__tournament": tournament}

    def who(player: Player) -> tuple:
        return (player.name, player.club.name if player.club else None, player.member_number)

    def ranking(session=None) -> list[tuple]:
        return [
            (s.place, who(p), s.points, s.games, s.wins, s.total_sum, s.opponents_points)
            + (s.provisional,)
            for s, p in tournament.standings(session)
        ]

    games = Game.objects.filter(**where).select_related("table__session")
    return {
        "tournament": (
            Tournament.objects.filter(pk=tournament.pk)
            .values_list(
                "name",
                "slug",
                "starts_on",
                "ends_on",
                "venue",
                "club__name",
                "status",
                "is_public",
                "table_size",
                "session_count",
                "false_yaniv",
                "preset",
                "rule_options",
            )
            .get(),
            sorted(tournament.directors.values_list("username", flat=True)),
        ),
        "standings": [ranking(), *(ranking(s) for s in tournament.sessions.all())],
        "registrations": sorted(
            (who(r.player), r.checked_in, r.registered_at)
            for r in tournament.registrations.select_related("player__club")
        ),
        "sessions": list(
            tournament.sessions.values_list(
                "number", "status", "seating", "seed", "repeat_meetings"
            )
        ),
        "tables": sorted(
            Table.objects.filter(session__tournament=tournament).values_list(
                "session__number", "number", "referee__username"
            )
        ),
        "seats": sorted(
            (s.table.session.number, s.table.number, s.position, who(s.player), s.total, s.rank)
            for s in Seat.objects.filter(**where).select_related("table__session", "player__club")
        ),
        "hands": sorted(
            Hand.objects.filter(round__game__table__session__tournament=tournament).values_list(
                "round__game__table__session__number",
                "round__game__table__number",
                "round__number",
                "seat__position",
                "hand_total",
                "along",
                "points",
                "reduction",
                "total",
            )
        ),
        "rounds": sorted(
            Round.objects.filter(game__table__session__tournament=tournament).values_list(
                "game__table__session__number",
                "game__table__number",
                "number",
                "kind",
                "caller__position",
                "empty_hand__position",
                "entered_by__username",
                "entered_at",
            )
        ),
        "games": sorted(
            games.values_list(
                "table__session__number",
                "table__number",
                "finished",
                "finished_at",
                "ended_at_time_limit",
                "signed_off_at",
                "signed_off_by__username",
                "version",
            )
        ),
        "sheets": {
            (game.table.session.number, game.table.number): (
                game.sheet().players,
                [(r.number, r.kind, r.cells, r.entered_by) for r in game.sheet().rows()],
            )
            for game in games
        },
        "changes": list(
            GameChange.objects.filter(game__table__session__tournament=tournament)
            .order_by("game__table__session__number", "game__table__number", "at", "pk")
            .values_list(
                "game__table__session__number",
                "game__table__number",
                "action",
                "round_number",
                "user__username",
                "at",
                "before",
                "after",
                "reason",
                "version",
            )
        ),
    }


def wipe() -> None:
    """An empty site: no tournament, player, club or user."""
    Tournament.objects.all().delete()
    Player.objects.all().delete()
    Club.objects.all().delete()
    get_user_model().objects.all().delete()


def row_counts() -> dict[str, int]:
    models = [get_user_model(), Club, Player, Tournament, Registration, Session, Table, Seat]
    models += [Game, Round, Hand, GameChange]
    return {model.__name__: model.objects.count() for model in models}


def import_file(path) -> str:
    out = io.StringIO()
    call_command("import_tournament", str(path), stdout=out)
    return out.getvalue()


@pytest.fixture
def exported(championship, tmp_path):
    """The championship's export in a file; then the site is emptied."""
    path = tmp_path / "bk.json"
    call_command("export_tournament", "bk", "-o", str(path), stderr=io.StringIO())
    return path


def test_an_export_imported_into_an_empty_site_gives_the_same_tournament(exported):
    before = snapshot()
    wipe()
    assert row_counts()["Hand"] == 0

    output = import_file(exported)

    assert snapshot() == before
    assert "9 round(s)" in output and "8 new, 0 matched" in output
    assert "Created 3 user(s) as inactive accounts without a usable password" in output
    for user in get_user_model().objects.all():
        assert not user.is_active and not user.has_usable_password()


def test_an_import_matches_players_by_club_and_member_number_and_users_by_name(exported):
    before = snapshot()
    counts = row_counts()
    Tournament.objects.all().delete()

    output = import_file(exported)

    assert snapshot() == before
    # Dirk, Çelik (no member number) and Eva (no club) are created again.
    assert "3 new, 5 matched" in output and "Created" not in output
    assert Player.objects.count() == counts["Player"] + 3
    assert get_user_model().objects.count() == counts["User"]


def test_importing_a_file_twice_is_refused_and_changes_nothing(exported):
    counts = row_counts()
    with pytest.raises(CommandError, match="slug 'bk' already exists.*Nothing was imported"):
        import_file(exported)
    assert row_counts() == counts


def edited(path, change) -> None:
    data = json.loads(path.read_text("utf-8"))
    change(data)
    path.write_text(json.dumps(data), "utf-8")


def set_hand_51(data: dict) -> None:
    table_data(data, 1, 2)["game"]["record"]["rounds"][2]["hands"][EVA] = 51


def seat_unknown_player(data: dict) -> None:
    table_data(data, 2, 1)["seats"][0]["player"] = 999_999


def duplicate_table_number(data: dict) -> None:
    data["sessions"][1]["tables"][1]["number"] = 1


def unknown_version(data: dict) -> None:
    data["version"] = 2


def untie_the_finish(data: dict) -> None:
    table_data(data, 1, 1)["game"]["record"]["rounds"].pop()
    table_data(data, 1, 1)["game"]["rounds_entered"].pop()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (set_hand_51, f"session 1, table 2: round 3: hand of {EVA} must be an integer 0-50"),
        (seat_unknown_player, "session 2, table 1, seat 1: player 999999 is not one of the"),
        (duplicate_table_number, "session 2: duplicate table number 1"),
        (unknown_version, "unknown version 2 of the export format"),
        (untie_the_finish, "session 1, table 1: the file says the game is finished, but its"),
    ],
)
def test_an_inconsistent_file_is_refused_naming_the_place_and_writes_nothing(
    exported, change, message
):
    wipe()
    edited(exported, change)
    counts = row_counts()
    with pytest.raises(CommandError, match=re.escape(message)):
        import_file(exported)
    assert row_counts() == counts


def test_a_file_that_is_not_json_is_refused(exported):
    wipe()
    exported.write_text('{"format": "yaniv-club-tournament", "version": 1,', "utf-8")
    counts = row_counts()
    with pytest.raises(CommandError, match="the file is not valid JSON"):
        import_file(exported)
    assert row_counts() == counts


def test_a_file_saved_with_a_byte_order_mark_imports(exported):
    wipe()
    exported.write_bytes(codecs.BOM_UTF8 + exported.read_bytes())
    assert import_file(exported).startswith("Imported Championnat de Belgique — Liège (bk)")
