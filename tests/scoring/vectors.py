"""The scored games of shared/vectors and shared/vectors-presets, loaded once for the tests."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import SHARED_DIR

VECTORS_DIR = SHARED_DIR / "vectors"
PRESET_VECTORS_DIR = SHARED_DIR / "vectors-presets"
# The presets' folders, each with at least this many scored games; errors/ holds bad input.
PRESET_FOLDERS = {"israeli": 4, "wikipedia_en": 4, "wikipedia_fr": 4, "errors": 4}


def vector_files() -> list[Path]:
    files = sorted(VECTORS_DIR.rglob("*.json"))
    # An empty or missing folder must fail loudly, not run zero cases.
    assert len(files) >= 26, f"expected the shared vectors in {VECTORS_DIR}"
    return files


def preset_vector_files() -> list[Path]:
    """Every file of shared/vectors-presets; a missing or thinned folder fails loudly."""
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


def load(path: Path) -> dict:
    return json.loads(path.read_text("utf-8"))


def vector_id(path: Path) -> str:
    for folder in (VECTORS_DIR, PRESET_VECTORS_DIR):
        if path.is_relative_to(folder):
            return str(path.relative_to(folder))
    return str(path)


def error_prefix(message: str) -> str:
    """The part of an error that must match: the round (or field) it names."""
    return message.split(":", 1)[0]
