"""The rule options of issue 13 (no database): the bounds of every option, the reduction steps
they give, the house rules other scorekeepers play (a flat Assaf penalty, who scores 0 in an
Assaf, reducing again after a 0-point round, a Yaniv limit that only warns), their vectors in
tests/vectors/options, and the JSON reader every entry point shares."""

from __future__ import annotations

import io
import json
import random
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from scoring import dealer
from scoring.errors import GameWarning
from scoring.records import (
    JSON_MAX_DEPTH,
    JSON_MAX_DIGITS,
    game_from_record,
    game_to_record,
    read_json,
    result_to_record,
)
from scoring.rules import (
    BELGIAN,
    ISRAELI,
    MAX_ASSAF_PENALTY,
    MAX_DEALS_PER_PLAYER,
    MAX_HAND,
    MAX_REDUCTION_PAIRS,
    MAX_ROUND_POINTS,
    MAX_TOTAL,
    MIN_EVERY,
    OPTIONS,
    RULESETS,
    WIKIPEDIA_EN,
    WIKIPEDIA_FR,
    Assaf,
    AssafZero,
    Game,
    GameError,
    Round,
    RoundKind,
    Ruleset,
    round_warnings,
    score_game,
    score_round,
)
from scoring.sheet import Mark, legend, round_preview
from tests.scoring.vectors import OPTION_VECTORS_DIR, load, option_vector_files, vector_id

SEATS = ("Ann", "Bart", "Chris", "Dirk")
# The most reduction steps any allowed options give (docs/rules.md, "Bounds"): the table's 20
# totals and every multiple of 10 up to 10,000 + the most points of a round (MAX_ROUND_POINTS).
MOST_STEPS = MAX_REDUCTION_PAIRS + (MAX_TOTAL + MAX_ROUND_POINTS) // MIN_EVERY


def hands(*values: int) -> dict[str, int]:
    return dict(zip(SEATS, values, strict=True))


def scored(entries: Round, ruleset: Ruleset, totals: dict[str, int] | None = None):
    return score_round(SEATS, totals or dict.fromkeys(SEATS, 0), entries, 1, ruleset)


def refused(options: dict[str, Any], ruleset: Ruleset = BELGIAN) -> GameError:
    with pytest.raises(GameError) as error:
        ruleset.with_options(options)
    return error.value


# --- the bounds ------------------------------------------------------------------------------


def pairs(count: int) -> list[list[int]]:
    return [[50 * number, 50 * number - 50] for number in range(1, count + 1)]


def test_at_most_20_reduction_pairs():
    assert len(BELGIAN.with_options({"reductions": pairs(20)}).reduction_table) == 20
    error = refused({"reductions": pairs(21)})
    assert (error.code, str(error)) == (
        "reductions_count",
        "options: reductions: at most 20 pairs",
    )


def test_50000_reduction_pairs_are_refused_before_any_is_read():
    # 50,000 pairs kept a worker busy for minutes: the count is checked first, so even pairs
    # that are not pairs at all give the count's error.
    assert refused({"reductions": pairs(50_000)}).code == "reductions_count"
    assert refused({"reductions": [None] * 50_000}).code == "reductions_count"


@pytest.mark.parametrize("total", [0, MAX_TOTAL + 1, 10**30])
def test_a_reduced_total_is_1_to_10000(total):
    error = refused({"reductions": [[100, 50], [total, 0]]})
    assert str(error) == "options: reductions: a total must be a whole number from 1 to 10000"
    assert BELGIAN.with_options({"reductions": [[MAX_TOTAL, 0], [1, 0]]}).reduction_table == (
        (1, 0),
        (MAX_TOTAL, 0),
    )


@pytest.mark.parametrize("every", [1, 5, MIN_EVERY - 1, MAX_TOTAL + 1])
def test_the_multiple_rule_reduces_multiples_of_10_to_10000(every):
    error = refused({"reduce_multiples": [every, 1]})
    assert error.code == "reduce_multiples_every"
    assert str(error) == (
        "options: reduce_multiples: every must be a whole number from 10 to 10000"
    )


def test_the_multiple_rules_smallest_and_largest_every_are_accepted():
    assert BELGIAN.with_options({"reduce_multiples": [10, 10]}).reduce_multiples == (10, 10)
    assert BELGIAN.with_options({"reduce_multiples": [MAX_TOTAL, 1]}).reduce_multiples == (
        MAX_TOTAL,
        1,
    )


@pytest.mark.parametrize(
    ("option", "low", "high"),
    [
        ("yaniv_limit", 0, MAX_HAND),
        ("end_above", 1, MAX_TOTAL),
        ("cards_dealt", 1, 7),
        ("joker_held", 0, 50),
        ("joker_value", -50, 0),
        ("one_deck_up_to", 1, 8),
        ("assaf_penalty", 0, MAX_ASSAF_PENALTY),
        ("deals_per_player", 0, MAX_DEALS_PER_PLAYER),
    ],
)
def test_every_whole_number_option_has_its_bounds(option, low, high):
    for value in (low, high):
        if option == "yaniv_limit" and value > BELGIAN.max_hand:
            continue
        assert getattr(BELGIAN.with_options({option: value}), OPTIONS[option][0]) == value
    for value in (low - 1, high + 1, 10**5000):
        error = refused({option: value})
        assert str(error) == f"options: {option} must be a whole number from {low} to {high}"


@pytest.mark.parametrize("option", ["reduction_needs_points", "yaniv_limit_warns"])
@pytest.mark.parametrize("value", [0, 1, "true", None, [True]])
def test_the_flags_are_true_or_false(option, value):
    assert str(refused({option: value})) == f"options: {option} must be true or false"


@pytest.mark.parametrize(
    ("option", "choices"),
    [
        ("assaf", "hand_plus, flat, per_challenger, others_cards"),
        ("assaf_zero", "nobody, lowest, at_or_below_caller"),
        ("face_values", "10, 11-12-13"),
    ],
)
def test_the_assaf_choices_are_named(option, choices):
    assert str(refused({option: "Flat"})) == f"options: {option} must be one of {choices}"


def random_options(rng: random.Random) -> dict[str, Any]:
    """Any options within the bounds, often at them."""
    totals = rng.sample(range(1, MAX_TOTAL + 1), rng.choice([0, 3, MAX_REDUCTION_PAIRS]))
    every = rng.choice([MIN_EVERY, 50, rng.randint(MIN_EVERY, MAX_TOTAL)])
    cards = rng.randint(1, 5)
    return {
        "reductions": [[total, rng.randrange(total)] for total in totals],
        "reduce_multiples": rng.choice([None, [every, rng.randint(1, every)]]),
        "end_above": rng.choice([1, MAX_TOTAL, rng.randint(1, MAX_TOTAL)]),
        "cards_dealt": cards,
        "yaniv_limit": rng.randint(0, 10 * cards),
        "assaf": str(rng.choice(list(Assaf))),
        "assaf_penalty": rng.randint(0, MAX_ASSAF_PENALTY),
        "assaf_zero": str(rng.choice(list(AssafZero))),
        "reduction_needs_points": rng.choice([True, False]),
        "yaniv_limit_warns": rng.choice([True, False]),
    }


def test_the_worst_allowed_options_give_a_bounded_number_of_reduction_steps():
    # The public rules page and score_game list or use these steps: at 8,000 pairs the page
    # took 4.6 s. The size of what is computed is bounded, whatever the options.
    worst = BELGIAN.with_options(
        {
            # 20 totals that are no multiple of 10.
            "reductions": [[total, 0] for total in range(1, 30) if total % 10][:20],
            "reduce_multiples": [MIN_EVERY, 1],
            "end_above": MAX_TOTAL,
        }
    )
    assert worst.max_round_points == 224
    assert len(worst.reduction_steps) == 1_042
    worst = WIKIPEDIA_EN.with_options(
        {
            "reductions": [[total, 0] for total in range(1, 30) if total % 10][:20],
            "reduce_multiples": [MIN_EVERY, 1],
            "end_above": MAX_TOTAL,
            "cards_dealt": 7,
            "face_values": "11-12-13",
            "yaniv_limit_warns": True,
            "assaf": "per_challenger",
            "assaf_penalty": 100,
            "joker_held": 50,
            "streak_bonus": [{"wins": n, "points": 100} for n in range(1, 11)],
        }
    )
    assert worst.max_round_points == MAX_ROUND_POINTS == 1_991
    assert len(worst.reduction_steps) == MOST_STEPS == 1_219
    rng = random.Random(13)
    for preset in RULESETS.values():
        for _ in range(50):
            ruleset = preset.with_options(random_options(rng))
            assert len(ruleset.reduction_steps) <= MOST_STEPS
            assert ruleset.max_round_points <= MAX_ROUND_POINTS


def test_the_reduction_steps_are_computed_once_per_ruleset():
    ruleset = WIKIPEDIA_EN.with_options({"reduce_multiples": [MIN_EVERY, 5]})
    assert ruleset.reduction_steps is ruleset.reduction_steps
    assert ruleset.reduction_totals is ruleset.reduction_totals
    # A cached value is no field: equal rulesets stay equal, options unchanged.
    assert ruleset == WIKIPEDIA_EN.with_options({"reduce_multiples": [MIN_EVERY, 5]})
    assert ruleset.options_from(WIKIPEDIA_EN) == {"reduce_multiples": [10, 5]}


def test_the_steps_go_past_the_end_limit_where_a_round_can_land():
    # Belgian with every multiple of 50 reduced: a caller on 150 with 7 along can reach 374.
    ruleset = BELGIAN.with_options({"reductions": [], "reduce_multiples": [50, 50]})
    assert ruleset.reduction_totals == (50, 100, 150, 200, 250, 300, 350)
    # wikipedia_en ending above 210: 205 + a hand of 45 lands on 250, reduced to 200: still in.
    late = WIKIPEDIA_EN.with_options({"end_above": 210})
    assert (250, 200) in late.reduction_steps
    result = score_round(
        SEATS,
        hands(205, 0, 0, 0),
        Round(hands(45, 10, 3, 20), yaniv="Chris"),
        1,
        late,
    )
    assert (result.reductions["Ann"], result.totals["Ann"], result.ends_game) == (50, 200, False)


@pytest.mark.parametrize("preset", RULESETS.values(), ids=lambda ruleset: ruleset.name)
def test_every_reduction_the_engine_makes_is_a_step_and_no_round_scores_more_than_the_most(
    preset,
):
    rng = random.Random(2026)
    for _ in range(60):
        options = random_options(rng)
        options["end_above"] = rng.choice([100, 150, 200, 300])
        ruleset = preset.with_options(options)
        totals: dict[str, int] = dict.fromkeys(SEATS, 0)
        out: list[str] = []
        for number in range(1, 41):
            entries = dealer.deal_round(
                [player for player in SEATS if player not in out], ruleset, rng
            )
            result = score_round(SEATS, totals, entries, number, ruleset, out=out)
            assert max(result.points.values()) <= ruleset.max_round_points
            for player, reduction in result.reductions.items():
                arrived = result.totals[player] + reduction
                if totals[player] <= ruleset.end_above:
                    assert (arrived, result.totals[player]) in ruleset.reduction_steps
            if result.ends_game:
                break
            totals = dict(result.totals)
            out.extend(result.eliminated)


# --- a flat Assaf penalty (assaf, assaf_penalty) ----------------------------------------------


def test_the_assaf_caller_scores_hand_plus_30_by_default():
    assert ISRAELI.assaf is Assaf.HAND_PLUS and ISRAELI.assaf_penalty == 30
    assert dict(scored(Round(hands(4, 4, 20, 9), yaniv="Ann"), ISRAELI).points) == hands(
        34, 4, 20, 9
    )


@pytest.mark.parametrize("penalty", [25, 30])
@pytest.mark.parametrize("caller_hand", [0, 3, 5])
def test_a_flat_assaf_penalty_is_what_the_caller_scores_whatever_their_hand(penalty, caller_hand):
    ruleset = ISRAELI.with_options({"assaf": "flat", "assaf_penalty": penalty})
    result = scored(Round(hands(caller_hand, 0, 20, 9), yaniv="Ann"), ruleset)
    assert result.kind is RoundKind.ASSAF
    assert dict(result.points) == hands(penalty, 0, 20, 9)


def test_the_assaf_penalty_can_change_the_amount_added_to_the_hand():
    ruleset = WIKIPEDIA_FR.with_options({"assaf_penalty": 20})
    assert scored(Round(hands(6, 2, 20, 9), yaniv="Ann"), ruleset).points["Ann"] == 26


def test_the_assaf_options_change_nothing_where_nobody_is_caught_or_under_the_belgian_rules():
    options = {"assaf": "flat", "assaf_penalty": 25, "assaf_zero": "at_or_below_caller"}
    plain = Round(hands(3, 4, 20, 9), yaniv="Ann")
    assert scored(plain, ISRAELI.with_options(options)).points == scored(plain, ISRAELI).points
    along = Round(hands(3, 3, 20, 9), yaniv="Ann", along=("Bart",))
    assert scored(along, BELGIAN.with_options(options)).points == scored(along, BELGIAN).points


# --- who scores 0 in an Assaf (assaf_zero) --------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "points"),
    [
        # Ann calls with 5: Bart (3) and Chris (5) catch her, Dirk holds 9.
        (ISRAELI, hands(35, 3, 5, 9)),
        (WIKIPEDIA_EN, hands(35, 0, 5, 9)),
        (ISRAELI.with_options({"assaf_zero": "lowest"}), hands(35, 0, 5, 9)),
        (WIKIPEDIA_EN.with_options({"assaf_zero": "nobody"}), hands(35, 3, 5, 9)),
        (WIKIPEDIA_FR.with_options({"assaf_zero": "at_or_below_caller"}), hands(35, 0, 0, 9)),
    ],
    ids=["israeli", "wikipedia_en", "lowest", "nobody", "at_or_below_caller"],
)
def test_who_scores_zero_in_an_assaf(ruleset, points):
    result = scored(Round(hands(5, 3, 5, 9), yaniv="Ann"), ruleset)
    assert result.kind is RoundKind.ASSAF
    assert dict(result.points) == points


def test_the_presets_name_who_scores_zero():
    assert [ruleset.assaf_zero for ruleset in RULESETS.values()] == [
        AssafZero.NOBODY,
        AssafZero.NOBODY,
        AssafZero.LOWEST,
        AssafZero.NOBODY,
    ]
    assert WIKIPEDIA_EN.assaf_lowest_scores_zero and not ISRAELI.assaf_lowest_scores_zero


# --- reducing again after a 0-point round (reduction_needs_points) ---------------------------


def test_a_player_staying_on_a_reducible_total_is_reduced_again_only_with_the_option():
    # Dirk sits on 50 (down from 100) and goes along with 2 against Ann's 4: 0 points.
    entries = Round(hands(4, 9, 9, 2), yaniv="Ann", along=("Dirk",))
    before = hands(10, 20, 30, 50)
    assert scored(entries, BELGIAN, before).totals["Dirk"] == 50
    again = BELGIAN.with_options({"reduction_needs_points": False})
    result = scored(entries, again, before)
    assert (result.points["Dirk"], result.reductions["Dirk"], result.totals["Dirk"]) == (0, 50, 0)


def test_reducing_again_is_still_once_a_round_and_never_below_zero():
    again = BELGIAN.with_options({"reduction_needs_points": False})
    # 100 -> 50 once in the round; a player on 0 with 0 points stays on 0.
    result = scored(
        Round(hands(0, 9, 9, 0), yaniv="Ann", along=("Dirk",)), again, hands(0, 0, 68, 0)
    )
    assert result.totals["Chris"] == 77 and result.totals["Dirk"] == 0 and not result.reductions
    result = scored(
        Round(hands(3, 9, 9, 9), yaniv="Ann", along=("Chris",)), again, hands(0, 0, 68, 0)
    )
    assert (result.reductions["Chris"], result.totals["Chris"]) == (50, 50)


# --- a Yaniv limit that only warns (yaniv_limit_warns) ---------------------------------------


def test_under_the_belgian_rules_a_call_above_a_warning_limit_is_no_false_yaniv():
    ruleset = BELGIAN.with_options({"yaniv_limit_warns": True})
    assert not ruleset.scores_false_yaniv and not ruleset.refuses_above_limit
    entries = Round(hands(9, 7, 12, 30), yaniv="Ann", along=("Bart", "Chris"))
    result = scored(entries, ruleset)
    assert result.kind is RoundKind.YANIV and result.neighbour is None
    assert dict(result.points) == hands(32, 0, 32, 30)
    # Without the option the same call is a false Yaniv: 32 + Bart's 7.
    assert scored(entries, BELGIAN).kind is RoundKind.FALSE_YANIV
    assert Mark.FALSE not in legend(ruleset) and Mark.FALSE in legend(BELGIAN)


@pytest.mark.parametrize("preset", [ISRAELI, WIKIPEDIA_EN, WIKIPEDIA_FR], ids=lambda r: r.name)
def test_under_the_assaf_presets_a_call_above_a_warning_limit_is_compared_as_any_other(preset):
    above = Round(hands(9, 3, 12, 30), yaniv="Ann")
    with pytest.raises(GameError, match="Yaniv needs a hand of"):
        scored(above, preset)
    ruleset = preset.with_options({"yaniv_limit_warns": True})
    caught = scored(above, ruleset)
    assert caught.kind is RoundKind.ASSAF and caught.points["Ann"] == 39
    lowest = scored(Round(hands(9, 10, 12, 30), yaniv="Ann"), ruleset)
    assert lowest.kind is RoundKind.YANIV and lowest.points["Ann"] == 0


def test_a_call_above_a_warning_limit_is_warned_of_in_the_preview():
    ruleset = ISRAELI.with_options({"yaniv_limit_warns": True})
    game = Game(SEATS, (), ruleset)
    preview = round_preview(game, Round(hands(8, 3, 12, 30), yaniv="Ann"))
    assert preview.kind is RoundKind.ASSAF
    assert preview.warnings == (GameWarning("call_above_limit", player="Ann", hand=8, limit=5),)
    assert str(preview.warnings[0]) == (
        "Ann called Yaniv with 8, above the limit of 5: scored as any other call"
    )
    assert preview.warnings[0].code == "call_above_limit"
    assert dict(preview.warnings[0].params) == {"player": "Ann", "hand": 8, "limit": 5}


@pytest.mark.parametrize(
    ("ruleset", "entries"),
    [
        (ISRAELI.with_options({"yaniv_limit_warns": True}), Round(hands(5, 3, 12, 30), "Ann")),
        (
            BELGIAN.with_options({"yaniv_limit_warns": True}),
            Round(hands(0, 3, 12, 30), None, (), "Ann"),
        ),
        # The Belgian false Yaniv is a rule, not a warning: the preview explains its penalty.
        (BELGIAN, Round(hands(9, 3, 12, 30), yaniv="Ann")),
        (ISRAELI, Round(hands(5, 3, 12, 30), yaniv="Ann")),
    ],
    ids=["at the limit", "emptied hand", "belgian false yaniv", "no option"],
)
def test_no_warning_otherwise(ruleset, entries):
    assert round_warnings(entries, ruleset) == ()
    assert round_preview(Game(SEATS, (), ruleset), entries).warnings == ()


# --- options in records ------------------------------------------------------------------------


def test_the_new_options_survive_the_record_round_trip():
    options = {
        "assaf": "flat",
        "assaf_penalty": 25,
        "assaf_zero": "at_or_below_caller",
        "reduction_needs_points": False,
        "yaniv_limit_warns": True,
    }
    ruleset = ISRAELI.with_options(options)
    assert ruleset.options_from(ISRAELI) == options
    game = Game(SEATS, (Round(hands(8, 3, 12, 30), yaniv="Ann"),), ruleset)
    assert game_to_record(game)["options"] == options
    assert game_from_record(game_to_record(game)) == game
    assert list(OPTIONS)[-9:-4] == list(options)


# --- the game ends after a number of deals (deals_per_player) ---------------------------------


def small_round(number: int) -> Round:
    """A round that brings nobody near a limit: a different caller each time, low hands."""
    caller = SEATS[number % len(SEATS)]
    values = dict.fromkeys(SEATS, 5 + number % 3)
    values[caller] = 1
    return Round(values, yaniv=caller)


def test_each_player_dealing_twice_ends_a_game_of_four_after_eight_rounds_ranked_by_totals():
    ruleset = BELGIAN.with_options({"deals_per_player": 2})
    assert ruleset.deal_limit(4) == 8 and ruleset.deal_limit(3) == 6
    seven = score_game(Game(SEATS, tuple(small_round(n) for n in range(1, 8)), ruleset))
    assert seven.finished is False and seven.winners == ()
    eight = score_game(Game(SEATS, tuple(small_round(n) for n in range(1, 9)), ruleset))
    assert eight.finished is True and eight.rounds[-1].ends_game is True
    assert max(eight.totals.values()) <= BELGIAN.end_above
    lowest = min(eight.totals.values())
    assert eight.winners == tuple(p for p in SEATS if eight.totals[p] == lowest)
    assert [placing.total for placing in eight.ranking] == sorted(eight.totals.values())


def test_a_round_after_the_last_deal_is_refused_as_after_any_end():
    ruleset = BELGIAN.with_options({"deals_per_player": 1})
    played = tuple(small_round(n) for n in range(1, 5))
    totals = score_game(Game(SEATS, played, ruleset)).totals
    with pytest.raises(GameError) as refused:
        score_round(SEATS, totals, small_round(5), 5, ruleset)
    assert str(refused.value) == "round 5: the game is already over"
    with pytest.raises(GameError, match="round 5: the game is already over"):
        score_game(Game(SEATS, (*played, small_round(5)), ruleset))


def test_whichever_comes_first_the_end_limit_or_the_last_deal():
    ruleset = BELGIAN.with_options({"deals_per_player": 5, "end_above": 30})
    big = Round(hands(1, 31, 2, 3), yaniv="Ann")
    result = score_game(Game(SEATS, (small_round(1), big), ruleset))
    assert result.finished and len(result.rounds) == 2 and result.winners


def test_no_deal_limit_by_default_and_with_0():
    assert BELGIAN.deals_per_player == 0 and BELGIAN.deal_limit(4) is None
    ruleset = BELGIAN.with_options({"deals_per_player": 0})
    assert ruleset == BELGIAN and ruleset.options_from(BELGIAN) == {}
    result = score_game(Game(SEATS, tuple(small_round(n) for n in range(1, 21)), ruleset))
    assert result.finished is False


def test_under_elimination_the_deals_count_every_seated_player():
    # Bart goes out in round 1; the four seated players still make 4 deals of one each.
    ruleset = ISRAELI.with_options({"deals_per_player": 1, "end_above": 25})
    rounds = (
        Round(hands(2, 30, 9, 9), yaniv="Ann"),
        Round({"Ann": 8, "Chris": 1, "Dirk": 9}, yaniv="Chris"),
        Round({"Ann": 3, "Chris": 4, "Dirk": 0}, empty_hand="Dirk"),
        Round({"Ann": 1, "Chris": 5, "Dirk": 6}, yaniv="Ann"),
    )
    result = score_game(Game(SEATS, rounds, ruleset))
    assert result.finished and result.out_in_round == {"Bart": 1}
    # Still in first, by total; Bart, out, last.
    assert [placing.player for placing in result.ranking][-1] == "Bart"
    assert len(result.winners) == 1


def test_the_deals_option_goes_through_the_game_record():
    ruleset = WIKIPEDIA_FR.with_options({"deals_per_player": 3})
    assert ruleset.options_from(WIKIPEDIA_FR) == {"deals_per_player": 3}
    game = Game(SEATS, (small_round(1),), ruleset)
    assert game_to_record(game)["options"] == {"deals_per_player": 3}
    assert game_from_record(game_to_record(game)) == game


OPTION_VECTORS = option_vector_files()
OPTION_SCORED = [path for path in OPTION_VECTORS if "expected" in load(path)]


def test_the_option_vectors_cover_every_new_house_rule():
    assert {path.parent for path in OPTION_VECTORS} == {
        OPTION_VECTORS_DIR,
        OPTION_VECTORS_DIR / "errors",
        OPTION_VECTORS_DIR / "peers",
    }
    games = [load(path)["game"] for path in OPTION_SCORED]
    used = {name for game in games for name in game.get("options", {})}
    assert used >= {"assaf", "assaf_penalty", "assaf_zero", "reduction_needs_points"}
    assert "yaniv_limit_warns" in used
    assert "deals_per_player" in used
    # Issue 37: every option, and rounds with jokers and players joining.
    assert used == set(OPTIONS) - {"false_yaniv", "one_deck_up_to", "yaniv_limit"}
    rounds = [entry for game in games for entry in game["rounds"]]
    assert any("jokers" in entry for entry in rounds)
    starts = {entry["joins"]["start"] for entry in rounds if "joins" in entry}
    assert {"highest", "average", "zero", 87} <= starts
    assert {game.get("ruleset", "belgian") for game in games} == set(RULESETS)


@pytest.mark.parametrize("path", OPTION_SCORED, ids=vector_id)
def test_an_option_vector_survives_the_record_round_trip_and_prints_as_a_table(path):
    vector = load(path)
    game = game_from_record(vector["game"])
    assert game_from_record(game_to_record(game)) == game
    assert result_to_record(score_game(game)) == vector["expected"]
    out = io.StringIO()
    call_command("score_game", str(path), "--format", "table", stdout=out)
    # A player who joins gets a column after the players seated first.
    joiners = [entry["joins"]["name"] for entry in vector["game"]["rounds"] if "joins" in entry]
    header = ["round", "kind", *vector["game"]["players"], *joiners]
    assert out.getvalue().splitlines()[0].split() == header


# --- the JSON reader (scoring.records.read_json) -----------------------------------------------


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_json_nested_up_to_the_limit_is_read_and_deeper_is_refused():
    assert read_json(nested(JSON_MAX_DEPTH)) == eval(nested(JSON_MAX_DEPTH))  # noqa: S307
    for depth in (JSON_MAX_DEPTH + 1, 2_000, 100_000):
        with pytest.raises(GameError) as error:
            read_json(nested(depth))
        assert str(error.value) == "json: JSON nested more than 64 levels deep"
    with pytest.raises(GameError, match="nested more than 64"):
        read_json('{"options": ' + '{"a": ' * 2_000 + "1" + "}" * 2_001)


def test_numbers_of_more_than_100_digits_are_refused():
    assert read_json("9" * JSON_MAX_DIGITS) == int("9" * JSON_MAX_DIGITS)
    for text in ("9" * 101, '{"yaniv_limit": ' + "9" * 5_000 + "}", "1." + "0" * 200):
        with pytest.raises(GameError) as error:
            read_json(text)
        assert (error.value.code, str(error.value)) == (
            "json_number_too_long",
            "json: a number of more than 100 digits",
        )


def test_brackets_and_digits_inside_strings_do_not_count():
    text = json.dumps({"name": "[" * 500 + "9" * 500 + '"\\', "more": ["]]]"]})
    assert read_json(text) == json.loads(text)


def test_too_large_json_is_refused_before_it_is_read():
    with pytest.raises(GameError, match="json: more than 10 characters of JSON"):
        read_json("[1, 2, 3, 4]", max_chars=10)
    with pytest.raises(GameError, match="more than 10 characters"):
        read_json(b"[" + b"1," * 30 + b"1]", max_chars=10)
    assert read_json("[1, 2, 3]", max_chars=9) == [1, 2, 3]


def test_bytes_are_utf_8_with_or_without_a_byte_order_mark():
    assert read_json('{"é": 1}'.encode()) == {"é": 1}
    assert read_json(b"\xef\xbb\xbf[1]") == [1]
    with pytest.raises(GameError, match="^json: not UTF-8 text$"):
        read_json(b"[\xff]")


def test_invalid_json_names_its_line_and_column():
    with pytest.raises(GameError) as error:
        read_json('{\n  "a": 1,\n  "b": }')
    assert str(error.value) == "json: not valid JSON (line 3, column 8)"
    assert error.value.params == {"line": 3, "column": 8}


def game_file(tmp_path, text: str):
    path = tmp_path / "game.json"
    path.write_text(text, "utf-8")
    return str(path)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '{"players": ["Ann", "Bart"], "options": ' + nested(2_000) + "}",
            "json: JSON nested more than 64 levels deep",
        ),
        (
            '{"players": ["Ann", "Bart"], "options": {"yaniv_limit": ' + "7" * 5_000 + "}}",
            "json: a number of more than 100 digits",
        ),
        ('{"players": ', "json: not valid JSON (line 1, column 13)"),
    ],
    ids=["deep", "long number", "invalid"],
)
def test_score_game_refuses_bad_json_with_a_clear_error(tmp_path, text, message):
    with pytest.raises(CommandError) as error:
        call_command("score_game", game_file(tmp_path, text), stdout=io.StringIO())
    assert str(error.value) == message


def test_score_game_refuses_options_beyond_their_bounds(tmp_path):
    record = {"players": ["Ann", "Bart"], "options": {"reductions": pairs(50_000)}}
    with pytest.raises(CommandError, match="^options: reductions: at most 20 pairs$"):
        call_command("score_game", game_file(tmp_path, json.dumps(record)), stdout=io.StringIO())
