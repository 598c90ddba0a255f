"""The season standings for the wall: a line per player, a column per tournament counted.

Points not among a player's best N are printed struck through, as on the page. Up to six
tournaments the page stands upright; more need the width (landscape).
"""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext, ngettext
from reportlab.lib import colors
from reportlab.platypus import Flowable, KeepTogether, Spacer, Table, TableStyle

from printing.document import (
    GREY,
    LANDSCAPE,
    LINE,
    PORTRAIT,
    build,
    e,
    fitted,
    frame_size,
    p,
    title,
    when,
)
from scoring import seasons as season_rules
from seasons.models.seasons import SeasonTable
from seasons.templatetags.seasons import season_points as format_points
from tournaments.fonts import BOLD, FONT

UPRIGHT_UP_TO = 6


def _result(result: season_rules.Result | None) -> str:
    if result is None:
        return ""
    text = format_points(result.points)
    return text if result.counted else f"<strike>{text}</strike>"


def season_table(table: SeasonTable, width: float) -> Table:
    columns = [entry.tournament.name for entry in table.counted]
    fixed: list[float] = [28, 0, 44, 26] + [0.0] * len(columns)
    per_tournament = 40.0
    free = width - sum(fixed[:4]) - per_tournament * len(columns)
    fixed[1] = max(free, 120)
    if free < 120:
        per_tournament = max((width - sum(fixed[:4])) / max(len(columns), 1), 22)
    for index in range(len(columns)):
        fixed[4 + index] = per_tournament
    data: list[list[object]] = [
        [
            "#",
            gettext("Player"),
            gettext("Points"),
            fitted(gettext("Counted"), 26, 8),
            *(fitted(name, per_tournament - 4, 8) for name in columns),
        ]
    ]
    style = [
        ("FONT", (0, 0), (-1, -1), FONT, 9),
        ("FONT", (0, 0), (-1, 0), BOLD, 8),
        ("TEXTCOLOR", (0, 0), (-1, 0), GREY),
        ("ALIGN", (0, 0), (0, -1), "RIGHT"),
        ("ALIGN", (2, 0), (-1, -1), "RIGHT"),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LINEBELOW", (0, 0), (-1, 0), 1, colors.black),
        ("LINEBELOW", (0, 1), (-1, -1), 0.25, LINE),
        ("TOPPADDING", (0, 0), (-1, -1), 2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
    ]
    for index, row in enumerate(table.rows, start=1):
        standing = row.standing
        mark = "*" if standing.provisional else ""
        club = (
            f" <font size=7 color='#666666'>{e(row.player.club.name)}</font>"
            if row.player.club
            else ""
        )
        data.append(
            [
                str(standing.place),
                p(f"<b>{e(row.player.name)}</b>{club}", "cell"),
                p(f"<b>{format_points(standing.points)}</b>{mark}", "cell"),
                str(standing.counted),
                *(p(_result(result), "cell") for result in row.cells),
            ]
        )
        if index % 2 == 0:
            style.append(("BACKGROUND", (0, index), (-1, index), colors.HexColor("#f5f5f5")))
    printed = Table(data, colWidths=fixed, repeatRows=1)
    printed.setStyle(TableStyle(style))
    return printed


def scheme(table: SeasonTable) -> list[Flowable]:
    season = table.season
    lines = [
        p(gettext("How the season standings are made"), "h2"),
        p(e(gettext(season_rules.SCHEMES[season_rules.Scheme(season.scheme)])), "small"),
    ]
    if season.scheme == season.Scheme.TABLE:
        lines.append(
            p(
                gettext("Points per place: %(table)s.")
                % {"table": e(", ".join(map(str, season.points_table)))},
                "small",
            )
        )
    if season.best_of:
        lines.append(
            p(
                ngettext(
                    "Each player's best result counts; the others are struck through.",
                    # The season page's words (`counter`): one message in the catalogues.
                    "Each player's best %(counter)s results count; the others are struck through.",
                    season.best_of,
                )
                % {"counter": season.best_of},
                "small",
            )
        )
    lines += [
        p(e(gettext(season_rules.SHARED_PLACE)), "small"),
        p(
            gettext("Order: %(order)s. Players still equal share the place.")
            % {
                "order": e(
                    gettext("; then ").join(gettext(rule) for rule in season_rules.TIE_BREAKS)
                )
            },
            "small",
        ),
        p(
            e(
                gettext(
                    "* provisional: a tournament still being played, or a game not signed "
                    "off yet, may change these points."
                )
            ),
            "muted",
        ),
    ]
    coefficients = [
        f"{e(entry.tournament.name)} × {format_points(entry.coefficient)}"
        for entry in table.counted
        if entry.coefficient != 1
    ]
    if coefficients:
        lines.append(
            p(gettext("Coefficients: %(list)s.") % {"list": "; ".join(coefficients)}, "muted")
        )
    return lines


def season_standings_pdf(table: SeasonTable) -> bytes:
    season = table.season
    orientation = LANDSCAPE if len(table.counted) > UPRIGHT_UP_TO else PORTRAIT
    width, _ = frame_size(orientation)
    ranked = ngettext("%(count)s player ranked", "%(count)s players ranked", len(table.rows)) % {
        "count": len(table.rows)
    }
    tournaments = ngettext("%(count)s tournament", "%(count)s tournaments", len(table.counted)) % {
        "count": len(table.counted)
    }
    story: list[Flowable] = [
        title(e(season.name)),
        Spacer(0, 2),
        p(
            f"{tournaments} · {ranked} · "
            + gettext("as of %(when)s") % {"when": e(when(timezone.now()))}
        ),
        Spacer(0, 6),
    ]
    if table.rows:
        story.append(season_table(table, width))
    else:
        story.append(p(gettext("No tournament of the season has a finished game yet.")))
    story.append(KeepTogether(scheme(table)))
    label = gettext("season standings")
    return build(
        story,
        title=f"{season.name} · {label}",
        footer=f"{season.name} · {label}",
        first=orientation,
    )
