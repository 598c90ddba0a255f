"""The phone engine's generated block, as `python -m scoring.engine_data` writes and checks it
(issue 36, mutation testing): a stale script is refused with the command that fixes it, the
rewrite brings it up to date, the texts keep their characters, only the one block changes."""

from __future__ import annotations

import pytest

from scoring import engine_data

STALE = engine_data.BEGIN + "  const ENGINE_DATA = {};\n" + engine_data.END


@pytest.fixture
def stale_script(tmp_path, monkeypatch):
    """A copy of the phone's engine whose generated block is out of date."""
    script = engine_data.ENGINE.read_text("utf-8")
    stale = tmp_path / "yaniv-engine.js"
    stale.write_text(engine_data.with_block(script).replace(engine_data.block(), STALE), "utf-8")
    monkeypatch.setattr(engine_data, "ENGINE", stale)
    return stale


def test_the_check_refuses_a_stale_script_and_names_the_command_that_fixes_it(
    stale_script, capsys
):
    assert engine_data.main(["--check"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"{stale_script} is out of date: run python -m scoring.engine_data\n"
    assert STALE in stale_script.read_text("utf-8")  # the check writes nothing


def test_the_rewrite_brings_a_stale_script_up_to_date(stale_script):
    assert engine_data.main([]) == 0
    assert stale_script.read_text("utf-8") == engine_data.ENGINE.read_text("utf-8")
    assert engine_data.block() in stale_script.read_text("utf-8")
    assert engine_data.main(["--check"]) == 0


def test_a_script_without_the_markers_is_refused_by_name():
    with pytest.raises(ValueError, match=r"yaniv-engine\.js has no generated block"):
        engine_data.with_block("const ENGINE_DATA = {};\n")


def test_only_the_first_generated_block_is_replaced():
    script = STALE + "// between\n" + STALE
    assert engine_data.with_block(script) == engine_data.block() + "// between\n" + STALE


def test_the_texts_are_written_with_their_own_characters(monkeypatch):
    # A message in French as a translator might type it: the script shows it as typed.
    monkeypatch.setattr(engine_data, "WARNING_MESSAGES", {"note": "déjà « vu »"})
    assert '"note": "déjà « vu »"' in engine_data.block()
