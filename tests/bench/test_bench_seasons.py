"""The seasons benchmark runs small, prints every figure with its queries, and leaves nothing
behind (a smoke run); its queries stay the same whatever the number of players and
tournaments."""

from __future__ import annotations

import re

import pytest

from bench import seasons as seasons_bench
from seasons.models import Season
from tournaments.models import Game, Player, Tournament

LINE = re.compile(
    r"^(?P<figure>.+?) +(?P<ms>\d+\.\d\d) +(?P<queries>\d+)  (?P<floor>.+?) +"
    r"(?P<floor_ms>\d+\.\d\d) +(?P<ratio>\d+\.\d)× +(?P<goal>\S+)  (?P<verdict>ok|MISSED|info)$"
)


def run_small(capsys, players: int, tournaments: int) -> dict[str, re.Match[str]]:
    argv = ["--in-place", "--players", str(players), "--tournaments", str(tournaments)]
    assert seasons_bench.main([*argv, "--repeat", "1"]) == 0
    report = capsys.readouterr().out
    assert f"{players} players in all" in report
    assert "MISSED" not in report
    lines = {found["figure"]: found for found in map(LINE.match, report.splitlines()) if found}
    assert list(lines) == [figure.probe for figure in seasons_bench.FIGURES]
    return lines


@pytest.mark.django_db
def test_a_small_run_prints_every_figure_and_rolls_back(capsys):
    lines = run_small(capsys, players=8, tournaments=2)
    standings = lines["season standings"]
    assert standings["floor"] == "raw SQL of the season's seats"
    assert (standings["goal"], standings["verdict"]) == ("-", "info")
    assert lines["season poll, unchanged (204)"]["floor"] == "GET /health/"
    assert (Tournament.objects.count(), Player.objects.count(), Game.objects.count()) == (0, 0, 0)
    assert not Season.objects.exists()


@pytest.mark.django_db
def test_the_season_costs_the_same_queries_whatever_the_players_and_tournaments(capsys):
    small = run_small(capsys, players=8, tournaments=1)
    # Five tournaments and one private, left out of the public season.
    big = run_small(capsys, players=40, tournaments=6)
    queries = {name: int(line["queries"]) for name, line in small.items()}
    assert queries == {name: int(line["queries"]) for name, line in big.items()}
    assert queries == seasons_bench.MAX_QUERIES


@pytest.mark.django_db
def test_the_public_season_leaves_the_private_tournament_out(capsys):
    assert (
        seasons_bench.main(["--in-place", "--players", "8", "--tournaments", "5", "--repeat", "1"])
        == 0
    )
    assert "a season of 4 public tournaments (+1 private, left out)" in capsys.readouterr().out
