"""Properties of the engine under each preset, over random valid games (hypothesis)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, Phase, assume, find, given, settings
from hypothesis import strategies as st

from scoring.records import game_from_record, game_to_record
from scoring.rules import (
    BELGIAN,
    ISRAELI,
    RULESETS,
    WIKIPEDIA_EN,
    WIKIPEDIA_FR,
    Game,
    GameError,
    Round,
    RoundKind,
    Ruleset,
    score_game,
    score_round,
)
from tests.profiles import sized

NAMES = ("Ann", "Bart", "Chris", "Dirk", "Eva", "Frank", "Greet", "Hélène")
PRESETS = (ISRAELI, WIKIPEDIA_EN, WIKIPEDIA_FR)
ALL = (BELGIAN, *PRESETS)
# A game is up to 60 rounds: no deadline (a busy machine is slow), fewer examples per preset.
PROPERTY = settings(deadline=None, max_examples=sized(40))
# Finding one example is enough; shrinking it to the smallest would take long.
FIND = settings(phases=[Phase.generate], max_examples=500, database=None)


def by_name(ruleset: Ruleset) -> str:
    return ruleset.name


# The tables of RULES.md, written out independently of the engine: the amount
# taken off a total reached exactly after a positive round.
def expected_reduction(ruleset_name: str, total: int) -> int:
    if ruleset_name == "belgian":
        return 50 if total in (50, 100, 150) else 0
    if ruleset_name == "israeli":
        return {100: 50, 200: 100}.get(total, 0)
    if ruleset_name == "wikipedia_en":
        return 50 if total > 0 and total % 50 == 0 else 0
    if ruleset_name == "wikipedia_fr":
        return {100: 50, 200: 50}.get(total, 0)
    raise AssertionError(ruleset_name)


@st.composite
def rounds_for(draw, playing: tuple[str, ...], ruleset: Ruleset) -> Round:
    """A valid round: under automatic Assaf nobody goes along and calls are within the limit."""
    small = st.integers(0, ruleset.yaniv_limit + 2)
    hands = {p: draw(st.one_of(small, st.integers(0, ruleset.max_hand))) for p in playing}
    ender = draw(st.sampled_from(playing))
    if draw(st.integers(0, 4)) == 0:
        hands[ender] = 0
        return Round(hands, empty_hand=ender)
    if ruleset.automatic_assaf:
        hands[ender] = draw(st.integers(0, ruleset.yaniv_limit))
        return Round(hands, yaniv=ender)
    others = [player for player in playing if player != ender]
    along = draw(st.lists(st.sampled_from(others), unique=True, max_size=len(others)))
    return Round(hands, yaniv=ender, along=tuple(along))


@st.composite
def games(draw, ruleset: Ruleset) -> Game:
    """A valid game under the ruleset, round by round, until it ends or stops."""
    players = tuple(draw(st.permutations(NAMES))[: draw(st.integers(2, 8))])
    totals: dict[str, int] = dict.fromkeys(players, 0)
    out: list[str] = []
    rounds: list[Round] = []
    for number in range(1, draw(st.integers(0, 60)) + 1):
        playing = tuple(player for player in players if player not in out)
        entries = draw(rounds_for(playing, ruleset))
        result = score_round(players, totals, entries, number, ruleset, out=tuple(out))
        rounds.append(entries)
        totals = dict(result.totals)
        out.extend(result.eliminated)
        if result.ends_game:
            break
    return Game(players, tuple(rounds), ruleset)


def rounds_with_results(game: Game):
    return zip(game.rounds, score_game(game).rounds, strict=True)


@pytest.mark.parametrize("ruleset", ALL, ids=by_name)
def test_the_game_strategy_reaches_finished_games(ruleset):
    game = find(games(ruleset), lambda game: score_game(game).finished, settings=FIND)
    assert len(score_game(game).winners) >= 1


def test_the_israeli_strategy_reaches_eliminations_before_the_end():
    game = find(
        games(ISRAELI),
        lambda game: any(r.eliminated and not r.ends_game for r in score_game(game).rounds),
        settings=FIND,
    )
    assert score_game(game).out_in_round


@pytest.mark.parametrize("ruleset", PRESETS, ids=by_name)
@PROPERTY
@given(data=st.data())
def test_under_automatic_assaf_a_caller_with_the_strictly_lowest_hand_scores_zero(ruleset, data):
    game = data.draw(games(ruleset))
    for entries, scored in rounds_with_results(game):
        if entries.yaniv is None:
            continue
        caller_hand = entries.hands[entries.yaniv]
        others = [hand for player, hand in entries.hands.items() if player != entries.yaniv]
        if caller_hand < min(others):
            assert scored.kind is RoundKind.YANIV
            assert dict(scored.points) == {**entries.hands, entries.yaniv: 0}
        else:
            assert scored.kind is RoundKind.ASSAF


@pytest.mark.parametrize("ruleset", PRESETS, ids=by_name)
@PROPERTY
@given(data=st.data())
def test_an_assaf_caller_scores_own_hand_plus_30_and_the_others_their_hand(ruleset, data):
    game = data.draw(games(ruleset))
    for entries, scored in rounds_with_results(game):
        if scored.kind is not RoundKind.ASSAF:
            continue
        caller = entries.yaniv
        assert scored.points[caller] == entries.hands[caller] + 30
        others = {player: hand for player, hand in entries.hands.items() if player != caller}
        lowest = min(others.values())
        for player, hand in others.items():
            zero = ruleset is WIKIPEDIA_EN and hand == lowest
            assert scored.points[player] == (0 if zero else hand)


@pytest.mark.parametrize("ruleset", ALL, ids=by_name)
@PROPERTY
@given(data=st.data())
def test_reductions_follow_the_presets_table(ruleset, data):
    game = data.draw(games(ruleset))
    result = score_game(game)
    previous = dict.fromkeys(game.players, 0)
    for scored in result.rounds:
        for player, points in scored.points.items():
            arrived = previous[player] + points
            reduction = expected_reduction(ruleset.name, arrived) if points > 0 else 0
            assert scored.reductions.get(player, 0) == reduction
            assert scored.totals[player] == arrived - reduction
        assert set(scored.reductions) <= set(scored.points)
        previous = dict(scored.totals)


@PROPERTY
@given(data=st.data())
def test_an_eliminated_player_never_appears_in_a_later_round(data):
    game = data.draw(games(ISRAELI))
    result = score_game(game)
    gone: dict[str, int] = {}
    for entries, scored in zip(game.rounds, result.rounds, strict=True):
        for player, total in gone.items():
            assert player not in entries.hands and player not in scored.points
            assert scored.totals[player] == total
        assert set(scored.points) == set(entries.hands)
        for player in scored.eliminated:
            assert scored.totals[player] > 200
            gone[player] = scored.totals[player]
    assert dict(result.out_in_round).keys() == gone.keys()


@PROPERTY
@given(data=st.data())
def test_under_elimination_only_the_lowest_total_above_200_may_stay_in(data):
    game = data.draw(games(ISRAELI))
    for scored in score_game(game).rounds:
        playing = [p for p in scored.points if p not in scored.eliminated]
        assert playing, "somebody always stays in"
        above = [p for p in playing if scored.totals[p] > 200]
        if above:
            # Everyone still in is above 200 and tied on the lowest total.
            assert above == playing
            assert len({scored.totals[p] for p in playing}) == 1
        going = [p for p in scored.points if scored.totals[p] > 200]
        assert set(scored.eliminated) <= set(going)


@PROPERTY
@given(data=st.data())
def test_under_elimination_the_last_player_left_wins_and_later_out_ranks_better(data):
    game = data.draw(games(ISRAELI))
    result = score_game(game)
    left = [p for p in game.players if p not in result.out_in_round]
    assert result.finished == (len(left) == 1)
    assert result.winners == (tuple(left) if result.finished else ())
    order = [placing.player for placing in result.ranking]
    standing = [
        (-result.out_in_round.get(p, len(game.rounds) + 1), result.totals[p]) for p in order
    ]
    assert standing == sorted(standing)
    assert order[: len(left)] == sorted(left, key=lambda p: (result.totals[p], order.index(p)))


@pytest.mark.parametrize("ruleset", (WIKIPEDIA_EN, WIKIPEDIA_FR), ids=by_name)
@PROPERTY
@given(data=st.data())
def test_nobody_exceeds_200_except_in_the_last_round_of_a_finished_game(ruleset, data):
    result = score_game(data.draw(games(ruleset)))
    for scored in result.rounds[:-1]:
        assert max(scored.totals.values()) <= 200
        assert scored.eliminated == ()
    assert result.finished == (max(result.totals.values()) > 200)


@pytest.mark.parametrize("ruleset", ALL, ids=by_name)
@PROPERTY
@given(data=st.data())
def test_scoring_a_game_equals_scoring_its_rounds_one_by_one(ruleset, data):
    game = data.draw(games(ruleset))
    totals = dict.fromkeys(game.players, 0)
    out: list[str] = []
    one_by_one = []
    for number, entries in enumerate(game.rounds, start=1):
        one_by_one.append(score_round(game.players, totals, entries, number, ruleset, out=out))
        totals = dict(one_by_one[-1].totals)
        out.extend(one_by_one[-1].eliminated)
    assert score_game(game).rounds == tuple(one_by_one)


@pytest.mark.parametrize("ruleset", ALL, ids=by_name)
@PROPERTY
@given(data=st.data())
def test_a_preset_game_survives_the_record_round_trip(ruleset, data):
    game = data.draw(games(ruleset))
    record = game_to_record(game)
    assert record["ruleset"] == ruleset.name and "options" not in record
    assert game_from_record(record) == game


@pytest.mark.parametrize("ruleset", PRESETS, ids=by_name)
@settings(
    max_examples=sized(30), deadline=None, suppress_health_check=[HealthCheck.filter_too_much]
)
@given(data=st.data())
def test_a_round_after_a_finished_preset_game_is_refused(ruleset, data):
    game = data.draw(games(ruleset))
    assume(score_game(game).finished)
    playing = tuple(p for p in game.players if p not in score_game(game).out_in_round)
    extra = data.draw(rounds_for(playing, ruleset))
    with pytest.raises(GameError) as refused:
        score_game(Game(game.players, (*game.rounds, extra), ruleset))
    assert str(refused.value) == f"round {len(game.rounds) + 1}: the game is already over"


@PROPERTY
@given(data=st.data())
def test_belgian_results_do_not_depend_on_the_presets(data):
    """The belgian preset never eliminates, never scores an Assaf, lists nobody out."""
    game = data.draw(games(RULESETS["belgian"]))
    result = score_game(game)
    assert not result.elimination and dict(result.out_in_round) == {}
    for scored in result.rounds:
        assert scored.kind is not RoundKind.ASSAF
        assert scored.eliminated == ()
        assert set(scored.points) == set(game.players)
