"""A game record at its edges (issue 36, mutation testing): the size limit on bytes taken
exactly, a scalar read at depth 0, JSON deeper than Python can read refused as invalid, the
options of a ruleset that is no preset, `along` as each preset keeps it, and a malformed round
or record refused by its number and the entry at fault."""

from __future__ import annotations

import dataclasses
from typing import Any, cast

import pytest

from scoring import rules
from scoring.records import (
    game_from_record,
    game_to_record,
    join_start_from_text,
    join_start_text,
    read_json,
    round_result_to_record,
    round_to_record,
)
from scoring.rules import GameError, JoinStart


def refusal(text: str | bytes, **limits: int) -> GameError:
    with pytest.raises(GameError) as error:
        read_json(text, **limits)
    return error.value


def test_bytes_four_times_the_limit_are_read_since_a_character_may_take_four():
    # One character of four bytes: within a limit of one character (and no JSON).
    assert refusal("😀".encode(), max_chars=1).code == "json_invalid"
    assert refusal("😀1".encode(), max_chars=1).code == "json_too_large"


def test_bytes_beyond_four_times_the_limit_are_refused_unread():
    assert refusal(b"\xff" * 5, max_chars=1).code == "json_too_large"
    assert refusal(b"\xff" * 4, max_chars=1).code == "json_not_utf8"


def test_a_number_alone_has_no_depth():
    assert read_json("7", max_depth=0) == 7
    assert refusal("[7]", max_depth=0).code == "json_too_deep"


def test_json_nested_deeper_than_python_reads_is_refused_as_invalid_at_its_start():
    # Within a depth allowed by hand, beyond the parser's own recursion limit.
    error = refusal("[" * 100_000 + "]" * 100_000, max_depth=1_000_000)
    assert (error.code, error.field, dict(error.params)) == (
        "json_invalid",
        "json",
        {"line": 1, "column": 1},
    )


def test_a_ruleset_that_is_no_preset_records_its_options_against_the_belgian_rules():
    club = dataclasses.replace(rules.BELGIAN, name="club", end_above=120)
    record = game_to_record(rules.Game(("Ann", "Bart"), (), club))
    assert record == {
        "ruleset": "club",
        "players": ["Ann", "Bart"],
        "rounds": [],
        "options": {"end_above": 120},
    }


def test_along_is_recorded_empty_under_calls_and_only_when_given_under_automatic_assaf():
    called = rules.Round({"Ann": 1, "Bart": 9}, yaniv="Ann")
    went_along = rules.Round({"Ann": 1, "Bart": 9}, yaniv="Ann", along=("Bart",))
    assert round_to_record(called, rules.BELGIAN)["along"] == []
    assert "along" not in round_to_record(called, rules.ISRAELI)
    assert round_to_record(went_along, rules.ISRAELI)["along"] == ["Bart"]


def test_a_scored_round_s_record_has_no_streak_entries_unless_asked():
    game = rules.Game(("Ann", "Bart"), (rules.Round({"Ann": 1, "Bart": 9}, yaniv="Ann"),))
    scored = rules.score_game(game).rounds[0]
    assert round_result_to_record(scored, elimination=False) == {
        "number": 1,
        "kind": "yaniv",
        "points": {"Ann": 0, "Bart": 9},
        "reductions": {},
        "totals": {"Ann": 0, "Bart": 9},
    }


HANDS = {"Ann": 1, "Bart": 9}


@pytest.mark.parametrize(
    ("second_round", "code", "field", "params"),
    [
        (5, "round_object", "round", {}),
        ({"hands": [1, 9]}, "hands_object", "hands", {}),
        ({"hands": HANDS, "yaniv": "Ann", "along": "Bart"}, "along_list", "along", {}),
        ({"hands": HANDS, "yaniv": "Ann", "along": [5]}, "along_list", "along", {}),
        ({"hands": HANDS, "yaniv": 5}, "name_a_player", "yaniv", {"name": "yaniv"}),
        ({"hands": HANDS, "empty_hand": 5}, "name_a_player", "empty_hand", {"name": "empty_hand"}),
        ({"hands": HANDS, "yaniv": "Ann", "jokers": [1]}, "jokers_object", "jokers", {}),
        ({"hands": HANDS, "yaniv": "Ann", "joins": "Eve"}, "joins_object", "joins", {}),
        ({"hands": HANDS, "yaniv": "Ann", "joins": {"name": "Eve"}}, "joins_object", "joins", {}),
    ],
)
def test_a_malformed_round_is_refused_by_its_number_and_the_entry_at_fault(
    second_round, code, field, params
):
    record = {
        "ruleset": "belgian",
        "players": ["Ann", "Bart"],
        "rounds": [{"hands": HANDS, "yaniv": "Ann"}, second_round],
    }
    with pytest.raises(GameError) as error:
        game_from_record(record)
    assert (error.value.code, error.value.field, dict(error.value.params)) == (code, field, params)
    assert error.value.round_number == 2


def test_a_record_that_is_no_object_is_refused_as_the_record():
    with pytest.raises(GameError) as error:
        game_from_record(cast(Any, ["belgian"]))
    assert (error.value.code, error.value.field) == ("record_object", "record")


@pytest.mark.parametrize(
    ("record", "code", "field"),
    [
        ({"players": "Ann, Bart"}, "players_list", "players"),
        ({"players": ["Ann", "Bart"], "rounds": {"1": {"hands": HANDS}}}, "rounds_list", "rounds"),
    ],
)
def test_players_or_rounds_that_are_no_list_are_refused_by_their_entry(record, code, field):
    with pytest.raises(GameError) as error:
        game_from_record(record)
    assert (error.value.code, error.value.field, dict(error.value.params)) == (code, field, {})


def test_a_record_without_rounds_is_a_game_not_started():
    game = game_from_record({"players": ["Ann", "Bart"]})
    assert (game.players, game.rounds, game.ruleset) == (("Ann", "Bart"), (), rules.BELGIAN)


@pytest.mark.parametrize(
    ("start", "text"),
    [
        (JoinStart.HIGHEST, "highest"),
        (JoinStart.AVERAGE, "average"),
        (JoinStart.ZERO, "zero"),
        (87, "87"),
    ],
)
def test_a_join_s_start_is_stored_as_its_word_or_its_number_and_read_back(start, text):
    assert join_start_text(start) == text
    read = join_start_from_text(text)
    assert (read, type(read)) == (start, type(start))


def test_a_join_s_start_that_is_no_known_word_is_read_and_refused_by_the_engine():
    record = {
        "players": ["Ann", "Bart"],
        "rounds": [
            {"hands": {"Ann": 1, "Bart": 9}, "yaniv": "Ann"},
            {
                "hands": {"Ann": 1, "Bart": 9, "Eve": 4},
                "yaniv": "Ann",
                "joins": {"name": "Eve", "start": "tallest"},
            },
        ],
    }
    game = game_from_record(record)
    joins = game.rounds[1].joins
    assert joins is not None and joins.start == "tallest"
    with pytest.raises(GameError) as error:
        rules.score_game(game)
    assert (error.value.code, error.value.field) == ("join_start", "joins")


def test_a_join_s_start_word_is_recorded_as_plain_text_like_json_gives_back():
    entries = rules.Round(
        {"Ann": 1, "Bart": 9, "Eve": 4},
        yaniv="Ann",
        joins=rules.Join("Eve", JoinStart.AVERAGE),
    )
    start = round_to_record(entries)["joins"]["start"]
    assert (start, type(start)) == ("average", str)
