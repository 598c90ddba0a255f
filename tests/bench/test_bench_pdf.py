"""The blank score sheets benchmark runs and cleans up after itself (a small size)."""

from __future__ import annotations

import re

import pytest

from bench import pdf
from tournaments.models import Player, Round, Tournament


@pytest.mark.django_db
def test_the_benchmark_times_the_sheets_and_leaves_nothing_behind(capsys):
    assert pdf.main(["--tables", "3"]) == 0
    report = capsys.readouterr().out
    assert re.search(r"blank score sheets: 3 tables of 8 in \d+\.\d+ s, \d+ KiB, 3 pages", report)
    assert (Tournament.objects.count(), Player.objects.count(), Round.objects.count()) == (0, 0, 0)
