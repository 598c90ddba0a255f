"""The statistics page's charts, drawn on the server as inline SVG (issue 38.5): no chart
library in the page, styled by attributes only (the Content-Security-Policy allows no inline
style), each an image with its figures in words for a screen reader (`aria-label`) and the
same figures in the page's tables below it.

- `calls_svg`: how the Yaniv calls went, a bar per tournament (the latest `MOST_BARS`) and
  one for all of them: held, caught going along, Assafs, false;
- `hands_svg`: the hands held when another player ended the round, by fives.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext

from scoring.statistics import HAND_BIN, HAND_BINS, YanivStats

# The Okabe–Ito colours (tournaments.chart), told apart by most eyes.
HELD, CAUGHT, ASSAF, FALSE = "#009E73", "#E69F00", "#D55E00", "#777777"
INK, GREY, GRID = "#1d2330", "#666666", "#dddddd"
MOST_BARS = 12
# A tournament's name longer than this is cut in the chart (the table has it whole).
NAME_LENGTH = 22


def _svg(width: int, height: int, label: str, title: str, parts: Sequence[str], kind: str):
    return mark_safe(  # noqa: S308 - every text below is escaped
        f'<svg width="100%" viewBox="0 0 {width} {height}" role="img"'
        f' aria-label="{html.escape(label)}" xmlns="http://www.w3.org/2000/svg"'
        f' font-family="system-ui, sans-serif" class="stats-chart {kind}">'
        f"<title>{html.escape(title)}</title>{''.join(parts)}</svg>"
    )


def _text(x: float, y: float, text: str, *, size: int = 11, anchor: str = "start", fill=INK):
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}"'
        f' fill="{fill}">{html.escape(text)}</text>'
    )


def _cut(name: str) -> str:
    return name if len(name) <= NAME_LENGTH else name[: NAME_LENGTH - 1] + "…"


def calls_words(stats: YanivStats) -> str:
    return gettext(
        "Yaniv calls: %(calls)s; held: %(held)s; caught going along: %(caught)s; "
        "Assaf: %(assafs)s; false: %(false)s"
    ) % {
        "calls": stats.calls,
        "held": stats.held,
        "caught": stats.caught,
        "assafs": stats.assafs,
        "false": stats.false_yanivs,
    }


def calls_svg(bars: Sequence[tuple[str, YanivStats]], *, width: int = 340) -> SafeString:
    """A bar per (name, figures), each cut into held, caught, Assafs and false calls, its
    length the number of calls; the legend under them. Empty without a call."""
    bars = [(name, stats) for name, stats in bars[: MOST_BARS + 1] if stats.calls]
    if not bars:
        return mark_safe("")
    label_width, row, top = 130, 22, 6
    plot = width - label_width - 34
    most = max(stats.calls for _, stats in bars)
    parts: list[str] = []
    for index, (name, stats) in enumerate(bars):
        y = top + index * row
        parts.append(_text(label_width - 6, y + 13, _cut(name), anchor="end"))
        x = float(label_width)
        for count, colour in (
            (stats.held, HELD),
            (stats.caught, CAUGHT),
            (stats.assafs, ASSAF),
            (stats.false_yanivs, FALSE),
        ):
            length = plot * count / most
            if length:
                parts.append(
                    f'<rect x="{x:.1f}" y="{y + 2}" width="{length:.1f}" height="{row - 6}"'
                    f' fill="{colour}"/>'
                )
            x += length
        parts.append(_text(x + 4, y + 13, str(stats.calls), fill=GREY))
    legend_top = top + len(bars) * row + 8
    keys = (
        (HELD, gettext("held")),
        (CAUGHT, gettext("caught going along")),
        (ASSAF, gettext("Assaf")),
        (FALSE, gettext("false")),
    )
    for index, (colour, words) in enumerate(keys):
        x, y = (index % 2) * (width // 2), legend_top + (index // 2) * 18
        parts.append(f'<rect x="{x + 2}" y="{y}" width="12" height="12" fill="{colour}"/>')
        parts.append(_text(x + 20, y + 10, words))
    height = legend_top + 2 * 18 + 4
    label = "; ".join(f"{name}: {calls_words(stats)}" for name, stats in bars)
    return _svg(width, height, label, gettext("How the Yaniv calls went"), parts, "calls-chart")


def bin_label(index: int) -> str:
    low = index * HAND_BIN
    return f"{low}+" if index == HAND_BINS - 1 else f"{low}–{low + HAND_BIN - 1}"


def hands_svg(stats: YanivStats, *, width: int = 340) -> SafeString:
    """The hands when not calling by fives, a column each, its height the share of those
    rounds. Empty without such a round."""
    rounds = stats.waiting_rounds
    if not rounds:
        return mark_safe("")
    left, top, plot_height = 30, 8, 130
    column = (width - left - 4) / HAND_BINS
    # The axis goes to the tens of percent just above the highest column.
    tenths = max(1, math.ceil(10 * max(stats.hand_bins) / rounds))
    axis = top + plot_height
    parts: list[str] = []
    for percent in range(0, 10 * tenths + 1, 10 if tenths <= 5 else 20):
        y = axis - plot_height * percent / (10 * tenths)
        parts.append(
            f'<line x1="{left}" y1="{y:.1f}" x2="{width - 4}" y2="{y:.1f}" stroke="{GRID}"'
            ' stroke-width="0.5"/>'
        )
        parts.append(_text(left - 4, y + 4, f"{percent}%", size=10, anchor="end", fill=GREY))
    for index, count in enumerate(stats.hand_bins):
        height = plot_height * 10 * count / rounds / tenths
        x = left + index * column
        parts.append(
            f'<rect x="{x + 2:.1f}" y="{axis - height:.1f}" width="{column - 4:.1f}"'
            f' height="{height:.1f}" fill="#0072B2"/>'
        )
        parts.append(_text(x + column / 2, axis + 13, bin_label(index), size=9, anchor="middle"))
    parts.append(
        _text(width - 4, axis + 30, gettext("points in hand"), size=10, anchor="end", fill=GREY)
    )
    most = max(range(HAND_BINS), key=lambda index: stats.hand_bins[index])
    label = ngettext(
        "Hands when another player ended the round, over %(rounds)s round: most often "
        "%(most)s points (%(share)s%%)",
        "Hands when another player ended the round, over %(rounds)s rounds: most often "
        "%(most)s points (%(share)s%%)",
        rounds,
    ) % {
        "rounds": rounds,
        "most": bin_label(most),
        "share": round(100 * stats.hand_bins[most] / rounds),
    }
    title = gettext("Hands when not calling")
    return _svg(width, axis + 36, label, title, parts, "hands-chart")
