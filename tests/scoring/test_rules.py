"""The rules of docs/rules.md, one behaviour per test (no database)."""

from __future__ import annotations

import dataclasses

import pytest

from scoring.rules import (
    BELGIAN,
    FalseYaniv,
    Game,
    GameError,
    Round,
    RoundKind,
    Ruleset,
    left_neighbour,
    rank,
    score_game,
    score_round,
)

SEATS = ("Ann", "Bart", "Chris", "Dirk")


def hands(ann: int, bart: int, chris: int, dirk: int) -> dict[str, int]:
    return {"Ann": ann, "Bart": bart, "Chris": chris, "Dirk": dirk}


def points_of(entries: Round, ruleset: Ruleset = BELGIAN, totals=None) -> dict[str, int]:
    result = score_round(SEATS, totals or dict.fromkeys(SEATS, 0), entries, 1, ruleset)
    return dict(result.points)


def test_players_who_do_not_go_along_add_their_hand():
    entries = Round(hands(3, 12, 7, 20), yaniv="Ann")
    assert points_of(entries) == hands(0, 12, 7, 20)


def test_along_player_with_fewer_or_equal_points_costs_the_caller_32():
    entries = Round(hands(4, 15, 4, 9), yaniv="Ann", along=("Chris", "Dirk"))
    assert points_of(entries) == hands(32, 15, 0, 32)


def test_caller_gets_32_for_every_along_player_at_or_below_them():
    entries = Round(hands(5, 3, 5, 11), yaniv="Ann", along=("Bart", "Chris"))
    assert points_of(entries) == hands(64, 0, 0, 11)


def test_caller_never_adds_their_own_hand():
    entries = Round(hands(5, 30, 30, 30), yaniv="Ann", along=("Bart",))
    assert points_of(entries)["Ann"] == 0


def test_false_yaniv_costs_32_plus_the_left_neighbours_hand_and_others_score_zero():
    entries = Round(hands(6, 2, 8, 14), yaniv="Chris", along=("Ann",))
    result = score_round(SEATS, dict.fromkeys(SEATS, 0), entries, 1)
    assert result.kind is RoundKind.FALSE_YANIV
    assert result.neighbour == "Dirk"
    assert dict(result.points) == hands(0, 0, 46, 0)


def test_false_yaniv_with_others_score_hand_gives_everyone_else_their_hand():
    ruleset = dataclasses.replace(BELGIAN, false_yaniv=FalseYaniv.OTHERS_SCORE_HAND)
    entries = Round(hands(6, 2, 8, 14), yaniv="Chris")
    assert points_of(entries, ruleset) == hands(6, 2, 46, 14)


def test_the_last_seats_left_neighbour_is_seat_one():
    assert left_neighbour(SEATS, "Dirk") == "Ann"
    assert left_neighbour(SEATS, "Ann") == "Bart"


def test_a_call_at_exactly_the_limit_is_a_valid_yaniv():
    result = score_round(SEATS, dict.fromkeys(SEATS, 0), Round(hands(5, 9, 9, 9), yaniv="Ann"), 1)
    assert result.kind is RoundKind.YANIV


def test_an_emptied_hand_scores_everyone_their_hand():
    entries = Round(hands(9, 0, 0, 3), empty_hand="Bart")
    assert points_of(entries) == hands(9, 0, 0, 3)


@pytest.mark.parametrize(
    ("before", "points", "after", "reduction"),
    [(38, 12, 0, 50), (118, 32, 100, 50), (90, 10, 50, 50), (40, 12, 52, 0)],
)
def test_landing_exactly_on_50_100_or_150_takes_50_off_once(before, points, after, reduction):
    totals = hands(0, before, 0, 0)
    entries = Round(hands(0, points, 0, 0), yaniv="Ann")
    result = score_round(SEATS, totals, entries, 1)
    assert result.totals["Bart"] == after
    assert dict(result.reductions) == ({"Bart": reduction} if reduction else {})


def test_staying_on_50_with_zero_points_is_not_reduced_again():
    result = score_round(SEATS, hands(50, 0, 0, 0), Round(hands(0, 9, 9, 9), yaniv="Ann"), 1)
    assert result.totals["Ann"] == 50
    assert dict(result.reductions) == {}


def test_a_false_yaniv_penalty_can_land_on_a_reduction():
    # 18 + 32 + neighbour's 0 = 50 → 0: why the neighbour's hand is added.
    result = score_round(SEATS, hands(18, 0, 0, 0), Round(hands(7, 0, 9, 9), yaniv="Ann"), 1)
    assert result.totals["Ann"] == 0
    assert dict(result.reductions) == {"Ann": 50}


def test_going_above_150_ends_the_game():
    entries = Round(hands(0, 9, 9, 15), yaniv="Ann")
    result = score_round(SEATS, hands(10, 20, 30, 140), entries, 7)
    assert result.totals["Dirk"] == 155
    assert result.ends_game is True


def test_exactly_150_is_reduced_and_does_not_end_the_game():
    result = score_round(SEATS, hands(0, 0, 0, 140), Round(hands(0, 1, 1, 10), yaniv="Ann"), 1)
    assert result.totals["Dirk"] == 100
    assert result.ends_game is False


def test_a_finished_game_names_every_player_on_the_lowest_total_a_winner():
    rounds = (
        Round(hands(2, 4, 45, 45), yaniv="Ann"),
        Round(hands(4, 1, 45, 45), yaniv="Bart"),
        Round(hands(0, 0, 45, 45), yaniv="Ann"),
        Round(hands(0, 0, 20, 20), yaniv="Ann"),
    )
    result = score_game(Game(SEATS, rounds))
    assert dict(result.totals) == hands(4, 4, 155, 155)
    assert result.finished is True
    assert result.winners == ("Ann", "Bart")
    assert [(p.player, p.rank) for p in result.ranking] == [
        ("Ann", 1),
        ("Bart", 1),
        ("Chris", 3),
        ("Dirk", 3),
    ]


def test_equal_totals_share_a_rank_and_the_next_rank_is_skipped():
    ranking = rank(SEATS, hands(10, 5, 5, 20))
    assert [(p.player, p.rank) for p in ranking] == [
        ("Bart", 1),
        ("Chris", 1),
        ("Ann", 3),
        ("Dirk", 4),
    ]


def test_an_unfinished_game_has_no_winners():
    result = score_game(Game(SEATS, (Round(hands(0, 9, 9, 9), yaniv="Ann"),)))
    assert result.finished is False
    assert result.winners == ()


def test_a_game_with_no_rounds_ranks_everyone_first():
    result = score_game(Game(SEATS))
    assert {placing.rank for placing in result.ranking} == {1}


def test_decks_are_one_up_to_four_players_and_two_from_five():
    assert [BELGIAN.decks(n) for n in range(2, 9)] == [1, 1, 1, 2, 2, 2, 2]


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        (
            Round(hands(3, 12, 7, 20), yaniv="Ann", empty_hand="Ann"),
            "round 4: exactly one of yaniv / empty_hand",
        ),
        (Round(hands(3, 12, 7, 20)), "round 4: exactly one of yaniv / empty_hand"),
        (
            Round(hands(3, 12, 7, 20), yaniv="Ann", along=("Ann",)),
            "round 4: the caller cannot go along",
        ),
        (
            Round(hands(3, 12, 7, 20), yaniv="Ann", along=("Bart", "Bart")),
            "round 4: along must list players in the game once",
        ),
        (
            Round(hands(3, 12, 7, 20), yaniv="Eve"),
            "round 4: yaniv must name a player in the game",
        ),
        (
            Round(hands(3, 12, 7, 20), empty_hand="Bart"),
            "round 4: an emptied hand is 0",
        ),
        (
            Round(hands(3, 0, 7, 20), empty_hand="Bart", along=("Ann",)),
            "round 4: nobody can go along when a hand was emptied",
        ),
        (
            Round(hands(3, 12, 7, True), yaniv="Ann"),
            "round 4: hand of Dirk must be an integer 0-50",
        ),
        (
            Round({"Ann": 3, "Bart": 12, "Chris": 7}, yaniv="Ann"),
            "round 4: hands must name every player still in the game exactly once",
        ),
    ],
)
def test_bad_round_entries_are_refused_naming_the_round(entries, message):
    with pytest.raises(GameError) as refused:
        score_round(SEATS, dict.fromkeys(SEATS, 0), entries, 4)
    assert str(refused.value) == message
    assert refused.value.round_number == 4


def test_a_bad_hand_error_names_the_player_for_the_form_field():
    with pytest.raises(GameError) as refused:
        score_round(SEATS, dict.fromkeys(SEATS, 0), Round(hands(3, 51, 7, 9), yaniv="Ann"), 2)
    assert (refused.value.field, refused.value.player) == ("hands", "Bart")


def test_a_round_after_the_end_is_refused():
    with pytest.raises(GameError, match="round 9: the game is already over"):
        score_round(SEATS, hands(0, 0, 0, 151), Round(hands(0, 1, 1, 1), yaniv="Ann"), 9)


def test_results_cannot_be_changed():
    result = score_game(Game(SEATS, (Round(hands(0, 9, 9, 9), yaniv="Ann"),)))
    with pytest.raises(TypeError):
        result.totals["Ann"] = 99  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.finished = True  # type: ignore[misc]


def test_unknown_options_are_refused():
    with pytest.raises(GameError, match="options: unknown option 'limit'"):
        BELGIAN.with_options({"limit": 7})
