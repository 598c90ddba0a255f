"""The scored games of shared/vectors, loaded once for the tests."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import SHARED_DIR

VECTORS_DIR = SHARED_DIR / "vectors"


def vector_files() -> list[Path]:
    files = sorted(VECTORS_DIR.rglob("*.json"))
    # An empty or missing folder must fail loudly, not run zero cases.
    assert len(files) >= 26, f"expected the shared vectors in {VECTORS_DIR}"
    return files


def load(path: Path) -> dict:
    return json.loads(path.read_text("utf-8"))


def vector_id(path: Path) -> str:
    return str(path.relative_to(VECTORS_DIR))


def error_prefix(message: str) -> str:
    """The part of an error that must match: the round (or field) it names."""
    return message.split(":", 1)[0]
