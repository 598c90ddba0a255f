"""The static files as production collects them (yaniv_club/storage.py): our scripts and
stylesheets minified, hashed and compressed, the pages pointing at them, the same programs."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.templatetags.static import static
from django.test import override_settings

from tests.scoring.vectors import VECTORS_DIR
from yaniv_club.storage import minifier

SOURCE = Path(settings.BASE_DIR) / "static"
PRODUCTION = {
    **settings.STORAGES,
    "staticfiles": {"BACKEND": "yaniv_club.storage.MinifiedStaticFilesStorage"},
}


@pytest.fixture(scope="module")
def collected(tmp_path_factory):
    """collectstatic of the project's own folder (not the admin's or the API's: their files
    are not ours to minify, and they take long) into a folder of the test's own."""
    root = tmp_path_factory.mktemp("static")
    with override_settings(
        STATIC_ROOT=root,
        STORAGES=PRODUCTION,
        STATICFILES_FINDERS=["django.contrib.staticfiles.finders.FileSystemFinder"],
    ):
        call_command("collectstatic", interactive=False, verbosity=0)
        yield root


def served(root: Path, name: str) -> Path:
    """The file a page's {% static name %} points at, in the collected folder."""
    with override_settings(STATIC_ROOT=root, STORAGES=PRODUCTION):
        url = static(name)
    return root / url.removeprefix(settings.STATIC_URL).removeprefix("/")


@pytest.mark.parametrize("name", ["js/table.js", "js/yaniv-engine.js", "css/site.css"])
def test_the_pages_point_at_a_minified_hashed_copy_with_brotli_and_gzip_beside_it(collected, name):
    copy = served(collected, name)

    assert copy.name != Path(name).name, "the page's reference carries the content's hash"
    text = copy.read_text()
    assert len(text) < 0.8 * (SOURCE / name).stat().st_size
    assert "// " not in text and "/*" not in text.replace("/**/", "")
    assert copy.with_name(copy.name + ".br").stat().st_size < copy.stat().st_size / 3
    assert copy.with_name(copy.name + ".gz").is_file()


def test_a_library_minified_already_and_the_other_apps_files_are_left_as_they_are():
    assert minifier("vendor/idb-keyval/umd.js") is not None
    assert minifier("django_htmx/htmx-2.min.js") is None
    assert minifier("admin/js/vendor/jquery/jquery.js") is None
    assert minifier("ninja/swagger-ui-bundle.js") is None
    assert minifier("icons/icon.svg") is None


def node() -> str:
    path = shutil.which("node")
    if path:
        return path
    if os.environ.get("CI") == "true":
        pytest.fail("node is not installed: the minified scripts cannot be run")
    pytest.skip("node is not installed")


def test_every_minified_script_still_parses(collected):
    scripts = sorted(
        path
        for path in collected.rglob("*.js")
        if len(path.suffixes) == 2  # name.hash.js
    )
    assert len(scripts) >= 6
    for script in scripts:
        checked = subprocess.run([node(), "--check", str(script)], capture_output=True, text=True)
        assert checked.returncode == 0, f"{script.name}: {checked.stderr}"


# Both engines over the same records: every result as JSON, one line each.
COMPARE = """
const [source, minified] = process.argv.slice(1).map((path) => require(path));
const lines = require("fs").readFileSync(0, "utf8").split("\\n").filter(Boolean);
const scored = (engine, line) => {
  try {
    const game = engine.gameFromRecord(engine.parseJSON(line));
    return JSON.stringify(engine.scoreGame(game.players, game.rounds, game.ruleset));
  } catch (error) {
    return "error " + error.code;
  }
};
console.log(JSON.stringify(lines.map((line) => [scored(source, line), scored(minified, line)])));
"""


def test_the_minified_engine_scores_every_vector_as_the_source_does(collected):
    # Every preset's and option's games, scored and refused.
    files = sorted(VECTORS_DIR.rglob("*.json"))
    records = "\n".join(json.dumps(json.loads(path.read_text())["game"]) for path in files)
    answer = subprocess.run(
        [
            node(),
            "-e",
            COMPARE,
            str(SOURCE / "js" / "yaniv-engine.js"),
            str(served(collected, "js/yaniv-engine.js")),
        ],
        input=records,
        capture_output=True,
        text=True,
        check=True,
    )
    pairs = json.loads(answer.stdout)

    assert len(pairs) == len(files)
    assert sum(not source.startswith("error") for source, _ in pairs) >= 20
    assert [minified for _, minified in pairs] == [source for source, _ in pairs]
