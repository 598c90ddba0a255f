"""What the engine says when a record is wrong, code, entry and numbers (issue 36, mutation
testing): options that are no object, a malformed multiple rule, a Yaniv limit above the
largest hand, a player without a name; and a game's players kept as given."""

from __future__ import annotations

import dataclasses
from typing import Any, cast

import pytest

from scoring.rules import BELGIAN, Game, GameError, Round, check_players, check_round, score_game


def refusal(call) -> GameError:
    with pytest.raises(GameError) as error:
        call()
    return error.value


def test_options_that_are_no_object_are_refused_as_the_options_entry():
    # A JSON record's options may be anything: a list here.
    error = refusal(lambda: BELGIAN.with_options(cast(Any, [("end_above", 100)])))
    assert (error.code, error.field) == ("options_object", "options")


def test_a_malformed_multiple_rule_is_named_in_its_refusal():
    error = refusal(lambda: BELGIAN.with_options({"reduce_multiples": [50]}))
    assert error.code == "option_pairs"
    assert dict(error.params) == {"option": "reduce_multiples"}


def test_a_yaniv_limit_above_the_largest_hand_names_that_hand():
    error = refusal(lambda: BELGIAN.with_options({"cards_dealt": 1, "yaniv_limit": 11}))
    assert error.code == "yaniv_limit_above_hand"
    assert dict(error.params) == {"max": 10}


@pytest.mark.parametrize("name", ["", "   ", 5, None])
def test_a_player_without_a_name_is_refused_as_the_players_entry(name):
    error = refusal(lambda: check_players(["Ann", name]))
    assert (error.code, error.field) == ("player_name_empty", "players")


def test_a_game_keeps_its_players_and_rounds_as_given_in_seat_order():
    # As a JSON record gives them: lists.
    players: Any = ["Ann", "Bart"]
    rounds: Any = [Round({"Ann": 0, "Bart": 9}, yaniv="Ann")]
    game = Game(players, rounds)
    assert game.players == ("Ann", "Bart")
    assert isinstance(game.rounds, tuple) and len(game.rounds) == 1
    assert score_game(game).players == ("Ann", "Bart")


def test_hands_for_someone_else_instead_of_a_player_are_refused_as_the_hands_entry():
    entries = Round({"Ann": 0, "Zoe": 3}, yaniv="Ann")
    error = refusal(lambda: check_round(["Ann", "Bart"], entries, 4))
    assert (error.code, error.field, error.round_number) == ("hands_name_players", "hands", 4)


def test_an_empty_hand_of_someone_not_at_the_table_is_refused_as_the_empty_hand_entry():
    entries = Round({"Ann": 0, "Bart": 3}, empty_hand="Zoe")
    error = refusal(lambda: check_round(["Ann", "Bart"], entries, 2))
    assert (error.code, error.field, error.round_number) == ("empty_hand_unknown", "empty_hand", 2)


def test_a_game_is_checked_against_its_own_ruleset_s_number_of_players():
    three_at_most = dataclasses.replace(BELGIAN, max_players=3)
    error = refusal(lambda: score_game(Game(("Ann", "Bart", "Chris", "Dirk"), (), three_at_most)))
    assert (error.code, dict(error.params)) == ("player_count", {"low": 2, "high": 3})


def test_an_empty_hand_still_holding_a_joker_is_refused_for_its_player():
    entries = Round({"Ann": 0, "Bart": 3}, empty_hand="Ann", jokers={"Ann": 1})
    error = refusal(lambda: check_round(["Ann", "Bart"], entries, 3))
    assert (error.code, error.field, error.player) == ("empty_hand_not_zero", "empty_hand", "Ann")


def test_going_along_after_an_emptied_hand_is_refused_as_the_along_entry():
    entries = Round({"Ann": 0, "Bart": 3}, empty_hand="Ann", along=("Bart",))
    error = refusal(lambda: check_round(["Ann", "Bart"], entries, 3))
    assert (error.code, error.field) == ("no_along_after_empty_hand", "along")


def test_a_caller_not_at_the_table_is_refused_as_the_yaniv_entry():
    entries = Round({"Ann": 0, "Bart": 3}, yaniv="Zoe")
    error = refusal(lambda: check_round(["Ann", "Bart"], entries, 3))
    assert (error.code, error.field) == ("caller_unknown", "yaniv")


def test_a_round_keeps_a_frozen_copy_of_the_entries_it_was_given():
    hands, jokers, along = {"Ann": 0, "Bart": 3}, {"Bart": 1}, ["Bart"]
    entries = Round(hands, yaniv="Ann", along=cast(Any, along), jokers=jokers)
    hands["Ann"], jokers["Bart"] = 9, 2
    along.append("Chris")
    assert entries.hands == {"Ann": 0, "Bart": 3} and entries.jokers == {"Bart": 1}
    assert entries.along == ("Bart",)
    with pytest.raises(TypeError):
        cast(Any, entries.hands)["Ann"] = 5
    with pytest.raises(TypeError):
        cast(Any, entries.jokers)["Bart"] = 2
