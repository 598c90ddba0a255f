"""score_game: a game record in, the scored result or a score sheet out.

Through `call_command` (fast, in-process); one smoke test runs it as a person does, as a real
process reading stdin with an exit code.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from tests.scoring.vectors import PRESET_VECTORS_DIR, VECTORS_DIR, load

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Done:
    returncode: int
    stdout: str
    stderr: str


def run_score_game(*args: str, stdin: str = "") -> Done:
    """score_game in this process, as `manage.py score_game ARGS < stdin` would run it."""
    out = io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        call_command("score_game", *args, stdout=out)
    except CommandError as error:
        return Done(1, out.getvalue(), str(error))
    finally:
        sys.stdin = old_stdin
    return Done(0, out.getvalue(), "")


@pytest.mark.slow  # a process per call
def test_score_game_runs_as_a_process_reading_stdin_with_exit_codes():
    vector = load(VECTORS_DIR / "belgian" / "worked_examples.json")
    done = subprocess.run(
        [sys.executable, "manage.py", "score_game", "-"],
        cwd=ROOT,
        input=json.dumps(vector["game"]),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == vector["expected"]
    refused = subprocess.run(
        [sys.executable, "manage.py", "score_game", "-"],
        cwd=ROOT,
        input="{not json",
        capture_output=True,
        text=True,
        check=False,
    )
    assert refused.returncode != 0
    assert "not valid JSON" in refused.stderr
    assert refused.stdout == ""


def test_score_game_reads_a_record_from_stdin():
    vector = load(VECTORS_DIR / "belgian" / "worked_examples.json")
    done = run_score_game("-", stdin=json.dumps(vector["game"]))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == vector["expected"]


def test_score_game_accepts_a_vector_file_as_it_is():
    path = VECTORS_DIR / "belgian" / "game_end.json"
    done = run_score_game(str(path))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == load(path)["expected"]


def test_bad_input_exits_non_zero_naming_the_round_on_stderr():
    path = VECTORS_DIR / "belgian" / "errors" / "hand_not_integer.json"
    done = run_score_game(str(path))
    assert done.returncode != 0
    assert "round 1: hand of Bart must be an integer 0-50" in done.stderr
    assert done.stdout == ""


def test_text_that_is_not_json_is_refused():
    done = run_score_game("-", stdin="{not json")
    assert done.returncode != 0
    assert "not valid JSON" in done.stderr


def test_the_table_format_shows_reductions_and_the_winner():
    path = VECTORS_DIR / "belgian" / "tie_for_the_win.json"
    done = run_score_game(str(path), "--format", "table")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["round", "kind", "Ann", "Bart", "Chris"]
    assert lines[-2] == "Game over. Winner: Ann, Bart (shared win)"
    rank_row = next(line for line in lines if line.startswith("rank"))
    assert rank_row.split() == ["rank", "1", "winner", "1", "winner", "3"]


def test_the_table_format_marks_a_reduction_as_arrival_and_result():
    path = VECTORS_DIR / "belgian" / "false_yaniv_reduced.json"
    done = run_score_game(str(path), "--format", "table")
    round_2 = next(line for line in done.stdout.splitlines() if line.startswith("2 "))
    assert "F+32 = 50 → 0" in round_2


def test_a_preset_record_scores_with_eliminated_players_listed():
    path = PRESET_VECTORS_DIR / "israeli" / "both_out_same_round.json"
    done = run_score_game(str(path))
    assert done.returncode == 0, done.stderr
    printed = json.loads(done.stdout)
    assert printed == load(path)["expected"]
    assert printed["rounds"][-1]["eliminated"] == ["Ann"]


def test_an_unknown_ruleset_exits_non_zero_naming_it():
    done = run_score_game("-", stdin=json.dumps({"ruleset": "moon", "players": ["Ann", "Bart"]}))
    assert done.returncode != 0
    assert "ruleset: unknown moon" in done.stderr


def test_the_table_format_marks_an_assaf_and_the_lowest_hand():
    path = PRESET_VECTORS_DIR / "wikipedia_en" / "assaf_tie_lowest.json"
    done = run_score_game(str(path), "--format", "table")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[2].split() == ["1", "assaf", "S+36", "=", "36", "L+0", "=", "0", "L+0", "=", "0"]
    assert "S Assaf on the caller, L lowest hand (the Assaf)" in lines[-1]
    assert "A along" not in lines[-1]


def test_the_table_format_shows_who_went_out_and_leaves_their_later_cells_empty():
    path = PRESET_VECTORS_DIR / "israeli" / "random_0.json"
    done = run_score_game(str(path), "--format", "table")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    round_17 = next(line for line in lines if line.startswith("17 "))
    round_18 = next(line for line in lines if line.startswith("18 "))
    assert "S+32 = 210 out" in round_17
    assert round_18.split()[2] == "—"
    out_row = next(line for line in lines if line.startswith("out "))
    assert out_row.split() == ["out", "round", "17", "round", "18"]
    rank_row = next(line for line in lines if line.startswith("rank"))
    assert rank_row.split() == ["rank", "3", "1", "winner", "2"]
    assert lines[-2] == "Game over. Winner: Ann"
    assert "'out' went out, — no hand (out)" in lines[-1]
