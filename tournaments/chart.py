"""The score progression chart: each player's total after every round.

Drawn with reportlab's own LinePlot: into the filled score sheet's PDF, and as inline SVG on
the table page. It reads the game's `ScoreSheet` and knows nothing of the PDFs.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence

from django.utils.translation import gettext, pgettext
from reportlab.graphics.charts.legends import LineLegend, LineSwatch
from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import Drawing, String
from reportlab.lib import colors
from reportlab.pdfbase import pdfmetrics

from scoring.sheet import ScoreSheet
from tournaments.fonts import FONT, register_fonts

RED = colors.HexColor("#c62828")
GREY = colors.HexColor("#666666")
# Players' lines: the Okabe–Ito colours, told apart by most eyes.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#8C564B")


def progression_drawing(
    sheet: ScoreSheet,
    *,
    width: float = 520,
    height: float = 240,
    font_size: float = 7,
) -> Drawing:
    """Each player's total after every round (from 0), with the end limit as a dashed line."""
    register_fonts()
    rows = sheet.rows
    players = list(sheet.players)
    limit, eliminates = sheet.ruleset.end_above, sheet.ruleset.eliminates
    series = [
        [(0, 0)] + [(row.number, row.cells[i].total) for row in rows] for i in range(len(players))
    ]
    last = max(1, len(rows))
    highest = max([total for line in series for _, total in line] + [0])
    top = max(limit + 50, math.ceil((highest + 1) / 50) * 50)

    if eliminates:
        limit_label = gettext("%(limit)s: above it a player is out") % {"limit": limit}
    else:
        limit_label = gettext("%(limit)s: above it the game is over") % {"limit": limit}
    labels = [*players, limit_label]
    columns = 4 if width / font_size >= 60 else 2
    line_height = font_size * 1.7
    # Fewer legend columns when long names (or a language's longer words) would not fit;
    # the drawing grows by the legend's extra rows instead.
    rows_wanted = math.ceil(len(labels) / columns)
    while columns > 1 and _legend_width(labels, columns, font_size) > width - font_size * 3.6:
        columns -= 1
    legend_rows = math.ceil(len(labels) / columns)
    height += (legend_rows - rows_wanted) * line_height
    legend_height = legend_rows * line_height + 4

    drawing = Drawing(width, height)
    plot = LinePlot()
    plot.x, plot.y = font_size * 3.6, legend_height + font_size * 3.2
    plot.width, plot.height = width - plot.x - font_size, height - plot.y - font_size
    plot.data = [*series, [(0, limit), (last, limit)]]
    plot.joinedLines = 1
    for index in range(len(players)):
        plot.lines[index].strokeColor = colors.HexColor(PALETTE[index % len(PALETTE)])
        plot.lines[index].strokeWidth = 1.6
    limit_line = plot.lines[len(players)]
    limit_line.strokeColor = RED
    limit_line.strokeWidth = 0.9
    limit_line.strokeDashArray = (4, 3)

    x_axis, y_axis = plot.xValueAxis, plot.yValueAxis
    x_axis.valueMin, x_axis.valueMax = 0, last
    most_labels = max(4, int(plot.width / (font_size * 3)))
    x_axis.valueStep = next(s for s in (1, 2, 5, 10, 20, 50, 100) if last / s <= most_labels)
    y_axis.valueMin, y_axis.valueMax, y_axis.valueStep = 0, top, 50
    for axis in (x_axis, y_axis):
        axis.labels.fontName = FONT
        axis.labels.fontSize = font_size
        axis.strokeColor = GREY
    x_axis.labelTextFormat = "%d"
    y_axis.labelTextFormat = "%d"
    y_axis.visibleGrid = True
    y_axis.gridStrokeColor = colors.HexColor("#dddddd")
    y_axis.gridStrokeWidth = 0.5
    drawing.add(plot)
    drawing.add(
        String(
            plot.x + plot.width,
            plot.y - font_size * 2.7,
            pgettext("chart axis", "round"),
            fontName=FONT,
            fontSize=font_size,
            textAnchor="end",
            fillColor=GREY,
        )
    )

    legend = LineLegend()
    legend.x, legend.y = plot.x, legend_height - 2
    legend.fontName, legend.fontSize = FONT, font_size
    legend.columnMaximum = legend_rows
    legend.variColumn = True
    legend.alignment = "right"  # the line's swatch, then the name
    legend.deltay = line_height
    legend.dx, legend.dy = font_size * 2.4, 2
    legend.dxTextSpace = font_size * 0.6
    legend.autoXPadding = font_size * 1.6
    legend.colorNamePairs = [
        (_swatch(PALETTE[index % len(PALETTE)]), name) for index, name in enumerate(players)
    ] + [(_swatch(RED, dashed=True), labels[-1])]
    drawing.add(legend)
    return drawing


def _legend_width(labels: Sequence[str], columns: int, font_size: float) -> float:
    """How wide the chart's legend is in `columns` columns, filled top to bottom."""
    rows = math.ceil(len(labels) / columns)
    swatch, space, padding = font_size * 2.4, font_size * 0.6, font_size * 1.6
    widths = [
        swatch + space + max(pdfmetrics.stringWidth(label, FONT, font_size) for label in column)
        for column in (labels[start : start + rows] for start in range(0, len(labels), rows))
    ]
    return sum(widths) + padding * (len(widths) - 1)


def _swatch(color: str | colors.Color, *, dashed: bool = False) -> LineSwatch:
    """A legend's sample of a chart line: its colour, width and dashes."""
    swatch = LineSwatch()
    swatch.strokeColor = colors.toColor(color)
    swatch.strokeWidth = 1.6
    swatch.strokeDashArray = [4, 3] if dashed else None
    return swatch


def chart_texts(end_above: int, eliminates: bool) -> dict[str, str]:
    """The chart's words: its title, its label for screen readers, the rounds' axis and the
    limit's line (the table page's script draws the same chart past the stored rounds)."""
    if eliminates:
        limit = gettext("%(limit)s: above it a player is out") % {"limit": end_above}
    else:
        limit = gettext("%(limit)s: above it the game is over") % {"limit": end_above}
    return {
        "title": gettext("Score progression"),
        "label": gettext("Score progression: each player's total after every round"),
        "axis": pgettext("chart axis", "round"),
        "limit": limit,
    }


def progression_svg(sheet: ScoreSheet, *, width: int = 320, font_size: int = 11) -> str:
    """The progression chart as an inline <svg> of our own, scaling to its container's width.

    Written by hand rather than by reportlab's renderer (a third of the table page's time):
    lines, labels and a legend, styled by attributes only (a strict Content-Security-Policy
    allows no inline styles). The PDF draws the same chart with `progression_drawing`.
    """
    if not sheet.rows:
        return ""
    players = list(sheet.players)
    limit, eliminates = sheet.ruleset.end_above, sheet.ruleset.eliminates
    series = [
        [0] + [row.cells[index].total for row in sheet.rows] for index in range(len(players))
    ]
    last = len(sheet.rows)
    highest = max([total for line in series for total in line] + [0])
    top = max(limit + 50, math.ceil((highest + 1) / 50) * 50)

    line_height = font_size + 6
    legend_rows = len(players) + 1
    left, right, plot_top = font_size * 3, 8, 8
    plot_height = 170
    axis = plot_top + plot_height
    height = axis + font_size * 3 + legend_rows * line_height
    plot_width = width - left - right

    def x(round_number: int) -> float:
        return left + plot_width * round_number / max(1, last)

    def y(total: int) -> float:
        return axis - plot_height * total / top

    parts: list[str] = []
    for total in range(0, top + 1, 50):
        parts.append(
            f'<line x1="{left}" y1="{y(total):.1f}" x2="{width - right}" y2="{y(total):.1f}"'
            ' stroke="#dddddd" stroke-width="0.5"/>'
            f'<text x="{left - 4}" y="{y(total) + font_size / 3:.1f}" text-anchor="end"'
            f' font-size="{font_size}" fill="#666666">{total}</text>'
        )
    step = next(s for s in (1, 2, 5, 10, 20, 50, 100) if last / s <= max(4, plot_width // 28))
    for number in range(0, last + 1, step):
        parts.append(
            f'<text x="{x(number):.1f}" y="{axis + font_size + 3}" text-anchor="middle"'
            f' font-size="{font_size}" fill="#666666">{number}</text>'
        )
    texts = chart_texts(limit, eliminates)
    axis_name = html.escape(texts["axis"])
    parts.append(
        f'<text x="{width - right}" y="{axis + 2 * font_size + 5}" text-anchor="end"'
        f' font-size="{font_size}" fill="#666666">{axis_name}</text>'
    )
    parts.append(
        f'<line x1="{left}" y1="{y(limit):.1f}" x2="{width - right}" y2="{y(limit):.1f}"'
        ' stroke="#c62828" stroke-width="1" stroke-dasharray="4 3"/>'
    )
    for index, line in enumerate(series):
        points = " ".join(f"{x(n):.1f},{y(total):.1f}" for n, total in enumerate(line))
        parts.append(
            f'<polyline points="{points}" fill="none" stroke="{PALETTE[index % len(PALETTE)]}"'
            ' stroke-width="2" stroke-linejoin="round"/>'
        )
    legend_top = axis + font_size * 3
    for index, label in enumerate([*players, texts["limit"]]):
        y_text = legend_top + index * line_height + font_size
        colour = PALETTE[index % len(PALETTE)] if index < len(players) else "#c62828"
        dash = ' stroke-dasharray="4 3"' if index == len(players) else ""
        parts.append(
            f'<line x1="{left}" y1="{y_text - font_size / 3:.1f}" x2="{left + 22}"'
            f' y2="{y_text - font_size / 3:.1f}" stroke="{colour}" stroke-width="2"{dash}/>'
            f'<text x="{left + 28}" y="{y_text}" font-size="{font_size}"'
            f' fill="#1d2330">{html.escape(label)}</text>'
        )
    title, label = html.escape(texts["title"]), html.escape(texts["label"])
    return (
        f'<svg width="100%" viewBox="0 0 {width} {height}" role="img" aria-label="{label}"'
        ' xmlns="http://www.w3.org/2000/svg" font-family="system-ui, sans-serif"'
        ' class="progression">'
        f"<title>{title}</title>{''.join(parts)}</svg>"
    )
