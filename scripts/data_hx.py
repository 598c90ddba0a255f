"""Write htmx's attributes as `data-hx-*`, which HTML allows, instead of `hx-*`, which the Nu
HTML checker refuses (issue 33). htmx 2 reads both, so the pages behave the same.

Idempotent: an attribute written `data-hx-…` already is left alone, so the script can run
again after other branches are merged. It rewrites the templates, the Python that writes
attributes (`' hx-swap-oob="true"'`), the scripts and style sheets that read or select them
(`removeAttribute("hx-post")`, `[hx-get]`) and the tests that look for them. Only htmx's
attribute names are touched (not the `HX-Request` header, nor `htmx-…` classes).

    python scripts/data_hx.py           # rewrite, listing the files changed
    python scripts/data_hx.py --check   # list what would change; exit 1 if anything would
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Where attributes are written or read: the site's own files, not its virtualenv, the
# vendored htmx itself or what the tests vendor.
FOLDERS = (
    "templates",
    "tournaments",
    "hall",
    "seasons",
    "printing",
    "api",
    "notifications",
    "yaniv_club",
    "static/js",
    "static/css",
    "tests",
)
SUFFIXES = {".html", ".py", ".js", ".css"}
# The script and its test write bare attributes on purpose (what to rewrite).
SKIPPED = {"htmx.min.js", "htmx.js", "data_hx.py", "test_data_hx.py"}
# The htmx 2 attributes (https://htmx.org/reference/#attributes) but `hx-request`, which is
# also a request header's name in lower case.
ATTRIBUTES = (
    "boost|confirm|delete|disable|disabled-elt|disinherit|encoding|ext|get|headers|history|"
    "history-elt|include|indicator|inherit|params|patch|post|preserve|prompt|push-url|put|"
    "replace-url|select-oob|select|swap-oob|swap|sync|target|trigger|validate|vals|vars|on"
)
# `hx-name` not already after `data-` (nor inside another word), followed by what ends an
# attribute's name: `=`, a quote, `]`, a space or `:` (hx-on:click).
BARE = re.compile(rf"(?<![\w-])hx-({ATTRIBUTES})(?=[\s=\"'\]:>]|$)")


def rewritten(text: str) -> str:
    return BARE.sub(r"data-hx-\1", text)


def files() -> list[Path]:
    found = []
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in SUFFIXES and path.name not in SKIPPED and "vendor" not in path.parts:
                found.append(path)
    return found


def main(argv: list[str]) -> int:
    check = "--check" in argv
    changed = []
    for path in files():
        text = path.read_text(encoding="utf-8")
        new = rewritten(text)
        if new != text:
            changed.append(path.relative_to(ROOT))
            if not check:
                path.write_text(new, encoding="utf-8")
    for path in changed:
        print(path)
    return 1 if check and changed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
