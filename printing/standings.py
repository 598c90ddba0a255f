"""The standings for the wall, overall or of one session; the report prints them too."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext, ngettext, pgettext
from reportlab.lib import colors
from reportlab.platypus import Flowable, KeepTogether, Spacer, Table, TableStyle

from printing.document import GREY, LINE, PORTRAIT, build, day, e, frame_size, p, title, when
from printing.downloads import stage_label
from scoring import standings
from scoring.finals import CarryOver
from tournaments import texts
from tournaments.fonts import BOLD, FONT
from tournaments.notes import standings_notes
from tournaments.templatetags.yaniv import points as format_points


def _table_style(numbers_from: int) -> list[tuple]:
    """A standings table's look: small bold headings, the place and the columns from
    `numbers_from` on aligned right, a rule under the heading and hairlines between rows."""
    return [
        ("FONT", (0, 0), (-1, -1), FONT, 10),
        ("FONT", (0, 0), (-1, 0), BOLD, 8),
        ("TEXTCOLOR", (0, 0), (-1, 0), GREY),
        ("ALIGN", (0, 0), (0, -1), "RIGHT"),
        ("ALIGN", (numbers_from, 0), (-1, -1), "RIGHT"),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LINEBELOW", (0, 0), (-1, 0), 1, colors.black),
        ("LINEBELOW", (0, 1), (-1, -1), 0.25, LINE),
        ("TOPPADDING", (0, 0), (-1, -1), 2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
    ]


def standings_table(
    rows: Sequence, width: float, by: str = standings.BY_TOTAL, notes: Mapping | None = None
) -> Table:
    """Place, player, club and the tie-break columns (ranked by the average per game, that
    average too); every other row shaded, withdrawn players marked, and † beside a player
    with notes (penalty or bonus points, a substitute: `notes_part` prints them)."""
    notes = notes or {}
    average = by == standings.BY_AVERAGE
    withdrawn = pgettext("standings mark", "withdrawn")
    data = [
        [
            "#",
            gettext("Player"),
            gettext("Club"),
            pgettext("standings column: placement points", "Pts"),
            *([pgettext("standings column: placement points per game", "Avg")] if average else []),
            pgettext("standings column: games played", "G"),
            pgettext("standings column: games won", "W"),
            pgettext("standings column: sum of final game totals", "Sum"),
            pgettext("standings column: table-mates' placement points", "Opp"),
        ]
    ]
    style = _table_style(numbers_from=3)
    for index, (standing, player) in enumerate(rows, start=1):
        mark = "*" if standing.provisional else ""
        data.append(
            [
                str(standing.place),
                p(
                    f"<b>{e(player.name)}</b>"
                    + (f" <font size=8>({e(withdrawn)})</font>" if standing.withdrawn else "")
                    + (" †" if notes.get(player.pk) else ""),
                    "wall",
                ),
                p(e(player.club.name) if player.club else "", "cell"),
                f"{format_points(standing.points)}{mark}",
                *([number_format(float(standing.average), 2)] if average else []),
                str(standing.games),
                str(standing.wins),
                str(standing.total_sum),
                format_points(standing.opponents_points),
            ]
        )
        if index % 2 == 0:
            style.append(("BACKGROUND", (0, index), (-1, index), colors.HexColor("#f5f5f5")))
    fixed: list[float] = [30, 0, 0, 46, *([40] if average else []), 28, 28, 40, 42]
    free = width - sum(fixed)
    fixed[1], fixed[2] = free * 0.6, free * 0.4
    table = Table(data, colWidths=fixed, repeatRows=1)
    table.setStyle(TableStyle(style))
    return table


def notes_part(rows: Sequence, notes: Mapping) -> list[Flowable]:
    """The reasons of the standings' marks (†), player by player in their order."""
    lines = [
        p(
            f"† <b>{e(player.name)}</b>: " + e("; ".join(note.text for note in notes[player.pk])),
            "small",
        )
        for _, player in rows
        if notes.get(player.pk)
    ]
    return [p(pgettext("standings", "Notes"), "h2"), *lines] if lines else []


def final_standings_table(rows: Sequence, width: float, tournament) -> Table:
    """The final standings (`Tournament.final_standings`): place, player, club, stage and the
    score each group is ranked by; a line under the last finalist."""
    data = [
        [
            "#",
            gettext("Player"),
            gettext("Club"),
            gettext("Stage"),
            pgettext("final standings column", "Score"),
        ]
    ]
    style = _table_style(numbers_from=4)
    totals = tournament.final_carry_over == CarryOver.TOTALS
    finalists = 0
    withdrawn = pgettext("standings mark", "withdrawn")
    for index, (row, player) in enumerate(rows, start=1):
        in_final = row.stage == "final"
        finalists += in_final
        score = str(row.score) if in_final and totals else format_points(row.score)
        data.append(
            [
                str(row.place),
                p(
                    f"<b>{e(player.name)}</b>"
                    + (
                        f" <font size=8>({e(withdrawn)})</font>"
                        if row.qualifying and row.qualifying.withdrawn
                        else ""
                    ),
                    "wall",
                ),
                p(e(player.club.name) if player.club else "", "cell"),
                p(e(stage_label(tournament, row.final_table)), "cell"),
                f"{score}{'*' if row.provisional else ''}",
            ]
        )
        if index % 2 == 0:
            style.append(("BACKGROUND", (0, index), (-1, index), colors.HexColor("#f5f5f5")))
    if finalists:
        style.append(("LINEBELOW", (0, finalists), (-1, finalists), 1, colors.black))
    fixed: list[float] = [30, 0, 0, 70, 50]
    free = width - sum(fixed)
    fixed[1], fixed[2] = free * 0.6, free * 0.4
    table = Table(data, colWidths=fixed, repeatRows=1)
    table.setStyle(TableStyle(style))
    return table


def final_note(tournament) -> Flowable:
    """How the finalists are ranked, under the final standings (the standings page's words)."""
    carry = tournament.final_carry_over
    if carry == CarryOver.TOTALS:
        text = gettext(
            "The finalists rank above everyone else, each final table by its qualifying sum of "
            "totals plus the final game's total, lowest first."
        )
    elif carry == CarryOver.PLACEMENT:
        text = gettext(
            "The finalists rank above everyone else, each final table by its qualifying "
            "placement points plus the final game's."
        )
    else:
        text = gettext(
            "The finalists rank above everyone else, each final table by the final game alone."
        )
    return p(e(text), "small")


def final_part(tournament, width: float) -> list[Flowable]:
    """With a final session: the final standings, then the heading of the qualifying ones
    that follow; nothing otherwise."""
    rows = tournament.final_standings()
    if not rows:
        return []
    return [
        p(e(texts.final_heading(rows)), "h2"),
        final_standings_table(rows, width, tournament),
        Spacer(0, 3),
        final_note(tournament),
        p(pgettext("session stage", "Qualifying"), "h2"),
    ]


def scheme(by: str = standings.BY_TOTAL) -> list[Flowable]:
    """How the standings are made, under the table."""
    return [
        p(gettext("How the standings are made"), "h2"),
        p(
            e(texts.scheme(by))
            + " "
            + gettext("Games ended at the time limit count with their current totals."),
            "small",
        ),
        p(
            gettext("Order: %(order)s. Players still equal share the place.")
            % {"order": e(texts.tie_break_order(by))},
            "small",
        ),
        p(
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
        p(
            (
                gettext("%(average)s placement points per game.")
                % {"average": pgettext("standings column: placement points per game", "Avg")}
                + " "
                if by == standings.BY_AVERAGE
                else ""
            )
            + gettext(
                "(withdrawn): the player left the tournament; the games they finished count as "
                "they are, and they are drawn no more."
            ),
            "muted",
        ),
    ]


def standings_pdf(tournament, session=None) -> bytes:
    """The standings for the wall: overall, or of one session."""
    rows = tournament.standings(session)
    width, _ = frame_size(PORTRAIT)
    if session:
        heading = gettext("Session %(number)s standings") % {"number": session.number}
    else:
        heading = gettext("Standings")
    ranked = ngettext("%(count)s player ranked", "%(count)s players ranked", len(rows)) % {
        "count": len(rows)
    }
    story: list[Flowable] = [
        title(f"{heading} <font size=10 color='#666666'>{e(tournament.name)}</font>"),
        Spacer(0, 2),
        p(
            f"{e(day(tournament.starts_on))}"
            + (f" · {e(tournament.venue)}" if tournament.venue else "")
            + f" · {ranked}"
            + " · "
            + gettext("as of %(when)s") % {"when": e(when(timezone.now()))}
        ),
        Spacer(0, 6),
    ]
    if session is None:
        # With a final, its standings come first; the qualifying ones below.
        story.extend(final_part(tournament, width))
    notes = standings_notes(tournament, session)
    if rows:
        story.append(standings_table(rows, width, tournament.ranking, notes))
        story.extend(notes_part(rows, notes))
    else:
        story.append(p(gettext("No game has finished yet.")))
    story.append(KeepTogether(scheme(tournament.ranking)))
    if session:
        label = gettext("session %(number)s standings") % {"number": session.number}
    else:
        label = gettext("standings")
    return build(
        story, title=f"{tournament.name} · {label}", footer=f"{tournament.name} · {label}"
    )
