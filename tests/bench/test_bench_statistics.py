"""The statistics benchmark runs small, prints every figure with its queries against the floor
of the same hands, and leaves nothing behind (a smoke run); its queries stay the same whatever
the history."""

from __future__ import annotations

import re

import pytest

from bench import statistics as statistics_bench
from seasons.models import Season
from tournaments.models import Game, Hand, Player, Tournament

LINE = re.compile(
    r"^(?P<figure>.+?) +(?P<ms>\d+\.\d\d) +(?P<queries>\d+)  (?P<floor>.+?) +"
    r"(?P<floor_ms>\d+\.\d\d) +(?P<ratio>\d+\.\d)× +(?P<goal>\S+)  (?P<verdict>ok|MISSED|info)$"
)


def run_small(capsys, games: int) -> dict[str, re.Match[str]]:
    argv = ["--in-place", "--games", str(games), "--repeat", "1", "--no-fail"]
    assert statistics_bench.main(argv) == 0
    report = capsys.readouterr().out
    assert f"built: {games} games of 4" in report
    # The ratio's goal is the full run's (a small run on a busy machine may miss it); the
    # queries' bounds hold at any size.
    for name in statistics_bench.MAX_QUERIES:
        assert re.search(rf"^{name}: \d+ queries at .*  ok$", report, re.M), name
    lines = {found["figure"]: found for found in map(LINE.match, report.splitlines()) if found}
    assert list(lines) == [figure.probe for figure in statistics_bench.FIGURES]
    for name, most in statistics_bench.MAX_QUERIES.items():
        assert f"{name}: {lines[name]['queries']} queries" in report
        assert int(lines[name]["queries"]) <= most
    return lines


@pytest.mark.django_db
def test_a_small_run_prints_every_figure_and_rolls_back(capsys):
    lines = run_small(capsys, games=24)
    figure = lines["player statistics"]
    assert figure["floor"] == "raw SQL of the player's hands" and figure["goal"] == "≤3×"
    assert lines["statistics page"]["verdict"] == "info"
    assert (Tournament.objects.count(), Player.objects.count(), Game.objects.count()) == (0, 0, 0)
    assert not Hand.objects.exists() and not Season.objects.exists()


@pytest.mark.django_db
def test_the_statistics_cost_the_same_queries_whatever_the_history(capsys):
    small = run_small(capsys, games=8)
    big = run_small(capsys, games=40)
    for name in statistics_bench.MAX_QUERIES:
        assert small[name]["queries"] == big[name]["queries"]


@pytest.mark.django_db
def test_one_tournament_in_five_is_private_and_left_out(capsys):
    # 40 games: 5 tournaments of 8 sessions, the fifth private.
    statistics_bench.main(["--in-place", "--games", "40", "--repeat", "1", "--no-fail"])
    assert "in 5 tournaments; 32 games in public ones" in capsys.readouterr().out
