"""A game's house-rule options at their edges (issue 36, mutation testing): a streak rule's
points from the lowest to the highest allowed, and what is refused beyond them or typed
wrong; a player joining with no new name."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.rules import BELGIAN, GameError, Join, JoinStart, check_join
from scoring.ruleset import MAX_STREAK, MAX_STREAK_POINTS, MAX_STREAK_RULES, AssafReset


def streak(wins: object, points: object):
    return BELGIAN.with_options({"streak_bonus": [{"wins": wins, "points": points}]})


def refused_streak(wins: object, points: object) -> str:
    with pytest.raises(GameError) as error:
        streak(wins, points)
    return error.value.code


def test_a_streak_rule_may_give_or_take_the_most_points_allowed():
    assert streak(3, -MAX_STREAK_POINTS).streak_bonus[0].points == -MAX_STREAK_POINTS
    assert streak(3, MAX_STREAK_POINTS).streak_bonus[0].points == MAX_STREAK_POINTS
    assert refused_streak(3, -MAX_STREAK_POINTS - 1) == "streak_range"
    assert refused_streak(3, MAX_STREAK_POINTS + 1) == "streak_range"
    assert refused_streak(MAX_STREAK + 1, 10) == "streak_range"


@pytest.mark.parametrize(("wins", "points"), [(3, "10"), ("3", 10), (3, 1.5)])
def test_a_streak_rule_of_anything_but_whole_numbers_is_refused_as_malformed(wins, points):
    assert refused_streak(wins, points) == "streak_rule"


def refusal(options: dict[str, object]) -> GameError:
    with pytest.raises(GameError) as error:
        BELGIAN.with_options(options)
    return error.value


@pytest.mark.parametrize(
    "rule",
    [{"wins": MAX_STREAK + 1, "points": 10}, {"wins": 3, "points": MAX_STREAK_POINTS + 1}]
    + [{"assafs": 0, "reset": True}, {"assafs": MAX_STREAK + 1, "reset": True}],
)
def test_a_streak_rule_out_of_range_names_the_ranges(rule):
    error = refusal({"streak_bonus": [rule]})
    assert (error.code, error.field) == ("streak_range", "options")
    assert dict(error.params) == {"high": MAX_STREAK, "points": MAX_STREAK_POINTS}


def test_an_assaf_reset_rule_resets_only_when_told_true():
    reset = BELGIAN.with_options({"streak_bonus": [{"assafs": MAX_STREAK, "reset": True}]})
    assert reset.streak_bonus == (AssafReset(assafs=MAX_STREAK),)
    assert refusal({"streak_bonus": [{"assafs": 2, "reset": 1}]}).code == "streak_rule"
    assert refusal({"streak_bonus": [{"assafs": "2", "reset": True}]}).code == "streak_rule"


def test_streak_rules_come_as_a_list_of_at_most_the_most_rules():
    assert refusal({"streak_bonus": {"wins": 3, "points": 10}}).code == "streak_list"
    many = [{"wins": n, "points": 10} for n in range(1, MAX_STREAK_RULES + 2)]
    error = refusal({"streak_bonus": many})
    assert (error.code, dict(error.params)) == ("streak_count", {"most": MAX_STREAK_RULES})
    assert len(streak_rules(many[:-1])) == MAX_STREAK_RULES


def streak_rules(rules: list[dict[str, int]]):
    return BELGIAN.with_options({"streak_bonus": rules}).streak_bonus


@pytest.mark.parametrize("name", [5, None, "  ", "Bart"])
def test_a_player_joins_only_with_a_new_name_as_text(name):
    totals = {"Ann": 0, "Bart": 9, "Chris": 4}
    joining: Any = Join(name, JoinStart.ZERO)
    with pytest.raises(GameError) as error:
        check_join(tuple(totals), totals, joining, 2, BELGIAN)
    assert (error.value.code, error.value.field) == ("join_name", "joins")
