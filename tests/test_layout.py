"""The packages' dependencies point one way: scoring ← tournaments ← notifications, api ←
yaniv_club."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("scoring", "tournaments", "notifications", "api", "yaniv_club")
# What each package may import of the others.
ALLOWED = {
    "scoring": set(),
    "tournaments": {"scoring"},
    # The public API reads the site's models and the engine's records; only the project's
    # URLs mount it.
    "api": {"scoring", "tournaments"},
    # Notifications listen to the tournaments' signals; tournaments never import them.
    "notifications": {"scoring", "tournaments"},
    "yaniv_club": {"scoring", "tournaments", "notifications", "api"},
}


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
NOT_OURS = {"i18n", "l10n", "tz", "static", "cache", "partials", "django_htmx"}


def test_the_tournaments_templates_load_only_their_own_and_third_party_tag_libraries():
    """The tournaments' pages name places (`{% slot %}`, tournaments.slots) that the
    notifications fill; they never load another project app's tags, as its modules are
    never imported."""
    own = {path.stem for path in (ROOT / "tournaments" / "templatetags").glob("*.py")}
    loaded = {
        str(path.relative_to(ROOT)): sorted(
            {
                name
                for names in re.findall(r"{%\s*load\s+([^%]+)%}", path.read_text())
                for name in names.split()
            }
            - own
            - NOT_OURS
        )
        for path in (ROOT / "templates" / "tournaments").rglob("*.html")
    }
    assert {path: names for path, names in loaded.items() if names} == {}


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
