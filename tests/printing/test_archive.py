"""The club's archive: the whole tournament as JSON and its import (printing.archive)."""

from __future__ import annotations

import codecs
import io
import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.models import Model
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from printing import archive
from scoring import records, rules
from tests.factories import (
    ANN,
    BART,
    CHRIS,
    DIRK,
    EVA,
    HELENE,
    entries,
    hands,
    make_table,
    make_tournament,
    make_user,
    record,
)
from tests.printing.test_downloads import DIRK_45
from tests.tournaments.test_final import play_out, qualify
from tournaments.models import (
    Club,
    Game,
    GameChange,
    Hand,
    Player,
    Registration,
    Round,
    Seat,
    Session,
    SessionClockEvent,
    Table,
    Tournament,
)
from tournaments.models.tournaments import StandingPlayer
from tournaments.sheets import GameSheet

pytestmark = pytest.mark.django_db


# --- permissions ----------------------------------------------------------------


def test_the_json_export_is_for_directors_only(client, championship):
    url = reverse("manage:export_json", args=["bk"])
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

    def who(player: Player | StandingPlayer) -> tuple:
        number = Player.objects.values_list("member_number", flat=True).get(pk=player.pk)
        return (player.name, player.club.name if player.club else None, number)

    def ranking(session=None) -> list[tuple]:
        return [
            (s.place, who(p), s.points, s.games, s.wins, s.total_sum, s.opponents_points)
            + (s.provisional,)
            for s, p in tournament.standings(session)
        ]

    games = Game.objects.filter(**where).select_related("table__session__tournament")
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
                "final_players",
                "final_tables",
                "final_carry_over",
                "at_time_limit",
            )
            .get(),
            sorted(tournament.directors.values_list("username", flat=True)),
        ),
        "standings": [ranking(), *(ranking(s) for s in tournament.sessions.all())],
        "final": [
            (row.place, who(p), row.stage, row.final_table, row.score, row.provisional)
            for row, p in tournament.final_standings() or []
        ],
        "registrations": sorted(
            (who(r.player), r.checked_in, r.registered_at)
            for r in tournament.registrations.select_related("player__club")
        ),
        "sessions": list(
            tournament.sessions.values_list(
                "number",
                "stage",
                "status",
                "seating",
                "seed",
                "repeat_meetings",
                "time_limit",
                "clock_started_at",
                "clock_paused_at",
                "clock_paused_seconds",
                "clock_extension",
            )
        ),
        "clock_events": list(
            SessionClockEvent.objects.filter(session__tournament=tournament)
            .order_by("at", "pk")
            .values_list(
                "session__number",
                "table__number",
                "action",
                "minutes",
                "games",
                "by__username",
                "at",
                "reason",
            )
        ),
        "tables": sorted(
            Table.objects.filter(session__tournament=tournament).values_list(
                "session__number", "number", "referee__username", "clock_extension"
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
            (sheet.game.table.session.number, sheet.game.table.number): (
                sheet.players,
                [(r.number, r.kind, r.entries, r.cells) for r in sheet.rows],
                sheet.entered_by(),
            )
            for sheet in GameSheet.load_many(games)
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
    models: list[type[Model]] = [get_user_model(), Club, Player, Tournament, Registration]
    models += [Session, Table, Seat, Game, Round, Hand, GameChange]
    return {model.__name__: model._default_manager.count() for model in models}


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


def test_the_session_clock_and_its_log_come_back_as_they_were(championship, tmp_path):
    director = championship.directors.get()
    session = championship.sessions.get(number=2)
    table = session.tables.get(number=1)
    session.set_time_limit(90, by=director)
    session.start_clock(by=director)
    session.extend_clock(5, by=director, reason="a long deal")
    session.extend_clock(3, table, by=director, reason="a spilled drink")
    session.pause_clock(by=director)
    path = tmp_path / "bk.json"
    call_command("export_tournament", "bk", "-o", str(path), stderr=io.StringIO())
    session.refresh_from_db()
    assert session.clock_paused_at is not None
    before = snapshot()
    assert [event[2] for event in before["clock_events"]] == [
        "limit",
        "start",
        "extend",
        "extend",
        "pause",
    ]
    wipe()

    import_file(path)

    assert snapshot() == before
    imported = Session.objects.get(tournament__slug="bk", number=2)
    assert imported.clock(imported.tables.get(number=1)).token == session.clock(table).token


def test_an_import_matches_players_by_club_and_member_number_and_users_by_name(exported):
    before = snapshot()
    counts = row_counts()
    Tournament.objects.all().delete()

    output = import_file(exported)

    assert snapshot() == before
    # Dirk and Çelik have no member number: matched by name and club (Dirk has none).
    assert "0 new, 8 matched (6 by club and member number, 2 by name and club)" in output
    assert "Created" not in output
    assert Player.objects.count() == counts["Player"]
    assert get_user_model().objects.count() == counts["User"]


def test_four_imports_sharing_a_player_without_member_number_make_one_frank(tmp_path):
    director = make_user("hilde")
    tournament = make_tournament(slug="night-1", directors=[director])
    make_table(("Frank", "Gina"), tournament=tournament)
    path = tmp_path / "night.json"
    call_command("export_tournament", "night-1", "-o", str(path), stderr=io.StringIO())
    Tournament.objects.all().delete()
    for night in range(1, 5):
        edited(path, lambda data, night=night: data["tournament"].update(slug=f"night-{night}"))
        assert "0 new, 2 matched (0 by club and member number, 2 by name" in import_file(path)
    assert Player.objects.filter(name="Frank").count() == 1
    assert Seat.objects.filter(player__name="Frank").count() == 4


def test_namesakes_are_told_apart_by_member_numbers_only(tmp_path):
    """Two Franks at one table in the file, two Ginas on the site: all four are new."""
    tournament = make_tournament(slug="night", directors=[make_user("hilde")])
    make_table(("Frank", "Frank", "Gina"), tournament=tournament)
    path = tmp_path / "night.json"
    call_command("export_tournament", "night", "-o", str(path), stderr=io.StringIO())
    Tournament.objects.all().delete()
    Player.objects.create(name="Gina")
    output = import_file(path)
    assert "3 new, 0 matched" in output
    assert "2 players of that name and club on the site" in output
    assert Player.objects.filter(name="Frank").count() == 4
    assert Player.objects.filter(name="Gina").count() == 3


def test_a_player_matched_under_another_name_keeps_it_and_the_games_import(exported):
    """The site knows Ann Claes (Gent, G-1) as "Ann Claes-Peeters": her rounds, corrections
    and sheet are stored under the site's name (the whole import was refused before)."""
    before = snapshot()
    Tournament.objects.all().delete()
    Player.objects.filter(name=ANN).update(name="Ann Claes-Peeters")
    Player.objects.filter(name=DIRK).update(name="dirk maes")

    output = import_file(exported)

    assert re.search(rf"Player \d+ {ANN!r} is the site's 'Ann Claes-Peeters' \(Yaniv", output)
    assert "the site's 'dirk maes' (no club): the site's name is kept." in output
    after = snapshot()
    assert after["hands"] == before["hands"] and after["rounds"] == before["rounds"]
    game = Game.objects.get(table__session__number=1, table__number=2)
    sheet = GameSheet.load(game)
    assert sheet.players == ("Ann Claes-Peeters", BART, CHRIS, EVA)
    assert sheet.sheet.totals["Ann Claes-Peeters"] == 38
    correction = game.changes.get(action="correct")
    assert correction.before is not None and correction.after is not None
    assert correction.before["yaniv"] == "Ann Claes-Peeters"
    assert correction.after["along"] == [CHRIS, EVA]


def test_the_imported_tournament_can_be_given_to_a_director(exported):
    Tournament.objects.all().delete()
    hilde = make_user("hilde")
    out = io.StringIO()
    call_command("import_tournament", str(exported), "--director", "hilde", stdout=out)
    assert "hilde directs the imported tournament." in out.getvalue()
    tournament = Tournament.objects.get(slug="bk")
    assert sorted(tournament.directors.values_list("username", flat=True)) == [
        "director",
        "hilde",
    ]
    assert tournament.is_director(hilde)


def test_an_unknown_director_refuses_the_import_and_writes_nothing(exported):
    Tournament.objects.all().delete()
    counts = row_counts()
    with pytest.raises(CommandError, match="no account is named 'nobody'. Nothing was"):
        call_command("import_tournament", str(exported), "--director", "nobody")
    assert row_counts() == counts


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


def a_final_without_the_tournament_s(data: dict) -> None:
    data["sessions"][1]["stage"] = "final"


def two_finals(data: dict) -> None:
    data["tournament"]["final_players"] = 4
    for session in data["sessions"][:2]:
        session["stage"] = "final"


def a_final_too_big_for_its_table(data: dict) -> None:
    data["tournament"].update(final_players=9, final_tables=1)


def a_clock_without_a_limit(data: dict) -> None:
    data["sessions"][1].update(time_limit=None, clock_started_at="2026-03-14T10:00:00+00:00")


def an_extension_of_an_unknown_table(data: dict) -> None:
    data["sessions"][1]["clock_events"] = [
        {"action": "extend", "table": 9, "minutes": 5, "at": "2026-03-14T10:00:00+00:00"}
    ]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (a_final_without_the_tournament_s, "session 2: a final session needs the tournament's"),
        (two_finals, "sessions: a tournament has one final, not 2 (sessions 1, 2)"),
        (a_final_too_big_for_its_table, "tournament: final_players: "),
        (a_clock_without_a_limit, "session 2: "),
        (an_extension_of_an_unknown_table, "session 2, clock_events[1]: table names no table"),
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


# --- the Assaf presets -------------------------------------------------------------

ISRAELI_ROUNDS = [
    # Bart holds as few points as the caller: an Assaf.
    {"hands": {"Ann": 3, "Bart": 3, "Chris": 20}, "yaniv": "Ann"},
    {"hands": {"Ann": 40, "Bart": 2, "Chris": 30}, "yaniv": "Bart"},
]


@pytest.fixture
def assaf_game() -> Game:
    referee = make_user("ref")
    tournament = make_tournament(slug="il", preset="israeli", rule_options={"yaniv_limit": 4})
    game = make_table(("Ann", "Bart", "Chris"), referee, tournament).game
    record(game, referee, *ISRAELI_ROUNDS)
    caught_by_chris = {"hands": {"Ann": 3, "Bart": 9, "Chris": 1}, "yaniv": "Ann"}
    game.correct_round(
        1, entries(caught_by_chris), by=referee, reason="Chris had 1", version=game.version
    )
    return game


def test_the_audit_log_of_an_assaf_has_no_along(assaf_game):
    assert assaf_game.rounds.get(number=1).kind == "assaf"
    logged = {
        (change.action, change.round_number): change
        for change in GameChange.objects.filter(game=assaf_game)
    }
    assert logged["record", 1].after == ISRAELI_ROUNDS[0]
    assert logged["correct", 1].before == ISRAELI_ROUNDS[0]
    assert logged["correct", 1].after == {
        "hands": {"Ann": 3, "Bart": 9, "Chris": 1},
        "yaniv": "Ann",
    }
    for change in logged.values():
        assert "along" not in (change.before or {}) and "along" not in (change.after or {})


def test_the_export_of_an_assaf_game_is_the_engine_s_game_record(assaf_game, tmp_path):
    data = export("il")
    game = table_data(data, 1, 1)["game"]
    engine_game = rules.Game(
        ("Ann", "Bart", "Chris"),
        (entries({"hands": {"Ann": 3, "Bart": 9, "Chris": 1}, "yaniv": "Ann"}),)
        + (entries(ISRAELI_ROUNDS[1]),),
        rules.ISRAELI.with_options({"yaniv_limit": 4}),
    )
    assert game["record"] == records.game_to_record(engine_game)
    assert game["record"]["options"] == {"yaniv_limit": 4}
    assert all("along" not in entry for entry in game["record"]["rounds"])
    assert all("along" not in (change["after"] or {}) for change in game["changes"])

    # Imported, the game and its audit log are the same, still without along.
    path = tmp_path / "il.json"
    path.write_text(archive.dumps(data), "utf-8")
    before = snapshot("il")
    wipe()
    import_file(path)
    assert snapshot("il") == before
    for change in GameChange.objects.all():
        assert "along" not in (change.before or {}) and "along" not in (change.after or {})


def export_queries(tournament: Tournament) -> int:
    with CaptureQueriesContext(connection) as queries:
        archive.tournament_to_data(tournament)
    return len(queries)


def test_the_export_costs_the_same_queries_for_a_small_or_a_large_tournament(championship):
    # Sessions, games, their seats, rounds with their hands, the audit log, the clock log,
    # registrations, clubs, directors, the hands read once more for the statistics, the door
    # (penalty points and substitutes are read only once a tournament has any:
    # tests/printing/test_archive_beside.py).
    assert export_queries(championship) == 11
    referee = make_user("ref3")
    for _ in range(6):
        record(make_table(tournament=championship, referee=referee).game, referee, *[DIRK_45] * 4)
    assert export_queries(championship) == 11


def test_restoring_a_sign_off_needs_a_finished_game():
    game = make_table().game
    with pytest.raises(rules.GameError) as refused:
        game.restore_history(
            [], finished_at=None, signed_off_at=timezone.now(), signed_off_by=None, version=3
        )
    assert refused.value.code == "sign_off_unfinished"
    game.refresh_from_db()
    assert (game.signed_off_at, game.version) == (None, 0)


# --- the final ----------------------------------------------------------------------


def test_a_tournament_with_a_played_final_imports_with_the_same_final_standings(
    tournament, tmp_path
):
    qualify(tournament)
    tournament.final_players, tournament.final_tables = 6, 2
    tournament.final_carry_over = "placement"
    tournament.at_time_limit = "last_round"  # kept by the archive too
    tournament.save()
    a_final, b_final = tournament.open_final().tables.order_by("number")
    play_out(a_final, (0, 45, 2))  # Ann, Eva, Finn
    play_out(b_final, (0, 45, 2))  # Bart, Chris, Gina
    data = export(tournament.slug)
    assert {
        key: data["tournament"][key]
        for key in ("final_players", "final_tables", "final_carry_over")
    } == {"final_players": 6, "final_tables": 2, "final_carry_over": "placement"}
    assert [(s["number"], s["stage"]) for s in data["sessions"]] == [
        (1, "qualifying"),
        (2, "final"),
    ]
    path = tmp_path / "final.json"
    path.write_text(archive.dumps(data), "utf-8")
    before = snapshot(tournament.slug)
    assert [(place, who[0], table) for place, who, _, table, *_ in before["final"][:6]] == [
        (1, "Ann", 1),
        (2, "Eva", 1),
        (3, "Finn", 1),
        (4, "Bart", 2),
        (5, "Gina", 2),
        (6, "Chris", 2),
    ]
    wipe()

    import_file(path)

    assert snapshot(tournament.slug) == before
    imported = Tournament.objects.get(slug=tournament.slug)
    final = imported.final_session()
    assert final is not None and final.number == 2


def test_an_archive_from_before_the_final_imports_without_one(exported):
    before = snapshot()
    wipe()

    def as_before_the_final(data: dict) -> None:
        for key in ("final_players", "final_tables", "final_carry_over", "at_time_limit"):
            del data["tournament"][key]
        for session in data["sessions"]:
            del session["stage"]
            for key in ("time_limit", "clock_started_at", "clock_paused_at"):
                del session[key]
            for key in ("clock_paused_seconds", "clock_extension", "clock_events"):
                del session[key]
            for table in session["tables"]:
                del table["clock_extension"]

    edited(exported, as_before_the_final)
    import_file(exported)
    assert snapshot() == before
    tournament = Tournament.objects.get(slug="bk")
    assert (tournament.has_final, tournament.final_tables, tournament.final_carry_over) == (
        False,
        1,
        "none",
    )
    assert set(tournament.sessions.values_list("stage", flat=True)) == {"qualifying"}
