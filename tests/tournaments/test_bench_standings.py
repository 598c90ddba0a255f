"""The standings benchmark command runs and cleans up after itself (a small size)."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command

from scoring.models import Round
from tournaments.models import Player, Tournament


@pytest.mark.django_db
def test_the_benchmark_reports_constant_queries_and_leaves_nothing_behind():
    out = io.StringIO()
    call_command("bench_standings", players=32, sessions=2, stdout=out)
    report = out.getvalue()
    assert re.search(r"built 32 players, 2 sessions, \d+ rounds", report)
    assert "standings overall: 32 players in" in report and ", 2 queries" in report
    assert re.search(r"standings page: .* 6 queries", report)
    assert "unchanged poll: HTTP 204" in report
    assert (Tournament.objects.count(), Player.objects.count(), Round.objects.count()) == (0, 0, 0)
