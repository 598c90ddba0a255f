"""The hot-path benchmark runs small and prints every figure with its queries (a smoke run).

Times and ratios are the benchmark's business, not a test's: only the queries and the shape
of the report are checked here, and that it cleans up after itself.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from bench import hotpath
from tournaments.models import Player, Round, Tournament

# The queries each figure and floor costs, whatever the size.
QUERIES = {
    "round submission (tables:sync)": 10,
    "ORM write of the round": 6,
    "table page, 100 rounds, follower": 5,
    "table page, 100 rounds, referee": 8,
    "raw SQL of the page's rows": 5,
    "table poll, unchanged (204)": 1,
    # The standings' version of a public tournament, read by slug before anything is loaded.
    "standings poll, unchanged (204)": 1,
    "GET /health/": 1,
    "standings": 2,
    "raw SQL of the finished seats": 1,
    # The tournament, its version and sessions: the standings' table is served as kept.
    "standings page": 3,
    # Served from the cache: the access check and the version, nothing rendered. A table's
    # poll first asks its version alone (what makes the unchanged poll cheap), then loads it.
    "table poll, changed (cached)": 2,
    "standings poll, changed (cached)": 2,
}
LINE = re.compile(
    r"^(?P<figure>.+?) +(?P<ms>\d+\.\d\d) +(?P<queries>\d+)  (?P<floor>.+?) +"
    r"(?P<floor_ms>\d+\.\d\d) +(?P<floor_queries>\d+) +(?P<ratio>\d+\.\d)× +(?P<goal>\S+(?: \S+)?)"
    r"  (?P<verdict>ok|MISSED|info)$"
)

# Whole benchmark runs (quick ones), seconds each (`make test`, CI).
pytestmark = pytest.mark.slow


@pytest.mark.django_db
def test_a_quick_run_prints_every_figure_with_its_queries(capsys):
    assert hotpath.main(["--quick", "--no-fail"]) == 0
    report = capsys.readouterr().out
    assert re.search(r"built: a 100-round game, 32 players × 2 sessions \(\d+ rounds\)", report)
    lines = {}
    for line in report.splitlines():
        found = LINE.match(line)
        if found:
            lines[found["figure"]] = found
    assert list(lines) == [figure.probe for figure in hotpath.FIGURES]
    for figure in hotpath.FIGURES:
        line = lines[figure.probe]
        assert line["floor"] == figure.floor
        assert int(line["queries"]) == QUERIES[figure.probe], line.group(0)
        assert int(line["floor_queries"]) == QUERIES[figure.floor], line.group(0)
        if figure.goal is None:
            assert (line["goal"], line["verdict"]) == ("-", "info")
        else:
            assert line["goal"].startswith(f"≤{figure.goal:g}×")
    assert "≤10q" in lines["round submission (tables:sync)"]["goal"]
    # Nothing left behind.
    assert Tournament.objects.count() == Player.objects.count() == Round.objects.count() == 0
    assert not get_user_model().objects.filter(username__startswith=hotpath.REFEREE).exists()


@pytest.mark.django_db
def test_a_missed_goal_exits_1_unless_told_only_to_report(capsys, monkeypatch):
    monkeypatch.setattr(
        hotpath,
        "FIGURES",
        (hotpath.Figure("GET /health/", "GET /health/", 0.01),),
    )
    assert hotpath.main(["--quick", "--repeat", "2"]) == 1
    assert "goals missed: GET /health/" in capsys.readouterr().out
    assert hotpath.main(["--quick", "--repeat", "2", "--no-fail"]) == 0
