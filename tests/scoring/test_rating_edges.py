"""The rating at its edges (issue 36, mutation testing): a game it cannot rate is refused by
its number and the reason, and each change keeps when its game finished."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from scoring.rating import FinishedGame, Placing, rate_games

FINISHED = datetime(2026, 11, 21, 15, 30, tzinfo=UTC)


@pytest.mark.parametrize(
    "placings", [(Placing(1, 1),), (Placing(1, 1), Placing(1, 2))], ids=["alone", "twice"]
)
def test_a_game_without_two_distinct_players_is_refused_by_its_number(placings):
    with pytest.raises(ValueError) as refused:
        FinishedGame(7, FINISHED, placings)
    assert str(refused.value) == "game 7: a rated game has two or more distinct players"


def test_a_rank_below_1_is_refused_by_the_game_s_number():
    with pytest.raises(ValueError) as refused:
        FinishedGame(8, FINISHED, (Placing(1, 0), Placing(2, 1)))
    assert str(refused.value) == "game 8: ranks start at 1"


def test_each_change_keeps_when_its_game_finished():
    game = FinishedGame(9, FINISHED, (Placing(1, 1), Placing(2, 2)))
    changes = rate_games([game]).changes
    assert [(c.player, c.game, c.finished_at, c.rank) for c in changes] == [
        (1, 9, FINISHED, 1),
        (2, 9, FINISHED, 2),
    ]
