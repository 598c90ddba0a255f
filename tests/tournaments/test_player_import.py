"""Players from a CSV file: reading it, matching its rows with the database, importing."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import make_tournament, make_user
from tests.tournaments.test_director_views import confirm, payload_of, upload
from tournaments.models import Club, Player, Registration
from tournaments.player_import import (
    MAX_ROWS,
    UNREADABLE,
    Status,
    classify,
    import_players,
    parse_players_csv,
)


def csv_bytes(*lines: str, encoding: str = "utf-8") -> bytes:
    return ("\r\n".join(lines) + "\r\n").encode(encoding)


def director_of(tournament):
    """The director who imports into `tournament` (its creator, else a new one)."""
    if tournament.created_by is None:
        tournament.created_by = make_user(f"director-{tournament.pk}")
        tournament.save(update_fields=["created_by"])
        tournament.directors.add(tournament.created_by)
    return tournament.created_by


def player(name: str, club: str | None = None, member_number: str = "") -> Player:
    club_row = Club.objects.get_or_create(name=club)[0] if club else None
    return Player.objects.create(name=name, club=club_row, member_number=member_number)


# --- parsing ----------------------------------------------------------------


def test_a_comma_separated_file_gives_one_row_per_player():
    parsed = parse_players_csv(
        csv_bytes("name,club,member number", "Ann Peeters,YC Gent,1024", "Bart Claes,YC Gent,")
    )
    assert parsed.ok
    assert parsed.delimiter == ","
    assert [(r.number, r.name, r.club, r.member_number) for r in parsed.rows] == [
        (2, "Ann Peeters", "YC Gent", "1024"),
        (3, "Bart Claes", "YC Gent", ""),
    ]


def test_a_semicolon_separated_file_keeps_commas_inside_names():
    parsed = parse_players_csv(csv_bytes("name;club", "Peeters, Ann;YC Gent", "Claes, Bart;"))
    assert parsed.delimiter == ";"
    assert [(r.name, r.club) for r in parsed.rows] == [
        ("Peeters, Ann", "YC Gent"),
        ("Claes, Bart", ""),
    ]


def test_a_byte_order_mark_is_not_part_of_the_first_header():
    parsed = parse_players_csv(b"\xef\xbb\xbf" + csv_bytes("naam;club", "Chloé;Liège"))
    assert parsed.ok
    assert parsed.columns == ("name", "club")
    assert parsed.rows[0].name == "Chloé"


def test_a_windows_1252_file_is_read_with_a_notice():
    parsed = parse_players_csv(csv_bytes("nom;club", "Chloé Dubois;Liège", encoding="cp1252"))
    assert parsed.ok
    assert (parsed.rows[0].name, parsed.rows[0].club) == ("Chloé Dubois", "Liège")
    assert parsed.notices == (
        "The file is not UTF-8: it was read as Windows-1252 (Excel's “CSV”). Check the "
        "accents in the names below.",
    )


def test_a_file_that_is_neither_utf_8_nor_windows_1252_is_refused_with_a_way_to_fix_it():
    # 0x81 is no character in Windows-1252 (and no UTF-8 start byte).
    parsed = parse_players_csv(csv_bytes("nom;club", "Chlo\x81;Liège", encoding="latin-1"))
    assert parsed.errors == (UNREADABLE,)
    assert "CSV UTF-8" in UNREADABLE
    assert parsed.rows == ()


@pytest.mark.parametrize(
    "header",
    [
        "Name,Club,Member number",
        "NAAM,club,Lidnummer",
        "Nom,Club,Numéro de membre",
        "name,club,member_number",
        "nom,club,numero",
    ],
)
def test_headers_are_understood_in_english_dutch_and_french_in_any_case(header):
    parsed = parse_players_csv(csv_bytes(header, "Ann,YC Gent,7"))
    assert parsed.columns == ("name", "club", "member_number")
    assert parsed.rows[0].member_number == "7"


def test_extra_columns_are_ignored_with_a_notice():
    parsed = parse_players_csv(
        csv_bytes(
            "Lidnummer;Naam;Geboortedatum;Club;E-mail",
            "7;Ann Peeters;1990-01-02;YC Gent;ann@example.org",
        )
    )
    assert parsed.ok and parsed.columns == ("member_number", "name", "club")
    assert [(r.name, r.club, r.member_number, r.error) for r in parsed.rows] == [
        ("Ann Peeters", "YC Gent", "7", "")
    ]
    assert parsed.notices == ("Columns ignored: 'Geboortedatum', 'E-mail'.",)


@pytest.mark.parametrize(
    ("header", "notice"),
    [
        ("Lidnummer;Voornaam;Familienaam;Club", "'Voornaam' + 'Familienaam'"),
        ("Lidnummer;Voornaam;Naam;Club", "'Voornaam' + 'Naam'"),
        ("Numéro;Prénom;Nom;Club", "'Prénom' + 'Nom'"),
        ("Member number;First name;Last name;Club", "'First name' + 'Last name'"),
        ("Member number;Surname;First name;Club", "'First name' + 'Surname'"),
    ],
)
def test_first_and_last_name_columns_are_joined_into_the_name(header, notice):
    first, last = ("Peeters", "Ann") if "Surname;First" in header else ("Ann", "Peeters")
    parsed = parse_players_csv(csv_bytes(header, f"7;{first};{last};YC Gent", "8;Bart;;YC Gent"))
    assert parsed.ok
    assert [(r.name, r.member_number) for r in parsed.rows] == [
        ("Ann Peeters", "7"),
        ("Bart", "8"),
    ]
    assert parsed.notices == (f"The name is made of the columns {notice}.",)


def test_a_row_without_first_or_last_name_is_an_empty_name():
    parsed = parse_players_csv(csv_bytes("voornaam;familienaam", "Ann;Peeters", " ; "))
    assert [r.error for r in parsed.rows] == [""]
    parsed = parse_players_csv(csv_bytes("voornaam;familienaam;club", "Ann;Peeters;", ";;Gent"))
    assert [r.error for r in parsed.rows] == ["", "empty name"]


def test_a_file_of_2000_players_is_read_and_one_of_2001_is_refused_whole():
    assert MAX_ROWS == 2_000
    rows = [f"Player {number};Club {number % 7}" for number in range(MAX_ROWS + 1)]
    assert len(parse_players_csv(csv_bytes("name;club", *rows[:MAX_ROWS])).rows) == 2_000
    parsed = parse_players_csv(csv_bytes("name;club", *rows))
    assert parsed.rows == ()
    assert parsed.errors == (
        "The file has 2,001 rows of players: at most 2,000 can be imported at once. "
        "Split it into smaller files.",
    )


def test_a_file_without_a_name_column_is_refused():
    parsed = parse_players_csv(csv_bytes("club;lidnummer", "YC Gent;1"))
    assert parsed.errors[0].startswith("No name column")


def test_a_row_with_an_empty_name_is_an_error_and_the_others_are_kept():
    parsed = parse_players_csv(csv_bytes("name;club", "Ann;YC Gent", " ;YC Gent", "Bart;"))
    assert [r.error for r in parsed.rows] == ["", "empty name", ""]


def test_a_row_repeated_in_the_file_is_a_duplicate_of_the_first():
    parsed = parse_players_csv(
        csv_bytes("name;club;lidnummer", "Ann;YC Gent;1", "Bart;YC Gent;", "ann ; yc gent;1")
    )
    assert [r.error for r in parsed.rows] == ["", "", "duplicate of row 2"]


def test_a_name_repeated_without_member_numbers_is_a_duplicate():
    parsed = parse_players_csv(csv_bytes("name;club", "Bart;YC Gent", "Ann;", "BART;YC Gent"))
    assert parsed.rows[2].error == "duplicate of row 2"


@pytest.mark.parametrize(
    "first, second",
    [
        ("Hélène Declercq;1003;YC Gent", "Helene Declercq;;YC Gent"),
        ("helene declercq;;YC Gent", "HÉLÈNE DECLERCQ;1003;YC Gent"),
        ("Hélène Declercq;1003;YC Gent", "Helene  Declercq;1003;YC Gent"),
    ],
)
def test_one_player_twice_in_a_file_accents_and_case_aside_is_a_duplicate(first, second):
    # Issue 33.6: a club's cp1252 export had both spellings; both players were created.
    data = csv_bytes("naam;lidnummer;club", first, second, encoding="cp1252")
    parsed = parse_players_csv(data)
    assert [r.error for r in parsed.rows] == ["", "duplicate of row 2"]


def test_one_member_number_for_two_names_in_a_club_is_an_error():
    parsed = parse_players_csv(csv_bytes("name;club;lidnummer", "Ann;YC Gent;1", "Bart;YC Gent;1"))
    assert parsed.rows[1].error == "member number 1 is also on row 2 (Ann)"


def test_one_member_number_in_two_clubs_is_two_players():
    parsed = parse_players_csv(csv_bytes("name;club;lidnummer", "Ann;YC Gent;1", "Bart;Liège;1"))
    assert [r.error for r in parsed.rows] == ["", ""]


def test_blank_lines_are_skipped_but_rows_keep_their_spreadsheet_numbers():
    parsed = parse_players_csv(csv_bytes("name;club", "Ann;", ";", "", "Bart;"))
    assert [(r.number, r.name) for r in parsed.rows] == [(2, "Ann"), (5, "Bart")]


def test_a_header_without_rows_cannot_be_imported():
    assert parse_players_csv(csv_bytes("name;club")).errors == (
        "The file has a header but no players.",
    )


def test_an_empty_file_cannot_be_imported():
    assert parse_players_csv(b"").errors == ("The file is empty.",)


def test_a_sep_line_names_the_separator():
    parsed = parse_players_csv(csv_bytes("sep=;", "name;club", "Ann, the first;YC Gent"))
    assert parsed.delimiter == ";"
    assert (parsed.rows[0].number, parsed.rows[0].name) == (3, "Ann, the first")


def test_a_value_in_a_column_without_header_is_an_error():
    parsed = parse_players_csv(csv_bytes("name;club;", "Ann;YC Gent;", "Bart;YC Gent;oops"))
    assert [r.error for r in parsed.rows] == ["", "a value in a column without a header"]


def test_spaces_around_and_inside_names_are_tidied():
    parsed = parse_players_csv(csv_bytes("name;club", "  Ann   Peeters ; YC  Gent "))
    assert (parsed.rows[0].name, parsed.rows[0].club) == ("Ann Peeters", "YC Gent")


def test_a_name_longer_than_the_database_allows_is_an_error():
    parsed = parse_players_csv(csv_bytes("name", "x" * 121))
    assert parsed.rows[0].error == "name longer than 120 characters"


# --- classifying --------------------------------------------------------------


@pytest.mark.django_db
def test_rows_are_new_known_or_errors():
    tournament = make_tournament()
    player("Ann Peeters", "YC Gent", "1024")
    player("Bart Claes", "YC Gent")
    parsed = parse_players_csv(
        csv_bytes(
            "name;club;lidnummer",
            "Ann Peeters;YC Gent;1024",
            "bart claes;yc gent;",
            "Chris Maes;YC Gent;2048",
            "Dirk;Nieuwe Club;",
            ";YC Gent;",
        )
    )
    lines = classify(parsed, tournament, by=director_of(tournament)).lines
    assert [line.status for line in lines] == [
        Status.KNOWN,
        Status.KNOWN,
        Status.NEW,
        Status.NEW,
        Status.ERROR,
    ]
    assert [line.note for line in lines] == [
        "will be registered",
        "will be registered",
        "new player",
        "new player, new club Nieuwe Club",
        "empty name",
    ]


@pytest.mark.django_db
def test_a_known_player_already_registered_is_said_so():
    tournament = make_tournament()
    Registration.objects.create(tournament=tournament, player=player("Ann", "YC Gent", "1"))
    line = classify(
        parse_players_csv(csv_bytes("name;club;lidnummer", "Ann;YC Gent;1")),
        tournament,
        by=director_of(tournament),
    )
    assert (line.lines[0].status, line.lines[0].note) == (Status.KNOWN, "already registered")


@pytest.mark.django_db
def test_a_member_number_used_by_another_name_is_an_error():
    tournament = make_tournament()
    player("Ann Peeters", "YC Gent", "1024")
    parsed = parse_players_csv(csv_bytes("name;club;lidnummer", "Bart Claes;YC Gent;1024"))
    line = classify(parsed, tournament, by=director_of(tournament)).lines[0]
    assert line.status is Status.ERROR
    assert line.reason == "member number 1024 already used by Ann Peeters in YC Gent"


@pytest.mark.django_db
def test_a_name_shared_by_two_players_of_a_club_needs_the_member_number():
    tournament = make_tournament()
    player("Jan Peeters", "YC Gent", "1")
    player("Jan Peeters", "YC Gent", "2")
    line = classify(
        parse_players_csv(csv_bytes("name;club", "Jan Peeters;YC Gent")),
        tournament,
        by=director_of(tournament),
    )
    assert (
        line.lines[0].reason == "2 players are named Jan Peeters in YC Gent: add the member number"
    )


@pytest.mark.django_db
def test_a_player_known_without_member_number_gets_the_files_number():
    tournament = make_tournament()
    player("Ann", "YC Gent")
    line = classify(
        parse_players_csv(csv_bytes("name;club;lidnummer", "Ann;YC Gent;77")),
        tournament,
        by=director_of(tournament),
    ).lines[0]
    assert (line.status, line.note) == (
        Status.KNOWN,
        "will be registered, member number 77 recorded",
    )


@pytest.mark.django_db
def test_the_same_name_in_another_club_is_a_new_player():
    tournament = make_tournament()
    player("Ann", "YC Gent")
    line = classify(
        parse_players_csv(csv_bytes("name;club", "Ann;Liège")),
        tournament,
        by=director_of(tournament),
    ).lines[0]
    assert line.status is Status.NEW


@pytest.mark.django_db
def test_club_names_match_whatever_their_case():
    tournament = make_tournament()
    player("Ann", "YC Gent", "1")
    line = classify(
        parse_players_csv(csv_bytes("name;club;nr", "Ann;yc GENT;1")),
        tournament,
        by=director_of(tournament),
    )
    assert line.errors == ()
    assert line.lines[0].status is Status.KNOWN


@pytest.mark.django_db
def test_classifying_costs_four_queries_for_any_number_of_rows():
    tournament = make_tournament()
    for number in range(30):
        player(f"Player {number}", f"Club {number % 3}", str(number))
    rows = [f"Player {number};Club {number % 4};{number}" for number in range(40)]
    parsed = parse_players_csv(csv_bytes("name;club;lidnummer", *rows))
    director = director_of(tournament)
    with CaptureQueriesContext(connection) as queries:
        classify(parsed, tournament, by=director)
    # The clubs, those the director may see, their players, the registrations.
    assert len(queries) == 4


# --- importing ----------------------------------------------------------------


@pytest.mark.django_db
def test_importing_creates_clubs_players_and_registrations():
    tournament = make_tournament()
    player("Ann", "YC Gent", "1")
    parsed = parse_players_csv(
        csv_bytes(
            "name;club;lidnummer", "Ann;YC Gent;1", "Bart;YC Gent;2", "Chris;Liège;", "Dirk;;"
        )
    )
    result = import_players(parsed, tournament, by=director_of(tournament))
    assert (result.clubs_created, result.players_created, result.registered) == (1, 3, 4)
    assert Club.objects.count() == 2
    assert Player.objects.count() == 4
    assert tournament.registrations.count() == 4


@pytest.mark.django_db
def test_importing_the_same_file_twice_creates_nothing_the_second_time():
    tournament = make_tournament()
    parsed = parse_players_csv(csv_bytes("name;club;lidnummer", "Ann;YC Gent;1", "Bart;;"))
    import_players(parsed, tournament, by=director_of(tournament))
    again = import_players(parsed, tournament, by=director_of(tournament))
    assert (again.players_created, again.registered, again.already_registered) == (0, 0, 2)
    assert (Player.objects.count(), Registration.objects.count(), Club.objects.count()) == (
        2,
        2,
        1,
    )


@pytest.mark.django_db
def test_importing_skips_rows_with_errors():
    tournament = make_tournament()
    parsed = parse_players_csv(csv_bytes("name;club", "Ann;YC Gent", ";YC Gent", "Ann;YC Gent"))
    result = import_players(parsed, tournament, by=director_of(tournament))
    assert [line.row.number for line in result.skipped] == [3, 4]
    assert Player.objects.count() == 1


@pytest.mark.django_db
def test_importing_records_a_known_players_new_member_number():
    tournament = make_tournament()
    ann = player("Ann", "YC Gent")
    import_players(
        parse_players_csv(csv_bytes("name;club;nr", "Ann;YC Gent;77")),
        tournament,
        by=director_of(tournament),
    )
    ann.refresh_from_db()
    assert ann.member_number == "77"
    assert Player.objects.count() == 1


# --- the director's upload -----------------------------------------------------------------

BELGIAN_EXPORT = csv_bytes(
    "Lidnummer;Voornaam;Familienaam;Club;Geboortedatum;GSM",
    "1024;Chloé;Dubois;Yaniv Liège;1990-04-01;0470 00 00 00",
    "1025;Jürgen;Peeters;YC Gent;1985-12-24;",
    encoding="cp1252",
)


@pytest.mark.django_db
def test_a_belgian_clubs_windows_1252_export_is_previewed_and_imported(
    director_client, tournament
):
    preview = upload(director_client, tournament, BELGIAN_EXPORT)
    html = preview.content.decode()
    assert preview.status_code == 200
    assert "read as Windows-1252" in html
    assert "The name is made of the columns &#x27;Voornaam&#x27; + &#x27;Familienaam&#x27;" in html
    assert "Columns ignored: &#x27;Geboortedatum&#x27;, &#x27;GSM&#x27;." in html
    assert html.count('class="import-row new"') == 2
    assert confirm(director_client, tournament, payload_of(preview)).status_code == 302
    assert sorted(
        tournament.registrations.values_list("player__name", "player__member_number")
    ) == [("Chloé Dubois", "1024"), ("Jürgen Peeters", "1025")]


@pytest.mark.django_db
def test_a_file_of_200000_players_is_refused_on_a_small_page_and_writes_nothing(
    director_client, tournament
):
    data = csv_bytes("name", *(["A"] * 200_000))
    assert len(data) < 1_000_000
    response = upload(director_client, tournament, data)
    html = response.content.decode()
    assert "The file has 200,000 rows of players: at most 2,000 can be imported" in html
    assert len(response.content) < 20_000
    assert "payload" not in html
    assert Player.objects.count() == 0


@pytest.mark.django_db
def test_a_file_over_1_mb_is_refused_with_its_size(director_client, tournament):
    response = upload(director_client, tournament, b"name\r\n" + b"A" * 2_000_000)
    assert response.status_code == 400
    assert (
        "The file is 1.9\xa0MB: a players file of at most 1 MB and 2,000 players is imported "
        "at once. Is it the right file?" in response.content.decode()
    )
