"""The vectors of issue 37's house rules, scored by hand: each case holds the game and the
figures worked out on paper (a round's points, reductions, bonuses, who joined on what, the
totals). The vector file under tests/vectors/options/ must hold the same game, and the engine's
result (which the file holds in full) must show every figure; a refused game, the same error.

The worked examples of docs/rules.md ("Seven cards ... a player joining") are these games.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from scoring.records import game_from_record, result_to_record
from scoring.rules import GameError, score_game
from tests.scoring.vectors import OPTION_VECTORS_DIR, load

CASES: list[tuple[str, dict[str, Any], dict[Any, Any] | None, str | None]] = []


def case(
    name: str,
    game: dict[str, Any],
    hand: dict[Any, Any] | None = None,
    error: str | None = None,
    folder: str = "",
) -> None:
    CASES.append((f"{folder}/{name}" if folder else name, game, hand, error))


P3 = ["Ann", "Bart", "Chris"]
P4 = ["Ann", "Bart", "Chris", "Dirk"]

# cards_dealt 7: hands up to 70.
case(
    "cards_dealt_seven",
    {
        "options": {"cards_dealt": 7},
        "players": P3,
        "rounds": [
            {"hands": {"Ann": 3, "Bart": 70, "Chris": 45}, "yaniv": "Ann"},
            {"hands": {"Ann": 4, "Bart": 2, "Chris": 30}, "yaniv": "Ann", "along": ["Bart"]},
        ],
    },
    {
        1: {"points": {"Ann": 0, "Bart": 70, "Chris": 45}},
        2: {
            "points": {"Ann": 32, "Bart": 0, "Chris": 30},
            "totals": {"Ann": 32, "Bart": 70, "Chris": 75},
        },
    },
)
case(
    "hand_above_seven_cards",
    {
        "options": {"cards_dealt": 7},
        "players": P3,
        "rounds": [{"hands": {"Ann": 3, "Bart": 71, "Chris": 45}, "yaniv": "Ann"}],
    },
    error="round 1: hand of Bart must be an integer 0-70",
    folder="errors",
)
case(
    "cards_dealt_eight",
    {"options": {"cards_dealt": 8}, "players": P3, "rounds": []},
    error="options: cards_dealt must be a whole number from 1 to 7",
    folder="errors",
)

# face values 11-12-13: five kings are 65.
case(
    "face_values_11_12_13",
    {
        "options": {"face_values": "11-12-13"},
        "players": P3,
        "rounds": [
            {"hands": {"Ann": 5, "Bart": 65, "Chris": 12}, "yaniv": "Ann"},
        ],
    },
    {
        1: {"points": {"Ann": 0, "Bart": 65, "Chris": 12}},
        "totals": {"Ann": 0, "Bart": 65, "Chris": 12},
    },
)
case(
    "face_values_seven_cards_91",
    {
        "ruleset": "wikipedia_en",
        "options": {"face_values": "11-12-13", "cards_dealt": 7},
        "players": P3,
        "rounds": [
            {"hands": {"Ann": 6, "Bart": 91, "Chris": 7}, "yaniv": "Ann"},
        ],
    },
    {1: {"kind": "yaniv", "points": {"Ann": 0, "Bart": 91, "Chris": 7}}},
)
case(
    "hand_above_thirteen_times_cards",
    {
        "options": {"face_values": "11-12-13", "cards_dealt": 7},
        "players": P3,
        "rounds": [{"hands": {"Ann": 3, "Bart": 92, "Chris": 45}, "yaniv": "Ann"}],
    },
    error="round 1: hand of Bart must be an integer 0-91",
    folder="errors",
)
case(
    "face_values_unknown",
    {"options": {"face_values": "J-Q-K"}, "players": P3},
    error="options: face_values must be one of 10, 11-12-13",
    folder="errors",
)

# a joker held costs 25 (not the caller's).
case(
    "joker_held_25",
    {
        "ruleset": "israeli",
        "options": {"joker_held": 25},
        "players": P3,
        "rounds": [
            {"hands": {"Ann": 3, "Bart": 10, "Chris": 8}, "yaniv": "Ann", "jokers": {"Bart": 1}},
            {"hands": {"Ann": 6, "Bart": 2, "Chris": 2}, "yaniv": "Bart", "jokers": {"Bart": 1}},
        ],
    },
    {
        1: {"points": {"Ann": 0, "Bart": 35, "Chris": 8}},
        2: {"kind": "assaf", "points": {"Ann": 6, "Bart": 32, "Chris": 2}},
        "totals": {"Ann": 6, "Bart": 67, "Chris": 10},
    },
)
# a joker is worth -5: a call with 9 and a joker counts 4; totals can go below 0.
case(
    "joker_value_minus_5",
    {
        "ruleset": "wikipedia_fr",
        "options": {"joker_value": -5},
        "players": P3,
        "rounds": [
            {"hands": {"Ann": 9, "Bart": 5, "Chris": 9}, "yaniv": "Ann", "jokers": {"Ann": 1}},
            {"hands": {"Ann": 12, "Bart": 3, "Chris": 0}, "yaniv": "Bart", "jokers": {"Chris": 1}},
            {"hands": {"Ann": 1, "Bart": 10, "Chris": 0}, "yaniv": "Ann", "jokers": {"Chris": 2}},
        ],
    },
    {
        1: {"kind": "yaniv", "points": {"Ann": 0, "Bart": 5, "Chris": 9}},
        2: {
            "kind": "assaf",
            "points": {"Ann": 12, "Bart": 33, "Chris": -5},
            "totals": {"Ann": 12, "Bart": 38, "Chris": 4},
        },
        3: {"kind": "assaf", "points": {"Ann": 31, "Bart": 10, "Chris": -10}},
        "totals": {"Ann": 43, "Bart": 48, "Chris": -6},
    },
)
case(
    "jokers_leave_no_room",
    {
        "options": {"joker_held": 10},
        "players": P3,
        "rounds": [
            {"hands": {"Ann": 3, "Bart": 45, "Chris": 8}, "yaniv": "Ann", "jokers": {"Bart": 1}}
        ],
    },
    error="round 1: hand of Bart must be an integer 0-40 beside 1 joker(s)",
    folder="errors",
)
case(
    "too_many_jokers",
    {
        "options": {"joker_held": 10},
        "players": P3,
        "rounds": [
            {
                "hands": {"Ann": 3, "Bart": 20, "Chris": 8},
                "yaniv": "Ann",
                "jokers": {"Bart": 2, "Chris": 1},
            }
        ],
    },
    error="round 1: at most 2 jokers in a round (2 a deck)",
    folder="errors",
)
case(
    "joker_value_positive",
    {"options": {"joker_value": 5}, "players": P3},
    error="options: joker_value must be a whole number from -50 to 0",
    folder="errors",
)

# Assaf per challenger: +30 each, or +30 and +20 for each other.
case(
    "assaf_per_challenger",
    {
        "ruleset": "wikipedia_fr",
        "options": {"assaf": "per_challenger"},
        "players": P4,
        "rounds": [
            {"hands": {"Ann": 5, "Bart": 3, "Chris": 5, "Dirk": 9}, "yaniv": "Ann"},
        ],
    },
    {1: {"kind": "assaf", "points": {"Ann": 65, "Bart": 3, "Chris": 5, "Dirk": 9}}},
)
case(
    "assaf_per_challenger_extra_20",
    {
        "ruleset": "wikipedia_fr",
        "options": {"assaf": "per_challenger", "assaf_extra": 20},
        "players": P4,
        "rounds": [
            {"hands": {"Ann": 5, "Bart": 3, "Chris": 5, "Dirk": 4}, "yaniv": "Ann"},
            {"hands": {"Ann": 10, "Bart": 6, "Chris": 4, "Dirk": 20}, "yaniv": "Bart"},
        ],
    },
    {
        1: {"points": {"Ann": 5 + 30 + 20 + 20, "Bart": 3, "Chris": 5, "Dirk": 4}},
        2: {"points": {"Ann": 10, "Bart": 36, "Chris": 4, "Dirk": 20}},
    },
)
case(
    "assaf_others_cards",
    {
        "ruleset": "israeli",
        "options": {"assaf": "others_cards"},
        "players": P4,
        "rounds": [
            {"hands": {"Ann": 4, "Bart": 4, "Chris": 12, "Dirk": 20}, "yaniv": "Ann"},
        ],
    },
    {1: {"points": {"Ann": 36, "Bart": 4, "Chris": 12, "Dirk": 20}}},
)
case(
    "assaf_extra_too_high",
    {
        "ruleset": "israeli",
        "options": {"assaf": "per_challenger", "assaf_extra": 120},
        "players": P3,
    },
    error="options: assaf_extra must be a whole number from 0 to 100",
    folder="errors",
)

# win streaks: -10 after 3 wins in a row, +25 after 5.
case(
    "streak_wins",
    {
        "options": {"streak_bonus": [{"wins": 3, "points": -10}, {"wins": 5, "points": 25}]},
        "players": P3,
        "rounds": [
            {"hands": {"Ann": 12, "Bart": 1, "Chris": 30}, "yaniv": "Bart"},
            {"hands": {"Ann": 3, "Bart": 10, "Chris": 5}, "yaniv": "Ann"},
            {"hands": {"Ann": 2, "Bart": 8, "Chris": 4}, "yaniv": "Ann"},
            {"hands": {"Ann": 1, "Bart": 9, "Chris": 6}, "yaniv": "Ann"},
            {"hands": {"Ann": 0, "Bart": 5, "Chris": 5}, "empty_hand": "Ann"},
            {"hands": {"Ann": 2, "Bart": 7, "Chris": 3}, "yaniv": "Ann"},
        ],
    },
    {
        4: {"bonuses": {"Ann": -10}, "totals": {"Ann": 2, "Bart": 27, "Chris": 45}},
        5: {
            "reductions": {"Chris": 50},
            "bonuses": {},
            "totals": {"Ann": 2, "Bart": 32, "Chris": 0},
        },
        6: {"bonuses": {"Ann": 25}, "totals": {"Ann": 27, "Bart": 39, "Chris": 3}},
    },
)
case(
    "streak_assaf_reset",
    {
        "ruleset": "wikipedia_fr",
        "options": {"streak_bonus": [{"assafs": 2, "reset": True}]},
        "players": P3,
        "rounds": [
            {"hands": {"Ann": 5, "Bart": 4, "Chris": 20}, "yaniv": "Ann"},
            {"hands": {"Ann": 10, "Bart": 6, "Chris": 6}, "yaniv": "Chris"},
        ],
    },
    {
        1: {"resets": [], "totals": {"Ann": 35, "Bart": 4, "Chris": 20}},
        2: {"resets": ["Bart"], "totals": {"Ann": 45, "Bart": 0, "Chris": 56}},
    },
)
case(
    "streak_bonus_not_below_zero",
    {
        "options": {"streak_bonus": [{"wins": 2, "points": -10}]},
        "players": P3,
        "rounds": [
            {"hands": {"Ann": 6, "Bart": 1, "Chris": 30}, "yaniv": "Bart"},
            {"hands": {"Ann": 5, "Bart": 2, "Chris": 8}, "yaniv": "Bart", "along": ["Ann"]},
            {"hands": {"Ann": 9, "Bart": 3, "Chris": 8}, "yaniv": "Bart"},
            {"hands": {"Ann": 9, "Bart": 4, "Chris": 8}, "yaniv": "Bart"},
        ],
    },
    {
        2: {"bonuses": {}, "points": {"Ann": 32, "Bart": 0, "Chris": 8}},
        3: {"bonuses": {}, "totals": {"Ann": 47, "Bart": 0, "Chris": 46}},
    },
)
case(
    "streak_rule_malformed",
    {"options": {"streak_bonus": [{"wins": 3, "points": -10, "reset": True}]}, "players": P3},
    error='options: streak_bonus: each rule is {"wins": n, "points": p} '
    'or {"assafs": n, "reset": true}',
    folder="errors",
)

# joins: highest, average (halves up), zero, a number.
case(
    "join_highest",
    {
        "players": P3,
        "rounds": [
            {"hands": {"Ann": 2, "Bart": 30, "Chris": 20}, "yaniv": "Ann"},
            {
                "hands": {"Ann": 10, "Bart": 5, "Chris": 7, "Dirk": 1},
                "yaniv": "Dirk",
                "joins": {"name": "Dirk", "start": "highest"},
            },
        ],
    },
    {
        2: {
            "joined": {"name": "Dirk", "start": 30},
            "points": {"Ann": 10, "Bart": 5, "Chris": 7, "Dirk": 0},
            "totals": {"Ann": 10, "Bart": 35, "Chris": 27, "Dirk": 30},
        }
    },
)
case(
    "join_average",
    {
        "players": ["Ann", "Bart"],
        "rounds": [
            {"hands": {"Ann": 2, "Bart": 17}, "yaniv": "Ann"},
            {
                "hands": {"Ann": 4, "Bart": 9, "Chris": 12},
                "yaniv": "Ann",
                "joins": {"name": "Chris", "start": "average"},
            },
            {
                "hands": {"Ann": 3, "Bart": 20, "Chris": 1, "Dirk": 6},
                "yaniv": "Chris",
                "joins": {"name": "Dirk", "start": "average"},
            },
        ],
    },
    {
        2: {
            "joined": {"name": "Chris", "start": 9},
            "totals": {"Ann": 0, "Bart": 26, "Chris": 21},
        },
        3: {
            "joined": {"name": "Dirk", "start": 16},
            "totals": {"Ann": 3, "Bart": 46, "Chris": 21, "Dirk": 22},
        },
    },
)
case(
    "join_zero_and_a_number",
    {
        "ruleset": "israeli",
        "players": P3,
        "rounds": [
            {"hands": {"Ann": 2, "Bart": 40, "Chris": 30}, "yaniv": "Ann"},
            {
                "hands": {"Ann": 10, "Bart": 5, "Chris": 7, "Dirk": 1},
                "yaniv": "Dirk",
                "joins": {"name": "Dirk", "start": "zero"},
            },
            {
                "hands": {"Ann": 10, "Bart": 5, "Chris": 3, "Dirk": 8, "Eve": 20},
                "yaniv": "Chris",
                "joins": {"name": "Eve", "start": 87},
            },
        ],
    },
    {
        2: {"joined": {"name": "Dirk", "start": 0}},
        3: {
            "joined": {"name": "Eve", "start": 87},
            "totals": {"Ann": 20, "Bart": 50, "Chris": 37, "Dirk": 8, "Eve": 107},
        },
    },
)
case(
    "join_name_taken",
    {
        "players": P3,
        "rounds": [
            {
                "hands": {"Ann": 2, "Bart": 30, "Chris": 20},
                "yaniv": "Ann",
                "joins": {"name": "Bart", "start": "zero"},
            }
        ],
    },
    error="round 1: a player joining needs a name not yet in the game",
    folder="errors",
)
case(
    "join_start_above_end",
    {
        "players": P3,
        "rounds": [
            {
                "hands": {"Ann": 2, "Bart": 30, "Chris": 20, "Dirk": 5},
                "yaniv": "Ann",
                "joins": {"name": "Dirk", "start": 151},
            }
        ],
    },
    error="round 1: a player joins on highest, average, zero or a total from 0 to 150",
    folder="errors",
)
case(
    "join_a_full_table",
    {
        "players": [f"P{n}" for n in range(1, 9)],
        "rounds": [
            {
                "hands": {**{f"P{n}": 9 for n in range(1, 9)}, "Zed": 9},
                "yaniv": "P1",
                "joins": {"name": "Zed", "start": "zero"},
            }
        ],
    },
    error="round 1: 8 players at most: nobody can join",
    folder="errors",
)

# Combinations.
case(
    "combined_seven_cards_faces_jokers_per_challenger",
    {
        "ruleset": "wikipedia_en",
        "options": {
            "cards_dealt": 7,
            "face_values": "11-12-13",
            "joker_held": 10,
            "assaf": "per_challenger",
            "assaf_extra": 20,
            "streak_bonus": [{"wins": 2, "points": -10}],
        },
        "players": P3,
        "rounds": [
            {
                "hands": {"Ann": 78, "Bart": 4, "Chris": 30},
                "yaniv": "Bart",
                "jokers": {"Ann": 1, "Chris": 1},
            },
            {"hands": {"Ann": 7, "Bart": 7, "Chris": 6}, "yaniv": "Ann"},
            {
                "hands": {"Ann": 20, "Bart": 3, "Chris": 11, "Dirk": 13},
                "yaniv": "Bart",
                "joins": {"name": "Dirk", "start": "average"},
            },
            {"hands": {"Ann": 10, "Bart": 2, "Chris": 5, "Dirk": 40}, "yaniv": "Bart"},
        ],
    },
    {
        1: {"points": {"Ann": 88, "Bart": 0, "Chris": 40}},
        2: {
            "kind": "assaf",
            "points": {"Ann": 7 + 30 + 20, "Bart": 7, "Chris": 0},
            "totals": {"Ann": 145, "Bart": 7, "Chris": 40},
        },
        3: {
            "joined": {"name": "Dirk", "start": 64},
            "points": {"Ann": 20, "Bart": 0, "Chris": 11, "Dirk": 13},
            "bonuses": {},
            "totals": {"Ann": 165, "Bart": 7, "Chris": 51, "Dirk": 77},
        },
        4: {"bonuses": {"Bart": -7}, "totals": {"Ann": 175, "Bart": 0, "Chris": 56, "Dirk": 117}},
    },
)
case(
    "combined_joker_value_and_streaks_elimination",
    {
        "ruleset": "israeli",
        "options": {
            "joker_value": -5,
            "streak_bonus": [{"wins": 2, "points": -20}, {"assafs": 1, "reset": True}],
            "end_above": 60,
        },
        "players": P3,
        "rounds": [
            {"hands": {"Ann": 2, "Bart": 40, "Chris": 30}, "yaniv": "Ann"},
            {"hands": {"Ann": 9, "Bart": 25, "Chris": 8}, "yaniv": "Ann", "jokers": {"Ann": 1}},
            {"hands": {"Ann": 3, "Chris": 0}, "yaniv": "Ann", "jokers": {"Chris": 1}},
        ],
    },
    {
        2: {
            "points": {"Ann": 0, "Bart": 25, "Chris": 8},
            "bonuses": {},
            "totals": {"Ann": 0, "Bart": 65, "Chris": 38},
            "eliminated": ["Bart"],
        },
        3: {
            "kind": "assaf",
            "points": {"Ann": 33, "Chris": -5},
            "resets": ["Chris"],
            "totals": {"Ann": 33, "Bart": 65, "Chris": 0},
        },
    },
)

# --- the peer scorekeepers' own cases (tests/vectors/options/peers/README.md) ---
A = {
    "ruleset": "israeli",
    "options": {
        "end": "game_over",
        "end_above": 150,
        "reductions": [],
        "reduce_multiples": [50, 25],
        "assaf": "flat",
        "assaf_penalty": 25,
        "assaf_zero": "at_or_below_caller",
        "cards_dealt": 7,
        "streak_bonus": [{"wins": 3, "points": -25}],
    },
}
AB = ["Alice", "Bob"]


def a_game(rounds, **options):
    game = json.loads(json.dumps(A))
    game["options"].update(options)
    return {
        **game,
        "players": AB if len(rounds[0]["hands"]) == 2 else ["Alice", "Bob", "Charlie"],
        "rounds": rounds,
    }


win = {"hands": {"Alice": 3, "Bob": 20}, "yaniv": "Alice"}
case(
    "a_three_wins_in_a_row",
    a_game([win, win, win]),
    {3: {"bonuses": {}}, "totals": {"Alice": 0, "Bob": 60}},
    folder="peers",
)
case(
    "a_streak_broken",
    a_game([win, win, {"hands": {"Alice": 20, "Bob": 3}, "yaniv": "Bob"}, win]),
    {"totals": {"Alice": 20, "Bob": 60}},
    folder="peers",
)
case(
    "a_three_wins_after_points",
    a_game([{"hands": {"Alice": 40, "Bob": 2}, "yaniv": "Bob"}, win, win, win]),
    {4: {"bonuses": {"Alice": -25}}, "totals": {"Alice": 15, "Bob": 60}},
    folder="peers",
)
case(
    "a_fifty_becomes_25",
    a_game([{"hands": {"Alice": 50, "Bob": 5}, "yaniv": "Bob"}], end_above=50),
    {1: {"reductions": {"Alice": 25}}, "totals": {"Alice": 25, "Bob": 0}, "finished": False},
    folder="peers",
)
case(
    "a_bust_above_50",
    a_game([{"hands": {"Alice": 60, "Bob": 5}, "yaniv": "Bob"}], end_above=50),
    {"finished": True, "winners": ["Bob"]},
    folder="peers",
)
case(
    "a_caught_caller_scores_25",
    a_game([{"hands": {"Alice": 5, "Bob": 3}, "yaniv": "Alice"}]),
    {1: {"kind": "assaf", "points": {"Alice": 25, "Bob": 0}}},
    folder="peers",
)
case(
    "a_caught_on_an_equal_hand",
    a_game([{"hands": {"Alice": 5, "Bob": 5}, "yaniv": "Alice"}]),
    {1: {"kind": "assaf", "points": {"Alice": 25, "Bob": 0}}},
    folder="peers",
)

B = {
    "ruleset": "israeli",
    "options": {
        "end": "game_over",
        "end_above": 100,
        "reductions": [[50, 25], [100, 50]],
        "assaf": "flat",
        "assaf_penalty": 30,
        "assaf_zero": "lowest",
        "joker_held": 25,
    },
}
case(
    "b_joker_held_by_a_loser_costs_25",
    {
        **B,
        "players": ["Ann", "Bart", "Chris"],
        "rounds": [
            {
                "hands": {"Ann": 3, "Bart": 6, "Chris": 9},
                "yaniv": "Ann",
                "jokers": {"Ann": 1, "Bart": 1},
            },
            {"hands": {"Ann": 5, "Bart": 4, "Chris": 12}, "yaniv": "Ann"},
        ],
    },
    {
        1: {"points": {"Ann": 0, "Bart": 31, "Chris": 9}},
        2: {"kind": "assaf", "points": {"Ann": 30, "Bart": 0, "Chris": 12}},
        "totals": {"Ann": 30, "Bart": 31, "Chris": 21},
    },
    folder="peers",
)
case(
    "b_fifty_and_hundred_come_down",
    {
        **B,
        "players": ["Ann", "Bart"],
        "rounds": [
            {"hands": {"Ann": 1, "Bart": 50}, "yaniv": "Ann", "jokers": {"Bart": 0}},
            {"hands": {"Ann": 1, "Bart": 25}, "yaniv": "Ann", "jokers": {"Bart": 2}},
        ],
    },
    {
        1: {"reductions": {"Bart": 25}},
        2: {"points": {"Ann": 0, "Bart": 75}, "reductions": {"Bart": 50}},
        "totals": {"Ann": 0, "Bart": 50},
    },
    folder="peers",
)


@pytest.mark.parametrize(("name", "game", "hand", "error"), CASES, ids=[c[0] for c in CASES])
def test_the_vector_holds_the_game_and_the_figures_worked_out_by_hand(name, game, hand, error):
    vector = load(OPTION_VECTORS_DIR / f"{name}.json")
    assert vector["game"] == game
    if error is not None:
        assert vector["error"] == error
        with pytest.raises(GameError) as refused:
            score_game(game_from_record(game))
        assert str(refused.value) == error
        return
    result = result_to_record(score_game(game_from_record(game)))
    assert vector["expected"] == result
    for key, want in hand.items():
        if isinstance(key, int):
            scored = result["rounds"][key - 1]
            for field, value in want.items():
                assert scored[field] == value, (key, field)
        else:
            assert result[key] == want, key


def test_every_peer_vector_is_worked_out_by_hand():
    names = {name for name, *_ in CASES}
    assert len(names) == len(CASES)
    peers = {f"peers/{path.stem}" for path in (OPTION_VECTORS_DIR / "peers").glob("*.json")}
    assert peers and peers <= names
