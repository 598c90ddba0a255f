"""Every scored game of tests/vectors (Belgian, presets/ and options/), through the engine and
score_game (preset-only checks are in test_preset_vectors.py, options in test_options.py)."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command

from scoring.records import game_from_record, result_to_record
from scoring.rules import GameError, score_game
from tests.scoring.vectors import (
    error_prefix,
    load,
    option_vector_files,
    preset_vector_files,
    vector_files,
    vector_id,
)

VECTORS = vector_files() + preset_vector_files() + option_vector_files()
SCORED = [path for path in VECTORS if "expected" in load(path)]
REFUSED = [path for path in VECTORS if "error" in load(path)]


def test_every_vector_is_either_scored_or_refused():
    assert len(SCORED) + len(REFUSED) == len(VECTORS)
    assert len(SCORED) >= 13 + 12 + 6 and len(REFUSED) >= 13 + 4 + 4


@pytest.mark.parametrize("path", SCORED, ids=vector_id)
def test_engine_scores_the_vector_exactly(path):
    vector = load(path)
    result = score_game(game_from_record(vector["game"]))
    assert result_to_record(result) == vector["expected"]


@pytest.mark.parametrize("path", REFUSED, ids=vector_id)
def test_engine_refuses_the_vector_naming_the_same_place(path):
    vector = load(path)
    with pytest.raises(GameError) as refused:
        score_game(game_from_record(vector["game"]))
    assert error_prefix(str(refused.value)) == error_prefix(vector["error"])
    assert str(refused.value) == vector["error"]


@pytest.mark.parametrize("path", SCORED, ids=vector_id)
def test_score_game_command_prints_the_expected_result(path, tmp_path):
    record = tmp_path / "game.json"
    record.write_text(json.dumps(load(path)["game"]), "utf-8")
    out = io.StringIO()
    call_command("score_game", str(record), stdout=out)
    assert json.loads(out.getvalue()) == load(path)["expected"]


@pytest.mark.parametrize("path", REFUSED, ids=vector_id)
def test_score_game_command_fails_naming_the_round(path, tmp_path):
    record = tmp_path / "game.json"
    record.write_text(json.dumps(load(path)["game"]), "utf-8")
    with pytest.raises(CommandError) as refused:
        call_command("score_game", str(record), stdout=io.StringIO())
    assert error_prefix(str(refused.value)) == error_prefix(load(path)["error"])
