"""The presets of docs/rules.md ("The other presets"), one behaviour per test (no database)."""

from __future__ import annotations

import pytest

from scoring.records import game_from_record, game_to_record, result_to_record
from scoring.rules import (
    BELGIAN,
    ISRAELI,
    RULESETS,
    WIKIPEDIA_EN,
    WIKIPEDIA_FR,
    Challenge,
    End,
    Game,
    GameError,
    Round,
    RoundKind,
    Ruleset,
    check_round,
    round_kind,
    score_game,
    score_round,
)

SEATS = ("Ann", "Bart", "Chris")
ASSAF_PRESETS = (ISRAELI, WIKIPEDIA_EN, WIKIPEDIA_FR)


def hands(ann: int, bart: int, chris: int) -> dict[str, int]:
    return {"Ann": ann, "Bart": bart, "Chris": chris}


def scored(entries: Round, ruleset: Ruleset, totals=None, number: int = 1):
    return score_round(SEATS, totals or dict.fromkeys(SEATS, 0), entries, number, ruleset)


# --- the presets, named once --------------------------------------------------


def test_the_presets_are_named_once():
    assert list(RULESETS) == ["belgian", "israeli", "wikipedia_en", "wikipedia_fr"]
    assert all(ruleset.name == name for name, ruleset in RULESETS.items())
    assert RULESETS["belgian"] is BELGIAN


def test_belgian_keeps_every_number_the_site_shows():
    assert BELGIAN.yaniv_limit == 5
    assert BELGIAN.along_penalty == 32
    assert BELGIAN.false_yaniv_penalty == 32
    assert BELGIAN.reduction_totals == (50, 100, 150)
    assert BELGIAN.reduction == 50
    assert BELGIAN.end_above == 150
    assert BELGIAN.max_hand == 50
    assert (BELGIAN.min_players, BELGIAN.max_players, BELGIAN.one_deck_up_to) == (2, 8, 4)
    assert BELGIAN.challenge is Challenge.ALONG and BELGIAN.scores_false_yaniv
    assert BELGIAN.end is End.GAME_OVER
    assert BELGIAN.with_options({}) == BELGIAN


@pytest.mark.parametrize(
    ("ruleset", "limit", "steps", "end", "end_above"),
    [
        (BELGIAN, 5, ((50, 0), (100, 50), (150, 100)), End.GAME_OVER, 150),
        (ISRAELI, 5, ((100, 50), (200, 100)), End.ELIMINATION, 200),
        # Every multiple of 50 a round can reach from 200: a hand of 50 takes 200 to 250.
        (
            WIKIPEDIA_EN,
            7,
            ((50, 0), (100, 50), (150, 100), (200, 150), (250, 200)),
            End.GAME_OVER,
            200,
        ),
        (WIKIPEDIA_FR, 7, ((100, 50), (200, 150)), End.GAME_OVER, 200),
    ],
    ids=lambda value: value.name if isinstance(value, Ruleset) else None,
)
def test_each_preset_has_the_numbers_of_its_text(ruleset, limit, steps, end, end_above):
    assert ruleset.yaniv_limit == limit
    assert ruleset.reduction_steps == steps
    assert ruleset.reduction_totals == tuple(total for total, _ in steps)
    assert (ruleset.end, ruleset.end_above) == (end, end_above)


def test_reduction_is_one_amount_only_when_every_step_takes_the_same_off():
    assert WIKIPEDIA_EN.reduction == 50
    assert WIKIPEDIA_FR.reduction == 50
    # 100 -> 50 takes 50 off, 200 -> 100 takes 100.
    assert ISRAELI.reduction is None


# --- automatic Assaf ------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ASSAF_PRESETS, ids=lambda ruleset: ruleset.name)
def test_a_caller_with_the_strictly_lowest_hand_scores_zero(ruleset):
    result = scored(Round(hands(3, 4, 20), yaniv="Ann"), ruleset)
    assert result.kind is RoundKind.YANIV
    assert dict(result.points) == hands(0, 4, 20)


@pytest.mark.parametrize("ruleset", (ISRAELI, WIKIPEDIA_FR), ids=lambda ruleset: ruleset.name)
def test_an_equal_hand_is_an_assaf_the_caller_adds_own_hand_plus_30(ruleset):
    result = scored(Round(hands(4, 4, 20), yaniv="Ann"), ruleset)
    assert result.kind is RoundKind.ASSAF
    assert dict(result.points) == hands(34, 4, 20)


def test_the_30_is_added_once_however_many_challengers_have_fewer():
    result = scored(Round(hands(5, 1, 2), yaniv="Ann"), ISRAELI)
    assert dict(result.points) == hands(35, 1, 2)


def test_under_wikipedia_en_the_lowest_challenger_scores_zero():
    result = scored(Round(hands(6, 2, 4), yaniv="Ann"), WIKIPEDIA_EN)
    assert result.kind is RoundKind.ASSAF
    assert dict(result.points) == hands(36, 0, 4)


def test_under_wikipedia_en_challengers_tied_for_the_lowest_all_score_zero():
    result = scored(Round(hands(6, 4, 4), yaniv="Ann"), WIKIPEDIA_EN)
    assert dict(result.points) == hands(36, 0, 0)


@pytest.mark.parametrize("ruleset", ASSAF_PRESETS, ids=lambda ruleset: ruleset.name)
def test_an_emptied_hand_scores_as_in_the_belgian_rules(ruleset):
    result = scored(Round(hands(9, 0, 0), empty_hand="Bart"), ruleset)
    assert result.kind is RoundKind.EMPTY_HAND
    assert dict(result.points) == hands(9, 0, 0)


@pytest.mark.parametrize("ruleset", ASSAF_PRESETS, ids=lambda ruleset: ruleset.name)
def test_a_call_above_the_limit_is_refused_not_a_false_yaniv(ruleset):
    limit = ruleset.yaniv_limit
    with pytest.raises(GameError) as refused:
        scored(Round(hands(limit + 1, 9, 9), yaniv="Ann"), ruleset, number=3)
    assert str(refused.value) == f"round 3: Yaniv needs a hand of {limit} or less"
    assert (refused.value.field, refused.value.player) == ("yaniv", "Ann")
    assert scored(Round(hands(limit, 9, 9), yaniv="Ann"), ruleset).kind is RoundKind.YANIV


@pytest.mark.parametrize("ruleset", ASSAF_PRESETS, ids=lambda ruleset: ruleset.name)
def test_nobody_goes_along_under_automatic_assaf(ruleset):
    with pytest.raises(GameError) as refused:
        check_round(SEATS, Round(hands(3, 2, 9), yaniv="Ann", along=("Bart",)), 2, ruleset)
    assert str(refused.value) == f"round 2: nobody goes along under the {ruleset.name} rules"
    assert refused.value.field == "along"


def test_round_kind_tells_an_assaf_from_a_yaniv():
    assert round_kind(Round(hands(5, 5, 9), yaniv="Ann"), WIKIPEDIA_FR) is RoundKind.ASSAF
    assert round_kind(Round(hands(5, 6, 9), yaniv="Ann"), WIKIPEDIA_FR) is RoundKind.YANIV
    assert round_kind(Round(hands(5, 5, 9), yaniv="Ann"), BELGIAN) is RoundKind.YANIV


# --- reductions -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "before", "points", "after"),
    [
        (ISRAELI, 90, 10, 50),
        (ISRAELI, 190, 10, 100),
        (ISRAELI, 40, 10, 50),
        (ISRAELI, 140, 10, 150),
        (WIKIPEDIA_EN, 40, 10, 0),
        (WIKIPEDIA_EN, 90, 10, 50),
        (WIKIPEDIA_EN, 140, 10, 100),
        (WIKIPEDIA_EN, 190, 10, 150),
        (WIKIPEDIA_EN, 41, 10, 51),
        (WIKIPEDIA_FR, 90, 10, 50),
        (WIKIPEDIA_FR, 190, 10, 150),
        (WIKIPEDIA_FR, 40, 10, 50),
        (WIKIPEDIA_FR, 140, 10, 150),
    ],
)
def test_each_preset_reduces_by_its_own_table_once(ruleset, before, points, after):
    result = scored(Round(hands(0, points, 30), yaniv="Ann"), ruleset, hands(0, before, 0))
    assert result.totals["Bart"] == after
    reduction = before + points - after
    assert dict(result.reductions) == ({"Bart": reduction} if reduction else {})


@pytest.mark.parametrize("ruleset", ASSAF_PRESETS, ids=lambda ruleset: ruleset.name)
def test_a_preset_reduction_needs_points(ruleset):
    result = scored(Round(hands(0, 9, 9), yaniv="Ann"), ruleset, hands(100, 0, 0))
    assert result.totals["Ann"] == 100
    assert dict(result.reductions) == {}


def test_an_assaf_can_land_on_a_reduction():
    result = scored(Round(hands(5, 5, 20), yaniv="Ann"), WIKIPEDIA_FR, hands(65, 0, 0))
    assert result.totals["Ann"] == 50
    assert dict(result.reductions) == {"Ann": 50}


# --- the end ----------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", (WIKIPEDIA_EN, WIKIPEDIA_FR), ids=lambda r: r.name)
def test_going_above_200_ends_the_game_and_200_does_not(ruleset):
    above = scored(Round(hands(0, 11, 9), yaniv="Ann"), ruleset, hands(0, 190, 0))
    assert above.totals["Bart"] == 201 and above.ends_game
    exactly = scored(Round(hands(0, 10, 9), yaniv="Ann"), ruleset, hands(0, 190, 0))
    assert exactly.totals["Bart"] == 150 and not exactly.ends_game
    assert above.eliminated == exactly.eliminated == ()


def give(points: dict[str, int], caller: str) -> Round:
    """A round where the caller holds 0 and everyone else the given points."""
    return Round({**points, caller: 0}, yaniv=caller)


# Ann, Bart, Chris under israeli: Chris goes out in round 5 on 201; Ann and Bart
# both arrive on 204 in round 10 and stay in; Bart wins in round 11.
TIE_GAME = (
    give({"Bart": 49, "Chris": 49}, "Ann"),
    give({"Bart": 49, "Chris": 49}, "Ann"),
    give({"Bart": 49, "Chris": 49}, "Ann"),
    give({"Bart": 49, "Chris": 49}, "Ann"),
    give({"Bart": 3, "Chris": 5}, "Ann"),
    give({"Ann": 49}, "Bart"),
    give({"Ann": 49}, "Bart"),
    give({"Ann": 49}, "Bart"),
    give({"Ann": 22}, "Bart"),
    Round({"Ann": 5, "Bart": 5}, yaniv="Ann"),
    give({"Ann": 3}, "Bart"),
)


def test_a_player_above_200_is_out_and_has_no_hand_later():
    result = score_game(Game(SEATS, TIE_GAME[:6], ISRAELI))
    assert [scored.eliminated for scored in result.rounds] == [(), (), (), (), ("Chris",), ()]
    assert dict(result.out_in_round) == {"Chris": 5}
    assert set(result.rounds[5].points) == {"Ann", "Bart"}
    assert result.rounds[5].totals["Chris"] == 201
    assert not result.finished


def test_an_eliminated_players_hand_is_refused():
    late = Round({"Ann": 0, "Bart": 9, "Chris": 9}, yaniv="Ann")
    with pytest.raises(GameError) as refused:
        score_game(Game(SEATS, (*TIE_GAME[:5], late), ISRAELI))
    assert str(refused.value) == (
        "round 6: hands must name every player still in the game exactly once"
    )


def test_players_tied_on_the_lowest_total_above_200_all_stay_in_and_play_on():
    result = score_game(Game(SEATS, TIE_GAME[:10], ISRAELI))
    last = result.rounds[-1]
    assert last.kind is RoundKind.ASSAF
    assert dict(last.totals) == {"Ann": 204, "Bart": 204, "Chris": 201}
    assert last.eliminated == () and not last.ends_game
    assert not result.finished and result.winners == ()
    # Still in first, though Chris's total is lower.
    assert [(p.player, p.rank) for p in result.ranking] == [("Ann", 1), ("Bart", 1), ("Chris", 3)]


def test_the_last_player_left_wins_and_the_later_a_player_went_out_the_better():
    result = score_game(Game(SEATS, TIE_GAME, ISRAELI))
    assert result.rounds[-1].eliminated == ("Ann",) and result.rounds[-1].ends_game
    assert result.finished and result.winners == ("Bart",)
    assert [(p.player, p.rank, p.total) for p in result.ranking] == [
        ("Bart", 1, 204),
        ("Ann", 2, 207),
        ("Chris", 3, 201),
    ]
    record = result_to_record(result)
    assert [scored["eliminated"] for scored in record["rounds"]][-7:] == [
        ["Chris"],
        [],
        [],
        [],
        [],
        [],
        ["Ann"],
    ]


def test_a_round_after_the_last_player_is_left_is_refused():
    with pytest.raises(GameError, match="round 12: the game is already over"):
        score_game(Game(SEATS, (*TIE_GAME, give({"Bart": 3}, "Bart")), ISRAELI))


def test_score_round_takes_the_players_already_out():
    totals = {"Ann": 100, "Bart": 150, "Chris": 230}
    entries = Round({"Ann": 0, "Bart": 9}, yaniv="Ann")
    result = score_round(SEATS, totals, entries, 7, ISRAELI, out=("Chris",))
    assert dict(result.points) == {"Ann": 0, "Bart": 9}
    assert dict(result.totals) == {"Ann": 100, "Bart": 159, "Chris": 230}
    with pytest.raises(GameError, match="hands must name every player still in"):
        score_round(SEATS, totals, entries, 7, ISRAELI)


def test_a_false_yaniv_under_elimination_takes_the_next_seat_still_in():
    ruleset = BELGIAN.with_options({"end": "elimination", "end_above": 200})
    entries = Round({"Ann": 8, "Chris": 14}, yaniv="Ann")
    result = score_round(SEATS, hands(0, 210, 0), entries, 4, ruleset, out=("Bart",))
    assert result.neighbour == "Chris"
    assert result.points["Ann"] == 32 + 14


def test_only_israeli_results_list_eliminated_players():
    game = Game(SEATS, (give({"Bart": 4, "Chris": 5}, "Ann"),), WIKIPEDIA_EN)
    assert "eliminated" not in result_to_record(score_game(game))["rounds"][0]
    game = Game(SEATS, (give({"Bart": 4, "Chris": 5}, "Ann"),), ISRAELI)
    assert result_to_record(score_game(game))["rounds"][0]["eliminated"] == []


# --- records and options ----------------------------------------------------------


def test_an_unknown_ruleset_is_refused_naming_it():
    for name in ("moon", 7, ["israeli"]):
        with pytest.raises(GameError) as refused:
            game_from_record({"ruleset": name, "players": list(SEATS)})
        assert str(refused.value) == f"ruleset: unknown {name}"


def test_a_record_names_its_preset():
    game = game_from_record({"ruleset": "wikipedia_fr", "players": list(SEATS), "rounds": []})
    assert game.ruleset == WIKIPEDIA_FR
    assert game_to_record(game) == {
        "ruleset": "wikipedia_fr",
        "players": list(SEATS),
        "rounds": [],
    }


def test_board_game_arena_table_options_can_be_expressed():
    # 3 cards dealt, Yaniv at 7 or less, 50 halved to 25, out above 100, always two decks.
    options = {
        "cards_dealt": 3,
        "yaniv_limit": 7,
        "reductions": [[50, 25]],
        "end_above": 100,
        "one_deck_up_to": 1,
    }
    ruleset = ISRAELI.with_options(options)
    assert ruleset.max_hand == 30 and ruleset.yaniv_limit == 7
    assert ruleset.reduction_steps == ((50, 25),)
    assert ruleset.eliminates and ruleset.end_above == 100 and ruleset.decks(2) == 2
    assert ruleset.options_from(ISRAELI) == options
    result = score_round(
        SEATS, hands(0, 40, 0), give({"Bart": 10, "Chris": 30}, "Ann"), 1, ruleset
    )
    assert result.totals["Bart"] == 25
    with pytest.raises(GameError, match="hand of Chris must be an integer 0-30"):
        score_round(SEATS, hands(0, 0, 0), give({"Bart": 10, "Chris": 31}, "Ann"), 1, ruleset)


def test_multiples_of_a_total_can_be_reduced_on_top_of_the_table():
    ruleset = BELGIAN.with_options({"reductions": [], "reduce_multiples": [100, 50]})
    # Up to the highest total a round can reach from 150: a caller with 7 along scores 224.
    assert ruleset.reduction_steps == ((100, 50), (200, 150), (300, 250))
    assert WIKIPEDIA_EN.with_options({"reduce_multiples": None}).reduction_steps == ()


def test_options_survive_the_record_round_trip():
    ruleset = WIKIPEDIA_FR.with_options({"end": "elimination", "reductions": [[200, 100]]})
    game = Game(SEATS, (give({"Bart": 4, "Chris": 5}, "Ann"),), ruleset)
    record = game_to_record(game)
    assert record["options"] == {"reductions": [[200, 100]], "end": "elimination"}
    assert game_from_record(record) == game


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"limit": 7}, "options: unknown option 'limit'"),
        ({"yaniv_limit": "7"}, "options: yaniv_limit must be a whole number from 0 to 91"),
        ({"yaniv_limit": True}, "options: yaniv_limit must be a whole number from 0 to 91"),
        ({"cards_dealt": 3, "yaniv_limit": 31}, "options: yaniv_limit must be at most"),
        ({"end": "sudden_death"}, "options: end must be one of game_over, elimination"),
        ({"reductions": {"100": 50}}, "options: reductions must be a list"),
        ({"reductions": [[100, 150]]}, "options: reductions: a total must become a smaller"),
        ({"reductions": [[100, 50], [100, 0]]}, "options: reductions: each total once"),
        ({"reductions": [[100]]}, "options: reductions needs pairs of whole numbers"),
        ({"reduce_multiples": [50, 60]}, "options: reduce_multiples: \\[every, minus\\]"),
        ({"end_above": 0}, "options: end_above must be a whole number from 1"),
    ],
)
def test_bad_options_are_refused(options, message):
    with pytest.raises(GameError, match=f"^{message}"):
        BELGIAN.with_options(options)
