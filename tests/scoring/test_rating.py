"""The skill rating (scoring.rating): openskill's Plackett–Luce update, checked against the
formulas written out here, ties, the rating order, and order independence."""

from __future__ import annotations

import math
import random
from datetime import UTC, datetime, timedelta

import pytest

from scoring.rating import (
    DEFAULT_MODEL,
    FinishedGame,
    Placing,
    Skill,
    in_rating_order,
    new_skill,
    ordinal,
    rate_game,
    rate_games,
)

START = datetime(2026, 11, 21, 14, 0, tzinfo=UTC)


def game(number: int, *placings: tuple[int, int], minutes: int = 0) -> FinishedGame:
    return FinishedGame(
        number,
        START + timedelta(minutes=minutes),
        tuple(Placing(player, rank) for player, rank in placings),
    )


def flat(pairs: list[tuple[float, float]]) -> list[float]:
    """(mu, sigma) pairs as one list, for pytest.approx."""
    return [value for pair in pairs for value in pair]


def plackett_luce_by_hand(
    skills: list[tuple[float, float]], ranks: list[int]
) -> list[tuple[float, float]]:
    """Weng and Lin's Algorithm 4 (Plackett–Luce) for one player a team, as openskill applies
    it: tau added to each sigma first, a shared rank counted A_q times. Lists in the table's
    order, ranks 1 = winner.

    openskill 6.2 also means to give a tie's players their group's mean move, but compares
    each updated rating with itself (a zero mean): tied players move by the paper's update,
    as here. A release that averages would fail the tie tests below: recompute then.
    """
    mu0, sigma0 = DEFAULT_MODEL.mu, DEFAULT_MODEL.sigma
    assert (mu0, sigma0) == (25.0, 25.0 / 3.0)
    beta, tau, kappa = 25.0 / 6.0, 25.0 / 300.0, 0.0001
    # Dynamics: every sigma grows by tau before the game.
    variances = [sigma**2 + tau**2 for _, sigma in skills]
    mus = [mu for mu, _ in skills]
    n = len(skills)
    c = math.sqrt(sum(variance + beta**2 for variance in variances))
    e = [math.exp(mu / c) for mu in mus]
    # C_q: the players ranked at q or below it (q's own rank included).
    sum_q = [sum(e[i] for i in range(n) if ranks[i] >= ranks[q]) for q in range(n)]
    a = [sum(1 for i in range(n) if ranks[i] == ranks[q]) for q in range(n)]
    result = []
    for i in range(n):
        omega = delta = 0.0
        for q in range(n):
            if ranks[q] > ranks[i]:
                continue
            p = e[i] / sum_q[q]
            omega += ((1.0 if q == i else 0.0) - p) / a[q]
            delta += p * (1 - p) / a[q]
        omega *= variances[i] / c
        gamma = math.sqrt(variances[i]) / c
        delta *= gamma * variances[i] / c**2
        mu = mus[i] + omega
        sigma = math.sqrt(variances[i]) * math.sqrt(max(1 - delta, kappa))
        result.append((mu, sigma))
    return result


def test_three_new_players_move_as_the_plackett_luce_update_says():
    changes = rate_game(game(1, (10, 1), (11, 2), (12, 3)), {})
    by_hand = plackett_luce_by_hand([(25.0, 25.0 / 3.0)] * 3, [1, 2, 3])
    assert flat([(c.after.mu, c.after.sigma) for c in changes]) == pytest.approx(
        flat(by_hand), abs=1e-12
    )
    # The numbers themselves: the winner gains most, the last loses, everyone is surer.
    assert [round(c.after.mu, 4) for c in changes] == [27.869, 25.7173, 21.4137]
    assert changes[0].delta == pytest.approx(2.869, abs=1e-3)
    assert all(c.after.sigma < c.before.sigma for c in changes)
    assert [c.after.games for c in changes] == [1, 1, 1]


def test_an_upset_moves_more_than_the_expected_result():
    strong, middle, weak = Skill(32.0, 2.5, 40), Skill(25.0, 4.0, 12), Skill(18.0, 6.0, 3)
    skills = {1: strong, 2: middle, 3: weak}
    upset = rate_game(game(1, (3, 1), (2, 2), (1, 3)), skills)
    by_hand = plackett_luce_by_hand(
        [(weak.mu, weak.sigma), (middle.mu, middle.sigma), (strong.mu, strong.sigma)], [1, 2, 3]
    )
    assert flat([(c.after.mu, c.after.sigma) for c in upset]) == pytest.approx(
        flat(by_hand), abs=1e-12
    )
    expected = {c.player: c for c in rate_game(game(1, (1, 1), (2, 2), (3, 3)), skills)}
    upset_by_player = {c.player: c for c in upset}
    assert upset_by_player[3].delta > 0 > expected[3].delta
    assert upset_by_player[1].delta < 0 < expected[1].delta
    assert abs(upset_by_player[1].delta) > abs(expected[1].delta)
    # Games played carry on from the skills given.
    assert [upset_by_player[p].after.games for p in (1, 2, 3)] == [41, 13, 4]


def test_players_on_the_same_total_are_ranked_level():
    changes = rate_game(game(1, (10, 1), (11, 1), (12, 3)), {})
    by_hand = plackett_luce_by_hand([(25.0, 25.0 / 3.0)] * 3, [1, 1, 3])
    assert flat([(c.after.mu, c.after.sigma) for c in changes]) == pytest.approx(
        flat(by_hand), abs=1e-12
    )
    first, second, last = changes
    assert first.delta == second.delta > 0 > last.delta
    assert [c.rank for c in changes] == [1, 1, 3]


def test_a_tie_between_unequal_players_moves_each_by_their_own_update():
    skills = {1: Skill(30.0, 3.0, 20), 2: Skill(22.0, 7.0, 2), 3: Skill(25.0, 5.0, 5)}
    changes = {c.player: c for c in rate_game(game(1, (1, 2), (2, 2), (3, 1)), skills)}
    by_hand = plackett_luce_by_hand([(25.0, 5.0), (30.0, 3.0), (22.0, 7.0)], [1, 2, 2])
    assert flat(
        [(changes[p].after.mu, changes[p].after.sigma) for p in (3, 1, 2)]
    ) == pytest.approx(flat(by_hand), abs=1e-12)
    # Both lost to player 3; the stronger one, expected to do better, loses more.
    assert changes[1].delta < changes[2].delta < 0 < changes[3].delta


def test_a_whole_table_tied_keeps_every_mu():
    changes = rate_game(game(1, (1, 1), (2, 1), (3, 1), (4, 1)), {})
    assert [c.after.mu for c in changes] == pytest.approx([25.0] * 4, abs=1e-12)


def test_the_shown_rating_is_mu_less_three_sigmas_and_starts_at_zero():
    assert new_skill() == Skill(25.0, 25.0 / 3.0, 0)
    assert new_skill().rating == pytest.approx(0.0, abs=1e-12)
    assert ordinal(30.0, 2.0) == Skill(30.0, 2.0).rating == 24.0
    change = rate_game(game(1, (1, 1), (2, 2)), {})[0]
    assert change.rating_delta == pytest.approx(change.after.rating - change.before.rating)


def test_the_seats_order_does_not_change_a_game():
    skills = {1: Skill(28.0, 4.0, 9), 2: Skill(24.0, 6.0, 3)}
    one = rate_game(game(1, (1, 2), (2, 1), (3, 2), (4, 4)), skills)
    other = rate_game(game(1, (4, 4), (3, 2), (1, 2), (2, 1)), skills)
    assert one == other
    # Given to the library by rank, then player.
    assert [c.player for c in one] == [2, 1, 3, 4]


def test_games_are_rated_by_when_they_finished_then_by_id():
    late = game(1, (1, 1), (2, 2), minutes=30)
    early = game(2, (2, 1), (1, 2), minutes=10)
    same_moment_lower_id = game(3, (1, 1), (2, 2), minutes=20)
    same_moment_higher_id = game(4, (2, 1), (1, 2), minutes=20)
    games = [late, same_moment_higher_id, early, same_moment_lower_id]
    assert [g.game for g in in_rating_order(games)] == [2, 3, 4, 1]
    ratings = rate_games(games)
    assert [c.game for c in ratings.changes[::2]] == [2, 3, 4, 1]
    # The order matters: the same games in another order give other ratings.
    replayed = rate_games([early, same_moment_lower_id, same_moment_higher_id])
    replayed = rate_games([late], replayed.skills)
    assert replayed.skills == ratings.skills


def test_the_same_games_in_any_stored_order_give_the_same_ratings():
    rng = random.Random(16)
    players = list(range(1, 41))
    games = []
    for number in range(1, 201):
        table = rng.sample(players, rng.choice((2, 3, 4, 4, 5)))
        ranks = sorted(rng.randint(1, len(table)) for _ in table)
        # Ranks as the engine gives them: shared ranks skip the places they cover.
        placings = [
            (player, 1 + sum(r < rank for r in ranks))
            for player, rank in zip(table, ranks, strict=True)
        ]
        games.append(game(number, *placings, minutes=rng.randrange(0, 500)))
    reference = rate_games(games)
    for _ in range(5):
        shuffled = games[:]
        rng.shuffle(shuffled)
        shuffled = [
            FinishedGame(g.game, g.finished_at, tuple(rng.sample(g.placings, len(g.placings))))
            for g in shuffled
        ]
        again = rate_games(shuffled)
        assert again.skills == reference.skills
        assert again.changes == reference.changes


def test_rating_from_a_point_on_equals_rating_everything():
    games = [game(n, (n % 7, 1), ((n + 2) % 7, 2), ((n + 4) % 7, 2), minutes=n) for n in range(30)]
    whole = rate_games(games)
    first = rate_games(games[:12])
    rest = rate_games(games[12:], first.skills)
    assert rest.skills == whole.skills
    assert first.changes + rest.changes == whole.changes


def test_skills_of_players_without_a_game_are_kept():
    kept = Skill(31.0, 2.0, 50)
    ratings = rate_games([game(1, (1, 1), (2, 2))], {9: kept})
    assert ratings.skills[9] == kept
    assert set(ratings.skills) == {1, 2, 9}


@pytest.mark.parametrize(
    "placings",
    [((1, 1),), ((1, 1), (1, 2)), ((1, 0), (2, 1))],
    ids=["one player", "a player twice", "rank 0"],
)
def test_a_game_that_cannot_be_rated_is_refused(placings):
    with pytest.raises(ValueError):
        game(1, *placings)
