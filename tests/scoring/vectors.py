"""The scored games of tests/vectors (Belgian), tests/vectors/presets and tests/vectors/options,
loaded for the tests."""

from __future__ import annotations

import json
from pathlib import Path

# The project's own test data: belgian/ here, the other presets under presets/.
VECTORS_DIR = Path(__file__).resolve().parents[1] / "vectors"
PRESET_VECTORS_DIR = VECTORS_DIR / "presets"
# The presets' folders, each with at least this many scored games; errors/ holds bad input.
PRESET_FOLDERS = {"israeli": 4, "wikipedia_en": 4, "wikipedia_fr": 4, "errors": 4}
# The house rules of the rule options (any preset): scored games here, bad options in errors/,
# the peer scorekeepers' own cases in peers/.
OPTION_VECTORS_DIR = VECTORS_DIR / "options"
OPTION_FOLDERS = {"options": 6, "errors": 4, "peers": 9}


def vector_files() -> list[Path]:
    """Every Belgian file of tests/vectors (not presets/ nor options/); a missing or thinned
    folder fails."""
    assert VECTORS_DIR.is_dir(), f"expected the vectors in {VECTORS_DIR}"
    files = sorted(
        path
        for path in VECTORS_DIR.rglob("*.json")
        if not path.is_relative_to(PRESET_VECTORS_DIR)
        and not path.is_relative_to(OPTION_VECTORS_DIR)
    )
    # An empty or missing folder must fail loudly, not run zero cases.
    assert len(files) >= 26, f"expected the Belgian vectors in {VECTORS_DIR}"
    return files


def preset_vector_files() -> list[Path]:
    """Every file of tests/vectors/presets; a missing or thinned folder fails loudly."""
    assert PRESET_VECTORS_DIR.is_dir(), f"expected the preset vectors in {PRESET_VECTORS_DIR}"
    files = sorted(PRESET_VECTORS_DIR.rglob("*.json"))
    for folder, at_least in PRESET_FOLDERS.items():
        found = [path for path in files if path.parent.name == folder]
        assert len(found) >= at_least, (
            f"expected {at_least} or more vectors in {PRESET_VECTORS_DIR / folder}, "
            f"found {len(found)}"
        )
    assert len(files) >= sum(PRESET_FOLDERS.values())
    return files


def option_vector_files() -> list[Path]:
    """Every file of tests/vectors/options; a missing or thinned folder fails loudly."""
    assert OPTION_VECTORS_DIR.is_dir(), f"expected the option vectors in {OPTION_VECTORS_DIR}"
    files = sorted(OPTION_VECTORS_DIR.rglob("*.json"))
    for folder, at_least in OPTION_FOLDERS.items():
        found = [path for path in files if path.parent.name == folder]
        assert len(found) >= at_least, (
            f"expected {at_least} or more vectors in {OPTION_VECTORS_DIR}/{folder}, "
            f"found {len(found)}"
        )
    return files


def load(path: Path) -> dict:
    return json.loads(path.read_text("utf-8"))


def vector_id(path: Path) -> str:
    # Presets and options first: their folders sit inside VECTORS_DIR ("israeli/random_0.json").
    for folder in (PRESET_VECTORS_DIR, OPTION_VECTORS_DIR, VECTORS_DIR):
        if path.is_relative_to(folder):
            return str(path.relative_to(folder))
    return str(path)


def error_prefix(message: str) -> str:
    """The part of an error that must match: the round (or field) it names."""
    return message.split(":", 1)[0]
