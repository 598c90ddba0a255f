"""The engine's rules at their edges (issue 36, mutation testing): a total exactly on the limit
plays on, a reduction must make a total smaller, the multiple rule must take something off.
Each test pins a comparison that a `>`/`>=` or `<`/`<=` slip would change unseen elsewhere
(`make mutation`)."""

from __future__ import annotations

import pytest

from scoring.rules import (
    BELGIAN,
    GameError,
    Ruleset,
    is_over,
    players_going_out,
    score_game,
)
from scoring.rules import Game as RecordedGame
from scoring.rules import Round as Entries

SEATS = ("Ann", "Bart", "Chris")
# No reductions and a low limit: the totals land where a test puts them.
PLAIN = BELGIAN.with_options({"reductions": [], "end_above": 30})
ELIMINATION = PLAIN.with_options({"end": "elimination"})


def refused(ruleset: Ruleset, options: dict[str, object]) -> str:
    with pytest.raises(GameError) as error:
        ruleset.with_options(options)
    return error.value.code


def test_a_total_on_the_limit_does_not_end_the_game():
    assert is_over({"Ann": 30, "Bart": 0}, PLAIN) is False
    assert is_over({"Ann": 31, "Bart": 0}, PLAIN) is True


def test_a_game_whose_highest_total_lands_on_the_limit_plays_on():
    # Bart's 30 points land on the limit exactly: one more round is played.
    on_the_limit = Entries({"Ann": 0, "Bart": 30, "Chris": 5}, yaniv="Ann")
    result = score_game(RecordedGame(SEATS, (on_the_limit,), PLAIN))
    assert result.totals == {"Ann": 0, "Bart": 30, "Chris": 5}
    assert result.finished is False and result.rounds[-1].ends_game is False
    one_more = Entries({"Ann": 0, "Bart": 1, "Chris": 5}, yaniv="Ann")
    result = score_game(RecordedGame(SEATS, (on_the_limit, one_more), PLAIN))
    assert result.finished is True and result.winners == ("Ann",)


def test_under_elimination_a_player_on_the_limit_stays_in():
    totals = {"Ann": 30, "Bart": 31, "Chris": 4}
    assert players_going_out(SEATS, totals, ELIMINATION) == ("Bart",)
    assert players_going_out(("Ann", "Chris"), totals, ELIMINATION) == ()


def test_under_elimination_every_player_above_the_limit_but_the_lowest_goes_out():
    totals = {"Ann": 31, "Bart": 40, "Chris": 35}
    assert players_going_out(SEATS, totals, ELIMINATION) == ("Bart", "Chris")


def test_a_player_landing_on_the_limit_under_elimination_plays_the_next_round():
    entries = Entries({"Ann": 0, "Bart": 30, "Chris": 31}, yaniv="Ann")
    result = score_game(RecordedGame(SEATS, (entries,), ELIMINATION))
    assert result.rounds[0].eliminated == ("Chris",)
    assert result.finished is False


def test_a_reduction_must_leave_a_smaller_total():
    assert refused(BELGIAN, {"reductions": [[100, 100]]}) == "reductions_smaller"
    assert BELGIAN.with_options({"reductions": [[100, 99]]}).reduction_table == ((100, 99),)
    assert BELGIAN.with_options({"reductions": [[100, 0]]}).reduction_table == ((100, 0),)
    assert refused(BELGIAN, {"reductions": [[100, -1]]}) == "reductions_smaller"


def test_the_multiple_rule_must_take_something_off_and_at_most_the_multiple():
    assert refused(BELGIAN, {"reduce_multiples": [50, 0]}) == "reduce_multiples_range"
    assert BELGIAN.with_options({"reduce_multiples": [50, 1]}).reduce_multiples == (50, 1)
    assert BELGIAN.with_options({"reduce_multiples": [50, 50]}).reduce_multiples == (50, 50)
    assert refused(BELGIAN, {"reduce_multiples": [50, 51]}) == "reduce_multiples_range"
