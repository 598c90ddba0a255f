"""Upgrades keep every sheet (issue 25, point 4).

A database built by the previous release (its own code, taken from the git history, and its
own migrations), with the demo loaded by that release, is migrated by today's code: every
archive export, standing and sheet reads the same before and after. SQLite here; PostgreSQL
with DATABASE_URL (CI's second run).
"""

from __future__ import annotations

import io
import json
import subprocess
import tarfile
from pathlib import Path

import pytest

from tests.snapshots import ROOT, SNAPSHOT, manage, ok, own_database

# The previous release (CHANGELOG.md): 0.1.0. Each release moves this to the one before it.
PREVIOUS_RELEASE = "73853ec"
PREVIOUS_VERSION = "0.1.0"


def checkout(commit: str, into: Path) -> Path:
    """The repository's files at `commit` (git archive), in `into`."""
    archive = subprocess.run(
        ["git", "archive", "--format=tar", commit], cwd=ROOT, capture_output=True, check=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


@pytest.fixture
def previous_release(tmp_path: Path) -> Path:
    return checkout(PREVIOUS_RELEASE, tmp_path / "release")


def test_the_previous_release_is_the_one_the_changelog_names_before_this_one(previous_release):
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert f"## {PREVIOUS_VERSION} " in changelog and PREVIOUS_RELEASE in changelog
    pyproject = (previous_release / "pyproject.toml").read_text()
    assert f'version = "{PREVIOUS_VERSION}"' in pyproject


@pytest.mark.slow  # manage.py processes, of two releases
@pytest.mark.database  # manage.py on a database of its own beside the configured one
def test_a_database_of_the_previous_release_migrates_with_every_sheet_kept(
    previous_release, tmp_path
):
    with own_database(tmp_path, "upgrade") as (url, _):
        # The previous release's own code: its modules, not today's, are the ones imported.
        code = "import tournaments; print(tournaments.__file__)"
        where = ok(manage(url, "shell", "--no-imports", "-c", code, root=previous_release))
        assert where.strip().startswith(str(previous_release))
        ok(manage(url, "migrate", "--noinput", root=previous_release))
        ok(manage(url, "load_demo", root=previous_release))
        before = json.loads(
            ok(manage(url, "shell", "--no-imports", "-c", SNAPSHOT, root=previous_release))
        )
        assert len(before) >= 2 and all(t["hands"] for t in before.values())

        plan = ok(manage(url, "migrate", "--plan"))
        assert "No planned migration operations" not in plan, "nothing to upgrade: stale release"
        ok(manage(url, "migrate", "--noinput"))
        after = json.loads(ok(manage(url, "shell", "--no-imports", "-c", SNAPSHOT)))

    assert after.keys() == before.keys()
    for slug in before:
        for part in ("seats", "hands"):
            assert after[slug][part] == before[slug][part], (slug, part)
        # A standings row may have gained a column since (penalty points): what it held, it
        # holds the same.
        for part in ("standings", "sessions", "final"):
            kept(after[slug][part], before[slug][part], f"{slug}.{part}", grown=True)
        # A newer release's archive may say more (a field added since); all the previous
        # one said, it says the same.
        kept(json.loads(after[slug]["archive"]), json.loads(before[slug]["archive"]), slug)


def kept(now: object, then: object, where: str, grown: bool = False) -> None:
    """`now` holds everything `then` held, equal (dictionaries may have gained keys; with
    `grown`, a record, a list of plain values, may have gained values at its end)."""
    if isinstance(then, dict):
        assert isinstance(now, dict), where
        for key, value in then.items():
            assert key in now, f"{where}.{key} is gone"
            kept(now[key], value, f"{where}.{key}", grown)
    elif isinstance(then, list):
        assert isinstance(now, list), where
        record = grown and not any(isinstance(item, list | dict) for item in then)
        if record:
            now = now[: len(then)]
        assert len(now) == len(then), where
        for index, (item_now, item_then) in enumerate(zip(now, then, strict=True)):
            kept(item_now, item_then, f"{where}[{index}]", grown)
    else:
        assert now == then, f"{where}: {then!r} became {now!r}"


def test_kept_finds_a_changed_or_lost_value_and_allows_an_added_one():
    kept({"a": [1, {"b": 2, "new": 3}]}, {"a": [1, {"b": 2}]}, "file")
    with pytest.raises(AssertionError, match=r"file.a\[1\].b: 2 became 4"):
        kept({"a": [1, {"b": 4}]}, {"a": [1, {"b": 2}]}, "file")
    with pytest.raises(AssertionError, match="file.c is gone"):
        kept({"a": 1}, {"a": 1, "c": 2}, "file")


def test_kept_with_grown_records_allows_a_column_added_at_a_rows_end_only():
    kept([[[1, "3", 0], ["Ann"]]], [[[1, "3"], ["Ann"]]], "standings", grown=True)
    with pytest.raises(AssertionError, match="standings"):
        two = [[[1, "3"], ["Ann"]], [[2, "4"], ["Bo"]]]
        kept(two[:1], two, "standings", grown=True)
    with pytest.raises(AssertionError, match=r"standings\[0\]\[0\]\[1\]"):
        kept([[[1, "4", 0], ["Ann"]]], [[[1, "3"], ["Ann"]]], "standings", grown=True)
