"""The score progression chart (tournaments.chart): the table page's SVG of a game's sheet."""

from __future__ import annotations

import pytest

from tests.factories import make_table, record
from tests.printing.test_printing import FOUR, ROUNDS
from tournaments.chart import progression_svg
from tournaments.sheets import GameSheet

pytestmark = pytest.mark.django_db


@pytest.fixture
def played():
    """A Belgian game of every kind of round, over in round 7."""
    table = make_table(FOUR)
    record(table.game, None, *ROUNDS)
    return table


def svg_of(table) -> str:
    return progression_svg(GameSheet.load(table.game).sheet)


def test_progression_svg_is_a_responsive_chart_with_the_limit(played):
    svg = svg_of(played)
    assert svg.startswith('<svg width="100%"') and "viewBox=" in svg
    assert "height=" not in svg[: svg.index(">")]
    for name in FOUR:
        assert name in svg
    assert "150: above it the game is over" in svg
    assert svg_of(make_table(("A", "B"))) == ""


def test_progression_svg_escapes_names():
    table = make_table(("<script>x</script>", "B&B"))
    record(table.game, None, {"hands": {"<script>x</script>": 1, "B&B": 9}, "yaniv": "B&B"})
    svg = svg_of(table)
    assert "<script>" not in svg and "&lt;script&gt;" in svg and "B&amp;B" in svg


def test_the_web_chart_is_drawn_without_reportlab(played, monkeypatch):
    """The table page's chart is our own SVG: reportlab draws only the PDF's."""
    from tournaments import chart

    def refused(*args, **kwargs):
        raise AssertionError("reportlab drew the web chart")

    for name in ("Drawing", "LinePlot", "LineLegend", "LineSwatch", "String"):
        monkeypatch.setattr(chart, name, refused)
    monkeypatch.setattr(chart.pdfmetrics, "stringWidth", refused)
    assert svg_of(played).startswith("<svg")
