"""The phone's engine takes the rules' data from Python (scoring.engine_data): the committed
script must hold exactly what Python writes, and read it as Python has it."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from scoring import engine_data, rules, ruleset
from scoring.errors import ENGINE_CODES, GAME_MESSAGES


def test_the_committed_script_holds_the_data_python_writes_now():
    script = engine_data.ENGINE.read_text("utf-8")
    assert engine_data.with_block(script) == script, (
        "static/js/yaniv-engine.js is out of date: run python -m scoring.engine_data"
    )
    assert engine_data.main(["--check"]) == 0


def test_a_changed_bound_makes_the_script_out_of_date(monkeypatch):
    monkeypatch.setattr(ruleset, "MAX_STREAK_POINTS", 99)
    script = engine_data.ENGINE.read_text("utf-8")
    assert engine_data.with_block(script) != script


def test_the_data_names_every_option_with_its_bounds_and_every_preset():
    data = engine_data.engine_data()
    assert [option for option, _, _ in data["options"]] == list(rules.OPTIONS)
    kinds = {option: spec for option, _, spec in data["options"]}
    assert kinds["cards_dealt"] == {"kind": "whole_number", "low": 1, "high": 7}
    assert kinds["joker_value"] == {"kind": "whole_number", "low": -50, "high": 0}
    assert kinds["face_values"] == {"kind": "choice", "choices": ["10", "11-12-13"]}
    assert kinds["streak_bonus"] == {"kind": "streak_bonus"}
    assert [preset["name"] for preset in data["presets"]] == list(rules.RULESETS)
    assert data["defaults"]["streakBonus"] == [] and data["defaults"]["faceValues"] == "10"
    assert data["messages"] == {code: GAME_MESSAGES[code] for code in sorted(ENGINE_CODES)}


def test_the_script_reads_the_presets_as_python_has_them():
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    program = (
        "const E = require(process.argv[1]);"
        "console.log(JSON.stringify(Array.from(E.RULESETS.values()).map((r) =>"
        " [r.name, r.maxHand, r.maxRoundPoints, r.reductionSteps.length])));"
    )
    done = subprocess.run(
        [node, "-e", program, str(engine_data.ENGINE)], capture_output=True, text=True, check=True
    )
    assert json.loads(done.stdout) == [
        [ruleset.name, ruleset.max_hand, ruleset.max_round_points, len(ruleset.reduction_steps)]
        for ruleset in rules.RULESETS.values()
    ]
