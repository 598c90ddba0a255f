"""CSV downloads for spreadsheets: the standings (overall or of one session) and every round.

UTF-8 with a byte order mark (without it Excel reads "Hélène" as "HÃ©lÃ¨ne"), fields
separated by `,` or by `;`: a Belgian spreadsheet (Excel with a Dutch or French locale) splits
on `;` and reads "2,5" as a number, so with `;` the half points get a decimal comma. A text
cell that starts with = + - or @ gets a leading apostrophe: a spreadsheet never runs a name as
a formula.

The standings are one query set (two queries, see `Tournament.standings`). A tournament with a
final (`Tournament.has_final`) gives its final standings instead (`Tournament.final_standings`):
the finalists first, then everyone else, with the stage, the final game's rank, total and
placement points, what the carry-over brought in and the score the finalists are ranked by,
before the qualifying columns. The rounds of such a tournament say each table's stage.

The rounds, one line per player per round, are drawn from each game's sheet
(`tournaments.sheets.GameSheet`, the read model the table page and the PDFs show), so a line's
ending, points, reduction and total are the sheet's. They are streamed, as a championship has
about 80,000 lines: the games are read a few hundred tables at a time (three queries each
time), so memory stays flat and the queries do not grow with the number of rounds.
"""

from __future__ import annotations

import csv
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from decimal import Decimal
from fractions import Fraction

from django.utils.translation import get_language, gettext, override, pgettext, pgettext_lazy

from scoring import finals, standings
from scoring.finals import CarryOver
from scoring.sheet import Mark
from tournaments.models import Game, Seat, Session, Tournament
from tournaments.models.substitutions import played_rounds
from tournaments.notes import Note, standings_notes
from tournaments.sheets import GameSheet

# --- CSV ------------------------------------------------------------------------

BOM = "\ufeff"
# `?sep=` of the download links.
SEPARATORS = {"comma": ",", "semicolon": ";"}
# The headers and words of the CSV files are in the language of the download's page.
STANDINGS_HEADER = (
    pgettext_lazy("CSV column", "place"),
    pgettext_lazy("CSV column", "player"),
    pgettext_lazy("CSV column", "club"),
    pgettext_lazy("CSV column", "points"),
    pgettext_lazy("CSV column", "games"),
    pgettext_lazy("CSV column", "wins"),
    pgettext_lazy("CSV column", "sum of totals"),
    pgettext_lazy("CSV column", "table-mates' points"),
    pgettext_lazy("CSV column", "provisional"),
    pgettext_lazy("CSV column", "withdrawn"),
)
# Ranked by the average per game, the standings CSV has this column after the points.
AVERAGE_COLUMN = pgettext_lazy("CSV column", "points per game")
# A tournament with a final: these columns after the club, then the qualifying place and the
# qualifying standings' columns.
FINAL_COLUMNS = (
    pgettext_lazy("CSV column", "stage"),
    pgettext_lazy("CSV column", "final rank"),
    pgettext_lazy("CSV column", "final total"),
    pgettext_lazy("CSV column", "final points"),
    pgettext_lazy("CSV column", "carried over"),
    pgettext_lazy("CSV column", "final score"),
    pgettext_lazy("CSV column", "qualifying place"),
)
STAGE_COLUMN = pgettext_lazy("CSV column", "stage")
# A tournament that gave penalty or bonus points or took a substitute: these last columns
# (the placement points given, in the points already; the marks' reasons).
NOTES_COLUMNS = (
    pgettext_lazy("CSV column", "placement points given"),
    pgettext_lazy("CSV column", "notes"),
)
ROUNDS_HEADER = (
    pgettext_lazy("CSV column", "tournament"),
    pgettext_lazy("CSV column", "session"),
    pgettext_lazy("CSV column", "table"),
    pgettext_lazy("CSV column", "round"),
    pgettext_lazy("CSV column", "player"),
    pgettext_lazy("CSV column", "hand total"),
    pgettext_lazy("CSV column", "caller"),
    pgettext_lazy("CSV column", "along"),
    pgettext_lazy("CSV column", "points"),
    pgettext_lazy("CSV column", "reduction"),
    pgettext_lazy("CSV column", "total"),
)
# The rounds' "caller" column: how this player ended the round, by the mark the sheet
# writes beside their points; empty for the others.
ENDINGS = {
    Mark.CALLER: pgettext_lazy("CSV: how a player ended the round", "yaniv"),
    Mark.FALSE: pgettext_lazy("CSV: how a player ended the round", "false yaniv"),
    Mark.EMPTY: pgettext_lazy("CSV: how a player ended the round", "empty hand"),
    # Automatic Assaf: the caller's hand was not the lowest.
    Mark.ASSAF: pgettext_lazy("CSV: how a player ended the round", "assaf"),
}
LINES_PER_CHUNK = 1000
# The rounds CSV reads this many tables' sheets at a time (two queries each time).
TABLES_PER_CHUNK = 200


def decimal(value: Fraction | int, separator: str = ",") -> str:
    """Placement points come in halves: "2.5", or "2,5" beside a `;` separator."""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    text = str(Decimal(value.numerator) / Decimal(value.denominator))
    return text.replace(".", ",") if separator == ";" else text


# What a spreadsheet may take for the start of a formula: = + - @ and their fullwidth and
# small forms (NFKC folds ＝＋－＠ and ﹦﹢﹣﹫ onto them), after any leading spaces, tabs, line
# breaks, control or invisible characters (zero-width space, byte order mark…), which
# spreadsheets skip before deciding (issue 34).
FORMULA_STARTS = frozenset("=+-@")


def _invisible(character: str) -> bool:
    return character.isspace() or unicodedata.category(character) in ("Cc", "Cf", "Zs")


def starts_a_formula(value: str) -> bool:
    """Would a spreadsheet read `value` as a formula (or open it with invisible characters
    that may hide one)?"""
    if not value:
        return False
    first = value[0]
    return _invisible(first) or unicodedata.normalize("NFKC", first)[:1] in FORMULA_STARTS


def _text(value: str) -> str:
    """A name as a spreadsheet shows it: never a formula (a leading apostrophe, which
    spreadsheets show as text and do not display)."""
    return f"'{value}" if starts_a_formula(value) else value


def _yes_no(value: bool) -> str:
    return pgettext("CSV value", "yes") if value else pgettext("CSV value", "no")


def _header(columns: Sequence[object]) -> tuple[str, ...]:
    return tuple(str(column) for column in columns)


class _Echo:
    """A file for `csv.writer` that hands each line back instead of storing it."""

    def write(self, line: str) -> str:
        return line


def csv_chunks(rows: Iterable[Sequence[object]], separator: str = ",") -> Iterator[bytes]:
    """The rows as UTF-8 CSV with a byte order mark, a thousand lines a chunk."""
    writer = csv.writer(_Echo(), delimiter=separator)
    chunk = [BOM]
    for row in rows:
        chunk.append(writer.writerow(row))
        if len(chunk) >= LINES_PER_CHUNK:
            yield "".join(chunk).encode()
            chunk = []
    if chunk:
        yield "".join(chunk).encode()


def stage_label(tournament: Tournament, final_table: int | None) -> str:
    """A final table's stage as the standings page says it: "Final", or "A final" and
    "B final" with two tables; "Qualifying" for everyone else."""
    if final_table is None:
        return str(Session.Stage.QUALIFYING.label)
    if tournament.final_tables == 1:
        return str(Session.Stage.FINAL.label)
    return gettext("A final") if final_table == 1 else gettext("B final")


def _qualifying_cells(
    standing: standings.Standing, average: bool, separator: str
) -> tuple[object, ...]:
    return (
        decimal(standing.points, separator),
        *([_average(standing.average, separator)] if average else []),
        standing.games,
        standing.wins,
        standing.total_sum,
        decimal(standing.opponents_points, separator),
        _yes_no(standing.provisional),
        _yes_no(standing.withdrawn),
    )


def _carried(carry: CarryOver, standing: standings.Standing | None, separator: str) -> str:
    """What the carry-over brought into the final: the qualifying points or sum of totals."""
    brought = finals.carried_over(standing, carry)
    if brought is None:
        return ""
    if carry is CarryOver.TOTALS:
        return str(brought)
    return decimal(brought, separator)


def final_standings_rows(
    tournament: Tournament, separator: str = ","
) -> Iterator[tuple[object, ...]]:
    """The final standings: the finalists first (once every final game is over), with the
    final's columns, then the qualifying columns of each player's standing."""
    average = tournament.ranking == Tournament.Ranking.AVERAGE
    qualifying_header = list(STANDINGS_HEADER[3:])
    if average:
        qualifying_header.insert(1, AVERAGE_COLUMN)
    noted = tournament.has_adjustments or tournament.has_substitutes
    notes = standings_notes(tournament) if noted else {}
    yield _header(
        [*STANDINGS_HEADER[:3], *FINAL_COLUMNS, *qualifying_header]
        + list(NOTES_COLUMNS if noted else ())
    )
    carry = CarryOver(tournament.final_carry_over)
    # No final opened yet: the qualifying standings, every final column empty.
    for row, player in tournament.official_standings():
        result, standing = row.final, row.qualifying
        yield (
            row.place,
            _text(player.name),
            _text(player.club.name) if player.club else "",
            stage_label(tournament, row.final_table),
            *(
                (
                    result.rank,
                    result.total,
                    decimal(
                        standings.placement_points(result.rank, result.tied, result.table_size),
                        separator,
                    ),
                    _carried(carry, standing, separator),
                    decimal(row.score, separator),
                )
                if result is not None
                else ("", "", "", "", "")
            ),
            standing.place if standing else "",
            *(
                _qualifying_cells(standing, average, separator)
                if standing
                else ("",) * len(qualifying_header)
            ),
            *(_notes_cells(standing, notes.get(player.pk, []), separator) if noted else ()),
        )


def standings_rows(
    tournament: Tournament, session: Session | None = None, separator: str = ","
) -> Iterator[tuple[object, ...]]:
    if session is None and tournament.has_final:
        yield from final_standings_rows(tournament, separator)
        return
    average = tournament.ranking == Tournament.Ranking.AVERAGE
    header = list(STANDINGS_HEADER)
    if average:
        header.insert(4, AVERAGE_COLUMN)
    noted = tournament.has_adjustments or tournament.has_substitutes
    notes = standings_notes(tournament, session) if noted else {}
    yield _header([*header, *(NOTES_COLUMNS if noted else ())])
    for standing, player in tournament.standings(session):
        yield (
            standing.place,
            _text(player.name),
            _text(player.club.name) if player.club else "",
            *_qualifying_cells(standing, average, separator),
            *(_notes_cells(standing, notes.get(player.pk, []), separator) if noted else ()),
        )


def _notes_cells(
    standing: standings.Standing | None, notes: Sequence[Note], separator: str
) -> tuple[str, str]:
    """The placement points given and the marks' reasons, as the standings page prints them."""
    given = decimal(standing.adjustment, separator) if standing and standing.adjustment else ""
    return given, _text("; ".join(note.text for note in notes))


def _average(value: Fraction, separator: str) -> str:
    """Points per game to 3 decimals ("2.333", or "2,333" beside a `;` separator)."""
    text = f"{float(value):.3f}"
    return text.replace(".", ",") if separator == ";" else text


def standings_csv(
    tournament: Tournament, session: Session | None = None, separator: str = ","
) -> bytes:
    return b"".join(csv_chunks(standings_rows(tournament, session, separator), separator))


def _sheets(tournament: Tournament) -> Iterator[GameSheet]:
    """Every game's sheet, session by session, table by table, `TABLES_PER_CHUNK` at a time."""
    games = list(
        Game.objects.filter(table__session__tournament=tournament)
        .select_related("table__session")
        .order_by("table__session__number", "table__number")
    )
    for game in games:
        # The rule set is the tournament's: no query per game to find it.
        game.table.session.tournament = tournament
    for start in range(0, len(games), TABLES_PER_CHUNK):
        yield from GameSheet.load_many(games[start : start + TABLES_PER_CHUNK])


def rounds_rows(tournament: Tournament) -> Iterator[tuple[object, ...]]:
    """Every player's line in every round, session by session, table by table, seat by seat.

    One query for the games, then three per `TABLES_PER_CHUNK` tables, whatever the number of
    rounds. A player who is out (elimination) has no line in the later rounds.
    """
    name = _text(tournament.name)
    # With a final, each line says its table's stage after the session (see `stage_label`).
    staged = tournament.has_final
    header = list(ROUNDS_HEADER)
    if staged:
        header.insert(2, STAGE_COLUMN)
    yield _header(header)
    stages: dict[int | None, str] = {
        None: stage_label(tournament, None),
        1: stage_label(tournament, 1),
        2: stage_label(tournament, 2),
    }
    endings = {mark: str(word) for mark, word in ENDINGS.items()}
    # A seat that changed hands: each round's line names who played it (one query).
    turns = (
        played_rounds(Seat.objects.filter(table__session__tournament=tournament).distinct())
        if tournament.has_substitutes
        else {}
    )
    # Translated once, not on each of the 80,000 lines.
    along_word = {True: _yes_no(True), False: _yes_no(False)}
    for sheet in _sheets(tournament):
        table = sheet.game.table
        session = table.session.number
        stage = (
            (stages[table.number if table.session.stage == Session.Stage.FINAL else None],)
            if staged
            else ()
        )
        names = [(_text(seat.player.name), sheet.label(seat)) for seat in sheet.seats]
        for row in sheet.rows:
            for seat, (player, label), cell in zip(sheet.seats, names, row.cells, strict=True):
                if cell.out:
                    continue
                yield (
                    name,
                    session,
                    *stage,
                    table.number,
                    row.number,
                    _player_of_round(turns.get(seat.pk), row.number) or player,
                    cell.hand_total,
                    endings.get(cell.mark, "") if cell.mark else "",
                    along_word[label in row.entries.along],
                    cell.points,
                    cell.reduction,
                    cell.total,
                )


def _player_of_round(turns: Sequence | None, number: int) -> str:
    """Who played round `number` of a seat that changed hands ("" for a seat that did not)."""
    for player, first, last in turns or ():
        if first <= number and (last is None or number <= last):
            return _text(player.name)
    return ""


def rounds_csv_chunks(tournament: Tournament, separator: str = ",") -> Iterator[bytes]:
    """Streamed after the view returns: in the language of the request, kept from now."""
    language = get_language()

    def chunks() -> Iterator[bytes]:
        with override(language):
            yield from csv_chunks(rounds_rows(tournament), separator)

    return chunks()
