"""A game's house-rule options at their edges (issue 36, mutation testing): a streak rule's
points from the lowest to the highest allowed, and what is refused beyond them or typed
wrong."""

from __future__ import annotations

import pytest

from scoring.rules import BELGIAN, GameError
from scoring.ruleset import MAX_STREAK, MAX_STREAK_POINTS


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
