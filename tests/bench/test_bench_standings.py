"""The standings benchmark runs and cleans up after itself (a small size)."""

from __future__ import annotations

import re

import pytest

from bench import standings
from tournaments.models import Game, GameChange, Player, Round, Table, Tournament


@pytest.mark.django_db
def test_the_benchmark_reports_constant_queries_and_leaves_nothing_behind(capsys):
    assert standings.main(["--players", "32", "--sessions", "2"]) == 0
    report = capsys.readouterr().out
    assert re.search(r"built 32 players, 2 sessions, \d+ rounds", report)
    assert "standings overall: 32 players in" in report and ", 2 queries" in report
    # The first render: the sixth names the tables still playing (kept with the table after).
    assert re.search(r"standings page: .* 6 queries", report)
    # The version alone, read by slug before the tournament is loaded.
    assert re.search(r"unchanged poll: HTTP 204 in .* 1 queries", report)
    assert "unchanged poll: HTTP 204" in report
    assert (Tournament.objects.count(), Player.objects.count(), Round.objects.count()) == (0, 0, 0)


@pytest.mark.django_db
def test_the_tournament_is_stored_as_the_site_stores_games(capsys):
    """--keep: every table has its game, finished, its rounds scored by the engine."""
    assert standings.main(["--players", "8", "--sessions", "2", "--keep"]) == 0
    report = capsys.readouterr().out
    built = re.search(r"(\d+) rounds", report)
    assert built
    rounds = int(built.group(1))
    assert Round.objects.count() == rounds > 0
    assert Table.objects.count() == Game.objects.count() == 4
    for game in Game.objects.select_related("table__session__tournament"):
        rows = game.rows()
        result = game.score(rows)
        assert game.finished and result.finished
        assert {seat.pk: seat.total for seat in rows.seats} == {
            seat_id: result.totals[label] for seat_id, label in rows.labels.items()
        }
    # Stored as an import: no audit log of rounds typed in.
    assert not GameChange.objects.exists()
    standings.delete(Tournament.objects.get())
    assert (Tournament.objects.count(), Player.objects.count(), Round.objects.count()) == (0, 0, 0)
