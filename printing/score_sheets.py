"""Score sheets: the blank ones of a session, for the referee's pen, and a game's filled one.

A filled sheet draws a `GameSheet`: its `ScoreSheet`'s rows (marks, arrived totals, players
who are out), totals, ranks and winners and the legend of the game's rule set, then the
corrections, the signatures and the score chart, as the table page shows them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.utils.translation import gettext, pgettext
from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.shapes import Drawing
from reportlab.lib import colors
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import (
    CondPageBreak,
    Flowable,
    KeepTogether,
    NextPageTemplate,
    PageBreak,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from printing.document import (
    GREY,
    LANDSCAPE,
    LINE,
    PORTRAIT,
    RED,
    SOFT,
    build,
    day,
    decks,
    e,
    fitted,
    frame_size,
    game_state,
    height_of,
    orientation_for,
    p,
    players,
    rank_text,
    title,
    when,
)
from printing.rules_box import rules_box
from scoring.rules import RoundKind, Ruleset
from scoring.sheet import Cell, Mark, legend
from tournaments.chart import progression_drawing
from tournaments.fonts import BOLD, FONT
from tournaments.models import Adjustment, Seat
from tournaments.models.substitutions import played_rounds
from tournaments.rules_text import marks_line
from tournaments.sheets import GameSheet, note_text
from tournaments.texts import mark_letter, sentence

# Rounds a blank sheet has room for: at least 25 (a long game), more when upright.
BLANK_ROUNDS = {PORTRAIT: 30, LANDSCAPE: 25}
ROUND_COLUMN = 24
MAX_ROW = 20  # points: the tallest a blank round row gets

# A hand's shading on the sheet, as on the table page (the letter: `texts.mark_letter`).
SHADES = {
    Mark.CALLER: colors.HexColor("#dff3e8"),
    Mark.EMPTY: colors.HexColor("#dff3e8"),
    Mark.ALONG: colors.HexColor("#e6edff"),
    Mark.FALSE: colors.HexColor("#fbe3e1"),
    Mark.ASSAF: colors.HexColor("#fbe3e1"),
}
# The mark beside a round's number: how it ended, when not by a plain Yaniv.
ROUND_FLAGS = {
    RoundKind.FALSE_YANIV: Mark.FALSE,
    RoundKind.EMPTY_HAND: Mark.EMPTY,
    RoundKind.ASSAF: Mark.ASSAF,
}


# --- the grid both sheets share ------------------------------------------------------


def _sheet_widths(width: float, count: int) -> list[float]:
    """The round column, then per player: mark, points, total."""
    per = (width - ROUND_COLUMN) / count
    return [ROUND_COLUMN] + [per * 0.2, per * 0.34, per * 0.46] * count


def _name_size(name: str, width: float, size: float = 8, smallest: float = 5.5) -> float:
    """The font size at which the name's longest word fits the column (no broken words)."""
    longest = max((pdfmetrics.stringWidth(word, BOLD, size) for word in name.split()), default=0)
    return max(smallest, min(size, size * width / longest)) if longest else size


def _sheet_head(seats: Sequence, widths: list[float], mark: str) -> list[list]:
    names = [""]
    room = sum(widths[1:4]) - 6
    for seat in seats:
        size = _name_size(f"{seat.position} · {seat.player.name}", room)
        names += [
            p(
                f"<font size={size:.1f}>{seat.position} · <b>{e(seat.player.name)}</b></font>",
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
    cells = [
        fitted(label, width - 4, 6.5) for label, width in zip(labels, widths[1:4], strict=True)
    ]
    column = fitted(pgettext("score sheet column", "round"), ROUND_COLUMN - 4, 6.5)
    return [names, [column] + cells * len(seats)]


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


def _sheet_title(table, session, tournament) -> str:
    """A score sheet's heading (reportlab markup)."""
    heading = gettext("Score sheet · <b>Table %(table)s</b> · session %(session)s") % {
        "table": table.number,
        "session": session.number,
    }
    return f"{heading} <font size=10 color='#666666'>{e(tournament.name)}</font>"


# --- blank sheets --------------------------------------------------------------------


def _qr(text: str, size: float) -> Drawing:
    """A QR code of `text`, `size` points square."""
    widget = QrCodeWidget(text)
    left, bottom, right, top = widget.getBounds()
    drawing = Drawing(
        size, size, transform=[size / (right - left), 0, 0, size / (top - bottom), 0, 0]
    )
    drawing.add(widget)
    return drawing


def _code_box(link: str, width: float) -> Table:
    """The table's code (club nights): its QR code and link, to enter the rounds on a phone."""
    box = Table(
        [
            [p(gettext("<b>Enter the rounds on a phone</b>: scan, or open"), "small")],
            [_qr(link, min(width - 8, 84))],
            [p(f"<font size=5.5>{e(link)}</font>", "small")],
        ],
        colWidths=[width],
    )
    box.setStyle(
        TableStyle(
            [
                ("ALIGN", (0, 1), (0, 1), "CENTER"),
                ("TOPPADDING", (0, 0), (-1, -1), 1),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
                ("BOX", (0, 0), (-1, -1), 0.8, colors.black),
            ]
        )
    )
    return box


def _blank_sheet(
    table, tournament, session, ruleset: Ruleset, orientation: str, link: str | None = None
) -> list:
    """One table's blank sheet: a single page, measured to fill the frame; with `link` (the
    table's code), its QR code and link instead of the referee's box."""
    seats = list(table.seats.all())
    count = max(len(seats), 1)
    width, page_height = frame_size(orientation)
    referee = table.referee.get_username() if table.referee else ""
    heading = title(_sheet_title(table, session, tournament))
    facts = p(
        f"{e(day(tournament.starts_on))}"
        + (f" · {e(tournament.venue)}" if tournament.venue else "")
        + f" · <b>{players(len(seats))} · {decks(ruleset, len(seats))}</b>"
        + " · "
        + gettext("referee <b>%(referee)s</b>")
        % {"referee": e(referee) if referee else "____________________"}
        + " · "
        + gettext(
            "seats clockwise: each player's left neighbour is the next seat, "
            "seat %(last)s's is seat 1"
        )
        % {"last": len(seats)}
    )
    widths = _sheet_widths(width, count)
    # The two marks a referee writes most: Y and A, or Y and the Assaf's letter.
    head = _sheet_head(seats, widths, "/".join(mark_letter(m) for m in legend(ruleset)[:2]))
    rounds = BLANK_ROUNDS[orientation]
    blank = [""] * (3 * count)
    data = head + [[str(number)] + blank for number in range(1, rounds + 1)]
    data.append([fitted(pgettext("score sheet row", "rank"), ROUND_COLUMN - 4, 7)] + blank)
    # Each player's initials under their column: a short word, set smaller rather than split
    # (a soft hyphen printed "pa-raaf" in Dutch).
    data.append([fitted(pgettext("score sheet row", "initials"), ROUND_COLUMN - 4, 7)] + blank)

    referee_box = Table(
        [
            [p(gettext("<b>Referee</b>: %(referee)s") % {"referee": e(referee)}, "small")],
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
    rules = rules_box(ruleset, width * 0.78 - 6, columns)
    side = _code_box(link, width * 0.22 - 6) if link else referee_box
    bottom = Table([[rules, side]], colWidths=[width * 0.78, width * 0.22])
    bottom.setStyle(
        TableStyle(
            [("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), 0)]
            + [("RIGHTPADDING", (0, 0), (-1, -1), 0), ("LEFTPADDING", (1, 0), (1, 0), 6)]
        )
    )

    # Measure what is not a round row; the rounds share the rest of the page.
    names_height = max(
        (height_of(cell, sum(widths[1:4]) - 4) for cell in head[0] if isinstance(cell, Paragraph)),
        default=10,
    )
    sub_height, rank_height, signature_height = 10, 14, 26
    fixed = (
        height_of(heading, width)
        + height_of(facts, width)
        + 8  # spacers
        + names_height
        + 4
        + sub_height
        + rank_height
        + signature_height
        + height_of(bottom, width)
        + 6
    )
    row = min(MAX_ROW, (page_height - fixed - 4) / rounds)
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
    return [heading, Spacer(0, 2), facts, Spacer(0, 6), grid, Spacer(0, 6), bottom]


def blank_score_sheets(session, links: Mapping[int, str] | None = None) -> bytes:
    """Every table of a session on its own page, ready for the referee's pen; `links` (table
    id → the absolute link of its code, club nights) prints each table's code on its sheet."""
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
        page = orientation_for(len(table.seats.all()))
        if index == 0:
            first = page
        else:
            story += [NextPageTemplate(page), PageBreak()]
        link = (links or {}).get(table.pk)
        story += _blank_sheet(table, tournament, session, ruleset, page, link)
    if not tables:
        story = [
            title(gettext("Score sheets · session %(number)s") % {"number": session.number}),
            p(
                gettext("%(name)s: the seating of this session is not drawn yet.")
                % {"name": e(tournament.name)}
            ),
        ]
    label = gettext("%(name)s · session %(number)s · score sheets") % {
        "name": tournament.name,
        "number": session.number,
    }
    return build(story, title=label, footer=label, first=first)


# --- a game's filled sheet -------------------------------------------------------------


def _total_text(cell: Cell) -> str:
    """The total as the referee writes it: `100 → 50` after a reduction, `out` when out."""
    text = f"{cell.arrived} → {cell.total}" if cell.reduction else str(cell.total)
    return f"{text} {mark_letter(Mark.OUT)}" if cell.went_out else text


def _grid(game_sheet: GameSheet, widths: list[float]) -> Table:
    """The rounds as the table page shows them, then each player's total and rank."""
    seats, rows = game_sheet.seats, game_sheet.rows
    count = max(len(seats), 1)
    data = _sheet_head(seats, widths, pgettext("score sheet column", "mark"))
    style = _sheet_style(count, len(rows) + 1)
    for row in rows:
        y = len(data)
        flag = ROUND_FLAGS.get(row.kind)
        line = [f"{row.number} {mark_letter(flag)}" if flag else str(row.number)]
        for index, cell in enumerate(row.cells):
            first = 1 + 3 * index
            if cell.out:
                # Out of the game (elimination): no hand.
                line += ["", "", ""]
                style.append(("BACKGROUND", (first, y), (first + 2, y), SOFT))
                continue
            line += [mark_letter(cell.mark), f"+{cell.points}", _total_text(cell)]
            shade = SHADES.get(cell.mark) if cell.mark else None
            if shade is not None:
                style.append(("BACKGROUND", (first, y), (first + 2, y), shade))
            if cell.reduction:
                style.append(("FONT", (first + 2, y), (first + 2, y), BOLD, 8))
        if row.kind is RoundKind.FALSE_YANIV:
            style.append(("TEXTCOLOR", (0, y), (0, y), RED))
        data.append(line)
    if not rows:
        data.append(["—"] + [""] * (3 * count))
    lines = game_sheet.seat_lines()
    total_row, rank_row = len(data), len(data) + 1
    data.append(
        [fitted(pgettext("score sheet row", "total"), ROUND_COLUMN - 4, 7)]
        + [part for _, _, total, _ in lines for part in (str(total), "", "")]
    )
    data.append(
        [fitted(pgettext("score sheet row", "rank"), ROUND_COLUMN - 4, 7)]
        + [part for _, _, _, rank in lines for part in (rank_text(rank if rows else None), "", "")]
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
    return grid


def _legend(game_sheet: GameSheet) -> Paragraph:
    """The marks this game's rule set can show (`ScoreSheet.legend`), as on the rules page."""
    # Reportlab markup from here on, no longer HTML: a plain str.
    text: str = marks_line(game_sheet.ruleset)
    if game_sheet.sheet.elimination:
        text += " " + e(sentence(gettext("grey: out of the game")))
    return p(text, "muted")


def house_rule_notes(game_sheet: GameSheet) -> list[Flowable]:
    """What the house rules did, round by round ("Round 2: +25 streak bonus for Ann"), as the
    table page's cells say it: nothing for a game without."""
    lines = [
        gettext("Round %(number)s: %(notes)s")
        % {"number": row.number, "notes": "; ".join(note_text(note) for note in row.notes)}
        for row in game_sheet.rows
        if row.notes
    ]
    if not lines:
        return []
    return [p(gettext("What the house rules did"), "h2"), *(p(e(line), "small") for line in lines)]


def ranked(game_sheet: GameSheet) -> list[tuple[Seat, str, int, int]]:
    """The seat lines best first (seat order among equals; seat order before any round); with
    game points given at a seat, each seat's total and rank in the result (they count)."""
    played = bool(game_sheet.rows)
    lines = game_sheet.seat_lines()
    if played and any(seat.adjustment for seat in game_sheet.seats):
        lines = [
            (seat, label, seat.adjusted_total, rank if seat.rank is None else seat.rank)
            for seat, label, _, rank in lines
        ]
    return sorted(lines, key=lambda line: (line[3] if played else 99, line[0].position))


def beside_the_rounds(game_sheet: GameSheet) -> list[Flowable]:
    """Who played which rounds of a seat that changed hands, and the game points given (the
    table page's notes): nothing to read without any."""
    tournament = game_sheet.game.table.session.tournament
    seats = list(game_sheet.seats)
    lines = []
    if tournament.has_substitutes:
        changed = played_rounds(seats)
        for seat in seats:
            turns = changed.get(seat.pk)
            if turns:
                lines.append(
                    gettext("Seat %(position)s:") % {"position": seat.position}
                    + " "
                    + " · ".join(_turn(player.name, first, last) for player, first, last in turns)
                )
    if tournament.has_adjustments:
        lines += [
            adjustment.summary
            for adjustment in Adjustment.objects.filter(
                seat__table=game_sheet.game.table, removed_at__isnull=True
            ).select_related("player")
        ]
    if not lines:
        return []
    return [p(gettext("Beside the rounds"), "h2"), *(p(e(line), "small") for line in lines)]


def _turn(name: str, first: int, last: int | None) -> str:
    if last is None:
        return gettext("%(name)s from round %(first)s") % {"name": name, "first": first}
    return gettext("%(name)s rounds %(first)s–%(last)s") % {
        "name": name,
        "first": first,
        "last": last,
    }


def _result(game_sheet: GameSheet) -> list[Flowable]:
    game = game_sheet.game
    played = bool(game_sheet.rows)
    flowables: list[Flowable] = [
        p(gettext("Result") if game.finished else gettext("Current totals"), "h2")
    ]
    winners = game_sheet.winners
    if winners:
        names = f" {gettext('and')} ".join(f"<b>{e(seat.player.name)}</b>" for seat in winners)
        label = gettext("Shared win:") if len(winners) > 1 else gettext("Winner:")
        won = gettext("with %(total)s.") % {"total": winners[0].adjusted_total}
        flowables.append(p(f"{label} {names} {won}", "body"))
        flowables.append(Spacer(0, 3))
    data = [
        [
            pgettext("result column", "rank"),
            pgettext("result column", "seat"),
            pgettext("result column", "player"),
            pgettext("result column", "total"),
        ]
    ]
    for seat, _, total, rank in ranked(game_sheet):
        data.append(
            [
                str(rank) if played else "—",
                str(seat.position),
                p(e(seat.player.name), "cell"),
                str(total),
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


def _who(user, table, show_names: bool) -> str:
    """An account as a follower may read it: its name, or only its role at the table."""
    if user is None:
        return gettext("someone")
    if show_names:
        return user.get_username()
    return gettext("the referee") if user.pk == table.referee_id else gettext("a director")


def _change_line(change, table, show_names: bool) -> str:
    who = e(_who(change.user, table, show_names))
    at = e(when(change.at))
    reason = gettext(": “%(reason)s”") % {"reason": e(change.reason)} if change.reason else ""
    if change.action == "end":
        line = gettext("<b>Game ended at the time limit</b> by %(who)s") % {"who": who}
    else:
        line = gettext("<b>Round %(number)s %(action)s</b> by %(who)s") % {
            "number": change.round_number,
            "action": change.get_action_display(),
            "who": who,
        }
    line += f" ({at}){reason}"
    if change.before:
        before = gettext("before: %(entries)s") % {"entries": e(change.before_text)}
        line += f"<br/><font color='#666666'>{before}</font>"
    if change.after and change.action != "record":
        after = gettext("after: %(entries)s") % {"entries": e(change.after_text)}
        line += f"<br/><font color='#666666'>{after}</font>"
    return line


def _signature_lines(labels: Sequence[str], width: float, columns: int = 3) -> Table:
    gap = 14
    cell = (width - gap * (columns - 1)) / columns
    widths = []
    for index in range(columns):
        widths += [cell] if index == 0 else [gap, cell]
    data: list[list] = []
    style: list[tuple] = [
        ("FONT", (0, 0), (-1, -1), FONT, 7.5),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
    ]
    for start in range(0, len(labels), columns):
        row = list(labels[start : start + columns])
        line = len(data)
        data.append([""] * len(widths))
        names = []
        for index in range(columns):
            if index:
                names.append("")
            names.append(p(row[index], "small") if index < len(row) else "")
            if index < len(row):
                style.append(
                    ("LINEBELOW", (2 * index, line), (2 * index, line), 0.6, colors.black)
                )
        data.append(names)
    table = Table(data, colWidths=widths, rowHeights=[24, None] * (len(data) // 2))
    table.setStyle(TableStyle(style))
    return table


def filled_score_sheet(game_sheet: GameSheet, *, show_names: bool = True) -> bytes:
    """A game's sheet as recorded: rounds, result, corrections, signatures and a chart.

    Without `show_names` (for followers) no account name is printed: the referee and
    directors appear by their role, as on the table page.
    """
    game = game_sheet.game
    table = game.table
    session = table.session
    tournament = session.tournament
    seats, rows = game_sheet.seats, game_sheet.rows
    page = orientation_for(len(seats))
    width, _ = frame_size(page)
    referee = table.referee.get_username() if table.referee and show_names else ""
    story: list[Flowable] = [
        title(_sheet_title(table, session, tournament)),
        Spacer(0, 2),
        p(
            f"{e(day(tournament.starts_on))}"
            + (f" · {e(tournament.venue)}" if tournament.venue else "")
            + f" · {players(len(seats))} · {decks(game_sheet.ruleset, len(seats))}"
            + (
                " · " + gettext("referee <b>%(referee)s</b>") % {"referee": e(referee)}
                if referee
                else ""
            )
            + f" · <b>{e(game_state(game, len(rows)))}</b>"
        ),
        Spacer(0, 6),
        _grid(game_sheet, _sheet_widths(width, max(len(seats), 1))),
        Spacer(0, 3),
        _legend(game_sheet),
        *house_rule_notes(game_sheet),
        *_result(game_sheet),
        *beside_the_rounds(game_sheet),
    ]

    changes = [
        change
        for change in sorted(game.changes.select_related("user"), key=lambda c: (c.at, c.pk))
        if change.action in ("correct", "undo", "end")
    ]
    story.append(p(gettext("Corrections"), "h2"))
    if changes:
        story += [p(_change_line(change, table, show_names), "small") for change in changes]
    else:
        story.append(p(gettext("None: every round stands as it was first recorded."), "small"))

    story.append(CondPageBreak(110))
    story.append(p(gettext("Signatures"), "h2"))
    if game.signed_off_at:
        by = (
            _who(game.signed_off_by, table, show_names)
            if game.signed_off_by
            else gettext("the referee")
        )
        story.append(
            p(
                gettext("Signed off by <b>%(who)s</b> on %(when)s.")
                % {"who": e(by), "when": e(when(game.signed_off_at))},
                "small",
            )
        )
    elif game.finished:
        story.append(p(gettext("Not signed off yet: the result is provisional."), "small"))
    labels = [
        gettext("Referee (%(referee)s)") % {"referee": e(referee)}
        if referee
        else gettext("Referee")
    ] + [f"{seat.position} · {e(seat.player.name)}" for seat in seats]
    story.append(_signature_lines(labels, width, columns=4 if page == LANDSCAPE else 3))

    if rows:
        chart_height = 250 if page == PORTRAIT else 230
        story.append(
            KeepTogether(
                [
                    p(gettext("Score progression"), "h2"),
                    progression_drawing(game_sheet.sheet, width=width, height=chart_height),
                ]
            )
        )
    label = gettext("%(name)s · session %(session)s · table %(table)s") % {
        "name": tournament.name,
        "session": session.number,
        "table": table.number,
    }
    return build(story, title=label, footer=label, first=page)
