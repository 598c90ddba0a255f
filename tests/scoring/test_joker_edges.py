"""What the engine refuses of a round's jokers, code, entry and numbers (issue 36, mutation
testing of `rules.check_jokers`): jokers held by someone not in the round, a count that is no
whole number or more than a hand holds, a hand too high beside its jokers, more jokers than
the decks have. Each refusal at its edge: the most allowed passes."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.rules import BELGIAN, GameError, Round, check_round

FOUR = ("Ann", "Bart", "Chris", "Dirk")  # one deck (BELGIAN: up to 4 players): 2 jokers
FIVE = (*FOUR, "Eva")  # two decks: 4 jokers


def round_of(players: tuple[str, ...], jokers: dict[str, Any], **hands: int) -> Round:
    return Round({player: hands.get(player, 5) for player in players}, yaniv="Ann", jokers=jokers)


def refusal(players: tuple[str, ...], entries: Round) -> GameError:
    with pytest.raises(GameError) as error:
        check_round(players, entries, 7, BELGIAN)
    return error.value


def described(error: GameError) -> tuple[object, ...]:
    return (error.code, error.field, error.round_number, error.player, dict(error.params))


@pytest.mark.parametrize("held", [-1, BELGIAN.max_jokers + 1, "1", 1.0, True, None])
def test_a_joker_count_that_is_no_whole_number_a_hand_can_hold_is_refused_as_the_jokers_entry(
    held,
):
    error = refusal(FIVE, round_of(FIVE, {"Bart": held}))
    assert described(error) == ("jokers_players", "jokers", 7, None, {"max": 4})


def test_jokers_held_by_someone_not_in_the_round_are_refused_as_the_jokers_entry():
    error = refusal(FOUR, round_of(FOUR, {"Zoe": 1}))
    assert described(error) == ("jokers_players", "jokers", 7, None, {"max": 4})


def test_a_hand_above_what_its_cards_beside_the_jokers_can_make_is_refused_for_its_player():
    # 2 jokers of 5 cards: 3 cards of at most 10.
    error = refusal(FOUR, round_of(FOUR, {"Bart": 2}, Bart=31))
    expected = ("hand_with_jokers", "hands", 7, "Bart", {"max": 30, "jokers": 2, "player": "Bart"})
    assert described(error) == expected
    check_round(FOUR, round_of(FOUR, {"Bart": 2}, Bart=30), 7, BELGIAN)


def test_a_player_may_hold_as_many_jokers_as_a_hand_holds_when_the_decks_have_them():
    check_round(FIVE, round_of(FIVE, {"Bart": 4}, Bart=10), 7, BELGIAN)
    check_round(FIVE, round_of(FIVE, {"Bart": 0}), 7, BELGIAN)


def test_more_jokers_in_a_round_than_its_decks_have_are_refused_as_the_jokers_entry():
    one_deck = refusal(FOUR, round_of(FOUR, {"Bart": 2, "Chris": 1}))
    assert described(one_deck) == ("jokers_count", "jokers", 7, None, {"most": 2})
    check_round(FOUR, round_of(FOUR, {"Bart": 1, "Chris": 1}), 7, BELGIAN)
    two_decks = refusal(FIVE, round_of(FIVE, {"Bart": 2, "Chris": 2, "Dirk": 1}))
    assert described(two_decks) == ("jokers_count", "jokers", 7, None, {"most": 4})
    check_round(FIVE, round_of(FIVE, {"Bart": 2, "Chris": 2}), 7, BELGIAN)
