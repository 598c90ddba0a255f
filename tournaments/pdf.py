"""Printable PDFs: blank and filled score sheets, standings, the tournament report.

Pure functions of model objects, each returning the PDF's bytes, drawn with
reportlab's platypus on A4. The text is set in DejaVu Sans, embedded (a subset),
so the suits ♠♥♦♣, arrows and every accented name print on any printer. The score
progression chart is drawn by reportlab's own LinePlot, in the filled sheet and,
as SVG, on the table page.

Every text is in the active language (the request's, set by the locale middleware),
dates and placement points too.
"""

from __future__ import annotations

import functools
import html
import io
import math
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from xml.sax.saxutils import escape

from django.db.models import Count, Prefetch
from django.utils import formats, timezone
from django.utils.translation import gettext, ngettext, pgettext
from reportlab.graphics import renderSVG
from reportlab.graphics.charts.legends import LineLegend, LineSwatch
from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import Drawing, String
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import (
    BaseDocTemplate,
    CondPageBreak,
    Flowable,
    Frame,
    KeepTogether,
    NextPageTemplate,
    PageBreak,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from scoring.rules import BELGIAN, FalseYaniv, Ruleset
from tournaments import models, texts
from tournaments.templatetags.yaniv import mark_letter
from tournaments.templatetags.yaniv import points as format_points

FONTS = Path(__file__).resolve().parent / "fonts"
FONT, BOLD = "DejaVuSans", "DejaVuSans-Bold"

PORTRAIT, LANDSCAPE = "portrait", "landscape"
SIDE, TOP, BOTTOM = 10 * mm, 10 * mm, 12 * mm

# Rounds a blank sheet has room for: at least 25 (a long game), more when upright.
BLANK_ROUNDS = {PORTRAIT: 30, LANDSCAPE: 25}
ROUND_COLUMN = 24
MAX_ROW = 20  # points: the tallest a blank round row gets

RED = colors.HexColor("#c62828")
GREY = colors.HexColor("#666666")
LINE = colors.HexColor("#9a9a9a")
SOFT = colors.HexColor("#eeeeee")
MARKS = {
    # A hand's shading on the sheet, as on the table page (the letter: `mark_letter`).
    "caller": colors.HexColor("#dff3e8"),
    "empty": colors.HexColor("#dff3e8"),
    "along": colors.HexColor("#e6edff"),
    "false": colors.HexColor("#fbe3e1"),
    "assaf": colors.HexColor("#fbe3e1"),
}
# Players' lines in the chart: the Okabe–Ito colours, told apart by most eyes.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#8C564B")
SUITS = '♠<font color="#c62828">♥♦</font>♣'


# --- fonts, styles, the document ---------------------------------------------------


@functools.cache
def register_fonts() -> None:
    """DejaVu Sans as reportlab TrueType fonts: embedded in every PDF that uses them."""
    pdfmetrics.registerFont(TTFont(FONT, str(FONTS / "DejaVuSans.ttf")))
    pdfmetrics.registerFont(TTFont(BOLD, str(FONTS / "DejaVuSans-Bold.ttf")))
    pdfmetrics.registerFontFamily(FONT, normal=FONT, bold=BOLD, italic=FONT, boldItalic=BOLD)


@functools.cache
def _styles() -> dict[str, ParagraphStyle]:
    register_fonts()
    body = ParagraphStyle("body", fontName=FONT, fontSize=9, leading=11.5)
    return {
        "title": ParagraphStyle("title", body, fontName=BOLD, fontSize=16, leading=20),
        "h2": ParagraphStyle(
            "h2", body, fontName=BOLD, fontSize=12, leading=15, spaceBefore=8, spaceAfter=3
        ),
        "body": body,
        "small": ParagraphStyle("small", body, fontSize=7.5, leading=9.5),
        "muted": ParagraphStyle("muted", body, fontSize=7.5, leading=9.5, textColor=GREY),
        "cell": ParagraphStyle("cell", body, fontSize=8, leading=9.5),
        "head": ParagraphStyle("head", body, fontSize=8, leading=9.5, alignment=TA_CENTER),
        "wall": ParagraphStyle("wall", body, fontSize=10, leading=12),
    }


def _p(text: str, style: str = "body") -> Paragraph:
    """A paragraph of reportlab markup (escape what comes from users)."""
    return Paragraph(text, _styles()[style])


def _e(text: object) -> str:
    return escape(str(text))


def _when(moment) -> str:
    return formats.date_format(timezone.localtime(moment), "SHORT_DATETIME_FORMAT")


def _day(date) -> str:
    return formats.date_format(date, "DATE_FORMAT")


def _page_size(orientation: str) -> tuple[float, float]:
    return landscape(A4) if orientation == LANDSCAPE else A4


def _frame_size(orientation: str) -> tuple[float, float]:
    width, height = _page_size(orientation)
    return width - 2 * SIDE, height - TOP - BOTTOM


def _build(story: list[Flowable], *, title: str, footer: str, first: str = PORTRAIT) -> bytes:
    """Lay out the story on A4 pages (portrait or landscape by NextPageTemplate)."""
    register_fonts()
    printed = _when(timezone.now())

    def decorate(canvas, document) -> None:
        width, _ = canvas._pagesize
        canvas.saveState()
        canvas.setFont(FONT, 7)
        canvas.setFillColor(GREY)
        canvas.drawString(SIDE, 5 * mm, f"Yaniv Club · {footer}")
        canvas.drawRightString(
            width - SIDE,
            5 * mm,
            gettext("printed %(when)s · page %(page)s") % {"when": printed, "page": document.page},
        )
        canvas.restoreState()

    templates = []
    for orientation in (PORTRAIT, LANDSCAPE):
        frame_width, frame_height = _frame_size(orientation)
        frame = Frame(SIDE, BOTTOM, frame_width, frame_height, 0, 0, 0, 0, id=orientation)
        templates.append(
            PageTemplate(
                id=orientation,
                frames=[frame],
                onPage=decorate,
                pagesize=_page_size(orientation),
            )
        )
    if first == LANDSCAPE:
        templates.reverse()
    buffer = io.BytesIO()
    document = BaseDocTemplate(
        buffer,
        pagesize=_page_size(first),
        title=title,
        author="Yaniv Club",
        creator="Yaniv Club",
        subject=footer,
        pageTemplates=templates,
    )
    document.build(story)
    return buffer.getvalue()


def page_count(pdf: bytes) -> int:
    """How many pages a PDF written by reportlab has (its page objects)."""
    return len(re.findall(rb"/Type /Page\b(?!s)", pdf))


def _players(count: int) -> str:
    return ngettext("%(count)s player", "%(count)s players", count) % {"count": count}


def _rounds(count: int) -> str:
    return ngettext("%(count)s round", "%(count)s rounds", count) % {"count": count}


def _decks(ruleset: Ruleset, player_count: int) -> str:
    count = ruleset.decks(player_count)
    return ngettext("%(count)s deck", "%(count)s decks", count) % {"count": count}


def _orientation(player_count: int) -> str:
    """Up to 4 players a sheet stands upright; 5 to 8 need the width."""
    return LANDSCAPE if player_count > 4 else PORTRAIT


def _title(text: str) -> Paragraph:
    return _p(f"{SUITS} {text}", "title")


def _height(flowable: Flowable, width: float) -> float:
    return flowable.wrap(width, 10_000)[1]


# --- the rules box -----------------------------------------------------------------


def rules_lines(ruleset: Ruleset) -> list[str]:
    """What matters at the table, with the ruleset's numbers (reportlab markup)."""
    others = (
        gettext("everyone else scores 0")
        if ruleset.false_yaniv is FalseYaniv.OTHERS_SCORE_ZERO
        else gettext("everyone else scores their hand")
    )
    penalty = ruleset.along_penalty
    lines = [
        gettext(
            "<b>Yaniv</b> with a hand of <b>%(limit)s or less</b>: the caller scores 0, "
            "everyone else their hand."
        )
        % {"limit": ruleset.yaniv_limit},
    ]
    if ruleset.automatic_assaf:
        lines.append(
            gettext(
                "<b>Assaf</b>: another hand with the same or fewer points than the caller's: "
                "the caller scores their hand <b>+%(penalty)s</b>, everyone else their hand."
            )
            % {"penalty": ruleset.assaf_penalty}
        )
        if ruleset.assaf_lowest_scores_zero:
            lines.append(gettext("In an Assaf, the lowest hand scores 0."))
    else:
        lines.append(
            gettext(
                "<b>Along</b>: the same or fewer points than the caller: 0, and the caller "
                "+%(penalty)s; more points: <b>%(penalty)s</b>."
            )
            % {"penalty": penalty}
        )
    if ruleset.scores_false_yaniv:
        lines.append(
            gettext(
                "<b>False Yaniv</b> (above %(limit)s): the caller scores <b>%(penalty)s + the "
                "left neighbour's hand</b> (the next seat clockwise); %(others)s."
            )
            % {
                "limit": ruleset.yaniv_limit,
                "penalty": ruleset.false_yaniv_penalty,
                "others": others,
            }
        )
    else:
        lines.append(gettext("<b>No Yaniv above %(limit)s.</b>") % {"limit": ruleset.yaniv_limit})
    lines.append(gettext("<b>Emptied hand</b>: that player 0, everyone else their hand."))
    totals = ruleset.reduction_totals
    if totals and ruleset.reduction is not None:
        example_from = totals[len(totals) // 2]
        lines.append(
            gettext(
                "<b>Exactly %(totals)s</b> after a round with points: <b>−%(reduction)s</b>, "
                "once a round (write %(before)s → %(after)s)."
            )
            % {
                "totals": "/".join(str(total) for total in totals),
                "reduction": ruleset.reduction,
                "before": example_from,
                "after": example_from - ruleset.reduction,
            }
        )
    elif totals:
        steps = ", ".join(f"{total} → {becomes}" for total, becomes in ruleset.reduction_steps)
        lines.append(
            gettext("<b>Exactly</b> after a round with points, once a round: <b>%(steps)s</b>.")
            % {"steps": steps}
        )
    if ruleset.eliminates:
        lines.append(
            gettext(
                "<b>Out</b> after the round in which a player is <b>above %(end)s</b>; "
                "the last player left wins."
            )
            % {"end": ruleset.end_above}
        )
    else:
        lines.append(
            gettext(
                "<b>Game over</b> after the round in which anyone is <b>above %(end)s</b>; "
                "the lowest total wins."
            )
            % {"end": ruleset.end_above}
        )
    if ruleset.automatic_assaf:
        lines.append(
            gettext(
                "Marks: <b>%(caller)s</b> Yaniv · <b>%(assaf)s</b> Assaf · <b>%(empty)s</b> "
                "emptied hand. 1 deck for 2–%(players)s players, 2 decks for more."
            )
            % {
                "caller": mark_letter("caller"),
                "assaf": mark_letter("assaf"),
                "empty": mark_letter("empty"),
                "players": ruleset.one_deck_up_to,
            }
        )
    else:
        lines.append(
            gettext(
                "Marks: <b>%(caller)s</b> Yaniv · <b>%(along)s</b> along · <b>%(empty)s</b> "
                "emptied hand. 1 deck for 2–%(players)s players, 2 decks for more."
            )
            % {
                "caller": mark_letter("caller"),
                "along": mark_letter("along"),
                "empty": mark_letter("empty"),
                "players": ruleset.one_deck_up_to,
            }
        )
    return lines


def _rules_box(ruleset: Ruleset, width: float, columns: int) -> Table:
    lines = [_p(line, "small") for line in rules_lines(ruleset)]
    # Fill the columns in order, each up to an equal share of the text's height.
    heights = [_height(line, width / columns - 8) for line in lines]
    share = sum(heights) / columns
    cells: list[list[Flowable]] = [[]]
    filled = 0.0
    for line, height in zip(lines, heights, strict=True):
        if cells[-1] and filled + height / 2 > share and len(cells) < columns:
            cells.append([])
            filled = 0.0
        cells[-1].append(line)
        filled += height
    cells += [[] for _ in range(columns - len(cells))]
    box = Table([cells], colWidths=[width / columns] * columns)
    box.setStyle(
        TableStyle(
            [
                ("BOX", (0, 0), (-1, -1), 0.8, colors.black),
                ("BACKGROUND", (0, 0), (-1, -1), colors.HexColor("#f7f7f7")),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 4),
                ("RIGHTPADDING", (0, 0), (-1, -1), 4),
                ("TOPPADDING", (0, 0), (-1, -1), 3),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
            ]
        )
    )
    return box


# --- score sheets --------------------------------------------------------------------


def _sheet_widths(width: float, count: int) -> list[float]:
    """The round column, then per player: mark, points, total."""
    per = (width - ROUND_COLUMN) / count
    return [ROUND_COLUMN] + [per * 0.2, per * 0.34, per * 0.46] * count


def _name_size(name: str, width: float, size: float = 8, smallest: float = 5.5) -> float:
    """The font size at which the name's longest word fits the column (no broken words)."""
    longest = max((pdfmetrics.stringWidth(word, BOLD, size) for word in name.split()), default=0)
    return max(smallest, min(size, size * width / longest)) if longest else size


def _sheet_head(seats: Sequence, widths: list[float], mark: str | None = None) -> list[list]:
    if mark is None:
        mark = f"{mark_letter('caller')}/{mark_letter('along')}"
    names = [""]
    room = sum(widths[1:4]) - 6
    for seat in seats:
        size = _name_size(f"{seat.position} · {seat.player.name}", room)
        names += [
            _p(
                f"<font size={size:.1f}>{seat.position} · <b>{_e(seat.player.name)}</b></font>",
                "head",
            ),
            "",
            "",
        ]
    labels = [
        mark,
        pgettext("score sheet column", "points"),
        pgettext("score sheet column", "total"),
    ]
    fitted = [
        _fitted(label, width - 4, 6.5) for label, width in zip(labels, widths[1:4], strict=True)
    ]
    column = _fitted(pgettext("score sheet column", "round"), ROUND_COLUMN - 4, 6.5)
    return [names, [column] + fitted * len(seats)]


def _fitted(text: str, width: float, size: float) -> str | Paragraph:
    """A grid cell's label, set smaller when a language's word is wider than its column."""
    needed = pdfmetrics.stringWidth(text, FONT, size)
    if needed <= width:
        return text
    smaller = max(4, size * width / needed)
    style = ParagraphStyle(
        "fitted", _styles()["head"], fontSize=smaller, leading=smaller + 1, textColor=GREY
    )
    return Paragraph(_e(text), style)


def _sheet_style(count: int, rows: int, head: int = 2) -> list[tuple]:
    style: list[tuple] = [
        ("FONT", (0, 0), (-1, -1), FONT, 8),
        ("FONT", (0, 1), (-1, 1), FONT, 6.5),
        ("TEXTCOLOR", (0, 1), (-1, 1), GREY),
        ("ALIGN", (0, 0), (-1, -1), "CENTER"),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("GRID", (0, 0), (-1, -1), 0.35, LINE),
        ("BOX", (0, 0), (-1, -1), 1, colors.black),
        ("BACKGROUND", (0, 0), (-1, head - 1), SOFT),
        ("LINEBELOW", (0, head - 1), (-1, head - 1), 1, colors.black),
        ("LINEAFTER", (0, 0), (0, -1), 1, colors.black),
        ("TOPPADDING", (0, 0), (-1, -1), 1),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
        ("LEFTPADDING", (0, 0), (-1, -1), 2),
        ("RIGHTPADDING", (0, 0), (-1, -1), 2),
    ]
    for index in range(count):
        first = 1 + 3 * index
        style += [
            ("SPAN", (first, 0), (first + 2, 0)),
            ("LINEAFTER", (first + 2, 0), (first + 2, -1), 1, colors.black),
        ]
    # A firmer line every 5 rounds helps the eye along the rows.
    for number in range(5, rows, 5):
        style.append(("LINEBELOW", (0, head - 1 + number), (-1, head - 1 + number), 0.8, GREY))
    return style


def _blank_sheet(table, tournament, session, ruleset: Ruleset, orientation: str) -> list:
    """One table's blank sheet: a single page, measured to fill the frame."""
    seats = list(table.seats.all())
    count = max(len(seats), 1)
    width, height = _frame_size(orientation)
    referee = table.referee.get_username() if table.referee else ""
    title = _title(_sheet_title(table, session, tournament))
    facts = _p(
        f"{_e(_day(tournament.starts_on))}"
        + (f" · {_e(tournament.venue)}" if tournament.venue else "")
        + f" · <b>{_players(len(seats))} · {_decks(ruleset, len(seats))}</b>"
        + " · "
        + gettext("referee <b>%(referee)s</b>")
        % {"referee": _e(referee) if referee else "____________________"}
        + " · "
        + gettext(
            "seats clockwise: each player's left neighbour is the next seat, "
            "seat %(last)s's is seat 1"
        )
        % {"last": len(seats)}
    )
    widths = _sheet_widths(width, count)
    head = _sheet_head(seats, widths)
    rounds = BLANK_ROUNDS[orientation]
    blank = [""] * (3 * count)
    data = head + [[str(number)] + blank for number in range(1, rounds + 1)]
    data.append([_fitted(pgettext("score sheet row", "rank"), ROUND_COLUMN - 4, 7)] + blank)
    data.append([_p(gettext("sign&shy;ature"), "head")] + blank)

    referee_box = Table(
        [
            [_p(gettext("<b>Referee</b>: %(referee)s") % {"referee": _e(referee)}, "small")],
            [""],
            [gettext("signature")],
        ],
        colWidths=[width * 0.22],
        rowHeights=[None, 20, None],
    )
    referee_box.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), FONT, 7),
                ("TEXTCOLOR", (0, 2), (0, 2), GREY),
                ("LINEBELOW", (0, 1), (0, 1), 0.6, colors.black),
                ("BOX", (0, 0), (-1, -1), 0.8, colors.black),
            ]
        )
    )
    columns = 3 if orientation == LANDSCAPE else 2
    rules_box = _rules_box(ruleset, width * 0.78 - 6, columns)
    bottom = Table([[rules_box, referee_box]], colWidths=[width * 0.78, width * 0.22])
    bottom.setStyle(
        TableStyle(
            [("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), 0)]
            + [("RIGHTPADDING", (0, 0), (-1, -1), 0), ("LEFTPADDING", (1, 0), (1, 0), 6)]
        )
    )

    # Measure what is not a round row; the rounds share the rest of the page.
    names_height = max(
        (_height(cell, sum(widths[1:4]) - 4) for cell in head[0] if isinstance(cell, Paragraph)),
        default=10,
    )
    sub_height, rank_height, signature_height = 10, 14, 26
    fixed = (
        _height(title, width)
        + _height(facts, width)
        + 8  # spacers
        + names_height
        + 4
        + sub_height
        + rank_height
        + signature_height
        + _height(bottom, width)
        + 6
    )
    row = min(MAX_ROW, (height - fixed - 4) / rounds)
    grid = Table(
        data,
        colWidths=widths,
        rowHeights=[names_height + 4, sub_height]
        + [row] * rounds
        + [rank_height, signature_height],
    )
    style = _sheet_style(count, rounds)
    style += [
        ("FONT", (0, 2), (0, -1), FONT, 7),
        ("TEXTCOLOR", (0, 2), (0, -1), GREY),
        ("BACKGROUND", (0, -2), (-1, -1), SOFT),
    ]
    for index in range(count):
        first = 1 + 3 * index
        style += [
            ("BACKGROUND", (first, 2), (first, -3), colors.HexColor("#f4f4f4")),
            ("SPAN", (first, -2), (first + 2, -2)),
            ("SPAN", (first, -1), (first + 2, -1)),
            ("BACKGROUND", (first, -1), (first + 2, -1), colors.white),
            ("BACKGROUND", (first, -2), (first + 2, -2), colors.white),
        ]
    grid.setStyle(TableStyle(style))
    return [title, Spacer(0, 2), facts, Spacer(0, 6), grid, Spacer(0, 6), bottom]


def blank_score_sheets(session) -> bytes:
    """Every table of a session on its own page, ready for the referee's pen."""
    tournament = session.tournament
    ruleset = tournament.ruleset
    tables = list(
        session.tables.select_related("referee")
        .prefetch_related("seats__player")
        .order_by("number")
    )
    story: list[Flowable] = []
    first = PORTRAIT
    for index, table in enumerate(tables):
        orientation = _orientation(len(table.seats.all()))
        if index == 0:
            first = orientation
        else:
            story += [NextPageTemplate(orientation), PageBreak()]
        story += _blank_sheet(table, tournament, session, ruleset, orientation)
    if not tables:
        story = [
            _title(gettext("Score sheets · session %(number)s") % {"number": session.number}),
            _p(
                gettext("%(name)s: the seating of this session is not drawn yet.")
                % {"name": _e(tournament.name)}
            ),
        ]
    label = gettext("%(name)s · session %(number)s · score sheets") % {
        "name": tournament.name,
        "number": session.number,
    }
    return _build(story, title=label, footer=label, first=first)


def _total_text(cell) -> str:
    if cell.reduction:
        return f"{cell.arrived} → {cell.total}"
    return str(cell.total)


def _game_state(game, round_count: int) -> str:
    rounds = _rounds(round_count)
    if game.ended_at_time_limit:
        state = gettext("ended at the time limit after %(rounds)s") % {"rounds": rounds}
    elif game.finished:
        state = gettext("game over after %(rounds)s") % {"rounds": rounds}
    elif round_count:
        return gettext("in progress: %(rounds)s recorded") % {"rounds": rounds}
    else:
        return gettext("not started")
    if game.signed_off_at:
        return state + " · " + gettext("signed off")
    return state + " · " + gettext("provisional (not signed off)")


def _who(user, table, show_names: bool) -> str:
    """An account as a follower may read it: its name, or only its role at the table."""
    if user is None:
        return gettext("someone")
    if show_names:
        return user.get_username()
    return gettext("the referee") if user.pk == table.referee_id else gettext("a director")


def _change_line(change, table, show_names: bool) -> str:
    who = _e(_who(change.user, table, show_names))
    when = _e(_when(change.at))
    reason = gettext(": “%(reason)s”") % {"reason": _e(change.reason)} if change.reason else ""
    if change.action == "end":
        line = gettext("<b>Game ended at the time limit</b> by %(who)s") % {"who": who}
    else:
        line = gettext("<b>Round %(number)s %(action)s</b> by %(who)s") % {
            "number": change.round_number,
            "action": change.get_action_display(),
            "who": who,
        }
    line += f" ({when}){reason}"
    if change.before:
        before = gettext("before: %(entries)s") % {"entries": _e(change.before_text)}
        line += f"<br/><font color='#666666'>{before}</font>"
    if change.after and change.action != "record":
        after = gettext("after: %(entries)s") % {"entries": _e(change.after_text)}
        line += f"<br/><font color='#666666'>{after}</font>"
    return line


def _signature_lines(labels: Sequence[str], width: float, columns: int = 3) -> Table:
    gap = 14
    cell = (width - gap * (columns - 1)) / columns
    widths = []
    for index in range(columns):
        widths += [cell] if index == 0 else [gap, cell]
    data, style = [], [("FONT", (0, 0), (-1, -1), FONT, 7.5), ("VALIGN", (0, 0), (-1, -1), "TOP")]
    for start in range(0, len(labels), columns):
        row = list(labels[start : start + columns])
        line = len(data)
        data.append([""] * len(widths))
        names = []
        for index in range(columns):
            if index:
                names.append("")
            names.append(_p(row[index], "small") if index < len(row) else "")
            if index < len(row):
                style.append(
                    ("LINEBELOW", (2 * index, line), (2 * index, line), 0.6, colors.black)
                )
        data.append(names)
    table = Table(data, colWidths=widths, rowHeights=[24, None] * (len(data) // 2))
    table.setStyle(TableStyle(style))
    return table


def filled_score_sheet(game, *, show_names: bool = True) -> bytes:
    """A game's sheet as recorded: rounds, result, corrections, signatures and a chart.

    Without `show_names` (for followers) no account name is printed: the referee and
    directors appear by their role, as on the table page.
    """
    table = game.table
    session = table.session
    tournament = session.tournament
    sheet = game.sheet()
    rows = sheet.rows()
    seats = sheet.seats
    count = max(len(seats), 1)
    orientation = _orientation(len(seats))
    width, _ = _frame_size(orientation)
    referee = table.referee.get_username() if table.referee and show_names else ""
    story: list[Flowable] = [
        _title(_sheet_title(table, session, tournament)),
        Spacer(0, 2),
        _p(
            f"{_e(_day(tournament.starts_on))}"
            + (f" · {_e(tournament.venue)}" if tournament.venue else "")
            + f" · {_players(len(seats))} · {_decks(game.ruleset, len(seats))}"
            + (
                " · " + gettext("referee <b>%(referee)s</b>") % {"referee": _e(referee)}
                if referee
                else ""
            )
            + f" · <b>{_e(_game_state(game, len(rows)))}</b>"
        ),
        Spacer(0, 6),
    ]

    widths = _sheet_widths(width, count)
    data = _sheet_head(seats, widths, mark=pgettext("score sheet column", "mark"))
    style = _sheet_style(count, len(rows) + 1)
    for row in rows:
        y = len(data)
        flag = {"false_yaniv": "false", "empty_hand": "empty", "assaf": "assaf"}.get(row.kind)
        line = [f"{row.number} {mark_letter(flag)}" if flag else str(row.number)]
        for index, cell in enumerate(row.cells):
            shade = MARKS.get(cell.mark)
            if cell.out:
                # Out of the game (elimination): no hand.
                line += ["", "", ""]
                style.append(("BACKGROUND", (1 + 3 * index, y), (3 + 3 * index, y), SOFT))
                continue
            line += [mark_letter(cell.mark), f"+{cell.points}", _total_text(cell)]
            first = 1 + 3 * index
            if shade is not None:
                style.append(("BACKGROUND", (first, y), (first + 2, y), shade))
            if cell.reduction:
                style.append(("FONT", (first + 2, y), (first + 2, y), BOLD, 8))
        if row.kind == "false_yaniv":
            style.append(("TEXTCOLOR", (0, y), (0, y), RED))
        data.append(line)
    if not rows:
        data.append(["—"] + [""] * (3 * count))
    total_row, rank_row = len(data), len(data) + 1
    data.append(
        [_fitted(pgettext("score sheet row", "total"), ROUND_COLUMN - 4, 7)]
        + [part for seat in seats for part in (str(seat.total), "", "")]
    )
    data.append(
        [_fitted(pgettext("score sheet row", "rank"), ROUND_COLUMN - 4, 7)]
        + [part for seat in seats for part in (_rank(game, seat), "", "")]
    )
    style += [
        ("BACKGROUND", (0, total_row), (-1, rank_row), SOFT),
        ("LINEABOVE", (0, total_row), (-1, total_row), 1, colors.black),
        ("FONT", (0, total_row), (-1, rank_row), BOLD, 8.5),
        ("FONT", (0, total_row), (0, rank_row), FONT, 7),
    ]
    for index in range(count):
        first = 1 + 3 * index
        style += [
            ("SPAN", (first, total_row), (first + 2, total_row)),
            ("SPAN", (first, rank_row), (first + 2, rank_row)),
        ]
    grid = Table(
        data, colWidths=widths, repeatRows=2, rowHeights=[None, 10] + [13] * (len(data) - 2)
    )
    grid.setStyle(TableStyle(style))
    story += [
        grid,
        Spacer(0, 3),
        _p(
            gettext(
                "%(caller)s caller · %(along)s along · %(false)s false Yaniv (the caller scores "
                "32 + the left neighbour's hand) · %(empty)s emptied hand · “100 → 50” a "
                "reduction (the total arrived on, then the total)"
            )
            % {
                "caller": mark_letter("caller"),
                "along": mark_letter("along"),
                "false": mark_letter("false"),
                "empty": mark_letter("empty"),
            },
            "muted",
        ),
    ]

    story += _result(game, seats)

    changes = [
        change
        for change in sorted(game.changes.select_related("user"), key=lambda c: (c.at, c.pk))
        if change.action in ("correct", "undo", "end")
    ]
    story.append(_p(gettext("Corrections"), "h2"))
    if changes:
        story += [_p(_change_line(change, table, show_names), "small") for change in changes]
    else:
        story.append(_p(gettext("None: every round stands as it was first recorded."), "small"))

    story.append(CondPageBreak(110))
    story.append(_p(gettext("Signatures"), "h2"))
    if game.signed_off_at:
        by = (
            _who(game.signed_off_by, table, show_names)
            if game.signed_off_by
            else gettext("the referee")
        )
        story.append(
            _p(
                gettext("Signed off by <b>%(who)s</b> on %(when)s.")
                % {"who": _e(by), "when": _e(_when(game.signed_off_at))},
                "small",
            )
        )
    elif game.finished:
        story.append(_p(gettext("Not signed off yet: the result is provisional."), "small"))
    labels = [
        gettext("Referee (%(referee)s)") % {"referee": _e(referee)}
        if referee
        else gettext("Referee")
    ] + [f"{seat.position} · {_e(seat.player.name)}" for seat in seats]
    story.append(_signature_lines(labels, width, columns=4 if orientation == LANDSCAPE else 3))

    if rows:
        chart_height = 250 if orientation == PORTRAIT else 230
        story.append(
            KeepTogether(
                [
                    _p(gettext("Score progression"), "h2"),
                    progression_drawing(
                        sheet,
                        width=width,
                        height=chart_height,
                        limit=game.ruleset.end_above,
                        eliminates=game.ruleset.eliminates,
                    ),
                ]
            )
        )
    label = gettext("%(name)s · session %(session)s · table %(table)s") % {
        "name": tournament.name,
        "session": session.number,
        "table": table.number,
    }
    return _build(story, title=label, footer=label, first=orientation)


def _sheet_title(table, session, tournament) -> str:
    """A score sheet's heading (reportlab markup)."""
    heading = gettext("Score sheet · <b>Table %(table)s</b> · session %(session)s") % {
        "table": table.number,
        "session": session.number,
    }
    return f"{heading} <font size=10 color='#666666'>{_e(tournament.name)}</font>"


def _rank(game, seat) -> str:
    if seat.rank is None:
        return ""
    return f"{seat.rank}." if game.finished else f"({seat.rank}.)"


def _result(game, seats: Sequence) -> list[Flowable]:
    flowables: list[Flowable] = [
        _p(gettext("Result") if game.finished else gettext("Current totals"), "h2")
    ]
    ranked = sorted(seats, key=lambda seat: (seat.rank or 99, seat.position))
    if game.finished and ranked:
        winners = [seat for seat in ranked if seat.rank == 1]
        names = f" {gettext('and')} ".join(f"<b>{_e(seat.player.name)}</b>" for seat in winners)
        label = gettext("Shared win:") if len(winners) > 1 else gettext("Winner:")
        won = gettext("with %(total)s.") % {"total": winners[0].total}
        flowables.append(_p(f"{label} {names} {won}", "body"))
        flowables.append(Spacer(0, 3))
    data = [
        [
            pgettext("result column", "rank"),
            pgettext("result column", "seat"),
            pgettext("result column", "player"),
            pgettext("result column", "total"),
        ]
    ]
    for seat in ranked:
        data.append(
            [
                str(seat.rank or "—"),
                str(seat.position),
                _p(_e(seat.player.name), "cell"),
                str(seat.total),
            ]
        )
    table = Table(data, colWidths=[34, 30, 200, 44], hAlign="LEFT")
    table.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), FONT, 8),
                ("FONT", (0, 0), (-1, 0), FONT, 7),
                ("TEXTCOLOR", (0, 0), (-1, 0), GREY),
                ("ALIGN", (0, 0), (1, -1), "CENTER"),
                ("ALIGN", (3, 0), (3, -1), "RIGHT"),
                ("LINEBELOW", (0, 0), (-1, 0), 0.6, colors.black),
                ("LINEBELOW", (0, 1), (-1, -1), 0.25, LINE),
                ("TOPPADDING", (0, 0), (-1, -1), 1.5),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
            ]
        )
    )
    flowables.append(table)
    return flowables


# --- the score progression chart ---------------------------------------------------------


def progression_drawing(
    sheet,
    *,
    width: float = 520,
    height: float = 240,
    font_size: float = 7,
    limit: int = BELGIAN.end_above,
    eliminates: bool = False,
) -> Drawing:
    """Each player's total after every round (from 0), with the limit as a dashed line."""
    register_fonts()
    rows = sheet.rows()
    players = list(sheet.players)
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


def _swatch(color, *, dashed: bool = False) -> LineSwatch:
    """A legend's sample of a chart line: its colour, width and dashes."""
    swatch = LineSwatch()
    swatch.strokeColor = colors.toColor(color)
    swatch.strokeWidth = 1.6
    swatch.strokeDashArray = [4, 3] if dashed else None
    return swatch


def progression_svg(
    game_sheet,
    *,
    width: float = 300,
    height: float = 210,
    font_size: float = 9,
    ruleset: Ruleset = BELGIAN,
) -> str:
    """The progression chart as an inline <svg>, scaling to its container's width.

    Drawn narrower than the PDF's with larger type, so that a phone's screen keeps
    the labels readable; on a wide screen it grows up to 30rem.
    """
    if not game_sheet.rounds:
        return ""
    drawing = progression_drawing(
        game_sheet,
        width=width,
        height=height,
        font_size=font_size,
        limit=ruleset.end_above,
        eliminates=ruleset.eliminates,
    )
    svg = renderSVG.drawToString(drawing)
    svg = svg[svg.index("<svg") :]
    label = html.escape(gettext("Score progression: each player's total after every round"))
    svg = re.sub(
        r'<svg width="[^"]*" height="[^"]*"',
        lambda _: (
            '<svg width="100%" style="max-width: 30rem; height: auto" role="img"'
            f' aria-label="{label}"'
        ),
        svg,
        count=1,
    )
    title = html.escape(gettext("Score progression"))
    svg = re.sub(
        r"<title>.*?</title>\s*<desc>.*?</desc>", lambda _: f"<title>{title}</title>", svg
    )
    # The ids of reportlab's SVG are generic: keep them unique on a page.
    svg = svg.replace('id="clip"', 'id="progression-clip"').replace(
        "url(#clip)", "url(#progression-clip)"
    )
    svg = svg.replace('id="group"', 'id="progression"')
    svg = svg.replace(
        f"font-family: {BOLD};",
        "font-family: 'DejaVu Sans', system-ui, sans-serif; font-weight: bold;",
    )
    return svg.replace(
        f"font-family: {FONT};", "font-family: 'DejaVu Sans', system-ui, sans-serif;"
    )


# --- standings and the tournament report ------------------------------------------------


def _standings_table(rows: Sequence, width: float) -> Table:
    data = [
        [
            "#",
            gettext("Player"),
            gettext("Club"),
            pgettext("standings column: placement points", "Pts"),
            pgettext("standings column: games played", "G"),
            pgettext("standings column: games won", "W"),
            pgettext("standings column: sum of final game totals", "Sum"),
            pgettext("standings column: table-mates' placement points", "Opp"),
        ]
    ]
    style = [
        ("FONT", (0, 0), (-1, -1), FONT, 10),
        ("FONT", (0, 0), (-1, 0), BOLD, 8),
        ("TEXTCOLOR", (0, 0), (-1, 0), GREY),
        ("ALIGN", (0, 0), (0, -1), "RIGHT"),
        ("ALIGN", (3, 0), (-1, -1), "RIGHT"),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LINEBELOW", (0, 0), (-1, 0), 1, colors.black),
        ("LINEBELOW", (0, 1), (-1, -1), 0.25, LINE),
        ("TOPPADDING", (0, 0), (-1, -1), 2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
    ]
    for index, (standing, player) in enumerate(rows, start=1):
        mark = "*" if standing.provisional else ""
        data.append(
            [
                str(standing.place),
                _p(f"<b>{_e(player.name)}</b>", "wall"),
                _p(_e(player.club.name) if player.club else "", "cell"),
                f"{format_points(standing.points)}{mark}",
                str(standing.games),
                str(standing.wins),
                str(standing.total_sum),
                format_points(standing.opponents_points),
            ]
        )
        if index % 2 == 0:
            style.append(("BACKGROUND", (0, index), (-1, index), colors.HexColor("#f5f5f5")))
    fixed = [30, 0, 0, 46, 28, 28, 40, 42]
    free = width - sum(fixed)
    fixed[1], fixed[2] = free * 0.6, free * 0.4
    table = Table(data, colWidths=fixed, repeatRows=1)
    table.setStyle(TableStyle(style))
    return table


def _scheme() -> list[Flowable]:
    return [
        _p(gettext("How the standings are made"), "h2"),
        _p(
            _e(texts.scheme())
            + " "
            + gettext("Games ended at the time limit count with their current totals."),
            "small",
        ),
        _p(
            gettext("Order: %(order)s. Players still equal share the place.")
            % {"order": _e(texts.tie_break_order())},
            "small",
        ),
        _p(
            gettext(
                "%(points)s placement points · %(games)s games · %(won)s games won · %(sum)s sum "
                "of final game totals · %(opponents)s table-mates' placement points · * "
                "provisional: includes a finished game whose sheet the referee has not signed "
                "off yet."
            )
            % {
                "points": pgettext("standings column: placement points", "Pts"),
                "games": pgettext("standings column: games played", "G"),
                "won": pgettext("standings column: games won", "W"),
                "sum": pgettext("standings column: sum of final game totals", "Sum"),
                "opponents": pgettext("standings column: table-mates' placement points", "Opp"),
            },
            "muted",
        ),
    ]


def standings_pdf(tournament, session=None, rows: Sequence | None = None) -> bytes:
    """The standings for the wall: overall, or of one session."""
    rows = tournament.standings(session) if rows is None else rows
    width, _ = _frame_size(PORTRAIT)
    if session:
        heading = gettext("Session %(number)s standings") % {"number": session.number}
    else:
        heading = gettext("Standings")
    ranked = ngettext("%(count)s player ranked", "%(count)s players ranked", len(rows)) % {
        "count": len(rows)
    }
    story: list[Flowable] = [
        _title(f"{heading} <font size=10 color='#666666'>{_e(tournament.name)}</font>"),
        Spacer(0, 2),
        _p(
            f"{_e(_day(tournament.starts_on))}"
            + (f" · {_e(tournament.venue)}" if tournament.venue else "")
            + f" · {ranked}"
            + " · "
            + gettext("as of %(when)s") % {"when": _e(_when(timezone.now()))}
        ),
        Spacer(0, 6),
    ]
    if rows:
        story.append(_standings_table(rows, width))
    else:
        story.append(_p(gettext("No game has finished yet.")))
    story.append(KeepTogether(_scheme()))
    if session:
        label = gettext("session %(number)s standings") % {"number": session.number}
    else:
        label = gettext("standings")
    return _build(
        story, title=f"{tournament.name} · {label}", footer=f"{tournament.name} · {label}"
    )


def _table_block(table, width: float, show_names: bool) -> Table:
    """One table of a session for the report: its state, players, totals and ranks."""
    game = table.game
    seats = sorted(table.seats.all(), key=lambda seat: (seat.rank or 99, seat.position))
    referee = ""
    if show_names:
        name = table.referee.get_username() if table.referee else gettext("no referee")
        referee = f" · {_e(name)}"
    data = [
        [
            _p(
                gettext("<b>Table %(number)s</b>") % {"number": table.number}
                + f"{referee} · {_e(_game_state(game, table.round_count))}",
                "small",
            ),
            "",
            "",
        ],
    ]
    for seat in seats:
        data.append(
            [
                _rank(game, seat),
                _p(_e(seat.player.name), "cell"),
                str(seat.total),
            ]
        )
    block = Table(data, colWidths=[26, width - 26 - 40, 40])
    block.setStyle(
        TableStyle(
            [
                ("SPAN", (0, 0), (-1, 0)),
                ("FONT", (0, 0), (-1, -1), FONT, 8),
                ("BACKGROUND", (0, 0), (-1, 0), SOFT),
                ("ALIGN", (0, 1), (0, -1), "RIGHT"),
                ("ALIGN", (2, 1), (2, -1), "RIGHT"),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("BOX", (0, 0), (-1, -1), 0.6, GREY),
                ("LINEBELOW", (0, 1), (-1, -2), 0.25, LINE),
                ("TOPPADDING", (0, 0), (-1, -1), 1.5),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
            ]
            + [
                ("FONT", (0, row), (-1, row), BOLD, 8)
                for row, seat in enumerate(seats, start=1)
                if game.finished and seat.rank == 1
            ]
        )
    )
    return block


def _pairs(items: Sequence, size: int = 2) -> Iterable[list]:
    for start in range(0, len(items), size):
        chunk = list(items[start : start + size])
        yield chunk + [""] * (size - len(chunk))


def tournament_report(tournament, *, show_names: bool = True) -> bytes:
    """For the club's archive: final standings, then every session's tables and results.

    With `show_names` each table names its referee's account (for directors only).
    """
    width, _ = _frame_size(PORTRAIT)
    rows = tournament.standings()
    sessions = list(
        tournament.sessions.prefetch_related(
            Prefetch(
                "tables",
                queryset=models.Table.objects.select_related("game", "referee")
                .prefetch_related("seats__player")
                .annotate(round_count=Count("game__rounds"))
                .order_by("number"),
            )
        ).order_by("number")
    )
    finished = sum(1 for s in sessions for t in s.tables.all() if t.game.finished)
    dates = _day(tournament.starts_on)
    if tournament.ends_on and tournament.ends_on != tournament.starts_on:
        dates += f" – {_day(tournament.ends_on)}"
    facts = [
        dates,
        tournament.venue,
        tournament.club.name if tournament.club else "",
        tournament.get_status_display().lower(),
    ]
    counts = " · ".join(
        [
            ngettext("%(count)s player ranked", "%(count)s players ranked", len(rows))
            % {"count": len(rows)},
            ngettext("%(count)s session", "%(count)s sessions", len(sessions))
            % {"count": len(sessions)},
            ngettext("%(count)s game finished", "%(count)s games finished", finished)
            % {"count": finished},
            (
                gettext("Belgian rules (false Yaniv: %(false_yaniv)s)")
                % {"false_yaniv": _e(tournament.get_false_yaniv_display())}
                if tournament.preset == BELGIAN.name
                else gettext("Rules: %(preset)s") % {"preset": _e(tournament.get_preset_display())}
            ),
            gettext("printed %(when)s") % {"when": _e(_when(timezone.now()))},
        ]
    )
    heading = gettext("Tournament report")
    story: list[Flowable] = [
        _title(f"{heading} <font size=10 color='#666666'>{_e(tournament.name)}</font>"),
        Spacer(0, 2),
        _p(" · ".join(_e(fact) for fact in facts if fact)),
        _p(counts, "small"),
        _p(
            gettext("Final standings")
            if tournament.status == models.Tournament.Status.FINISHED
            else gettext("Standings so far"),
            "h2",
        ),
    ]
    story.append(
        _standings_table(rows, width) if rows else _p(gettext("No game has finished yet."))
    )
    story.append(KeepTogether(_scheme()))
    half = (width - 12) / 2
    for session in sessions:
        tables = list(session.tables.all())
        story.append(CondPageBreak(120))
        tables_count = ngettext("%(count)s table", "%(count)s tables", len(tables)) % {
            "count": len(tables)
        }
        seating = gettext("seating: %(method)s") % {
            "method": _e(session.get_seating_display().lower())
        }
        story.append(
            _p(
                gettext("Session %(number)s") % {"number": session.number}
                + " <font size=9 color='#666666'>"
                + f"{_e(session.get_status_display().lower())} · {tables_count} · {seating}"
                + "</font>",
                "h2",
            )
        )
        if not tables:
            story.append(_p(gettext("No seating drawn."), "small"))
            continue
        blocks = [_table_block(table, half, show_names) for table in tables]
        grid = Table(
            [[left, "", right] for left, right in _pairs(blocks)], colWidths=[half, 12, half]
        )
        grid.setStyle(
            TableStyle(
                [
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ("LEFTPADDING", (0, 0), (-1, -1), 0),
                    ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                    ("TOPPADDING", (0, 0), (-1, -1), 0),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 8),
                ]
            )
        )
        story.append(grid)
    label = gettext("%(name)s · report") % {"name": tournament.name}
    return _build(story, title=label, footer=label)
