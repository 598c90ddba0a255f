"""Players' Yaniv statistics and a tournament's facts (scoring.statistics), checked against the
figures computed by hand for the fixed games of tests/scoring/statistics_games.py."""

from __future__ import annotations

import random
from dataclasses import fields
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import dealer, rules
from scoring.statistics import (
    GROUP,
    HAND_BINS,
    PLAYER,
    Fact,
    HandLine,
    YanivStats,
    best_comeback,
    facts,
    gather,
    longest_game,
    total,
)
from tests.scoring.statistics_games import (
    ANN,
    BART,
    CHRIS,
    DIRK,
    EXPECTED_ANN_GAME_2,
    EXPECTED_GAME_1,
    GAME_1,
    GAME_1_PLAYERS,
    GAME_1_TOTALS,
    GAME_2,
    GAME_2_PLAYERS,
    scored,
)


def hand_lines(group, game, players, entries, ruleset=rules.BELGIAN) -> list[HandLine]:
    """The lines the site would read for a game: a seat per player (its name), the engine's
    points, reductions and totals."""
    result = scored(players, entries, ruleset)
    lines = []
    for entry, outcome in zip(entries, result.rounds, strict=True):
        for player, hand in entry["hands"].items():
            lines.append(
                HandLine(
                    group,
                    game,
                    outcome.number,
                    outcome.kind.value,
                    entry.get("yaniv"),
                    entry.get("empty_hand"),
                    player,
                    player,
                    hand,
                    player in entry.get("along", ()),
                    outcome.points[player],
                    outcome.reductions.get(player, 0),
                    outcome.totals[player],
                )
            )
    return lines


def expected(figures: dict) -> YanivStats:
    bins = [0] * HAND_BINS
    for index, count in figures.get("bins", {}).items():
        bins[index] = count
    plain = {name: value for name, value in figures.items() if name != "bins"}
    return YanivStats(**plain, hand_bins=tuple(bins))


GAME_1_LINES = hand_lines("cup", 1, GAME_1_PLAYERS, GAME_1)
GAME_2_LINES = hand_lines("club night", 2, GAME_2_PLAYERS, GAME_2, rules.ISRAELI)


def test_the_fixed_game_scores_as_its_table_says():
    result = scored(GAME_1_PLAYERS, GAME_1, rules.BELGIAN)
    assert dict(result.totals) == GAME_1_TOTALS
    assert result.finished and result.winners == (ANN,)
    assert [r.kind.value for r in result.rounds] == [
        "yaniv", "yaniv", "false_yaniv", "empty_hand", "yaniv", "yaniv", "yaniv"
    ]  # fmt: skip
    assert scored(GAME_2_PLAYERS, GAME_2, rules.ISRAELI).rounds[0].kind.value == "assaf"


@pytest.mark.parametrize("player", [ANN, BART, CHRIS, DIRK])
def test_each_players_figures_of_game_1_are_the_hand_computed_ones(player):
    assert gather(GAME_1_LINES, by=PLAYER)[player] == expected(EXPECTED_GAME_1[player])


def test_an_assaf_counts_as_a_call_caught_by_the_rules_not_by_going_along():
    ann = gather(GAME_2_LINES, by=PLAYER)[ANN]
    assert ann == expected(EXPECTED_ANN_GAME_2)
    assert (ann.calls, ann.assafs, ann.caught, ann.held) == (1, 1, 0, 0)


def test_one_players_lines_gather_by_tournament_and_add_up_to_the_career():
    anns = [line for line in GAME_1_LINES + GAME_2_LINES if line.player == ANN]
    by_group = gather(anns, by=GROUP)
    assert by_group == {
        "cup": expected(EXPECTED_GAME_1[ANN]),
        "club night": expected(EXPECTED_ANN_GAME_2),
    }
    career = total(by_group.values())
    assert (career.games, career.rounds, career.calls) == (2, 10, 4)
    assert (career.held, career.caught, career.assafs) == (2, 1, 1)
    assert career.longest_run == 1
    assert career.hand_bins[1] == 4  # three hands of 5-9 in game 1, one in game 2


def test_the_shares_and_averages_of_the_figures():
    ann = gather(GAME_1_LINES, by=PLAYER)[ANN]
    assert ann.held_share == Fraction(2, 3)
    assert ann.average_hand == Fraction(69, 4)  # 17.25
    assert ann.average_call == Fraction(7, 3)
    chris = gather(GAME_1_LINES, by=PLAYER)[CHRIS]
    # A false Yaniv is not a valid call: no share of held calls.
    assert (chris.valid_calls, chris.held_share) == (0, None)
    assert chris.along_won_share == 1
    assert YanivStats().average_hand is None


def test_the_facts_of_the_fixed_game():
    told = {fact.code: fact for fact in facts(GAME_1_LINES)}
    assert told["most_yanivs"] == Fact("most_yanivs", 2, (ANN,))
    assert told["best_catcher"] == Fact("best_catcher", 2, (CHRIS,))
    assert told["most_reductions"] == Fact("most_reductions", 1, (ANN,))
    assert told["longest_run"] == Fact("longest_run", 2, (BART,))
    assert told["best_comeback"] == Fact("best_comeback", 25, (ANN,), game=1, round=2)
    assert told["longest_game"] == Fact("longest_game", 7, (), game=1)
    # Nobody waited through 10 rounds another player ended: no lowest average hand.
    assert "lowest_hand" not in told
    assert list(told) == [
        "most_yanivs", "best_catcher", "most_reductions", "longest_run", "best_comeback",
        "longest_game",
    ]  # fmt: skip


def test_players_level_on_a_figure_share_its_fact():
    # The same game at two tables: everyone's figures double, and two equal comebacks.
    twice = GAME_1_LINES + [line._replace(game=3) for line in GAME_1_LINES]
    told = {fact.code: fact for fact in facts(twice)}
    assert told["most_yanivs"] == Fact("most_yanivs", 4, (ANN,))
    # The first of two equal comebacks is told.
    assert told["best_comeback"].game == 1
    swapped = {ANN: DIRK, DIRK: ANN}
    renamed = GAME_1_LINES + [
        line._replace(game=3, player=swapped.get(str(line.player), line.player))
        for line in GAME_1_LINES
    ]
    tied = {fact.code: fact for fact in facts(renamed)}["most_yanivs"]
    assert tied == Fact("most_yanivs", 3, (ANN, DIRK))


def test_the_lowest_average_hand_needs_ten_rounds_ended_by_others():
    many = [line._replace(game=game) for game in range(3) for line in GAME_1_LINES]
    lowest = {fact.code: fact for fact in facts(many)}["lowest_hand"]
    # Three games: Ann waits 12 rounds (17.25 on average), Bart 15 (14.8), Chris 18 (12),
    # Dirk 18 (24.3); in one game nobody reaches 10.
    assert lowest == Fact("lowest_hand", Fraction(72, 6), (CHRIS,))


def test_no_lines_no_facts_and_no_figures():
    assert facts([]) == ()
    assert gather([]) == {}
    assert best_comeback([]) is None and longest_game([]) is None
    assert total([]) == YanivStats()


def test_a_winner_who_led_throughout_made_no_comeback():
    # Only round 1 of game 1: Ann leads with 0 after it.
    assert best_comeback([line for line in GAME_1_LINES if line.round == 1]) is None


# Properties over random games


@st.composite
def dealt_games(draw_data: st.DrawFn) -> list[HandLine]:
    """A few random games of one tournament under a random preset, as the site's lines."""
    ruleset = draw_data(st.sampled_from(list(rules.RULESETS.values())))
    rng = random.Random(draw_data(st.integers(0, 2**32)))
    lines: list[HandLine] = []
    for game in range(draw_data(st.integers(1, 4))):
        players = tuple(f"P{n}" for n in range(draw_data(st.integers(2, 6))))
        rounds = dealer.deal_game(players, ruleset, rng)
        entries = [
            {
                "hands": dict(entry.hands),
                **({"yaniv": entry.yaniv} if entry.yaniv else {}),
                **({"empty_hand": entry.empty_hand} if entry.empty_hand else {}),
                "along": list(entry.along),
            }
            for entry in rounds
        ]
        lines += hand_lines("t", game, players, entries, ruleset)
    return lines


@given(dealt_games())
def test_every_round_is_a_call_an_emptied_hand_or_a_round_another_player_ended(lines):
    for stats in gather(lines, by=PLAYER).values():
        assert stats.rounds == stats.calls + stats.empty_hands + stats.waiting_rounds
        assert stats.calls == stats.held + stats.caught + stats.assafs + stats.false_yanivs
        assert stats.along == stats.along_won + stats.along_lost
        assert sum(stats.hand_bins) == stats.waiting_rounds
        assert 0 <= stats.longest_run <= stats.rounds


@given(dealt_games())
def test_every_call_and_emptied_hand_belongs_to_one_player(lines):
    stats = gather(lines, by=PLAYER).values()
    rounds = {(line.game, line.round) for line in lines}
    assert sum(each.calls + each.empty_hands for each in stats) == len(rounds)


@given(dealt_games())
def test_the_figures_by_player_add_up_whatever_the_grouping(lines):
    for player in {line.player for line in lines}:
        mine = [line for line in lines if line.player == player]
        by_game = [gather([line for line in mine if line.game == game]) for game in range(4)]
        assert total(s for found in by_game for s in found.values()) == gather(mine)["t"]


def test_the_figures_add_field_by_field():
    one = YanivStats(games=1, rounds=5, longest_run=3, hand_bins=(1,) + (0,) * (HAND_BINS - 1))
    two = YanivStats(games=2, rounds=7, longest_run=2, hand_bins=(0, 2) + (0,) * (HAND_BINS - 2))
    both = one + two
    assert (both.games, both.rounds, both.longest_run) == (3, 12, 3)
    assert both.hand_bins[:2] == (1, 2)
    assert {field.name for field in fields(YanivStats)} >= {"held", "along_won", "reduced"}
