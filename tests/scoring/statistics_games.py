"""A small fixed set of games whose statistics were computed by hand (tests/scoring/
test_statistics.py checks the module against them; the site's tests store the same games).

Game 1 (Belgian, finished after 7 rounds), seats clockwise Ann, Bart, Chris, Dirk:

| round | entries                                              | points A B C D | totals A B C D  |
| 1     | Ann calls 3; Bart 12, Chris 7, Dirk 20               | 0 12 7 20      | 0 12 7 20       |
| 2     | Ann calls 4; Chris 4 and Dirk 9 go along; Bart 15    | 32 15 0 32     | 32 27 7 52      |
| 3     | Chris calls 8 (false); Dirk 14, Ann 6, Bart 2        | 0 0 46 0       | 32 27 53 52     |
| 4     | Bart empties his hand; Ann 9, Chris 0, Dirk 3        | 9 0 0 3        | 41 27 53 55     |
| 5     | Dirk calls 2; Bart 5 goes along; Ann 9, Chris 15     | 9 32 15 0      | 0* 59 68 55     |
| 6     | Bart calls 1; Chris 1 goes along; Ann 45, Dirk 50    | 45 32 0 50     | 45 91 68 105    |
| 7     | Ann calls 0; Bart 40, Chris 45, Dirk 50              | 0 40 45 50     | 45 131 113 155  |

(* Ann lands on 50: reduced to 0.) Dirk is above 150: Ann wins with 45, having been 25 above
the lowest total (Chris's 7) after round 2: the comeback.

Game 2 (israeli: automatic Assaf), Ann, Bart, Chris, three rounds, still being played:

| round | entries                                   | points A B C |
| 1     | Ann calls 5; Bart 5 (an Assaf), Chris 10  | 35 5 10      |
| 2     | Bart calls 3; Ann 10, Chris 20            | 10 0 20      |
| 3     | Chris empties his hand; Ann 5, Bart 12    | 5 12 0       |
"""

from __future__ import annotations

from typing import Any

from scoring import rules

ANN, BART, CHRIS, DIRK = "Ann", "Bart", "Chris", "Dirk"

GAME_1: list[dict[str, Any]] = [
    {"hands": {ANN: 3, BART: 12, CHRIS: 7, DIRK: 20}, "yaniv": ANN},
    {"hands": {ANN: 4, BART: 15, CHRIS: 4, DIRK: 9}, "yaniv": ANN, "along": [CHRIS, DIRK]},
    {"hands": {ANN: 6, BART: 2, CHRIS: 8, DIRK: 14}, "yaniv": CHRIS},
    {"hands": {ANN: 9, BART: 0, CHRIS: 0, DIRK: 3}, "empty_hand": BART},
    {"hands": {ANN: 9, BART: 5, CHRIS: 15, DIRK: 2}, "yaniv": DIRK, "along": [BART]},
    {"hands": {ANN: 45, BART: 1, CHRIS: 1, DIRK: 50}, "yaniv": BART, "along": [CHRIS]},
    {"hands": {ANN: 0, BART: 40, CHRIS: 45, DIRK: 50}, "yaniv": ANN},
]
GAME_1_PLAYERS = (ANN, BART, CHRIS, DIRK)
GAME_1_TOTALS = {ANN: 45, BART: 131, CHRIS: 113, DIRK: 155}

GAME_2: list[dict[str, Any]] = [
    {"hands": {ANN: 5, BART: 5, CHRIS: 10}, "yaniv": ANN},
    {"hands": {ANN: 10, BART: 3, CHRIS: 20}, "yaniv": BART},
    {"hands": {ANN: 5, BART: 12, CHRIS: 0}, "empty_hand": CHRIS},
]
GAME_2_PLAYERS = (ANN, BART, CHRIS)

# By hand, from the tables above (scoring.statistics' module says what each figure means).
EXPECTED_GAME_1 = {
    ANN: {
        "games": 1, "rounds": 7, "calls": 3, "held": 2, "caught": 1, "call_hands": 7,
        "waiting_rounds": 4, "waiting_hands": 69, "bins": {1: 3, 9: 1},
        "reductions": 1, "reduced": 50, "longest_run": 1,
    },
    BART: {
        "games": 1, "rounds": 7, "calls": 1, "caught": 1, "call_hands": 1,
        "along": 1, "along_lost": 1, "empty_hands": 1,
        "waiting_rounds": 5, "waiting_hands": 74, "bins": {2: 1, 3: 1, 0: 1, 1: 1, 8: 1},
        "longest_run": 2,
    },
    CHRIS: {
        "games": 1, "rounds": 7, "calls": 1, "false_yanivs": 1, "call_hands": 8,
        "along": 2, "along_won": 2,
        "waiting_rounds": 6, "waiting_hands": 72, "bins": {1: 1, 0: 3, 3: 1, 9: 1},
        "longest_run": 1,
    },
    DIRK: {
        "games": 1, "rounds": 7, "calls": 1, "held": 1, "call_hands": 2,
        "along": 1, "along_lost": 1,
        "waiting_rounds": 6, "waiting_hands": 146, "bins": {4: 1, 1: 1, 2: 1, 0: 1, 9: 2},
        "longest_run": 1,
    },
}  # fmt: skip
# Ann in game 2: an Assaf (called with 5), then two rounds others ended (10 and 5).
EXPECTED_ANN_GAME_2 = {
    "games": 1, "rounds": 3, "calls": 1, "assafs": 1, "call_hands": 5,
    "waiting_rounds": 2, "waiting_hands": 15, "bins": {2: 1, 1: 1},
}  # fmt: skip


def scored(players: tuple[str, ...], entries: list[dict[str, Any]], ruleset: rules.Ruleset):
    """The engine's result of a game given as round records."""
    rounds = [
        rules.Round(
            hands=entry["hands"],
            yaniv=entry.get("yaniv"),
            along=tuple(entry.get("along", ())),
            empty_hand=entry.get("empty_hand"),
        )
        for entry in entries
    ]
    return rules.score_game(rules.Game(players, tuple(rounds), ruleset))
