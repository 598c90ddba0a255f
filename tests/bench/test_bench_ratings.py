"""The ratings benchmark runs small, checks the incremental updates against a full recompute,
prints every figure with its queries, and leaves nothing behind (a smoke run)."""

from __future__ import annotations

import re

import pytest

from bench import ratings as ratings_bench
from seasons.models import RatingChange
from tournaments.models import Game, Player, Tournament

LINE = re.compile(
    r"^(?P<figure>.+?) +(?P<ms>\d+\.\d\d) +(?P<queries>\d+)  (?P<floor>.+?) +"
    r"(?P<floor_ms>\d+\.\d\d) +(?P<ratio>\d+\.\d)× +(?P<goal>\S+)  (?P<verdict>ok|MISSED|info)$"
)


@pytest.mark.django_db
def test_a_small_run_prints_every_figure_and_rolls_back(capsys):
    argv = ["--in-place", "--games", "120", "--players", "24", "--repeat", "1", "--no-fail"]
    assert ratings_bench.main(argv) == 0
    report = capsys.readouterr().out
    assert "built: 120 games of 4 among 24 players (3 tournaments)" in report
    lines = {found["figure"]: found for found in map(LINE.match, report.splitlines()) if found}
    assert list(lines) == [figure.probe for figure in ratings_bench.FIGURES]
    recompute = lines["recompute_ratings"]
    assert recompute["floor"] == "openskill calls alone" and recompute["goal"] == "≤4×"
    # Read the games and their seats, delete, insert: a handful of queries whatever the size.
    assert int(recompute["queries"]) <= 12
    assert (Tournament.objects.count(), Player.objects.count(), Game.objects.count()) == (0, 0, 0)
    assert not RatingChange.objects.exists()


def test_a_tables_ranks_are_a_ranking_with_shared_places():
    rng = ratings_bench.random.Random(3)
    seen = [tuple(sorted(ratings_bench.table_ranks(rng))) for _ in range(300)]
    assert set(seen) <= {(1, 2, 3, 4), (1, 1, 3, 4), (1, 2, 2, 4), (1, 2, 3, 3)}
    assert (1, 2, 3, 4) in seen and len(set(seen)) > 1
