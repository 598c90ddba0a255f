"""A game's sheet at its edges (issue 36, mutation testing): the terminal sheet as
`manage.py score_game` prints it, word for word (an elimination with a reduction and a player
out, a shared win, a game not started), the cells of a player with no hand, and the house
rules in the cells and notes of the sheet and the preview (jokers, streak bonuses and resets, a
player not seated yet), and who ranks where under elimination."""

from __future__ import annotations

from scoring import rules
from scoring.records import game_from_record
from scoring.sheet import (
    Cell,
    Mark,
    RoundNote,
    Scores,
    render_sheet,
    round_notes,
    round_preview,
    score_sheet,
)
from tests.scoring.vectors import OPTION_VECTORS_DIR, load

PLAYERS = ("Ann", "Bart", "Chris")
TO_30 = rules.BELGIAN.with_options({"end_above": 30})
ELIMINATION = TO_30.with_options({"end": "elimination", "reductions": [[30, 20]]})


def sheet_of(ruleset: rules.Ruleset, *rounds: rules.Round):
    game = rules.Game(PLAYERS, rounds, ruleset)
    return score_sheet(game, rules.score_game(game))


def eliminated():
    """Scored in the test, not at import: a mutant is switched on only while a test runs."""
    return sheet_of(
        ELIMINATION,
        # Bart goes out above 30; Chris lands on 30 exactly, reduced to 20.
        rules.Round({"Ann": 0, "Bart": 31, "Chris": 30}, yaniv="Ann"),
        rules.Round({"Ann": 2, "Chris": 9}, yaniv="Ann"),
    )


def test_an_elimination_s_terminal_sheet_shows_who_went_out_when_and_no_hand_after():
    assert render_sheet(eliminated()) == (
        "round  kind   Ann      Bart          Chris\n"
        "-----  -----  -------  ------------  -------------\n"
        "1      yaniv  Y+0 = 0  +31 = 31 out  +30 = 30 → 20\n"
        "2      yaniv  Y+0 = 0  —             +9 = 29\n"
        "-----  -----  -------  ------------  -------------\n"
        "total         0        31            29\n"
        "out                    round 1\n"
        "rank          1        3             2\n"
        "Game in progress.\n"
        "Y caller, A along, F false Yaniv, E emptied hand, 'out' went out, — no hand (out);"
        " 'a → b' is a reduction.\n"
    )


def test_the_terminal_sheet_of_a_shared_win_names_both_winners():
    shared = sheet_of(
        TO_30,
        rules.Round({"Ann": 5, "Bart": 0, "Chris": 10}, yaniv="Bart"),
        rules.Round({"Ann": 0, "Bart": 5, "Chris": 31}, yaniv="Ann"),
    )
    assert render_sheet(shared) == (
        "round  kind   Ann       Bart      Chris\n"
        "-----  -----  --------  --------  --------\n"
        "1      yaniv  +5 = 5    Y+0 = 0   +10 = 10\n"
        "2      yaniv  Y+0 = 5   +5 = 5    +31 = 41\n"
        "-----  -----  --------  --------  --------\n"
        "total         5         5         41\n"
        "rank          1 winner  1 winner  3\n"
        "Game over. Winner: Ann, Bart (shared win)\n"
        "Y caller, A along, F false Yaniv, E emptied hand; 'a → b' is a reduction.\n"
    )


def test_a_game_without_rounds_is_in_progress_with_every_total_at_0():
    sheet = sheet_of(TO_30)
    assert dict(sheet.totals) == {"Ann": 0, "Bart": 0, "Chris": 0}
    assert sheet.finished is False and sheet.winners == ()
    assert render_sheet(sheet).splitlines()[3:6] == [
        "total        0    0     0",
        "rank         1    1     1",
        "Game in progress.",
    ]


def test_the_cell_of_a_player_who_is_out_has_no_hand_and_keeps_their_total():
    first, second = eliminated().rows
    assert second.cells[1] == Cell(hand_total=None, points=0, reduction=0, total=31)
    assert first.cells == (
        Cell(hand_total=0, points=0, reduction=0, total=0, mark=Mark.CALLER),
        Cell(hand_total=31, points=31, reduction=0, total=31, went_out=True),
        Cell(hand_total=30, points=30, reduction=10, total=20),
    )


def test_a_row_keeps_its_entries_and_names_a_neighbour_only_for_a_false_yaniv():
    entries = rules.Round({"Ann": 0, "Bart": 31, "Chris": 30}, yaniv="Ann")
    (row,) = sheet_of(ELIMINATION, entries).rows
    assert row.entries == entries
    assert row.neighbour is None


def test_the_terminal_sheet_of_a_single_winner_names_them_alone():
    won = sheet_of(TO_30, rules.Round({"Ann": 0, "Bart": 3, "Chris": 31}, yaniv="Ann"))
    assert render_sheet(won).splitlines()[-2] == "Game over. Winner: Ann"


def vector_sheet(name: str):
    game = game_from_record(load(OPTION_VECTORS_DIR / f"{name}.json")["game"])
    return score_sheet(game, rules.score_game(game))


def jokers_round():
    """Ann calls holding a joker worth -5; Bart holds one at 25 held and -5 in the hand."""
    ruleset = rules.ISRAELI.with_options({"joker_held": 25, "joker_value": -5})
    entries = rules.Round(
        {"Ann": 3, "Bart": 10, "Chris": 8}, yaniv="Ann", jokers={"Ann": 1, "Bart": 1}
    )
    return rules.Game(PLAYERS, (), ruleset), entries


def test_the_sheet_notes_what_each_player_s_jokers_counted_in_their_own_cell():
    empty, entries = jokers_round()
    game = rules.Game(PLAYERS, (entries,), empty.ruleset)
    (row,) = score_sheet(game, rules.score_game(game)).rows
    # The caller's joker only counts in the hand (-5); Bart's is held (+25) and in the hand (-5).
    ann, bart = RoundNote("jokers", "Ann", -5), RoundNote("jokers", "Bart", 20)
    assert row.notes == (ann, bart)
    assert [cell.notes for cell in row.cells] == [(ann,), (bart,), ()]


def test_the_preview_notes_what_the_jokers_of_the_round_being_typed_count():
    game, entries = jokers_round()
    assert round_preview(game, entries).notes == (
        RoundNote("jokers", "Ann", -5),
        RoundNote("jokers", "Bart", 20),
    )


def test_a_streak_bonus_is_in_its_player_s_cell_and_nobody_else_s():
    sixth = vector_sheet("streak_wins").rows[5]
    bonus = RoundNote("streak_bonus", "Ann", 25)
    assert [(cell.bonus, cell.notes) for cell in sixth.cells] == [(25, (bonus,)), (0, ()), (0, ())]
    assert sixth.cells[0].arrived == 2


def test_a_reset_after_an_assaf_streak_is_in_its_player_s_cell():
    second = vector_sheet("streak_assaf_reset").rows[1]
    assert [cell.reset for cell in second.cells] == [False, True, False]
    assert second.cells[1].notes == (RoundNote("reset", "Bart"),)


def test_a_player_who_joins_later_is_not_seated_before_their_round():
    first, second = vector_sheet("join_highest").rows
    assert [cell.seated for cell in first.cells] == [True, True, True, False]
    assert all(cell.seated for cell in second.cells)


def test_under_elimination_who_went_out_later_ranks_higher_whatever_their_total():
    sheet = sheet_of(
        ELIMINATION,
        rules.Round({"Ann": 0, "Bart": 31, "Chris": 5}, yaniv="Ann"),
        rules.Round({"Ann": 0, "Chris": 35}, yaniv="Ann"),
    )
    assert dict(sheet.totals) == {"Ann": 0, "Bart": 31, "Chris": 40}
    assert dict(sheet.ranks) == {"Ann": 1, "Bart": 3, "Chris": 2}


def test_a_player_s_column_pairs_each_row_with_their_own_cell():
    sheet = eliminated()
    assert sheet.column("Bart") == [(row, row.cells[1]) for row in sheet.rows]
    assert [cell.total for _, cell in sheet.column("Chris")] == [20, 29]


def joined_with_a_joker():
    """Dirk joins at 0 in the second round, in which Bart holds a joker."""
    game, _ = jokers_round()
    first = rules.Round({"Ann": 3, "Bart": 10, "Chris": 8}, yaniv="Ann")
    second = rules.Round(
        {"Ann": 3, "Bart": 10, "Chris": 8, "Dirk": 9},
        yaniv="Ann",
        jokers={"Bart": 1},
        joins=rules.Join("Dirk", rules.JoinStart.ZERO),
    )
    return rules.Game(PLAYERS, (first,), game.ruleset), second


def test_a_round_notes_who_joined_before_what_the_jokers_counted():
    game, entries = joined_with_a_joker()
    assert round_preview(game, entries).notes == (
        RoundNote("joined", "Dirk", 0),
        RoundNote("jokers", "Bart", 20),
    )


def test_without_the_round_s_entries_and_rules_the_notes_leave_the_jokers_out():
    game, entries = joined_with_a_joker()
    played = rules.Game(game.players, (*game.rounds, entries), game.ruleset)
    scores = Scores.of(rules.score_game(played).rounds[1])
    joined = (RoundNote("joined", "Dirk", 0),)
    assert round_notes(scores) == joined
    assert round_notes(scores, None, game.ruleset) == joined
    assert round_notes(scores, entries) == joined
    assert round_notes(scores, entries, game.ruleset) == (*joined, RoundNote("jokers", "Bart", 20))
