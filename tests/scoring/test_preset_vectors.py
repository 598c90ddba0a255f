"""Every scored game of tests/vectors/presets, through the engine and score_game."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from scoring.records import game_from_record, game_to_record, result_to_record
from scoring.rules import RULESETS, score_game
from tests.scoring.vectors import (
    PRESET_FOLDERS,
    PRESET_VECTORS_DIR,
    load,
    preset_vector_files,
    vector_id,
)

VECTORS = preset_vector_files()
SCORED = [path for path in VECTORS if "expected" in load(path)]
REFUSED = [path for path in VECTORS if "error" in load(path)]


def test_every_preset_vector_is_either_scored_or_refused():
    assert len(SCORED) + len(REFUSED) == len(VECTORS)
    assert len(SCORED) >= 12 and len(REFUSED) >= 4


def test_every_preset_has_its_folder_and_every_scored_vector_names_its_folders_preset():
    presets = {name for name in PRESET_FOLDERS if name != "errors"}
    assert presets == set(RULESETS) - {"belgian"}
    for path in SCORED:
        assert load(path)["game"]["ruleset"] == path.parent.name
    assert {path.parent for path in REFUSED} == {PRESET_VECTORS_DIR / "errors"}


@pytest.mark.parametrize("path", SCORED, ids=vector_id)
def test_israeli_rounds_list_who_went_out_and_the_others_do_not(path):
    vector = load(path)
    rounds = result_to_record(score_game(game_from_record(vector["game"])))["rounds"]
    eliminating = vector["game"]["ruleset"] == "israeli"
    assert all(("eliminated" in scored) == eliminating for scored in rounds)


@pytest.mark.parametrize("path", SCORED, ids=vector_id)
def test_a_preset_game_survives_the_record_round_trip(path):
    game = game_from_record(load(path)["game"])
    assert game_from_record(game_to_record(game)) == game
    assert game_to_record(game)["rounds"] == load(path)["game"]["rounds"]


@pytest.mark.parametrize("path", VECTORS, ids=vector_id)
def test_the_table_format_renders_every_preset_vector(path):
    vector = load(path)
    out = io.StringIO()
    if "error" in vector:
        with pytest.raises(CommandError):
            call_command("score_game", str(path), "--format", "table", stdout=out)
        return
    call_command("score_game", str(path), "--format", "table", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0].split() == ["round", "kind", *vector["game"]["players"]]
    played = [line for line in lines if line.split()[:1] and line.split()[0].isdigit()]
    assert len(played) == len(vector["game"]["rounds"])
