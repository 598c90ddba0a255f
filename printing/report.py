"""The tournament report for the club's archive: the standings, then every session's tables."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from reportlab.platypus import CondPageBreak, Flowable, KeepTogether, Spacer, Table, TableStyle

from printing.document import (
    GREY,
    LINE,
    PORTRAIT,
    SOFT,
    build,
    day,
    e,
    frame_size,
    game_state,
    p,
    rank_text,
    title,
    when,
)
from printing.downloads import stage_label
from printing.score_sheets import ranked
from printing.standings import final_part, notes_part, scheme, standings_table
from scoring.rules import BELGIAN
from tournaments import models
from tournaments.fonts import BOLD, FONT
from tournaments.notes import standings_notes
from tournaments.sheets import GameSheet, sheets_by_game


def _table_block(
    table, game_sheet: GameSheet, width: float, show_names: bool, stage: str = ""
) -> Table:
    """One table of a session for the report: its state, players, totals and ranks; `stage`
    names a final's table ("A final")."""
    game = game_sheet.game
    played = bool(game_sheet.rows)
    lines = ranked(game_sheet)
    winners = {seat.pk for seat in game_sheet.winners}
    referee = ""
    if show_names:
        name = table.referee.get_username() if table.referee else gettext("no referee")
        referee = f" · {e(name)}"
    data = [
        [
            p(
                gettext("<b>Table %(number)s</b>") % {"number": table.number}
                + (f" · <b>{e(stage)}</b>" if stage else "")
                + f"{referee} · {e(game_state(game, len(game_sheet.rows)))}",
                "small",
            ),
            "",
            "",
        ],
    ]
    for seat, _, total, rank in lines:
        data.append(
            [
                rank_text(rank if played else None),
                p(e(seat.player.name), "cell"),
                str(total),
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
                for row, (seat, *_) in enumerate(lines, start=1)
                if seat.pk in winners
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
    width, _ = frame_size(PORTRAIT)
    rows = tournament.standings()
    sessions = list(
        tournament.sessions.prefetch_related(
            Prefetch(
                "tables",
                queryset=models.Table.objects.select_related("game", "referee").order_by("number"),
            )
        ).order_by("number")
    )
    # Every game's sheet at once: the report's queries do not grow with its tables.
    game_sheets = sheets_by_game(
        GameSheet.load_many(table.game for session in sessions for table in session.tables.all())
    )
    finished = sum(1 for s in sessions for t in s.tables.all() if t.game.finished)
    dates = day(tournament.starts_on)
    if tournament.ends_on and tournament.ends_on != tournament.starts_on:
        dates += f" – {day(tournament.ends_on)}"
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
                % {"false_yaniv": e(tournament.get_false_yaniv_display())}
                if tournament.preset == BELGIAN.name
                else gettext("Rules: %(preset)s") % {"preset": e(tournament.get_preset_display())}
            ),
            gettext("printed %(when)s") % {"when": e(when(timezone.now()))},
        ]
    )
    heading = gettext("Tournament report")
    story: list[Flowable] = [
        title(f"{heading} <font size=10 color='#666666'>{e(tournament.name)}</font>"),
        Spacer(0, 2),
        p(" · ".join(e(fact) for fact in facts if fact)),
        p(counts, "small"),
    ]
    # With a final, its standings first, then the qualifying ones under their own heading.
    staged = final_part(tournament, width)
    story.extend(
        staged
        or [
            p(
                gettext("Final standings")
                if tournament.status == models.Tournament.Status.FINISHED
                else gettext("Standings so far"),
                "h2",
            )
        ]
    )
    notes = standings_notes(tournament)
    story.append(
        standings_table(rows, width, tournament.ranking, notes)
        if rows
        else p(gettext("No game has finished yet."))
    )
    story.extend(notes_part(rows, notes))
    story.append(KeepTogether(scheme(tournament.ranking)))
    half = (width - 12) / 2
    for session in sessions:
        tables = list(session.tables.all())
        story.append(CondPageBreak(120))
        tables_count = ngettext("%(count)s table", "%(count)s tables", len(tables)) % {
            "count": len(tables)
        }
        seating = gettext("seating: %(method)s") % {
            "method": e(session.get_seating_display().lower())
        }
        final = session.stage == models.Session.Stage.FINAL
        story.append(
            p(
                gettext("Session %(number)s") % {"number": session.number}
                + (f" · {e(session.get_stage_display())}" if final else "")
                + " <font size=9 color='#666666'>"
                + f"{e(session.get_status_display().lower())} · {tables_count} · {seating}"
                + "</font>",
                "h2",
            )
        )
        if not tables:
            story.append(p(gettext("No seating drawn."), "small"))
            continue
        blocks = [
            _table_block(
                table,
                game_sheets[table.game.pk],
                half,
                show_names,
                # Two final tables: which is the A final and which the B.
                stage_label(tournament, table.number)
                if final and tournament.final_tables == 2
                else "",
            )
            for table in tables
        ]
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
    return build(story, title=label, footer=label)
