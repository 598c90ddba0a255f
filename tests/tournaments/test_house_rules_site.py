"""Issue 37's house rules on the site: rounds recorded, corrected and undone through the site store
the totals the engine gives the whole game (streak bonuses and resets, jokers held), and the
sheet shows what each option did ("+25 streak bonus", "+10 jokers")."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import pytest
from django.db import connection
from django.template.loader import render_to_string
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from printing import pdfs
from scoring import rules
from tests.factories import HTMX, make_table, make_tournament
from tests.printing.test_printing import pdftotext, squeeze
from tournaments.models import Game, Hand
from tournaments.sheets import GameSheet


def rows_html(sheet: GameSheet) -> str:
    """The sheet's rows as the table page draws them (its `sheet-row` partial)."""
    return "".join(
        render_to_string("tournaments/table.html#sheet-row", {"row": row})
        for row in sheet.drawn_rows()
    )


pytestmark = pytest.mark.django_db

# Two rounds won in a row: +25; a second Assaf (going along at or below the caller): back to 0.
# A joker still held by a player who did not call: +10.
HOUSE_RULES = {
    "streak_bonus": [{"wins": 2, "points": 25}, {"assafs": 2, "reset": True}],
    "joker_held": 10,
}
PLAYERS = ("Ann", "Bart", "Chris")
ROUNDS: tuple[Mapping[str, Any], ...] = (
    # Ann wins: 1 in a row.
    {"hands": {"Ann": 3, "Bart": 10, "Chris": 20}, "yaniv": "Ann"},
    # Ann wins again: +25. Bart held a joker: 10 + 10.
    {"hands": {"Ann": 2, "Bart": 10, "Chris": 20}, "yaniv": "Ann", "jokers": {"Bart": 1}},
    # Chris goes along with 4 against Bart's 5: Chris's first Assaf.
    {"hands": {"Ann": 7, "Bart": 5, "Chris": 4}, "yaniv": "Bart", "along": ["Chris"]},
    # And again: Chris's second Assaf puts Chris back to 0.
    {"hands": {"Ann": 9, "Bart": 5, "Chris": 5}, "yaniv": "Bart", "along": ["Chris"]},
)


def engine_round(record: Mapping[str, Any]) -> rules.Round:
    return rules.Round(
        hands=dict(record["hands"]),
        yaniv=record.get("yaniv"),
        along=tuple(record.get("along", ())),
        empty_hand=record.get("empty_hand"),
        jokers=dict(record.get("jokers", {})),
    )


def house_game(referee) -> Game:
    tournament = make_tournament(rule_options=HOUSE_RULES)
    return make_table(PLAYERS, referee=referee, tournament=tournament).game


def stored(game: Game) -> list[dict[str, tuple[int, int, int, int, bool]]]:
    """Per round: player -> (points, reduction, total, bonus, reset) as stored."""
    rounds: list[dict[str, tuple[int, int, int, int, bool]]] = []
    for hand in Hand.objects.filter(round__game=game).select_related("round", "seat__player"):
        while len(rounds) < hand.round.number:
            rounds.append({})
        rounds[hand.round.number - 1][hand.seat.player.name] = (
            hand.points,
            hand.reduction,
            hand.total,
            hand.bonus,
            hand.reset,
        )
    return rounds


def scored(game: Game, records: tuple[Mapping[str, Any], ...]):
    """The same per round, as the engine scores the whole game."""
    result = rules.score_game(rules.Game(PLAYERS, tuple(map(engine_round, records)), game.ruleset))
    return [
        {
            player: (
                each.points[player],
                each.reductions.get(player, 0),
                each.totals[player],
                each.bonuses.get(player, 0),
                player in each.resets,
            )
            for player in each.points
        }
        for each in result.rounds
    ], result


def seat_totals(game: Game) -> dict[str, int]:
    return {seat.player.name: seat.total for seat in game.table.seats.select_related("player")}


def record_all(game: Game, referee, records) -> None:
    for number, entry in enumerate(records, start=1):
        game.record_round(engine_round(entry), by=referee, number=number)


def test_rounds_recorded_one_by_one_store_the_whole_games_streak_bonus_and_reset(referee):
    game = house_game(referee)
    record_all(game, referee, ROUNDS)
    expected, result = scored(game, ROUNDS)
    assert stored(game) == expected
    assert seat_totals(game) == dict(result.totals)
    # By hand: Ann 0 + 0 + 25 (bonus) + 7 + 9 = 41; Bart 10 + (10 + 10) + 32 + 32 = 94 (Chris
    # went along as low or lower, twice); Chris 20 + 20 + 0 + 0, then back to 0.
    assert dict(result.totals) == {"Ann": 41, "Bart": 94, "Chris": 0}
    assert stored(game)[1]["Ann"] == (0, 0, 25, 25, False)
    assert stored(game)[1]["Bart"] == (20, 0, 30, 0, False)
    assert stored(game)[3]["Chris"] == (0, 0, 0, 0, True)
    assert Hand.objects.get(round__number=2, seat__player__name="Bart").jokers == 1


def test_a_correction_and_an_undo_rescore_the_streaks_as_the_engine_does(referee):
    game = house_game(referee)
    record_all(game, referee, ROUNDS)
    # Round 1 becomes Bart's win: Ann has one win in a row in round 2, no bonus.
    corrected = {"hands": {"Ann": 8, "Bart": 1, "Chris": 20}, "yaniv": "Bart"}
    game.correct_round(
        1, engine_round(corrected), by=referee, reason="Bart called", version=game.version
    )
    records = (corrected, *ROUNDS[1:])
    expected, result = scored(game, records)
    assert stored(game) == expected
    assert stored(game)[1]["Ann"][3] == 0
    assert seat_totals(game) == dict(result.totals)
    game.undo_last_round(by=referee, reason="typed twice", version=game.version)
    expected, result = scored(game, records[:3])
    assert stored(game) == expected
    assert seat_totals(game) == dict(result.totals)
    # The next round goes on from the streaks as stored: Chris's second Assaf again.
    game.record_round(engine_round(ROUNDS[3]), by=referee, number=4)
    expected, result = scored(game, records)
    assert stored(game) == expected and seat_totals(game)["Chris"] == 0


def test_a_streak_game_records_the_next_round_in_one_more_query_than_a_plain_one(referee):
    plain = make_table(PLAYERS, referee=referee).game
    streaks = house_game(referee)
    counts = []
    for game in (plain, streaks):
        record_all(game, referee, ROUNDS[:3])
        game = Game.objects.select_related("table__session__tournament").get(pk=game.pk)
        with CaptureQueriesContext(connection) as captured:
            game.record_round(engine_round(ROUNDS[3]), by=referee, number=4)
        counts.append(len(captured))
    assert counts[1] == counts[0] + 1


# --- the table page ------------------------------------------------------------------------


def post(number: int, hands, ending: str, along=(), jokers=None) -> dict[str, Any]:
    data: dict[str, Any] = {"number": number, "ending": ending, "along": [str(p) for p in along]}
    data.update({f"hand_{seat}": hand for seat, hand in enumerate(hands, start=1)})
    data.update({f"jokers_{seat}": held for seat, held in (jokers or {}).items()})
    return data


def test_the_entry_form_asks_for_jokers_only_where_an_option_counts_them(referee_client, referee):
    game = house_game(referee)
    html = referee_client.get(game.table.get_absolute_url()).content.decode()
    assert 'name="jokers_1"' in html and "Jokers" in html
    plain = make_table(PLAYERS, referee=referee).game
    assert (
        'name="jokers_1"'
        not in referee_client.get(plain.table.get_absolute_url()).content.decode()
    )


def test_the_table_page_stores_jokers_and_shows_what_each_option_did(referee_client, referee):
    game = house_game(referee)
    url = reverse("tables:record", args=[game.table.pk])
    assert referee_client.post(url, post(1, (3, 10, 20), "yaniv:1")).status_code == 302
    response = referee_client.post(url, post(2, (2, 10, 20), "yaniv:1", jokers={2: 1}))
    assert response.status_code == 302
    expected, _ = scored(game, ROUNDS[:2])
    assert stored(game) == expected
    html = referee_client.get(game.table.get_absolute_url()).content.decode()
    assert '<span class="cell-note">+25 streak bonus</span>' in html
    assert '<span class="cell-note">+10 jokers</span>' in html
    with translation.override("nl"):
        assert "+25 reeksbonus" in rows_html(GameSheet.load(game))


@pytest.mark.parametrize(
    ("jokers", "message"),
    [
        ({2: 5}, "Bart&#x27;s jokers must be a whole number from 0 to 4."),
        ({2: "x"}, "Bart&#x27;s jokers must be a whole number from 0 to 4."),
        # Five cards, two of them jokers: the other three make 30 at most.
        ({2: 2}, "of Bart must be an integer 0-30 beside 2 joker(s)"),
    ],
)
def test_bad_jokers_are_refused_at_their_field_and_nothing_is_saved(
    referee_client, referee, jokers, message
):
    game = house_game(referee)
    url = reverse("tables:record", args=[game.table.pk])
    response = referee_client.post(
        url, post(1, (3, 31, 20), "yaniv:1", jokers=jokers), headers=HTMX
    )
    html = response.content.decode()
    assert message in html
    assert not Hand.objects.filter(round__game=game).exists()


def test_the_sync_path_takes_the_jokers_too(referee_client, referee):
    game = house_game(referee)
    data = post(1, (3, 10, 20), "yaniv:1", jokers={3: 2})
    data.update(action="record", client_id="6f1c2a52-3b0e-4e7e-9d6c-0c6a3c6f3a11", version=0)
    response = referee_client.post(reverse("tables:sync", args=[game.table.pk]), data)
    assert response.json()["status"] == "stored"
    assert Hand.objects.get(seat__player__name="Chris").jokers == 2
    assert Hand.objects.get(seat__player__name="Chris").points == 40


def test_a_correction_form_shows_the_jokers_as_stored(referee_client, referee):
    game = house_game(referee)
    record_all(game, referee, ROUNDS[:2])
    url = reverse("tables:correct", args=[game.table.pk, 2])
    html = referee_client.get(url).content.decode()
    assert 'name="jokers_2" value="1"' in html


# --- the standings -----------------------------------------------------------------------


def test_the_standings_note_a_streak_bonus_where_a_total_is_not_its_rounds_sum(client, referee):
    tournament = make_tournament(
        slug="streaks", rule_options={**HOUSE_RULES, "deals_per_player": 1}
    )
    game = make_table(PLAYERS, referee=referee, tournament=tournament).game
    record_all(game, referee, ROUNDS[:3])
    game.refresh_from_db()
    assert game.finished
    html = client.get(reverse("public:standings", args=["streaks"])).content.decode()
    assert "+25 streak bonus in round 2 at session 1, table 1" in html
    text = squeeze(pdftotext(pdfs.standings_pdf(tournament)))
    assert "+25 streak bonus in round 2 at session 1, table 1" in text


def test_the_standings_note_no_bonus_of_a_game_still_playing(client, referee):
    tournament = make_tournament(slug="playing", rule_options=HOUSE_RULES)
    game = make_table(PLAYERS, referee=referee, tournament=tournament).game
    record_all(game, referee, ROUNDS[:2])
    html = client.get(reverse("public:standings", args=["playing"])).content.decode()
    assert "streak bonus" not in html


# --- a player joining ----------------------------------------------------------------------

JOIN_ROUNDS: tuple[Mapping[str, Any], ...] = (
    {"hands": {"Ann": 0, "Bart": 30, "Chris": 20}, "yaniv": "Ann"},
    # Dirk sits down at the end, on the highest total (30), and has a hand in the round.
    {
        "hands": {"Ann": 4, "Bart": 7, "Chris": 9, "Dirk": 2},
        "yaniv": "Dirk",
        "joins": {"name": "Dirk", "start": "highest"},
    },
    {"hands": {"Ann": 3, "Bart": 7, "Chris": 9, "Dirk": 12}, "yaniv": "Ann"},
)


def join_round(record: Mapping[str, Any]) -> rules.Round:
    joins = record.get("joins")
    entries = engine_round(record)
    if joins is None:
        return entries
    start = joins["start"]
    start = rules.JoinStart(start) if isinstance(start, str) else start
    return dataclasses.replace(entries, joins=rules.Join(joins["name"], start))


def join_result(game: Game, records) -> rules.GameResult:
    engine = rules.Game(PLAYERS, tuple(map(join_round, records)), game.ruleset)
    return rules.score_game(engine)


def test_a_player_joining_gets_a_seat_at_the_end_and_the_engines_totals(referee):
    game = make_table(PLAYERS, referee=referee).game
    for number, entry in enumerate(JOIN_ROUNDS, start=1):
        game.record_round(join_round(entry), by=referee, number=number)
    result = join_result(game, JOIN_ROUNDS)
    seats = list(game.table.seats.select_related("player").order_by("position"))
    assert [(seat.position, seat.player.name) for seat in seats][-1] == (4, "Dirk")
    # Dirk: 30, then 0 as the caller; Ann 0 + 4 + 0; Bart 30 + 7 + 7 = 44; Chris 20 + 9 + 9.
    assert {seat.player.name: seat.total for seat in seats} == dict(result.totals)
    assert dict(result.totals) == {"Ann": 4, "Bart": 44, "Chris": 38, "Dirk": 42}
    sheet = GameSheet.load(game)
    assert sheet.starting_players == PLAYERS
    html = rows_html(sheet)
    assert '<td class="not-seated"></td>' in html
    assert '<span class="cell-note">joined at 30</span>' in html
    assert sheet.rows[1].notes[0].message == "Dirk joined at 30"
    assert game.score().totals == result.totals


def test_undoing_the_round_a_player_joined_before_takes_their_seat_away(referee):
    game = make_table(PLAYERS, referee=referee).game
    for number, entry in enumerate(JOIN_ROUNDS[:2], start=1):
        game.record_round(join_round(entry), by=referee, number=number)
    game.undo_last_round(by=referee, reason="Dirk sat down later", version=game.version)
    assert [seat.player.name for seat in game.table.seats.order_by("position")] == list(PLAYERS)
    game.record_round(join_round(JOIN_ROUNDS[1]), by=referee, number=2)
    assert game.table.seats.get(position=4).total == 30


def test_a_correction_before_a_join_moves_the_joiners_start(referee):
    game = make_table(PLAYERS, referee=referee).game
    for number, entry in enumerate(JOIN_ROUNDS, start=1):
        game.record_round(join_round(entry), by=referee, number=number)
    corrected = {"hands": {"Ann": 0, "Bart": 40, "Chris": 20}, "yaniv": "Ann"}
    game.correct_round(
        1, engine_round(corrected), by=referee, reason="Bart had 40", version=game.version
    )
    result = join_result(game, (corrected, *JOIN_ROUNDS[1:]))
    totals = {seat.player.name: seat.total for seat in game.table.seats.select_related("player")}
    assert totals == dict(result.totals) and result.rounds[1].joined == ("Dirk", 40)
    assert GameSheet.load(game).rows[1].notes[0].message == "Dirk joined at 40"


@pytest.mark.parametrize(
    ("name", "code"),
    [("Bart", "join_name"), ("", "join_name")],
)
def test_a_join_under_a_name_at_the_table_is_refused_and_nothing_is_seated(referee, name, code):
    game = make_table(PLAYERS, referee=referee).game
    game.record_round(join_round(JOIN_ROUNDS[0]), by=referee, number=1)
    entry = {**JOIN_ROUNDS[1], "joins": {"name": name, "start": "zero"}}
    entry["hands"] = {**JOIN_ROUNDS[1]["hands"]}
    with pytest.raises(rules.GameError) as refused:
        game.record_round(join_round(entry), by=referee, number=2)
    assert refused.value.code == code
    assert game.table.seats.count() == 3


def test_a_full_table_takes_nobody(referee):
    eight = ("A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8")
    game = make_table(eight, referee=referee).game
    hands = dict.fromkeys(eight, 5) | {"Eve": 5}
    entries = rules.Round(hands=hands, yaniv="A1", joins=rules.Join("Eve", 0))
    with pytest.raises(rules.GameError) as refused:
        game.record_round(entries, by=referee, number=1)
    assert refused.value.code == "join_full"
    assert game.table.seats.count() == 8


def join_post(number: int, hands, ending: str, **join: Any) -> dict[str, Any]:
    data = post(number, hands, ending)
    data.update({f"join_{name}": value for name, value in join.items()})
    return data


def test_the_entry_form_offers_a_player_joining_under_house_rules_only(referee_client, referee):
    game = house_game(referee)
    html = referee_client.get(game.table.get_absolute_url()).content.decode()
    assert "A player joins before this round" in html and 'name="join_name"' in html
    assert 'value="yaniv:4"' in html
    championship = make_table(PLAYERS, referee=referee).game
    html = referee_client.get(championship.table.get_absolute_url()).content.decode()
    assert 'name="join_name"' not in html


def test_the_table_page_seats_a_player_joining_and_shows_their_start(referee_client, referee):
    game = house_game(referee)
    url = reverse("tables:record", args=[game.table.pk])
    assert referee_client.post(url, post(1, (0, 30, 20), "yaniv:1")).status_code == 302
    data = join_post(2, (4, 7, 9), "yaniv:4", name="Dirk", start="highest", hand="2")
    assert referee_client.post(url, data).status_code == 302
    seat = game.table.seats.select_related("player").get(position=4)
    assert (seat.player.name, seat.total) == ("Dirk", 30)
    html = referee_client.get(game.table.get_absolute_url()).content.decode()
    assert '<span class="cell-note">joined at 30</span>' in html
    # The next round's form has Dirk's seat and offers seat 5 to a next player.
    assert 'name="hand_4"' in html and 'value="yaniv:5"' in html


def test_a_player_joining_on_a_number_by_the_sync_path(referee_client, referee):
    game = house_game(referee)
    data = join_post(1, (3, 10, 20), "yaniv:1", name="Eve", start="number", total="87", hand="9")
    data.update(action="record", client_id="0b7c8a52-3b0e-4e7e-9d6c-0c6a3c6f3a12", version=0)
    response = referee_client.post(reverse("tables:sync", args=[game.table.pk]), data)
    assert response.json()["status"] == "stored"
    assert game.table.seats.get(position=4).total == 96


@pytest.mark.parametrize(
    ("join", "field", "message"),
    [
        ({"name": "Bart", "hand": "2"}, "join_name", "Bart plays at this table already"),
        ({"name": "Eve"}, "join_hand", "Enter Eve&#x27;s hand total."),
        ({"name": "Eve", "hand": "2", "start": "number"}, "join_total", "Enter the total Eve"),
        (
            {"name": "Eve", "hand": "2", "start": "number", "total": "151"},
            "join_total",
            "from 0 to 150",
        ),
        ({"hand": "2"}, "join_name", "Enter the name of the player joining."),
        ({"name": "Eve", "hand": "51"}, "join_hand", "from 0 to 50"),
    ],
)
def test_a_bad_join_is_refused_where_typed_and_nothing_is_saved(
    referee_client, referee, join, field, message
):
    game = house_game(referee)
    url = reverse("tables:record", args=[game.table.pk])
    response = referee_client.post(url, join_post(1, (3, 10, 20), "yaniv:1", **join))
    assert response.status_code == 400
    assert message in response.content.decode()
    assert game.table.seats.count() == 3 and not game.rounds.exists()


def test_a_caller_among_the_joiners_toggles_needs_a_player_joining(referee_client, referee):
    game = house_game(referee)
    url = reverse("tables:record", args=[game.table.pk])
    response = referee_client.post(url, post(1, (3, 10, 20), "yaniv:4"))
    assert response.status_code == 400
    assert "Enter the name of the player joining." in response.content.decode()
    assert not game.rounds.exists()


def test_correcting_the_round_a_player_joined_before_keeps_the_join(referee_client, referee):
    game = house_game(referee)
    for number, entry in enumerate(JOIN_ROUNDS[:2], start=1):
        game.record_round(join_round(entry), by=referee, number=number)
    url = reverse("tables:correct", args=[game.table.pk, 2])
    html = referee_client.get(url).content.decode()
    assert 'name="hand_4" value="2"' in html and 'name="join_name"' not in html
    data = post(2, (4, 7, 9, 3), "yaniv:4")
    data.update(reason="Dirk had 3", version=game.version)
    assert referee_client.post(url, data).status_code == 302
    result = join_result(
        game,
        (
            JOIN_ROUNDS[0],
            {**JOIN_ROUNDS[1], "hands": {"Ann": 4, "Bart": 7, "Chris": 9, "Dirk": 3}},
        ),
    )
    totals = {seat.player.name: seat.total for seat in game.table.seats.select_related("player")}
    assert totals == dict(result.totals)
    # Correcting round 1 shows no seat for Dirk, who joined after it.
    html = referee_client.get(reverse("tables:correct", args=[game.table.pk, 1])).content.decode()
    assert 'name="hand_4"' not in html


def test_the_standings_note_the_total_a_player_joining_started_on(client, referee):
    # Streak rules that never fire here: with them the standings read what the house rules did.
    streaks = {"streak_bonus": [{"wins": 5, "points": 25}], "deals_per_player": 1}
    tournament = make_tournament(slug="joins", preset="israeli", rule_options=streaks)
    game = make_table(PLAYERS, referee=referee, tournament=tournament).game
    for number, entry in enumerate(JOIN_ROUNDS, start=1):
        game.record_round(join_round(entry), by=referee, number=number)
    # Three rounds, four players seated at the end: one more deal.
    game.record_round(
        engine_round({"hands": {"Ann": 1, "Bart": 7, "Chris": 9, "Dirk": 12}, "yaniv": "Ann"}),
        by=referee,
        number=4,
    )
    game.refresh_from_db()
    assert game.finished
    html = client.get(reverse("public:standings", args=["joins"])).content.decode()
    assert "joined the game at 30 before round 2 at session 1, table 1" in html


def test_a_correction_sent_without_joker_fields_keeps_the_stored_jokers(referee_client, referee):
    game = house_game(referee)
    record_all(game, referee, ROUNDS[:2])
    url = reverse("tables:correct", args=[game.table.pk, 2])
    # As a phone's outbox sends it today: hands, ending, along, no jokers field.
    data = post(2, (2, 12, 20), "yaniv:1")
    data.update(reason="Bart had 12", version=game.version)
    assert referee_client.post(url, data).status_code == 302
    bart = Hand.objects.get(round__number=2, seat__player__name="Bart")
    assert (bart.jokers, bart.points) == (1, 22)
    # A blank field is the referee's word: no joker.
    game.refresh_from_db()
    data = post(2, (2, 12, 20), "yaniv:1", jokers={2: ""})
    data.update(reason="no joker after all", version=game.version)
    assert referee_client.post(url, data).status_code == 302
    bart.refresh_from_db()
    assert (bart.jokers, bart.points) == (0, 12)
