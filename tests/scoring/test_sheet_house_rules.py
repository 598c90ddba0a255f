"""The score sheet and the referee's preview under issue 37's house rules: a player who joins
gets a column from their round on, and each round notes what the rules did."""

from __future__ import annotations

from scoring.records import game_from_record
from scoring.rules import Game, Join, JoinStart, Round, score_game
from scoring.sheet import RoundNote, render_sheet, round_preview, score_sheet
from tests.scoring.vectors import OPTION_VECTORS_DIR, load


def vector_game(name: str) -> Game:
    return game_from_record(load(OPTION_VECTORS_DIR / f"{name}.json")["game"])


def test_a_player_who_joins_gets_a_column_with_no_hand_before_their_round():
    game = vector_game("join_highest")
    sheet = score_sheet(game, score_game(game))
    assert sheet.players == ("Ann", "Bart", "Chris", "Dirk")
    first, second = sheet.rows
    assert first.cells[3].out and first.cells[3].total == 0
    assert (second.cells[3].hand_total, second.cells[3].total) == (1, 30)
    assert second.notes == (RoundNote("joined", "Dirk", 30),)
    assert second.notes[0].message == "Dirk joined at 30"


def test_the_sheet_notes_the_streak_bonuses_and_resets():
    game = vector_game("streak_wins")
    rows = score_sheet(game, score_game(game)).rows
    assert [note.message for row in rows for note in row.notes] == [
        "-10 streak bonus for Ann",
        "+25 streak bonus for Ann",
    ]
    game = vector_game("streak_assaf_reset")
    rows = score_sheet(game, score_game(game)).rows
    assert [note.message for note in rows[1].notes] == ["Bart back to 0 after an Assaf streak"]


def test_the_terminal_sheet_lists_the_notes_under_the_table():
    game = vector_game("join_zero_and_a_number")
    text = render_sheet(score_sheet(game, score_game(game)))
    assert text.splitlines()[0].split() == ["round", "kind", "Ann", "Bart", "Chris", "Dirk", "Eve"]
    assert "round 2: Dirk joined at 0" in text
    assert "round 3: Eve joined at 87" in text


def test_the_preview_of_a_round_someone_joins_shows_them_and_their_start():
    game = vector_game("join_highest")
    before = Game(game.players, game.rounds[:1], game.ruleset)
    entries = Round(
        {"Ann": 4, "Bart": 9, "Chris": 2, "Eve": 0},
        empty_hand="Eve",
        joins=Join("Eve", JoinStart.AVERAGE),
    )
    preview = round_preview(before, entries)
    assert [line.player for line in preview.lines] == ["Ann", "Bart", "Chris", "Eve"]
    # Ann 0, Bart 30, Chris 20: the average is 16.67, so Eve starts on 17.
    assert preview.notes == (RoundNote("joined", "Eve", 17),)
    assert preview.lines[-1].total == 17
