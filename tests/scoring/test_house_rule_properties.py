"""Properties of the engine under issue 37's house rules (hypothesis): random games under random
option sets (seven cards, 11-12-13, jokers, the Assaf options, streak rules, players joining),
drawn by the generator the JS comparison uses."""

from __future__ import annotations

from collections.abc import Mapping

from hypothesis import given
from hypothesis import strategies as st

from scoring.records import game_from_record, game_to_record
from scoring.rules import JoinStart, Streak, score_game, score_round
from tests.scoring.test_js_engine import random_game


def scored(record):
    game = game_from_record(record)
    return game, score_game(game)


@given(st.randoms(use_true_random=False))
def test_totals_are_never_negative_unless_a_joker_counts_below_zero(rng):
    game, result = scored(random_game(rng))
    if game.ruleset.joker_value < 0:
        return
    for round_result in result.rounds:
        assert min(round_result.totals.values()) >= 0


@given(st.randoms(use_true_random=False))
def test_a_joiner_starts_on_what_their_rule_says(rng):
    game, result = scored(random_game(rng))
    players = list(game.players)
    totals = dict.fromkeys(players, 0)
    out: set[str] = set()
    for entries, round_result in zip(game.rounds, result.rounds, strict=True):
        if entries.joins is not None:
            name, start = round_result.joined
            still_in = [totals[player] for player in players if player not in out]
            rule = entries.joins.start
            if rule is JoinStart.HIGHEST:
                assert start == max(still_in)
            elif rule is JoinStart.AVERAGE:
                average = sum(still_in) / len(still_in)
                assert abs(start - average) <= 0.5
                assert start - average != -0.5  # halves go up
            elif rule is JoinStart.ZERO:
                assert start == 0
            else:
                assert start == rule
            assert name == entries.joins.name and name not in players
            players.append(name)
        else:
            assert round_result.joined is None
        totals = dict(round_result.totals)
        out |= set(round_result.eliminated)
    assert list(result.players) == players


@given(st.randoms(use_true_random=False))
def test_scoring_a_game_equals_scoring_its_rounds_one_by_one_with_the_streaks(rng):
    game, result = scored(random_game(rng))
    players = game.players
    totals: Mapping[str, int] = {}
    out: tuple[str, ...] = ()
    streaks: Mapping[str, Streak] = {}
    for number, entries in enumerate(game.rounds, start=1):
        one = score_round(players, totals, entries, number, game.ruleset, out, streaks)
        assert one == result.rounds[number - 1]
        totals, streaks = one.totals, one.streaks
        out = (*out, *one.eliminated)
        if one.joined:
            players = (*players, one.joined[0])


@given(st.randoms(use_true_random=False))
def test_the_record_of_a_house_rule_game_reads_back_as_the_same_game(rng):
    game = game_from_record(random_game(rng))
    assert game_from_record(game_to_record(game)) == game


@given(st.randoms(use_true_random=False))
def test_a_streak_counts_only_rounds_won_in_a_row(rng):
    game, result = scored(random_game(rng))
    if not game.ruleset.streak_bonus:
        return
    before: dict[str, Streak] = {}
    for round_result in result.rounds:
        for player, streak in round_result.streaks.items():
            if player not in round_result.points:
                # Out of the game (elimination): they play no more rounds, their streak stays.
                continue
            previous = before.get(player, Streak())
            assert streak.wins in (0, previous.wins + 1)
            assert streak.assafs >= previous.assafs
        before = dict(round_result.streaks)
