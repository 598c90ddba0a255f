"""The code's floors: each app imports only the ones below it, and no module imports one that
imports it back (docs/architecture.md, "The floors").

    scoring ← tournaments ← hall, seasons ← printing ← notifications, api ← yaniv_club ← bench
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = (
    "scoring", "tournaments", "hall", "seasons", "printing", "notifications", "api", "yaniv_club",
    "bench",
)  # fmt: skip
# What each package may import of the others: the floors below it.
ALLOWED = {
    "scoring": set(),
    # The event and its tables: the tournament, sessions, seating, people, the games.
    "tournaments": {"scoring"},
    # The hall's screens and the seasons (with ratings and profiles) read the event.
    "hall": {"scoring", "tournaments"},
    "seasons": {"scoring", "tournaments"},
    # The PDFs and exports print the event and the seasons.
    "printing": {"scoring", "tournaments", "seasons"},
    # Notifications listen to the event's signals (the hall's message among them).
    "notifications": {"scoring", "tournaments", "hall"},
    # The public API reads the event and the seasons; only the project's URLs mount it.
    "api": {"scoring", "tournaments", "seasons"},
    "yaniv_club": {
        "scoring",
        "tournaments",
        "hall",
        "seasons",
        "printing",
        "notifications",
        "api",
    },
}
# The benchmarks, the top floor: they may measure any of the site; nothing imports them.
ALLOWED["bench"] = set(PACKAGES) - {"bench"}


def imported_packages(package: str) -> dict[str, set[str]]:
    """Module path → the project packages it imports, anywhere in the module."""
    found = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module.split(".")[0])
        found[str(path.relative_to(ROOT))] = (names & set(PACKAGES)) - {package}
    return found


def test_no_package_imports_one_that_imports_it():
    wrong = {
        module: sorted(imports - ALLOWED[package])
        for package in PACKAGES
        for module, imports in imported_packages(package).items()
        if imports - ALLOWED[package]
    }
    assert wrong == {}


# Tag libraries of Django and the third-party apps the tournaments' templates may load.
def template_references(app: str) -> dict[str, set[str]]:
    """Template path → the project apps its `{% load %}`s, `{% include %}`s and `{% extends %}`s
    reach, but its own (a tag library belongs to the app whose templatetags folder has it)."""
    libraries = {
        path.stem: package
        for package in PACKAGES
        for path in (ROOT / package / "templatetags").glob("*.py")
        if path.stem != "__init__"
    }
    found = {}
    for path in sorted((ROOT / "templates" / app).rglob("*.html")):
        text = path.read_text("utf-8")
        loaded = {
            name for names in re.findall(r"{%\s*load\s+([^%]+)%}", text) for name in names.split()
        }
        reached = {libraries[name] for name in loaded if name in libraries}
        reached |= set(re.findall(r"{%\s*(?:include|extends)\s+[\"']([a-z_]+)/", text))
        found[str(path.relative_to(ROOT))] = (reached & set(PACKAGES)) - {app}
    return found


def test_no_template_reaches_an_app_above_its_own():
    """The tournaments' pages name places (`{% slot %}`, tournaments.slots) that the seasons
    and the notifications fill: a template loads, includes or extends only what its app's
    modules may import."""
    wrong = {
        path: sorted(reached - ALLOWED[app])
        for app in ("tournaments", "hall", "seasons", "notifications")
        for path, reached in template_references(app).items()
        if reached - ALLOWED[app]
    }
    assert wrong == {}


def test_the_template_check_sees_a_template_reaching_up():
    tournament_page = template_references("tournaments")["templates/tournaments/tournament.html"]
    assert tournament_page == set()
    profile = template_references("seasons")["templates/seasons/profiles/player.html"]
    assert "tournaments" in profile  # it loads the tournaments' `yaniv` tags: a floor below


def test_every_module_of_the_engine_package_imports_no_django():
    modules = sorted(
        "scoring." + path.stem
        for path in (ROOT / "scoring").glob("*.py")
        if path.stem != "__init__"
    )
    assert {"scoring.rules", "scoring.sheet", "scoring.seating", "scoring.standings"} <= set(
        modules
    )
    code = (
        f"import sys, {', '.join(modules)}; "
        "sys.exit(any(m == 'django' or m.startswith('django.') for m in sys.modules))"
    )
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=False).returncode == 0


def module_imports() -> dict[str, set[str]]:
    """Module → the project's modules it imports (inside functions too), by dotted name."""
    files = {
        ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): path
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
    }
    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                # `from a.b import c`: a.b.c when it is a module, else a.b.
                names.update(
                    f"{node.module}.{alias.name}"
                    if f"{node.module}.{alias.name}" in files
                    else node.module
                    for alias in node.names
                )
        # A package's __init__ is not an import of the modules beside it.
        graph[module] = {name for name in names if name in files and name != module}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for imported in graph[module]:
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(10_000)
    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def test_no_module_imports_one_that_imports_it_back():
    graph = module_imports()
    assert len(graph) > 150
    assert circles(graph) == []


def test_the_circle_finder_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


# "No module over about 800 lines" (issue 24): a module past this is doing two things.
MOST_LINES = 850


def test_no_module_of_the_site_is_longer_than_about_800_lines():
    long = {
        str(path.relative_to(ROOT)): lines
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
        and (lines := len(path.read_text("utf-8").splitlines())) > MOST_LINES
    }
    assert long == {}
