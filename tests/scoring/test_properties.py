"""Properties of the engine over random valid games (hypothesis)."""

from __future__ import annotations

from collections.abc import Mapping

from hypothesis import HealthCheck, Phase, assume, find, given, settings
from hypothesis import strategies as st

from scoring.records import game_from_record, game_to_record
from scoring.rules import (
    BELGIAN,
    Game,
    GameError,
    Round,
    RoundKind,
    score_game,
    score_round,
)
from tests.profiles import sized

NAMES = ("Ann", "Bart", "Chris", "Dirk", "Eva", "Frank", "Greet", "Hélène")
# Small hands are common at the end of a round; large ones happen too.
hand_totals = st.one_of(st.integers(0, 7), st.integers(0, BELGIAN.max_hand))


@st.composite
def rounds_for(draw, players: tuple[str, ...]) -> Round:
    hands = {player: draw(hand_totals) for player in players}
    ender = draw(st.sampled_from(players))
    if draw(st.booleans()) and draw(st.booleans()):
        hands[ender] = 0
        return Round(hands, empty_hand=ender)
    others = [player for player in players if player != ender]
    along = draw(st.lists(st.sampled_from(others), unique=True, max_size=len(others)))
    return Round(hands, yaniv=ender, along=tuple(along))


@st.composite
def games(draw) -> Game:
    """A valid game: random rounds, cut after the round that ends it."""
    players = tuple(draw(st.permutations(NAMES))[: draw(st.integers(2, 8))])
    rounds = draw(st.lists(rounds_for(players), max_size=40))
    totals: Mapping[str, int] = dict.fromkeys(players, 0)
    for number, entries in enumerate(rounds, start=1):
        totals = score_round(players, totals, entries, number).totals
        if any(total > BELGIAN.end_above for total in totals.values()):
            return Game(players, tuple(rounds[:number]))
    return Game(players, tuple(rounds))


def test_the_game_strategy_reaches_finished_games():
    # One example is enough: shrinking it to the smallest finished game took 100 s.
    game = find(
        games(),
        lambda game: score_game(game).finished,
        settings=settings(phases=[Phase.generate], max_examples=500, database=None),
    )
    assert score_game(game).winners


@given(games())
def test_a_valid_caller_never_adds_their_own_hand(game):
    result = score_game(game)
    for entries, round_result in zip(game.rounds, result.rounds, strict=True):
        if round_result.kind is RoundKind.YANIV:
            caller_hand = entries.hands[entries.yaniv]
            beaten_by = sum(1 for p in entries.along if entries.hands[p] <= caller_hand)
            assert round_result.points[entries.yaniv] == 32 * beaten_by


@given(games())
def test_a_reduction_happens_exactly_when_a_positive_round_lands_on_50_100_or_150(game):
    result = score_game(game)
    previous = dict.fromkeys(game.players, 0)
    for round_result in result.rounds:
        for player in game.players:
            points = round_result.points[player]
            lands = points > 0 and previous[player] + points in (50, 100, 150)
            assert round_result.reductions.get(player, 0) == (50 if lands else 0)
            assert round_result.totals[player] == (
                previous[player] + points - (50 if lands else 0)
            )
        previous = dict(round_result.totals)


@given(games())
def test_nobody_exceeds_150_except_in_the_last_round_of_a_finished_game(game):
    result = score_game(game)
    for round_result in result.rounds[:-1]:
        assert max(round_result.totals.values()) <= 150
    assert result.finished == (max(result.totals.values()) > 150)


@given(games())
def test_scoring_a_game_equals_scoring_its_rounds_one_by_one(game):
    totals: Mapping[str, int] = dict.fromkeys(game.players, 0)
    one_by_one = []
    for number, entries in enumerate(game.rounds, start=1):
        one_by_one.append(score_round(game.players, totals, entries, number))
        totals = one_by_one[-1].totals
    assert score_game(game).rounds == tuple(one_by_one)


@given(games())
def test_a_false_yaniv_costs_32_plus_the_next_seat_clockwise(game):
    for entries, round_result in zip(game.rounds, score_game(game).rounds, strict=True):
        if round_result.kind is RoundKind.FALSE_YANIV:
            seat = game.players.index(entries.yaniv)
            neighbour = game.players[(seat + 1) % len(game.players)]
            assert round_result.points[entries.yaniv] == 32 + entries.hands[neighbour]
            assert entries.hands[entries.yaniv] > 5


@given(games())
def test_ranks_follow_totals_and_winners_hold_the_lowest_once_finished(game):
    result = score_game(game)
    for placing in result.ranking:
        lower = sum(1 for total in result.totals.values() if total < placing.total)
        assert placing.rank == 1 + lower
    lowest = min(result.totals.values())
    expected = [p for p in game.players if result.totals[p] == lowest] if result.finished else []
    assert list(result.winners) == expected


@given(games())
def test_a_game_survives_the_record_round_trip(game):
    assert game_from_record(game_to_record(game)) == game


@settings(max_examples=sized(50), suppress_health_check=[HealthCheck.filter_too_much])
@given(games(), st.data())
def test_a_round_after_a_finished_game_is_refused(game, data):
    assume(score_game(game).finished)
    extra = data.draw(rounds_for(game.players))
    try:
        score_game(Game(game.players, (*game.rounds, extra)))
    except GameError as error:
        assert str(error) == f"round {len(game.rounds) + 1}: the game is already over"
    else:
        raise AssertionError("a round after the end was scored")
