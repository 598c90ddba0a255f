"""Players from a CSV file: parse, classify against the database, then import.

Three steps, so that a director sees everything before anything is written:

1. `parse_players_csv(data)` reads the bytes (UTF-8, with or without BOM, `,` or `;`
   separated, headers in English, Dutch or French) and checks each row on its own and
   against the rows above it. It touches no database.
2. `classify(parsed, tournament)` says for each row whether the player is `new`, `known`
   (already in the database, perhaps already registered) or an `error`, with three queries
   whatever the number of rows (clubs, players, registrations).
3. `import_players(parsed, tournament)` classifies again under a lock of the tournament and
   writes clubs, players and registrations in one transaction. Rows with errors are skipped.

Who is the same player, here and in the director's "add a player" form:

- a row with a member number is the player with that number in that club; the same number
  under another name is an error (a typo, or two people sharing a number);
- a row with a member number that nobody in the club has yet is the one player of that name in
  the club without a member number, if there is one (the number is then recorded), or a new
  player;
- a row without a member number is the one player of that name in the club; two or more
  players of that name in the club is an error (the member number tells them apart).

Names and clubs are compared ignoring case and repeated spaces; member numbers exactly.
Rows are numbered as in a spreadsheet: the header is row 1.
"""

from __future__ import annotations

import csv
import enum
import io
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext, gettext_lazy, ngettext

from tournaments.models import Club, Player, Registration, Tournament

NAME, CLUB, MEMBER_NUMBER = "name", "club", "member_number"

# Header names after `_header_key` (lower case, no accents, punctuation as spaces).
HEADER_SYNONYMS: dict[str, str] = {
    **dict.fromkeys(
        ["name", "naam", "nom", "player", "speler", "joueur", "full name", "player name"], NAME
    ),
    **dict.fromkeys(["club", "vereniging", "cercle", "club name", "clubnaam"], CLUB),
    **dict.fromkeys(
        [
            "member number",
            "member no",
            "member nr",
            "membership number",
            "number",
            "lidnummer",
            "lid nummer",
            "lidnr",
            "nr",
            "nummer",
            "numero de membre",
            "numero",
            "n de membre",
            "no de membre",
            "matricule",
        ],
        MEMBER_NUMBER,
    ),
}
COLUMNS_HINT = gettext_lazy(
    "the columns are name, club and member number "
    "(or naam, club, lidnummer; or nom, club, numéro de membre)"
)

NOT_UTF8 = gettext_lazy("The file is not UTF-8: save it as 'CSV UTF-8'.")

# The model's field lengths.
MAX_LENGTHS = {
    NAME: Player._meta.get_field("name").max_length,
    CLUB: Club._meta.get_field("name").max_length,
    MEMBER_NUMBER: Player._meta.get_field("member_number").max_length,
}
LABELS = {
    NAME: gettext_lazy("name"),
    CLUB: gettext_lazy("club name"),
    MEMBER_NUMBER: gettext_lazy("member number"),
}


def clean_text(value: str) -> str:
    """A cell as it is compared and stored: no outer spaces, single inner spaces."""
    return " ".join(value.split())


def fold(value: str) -> str:
    """The key two spellings of one name share: case and spaces ignored."""
    return clean_text(value).casefold()


def _header_key(value: str) -> str:
    text = unicodedata.normalize("NFKD", value)
    text = "".join(char for char in text if not unicodedata.combining(char)).casefold()
    return " ".join(re.sub(r"[^0-9a-z]+", " ", text).split())


# --- 1. parsing -------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """One player row of the file, checked on its own and against the rows above."""

    number: int
    name: str
    club: str = ""
    member_number: str = ""
    error: str = ""


@dataclass(frozen=True)
class ParsedImport:
    rows: tuple[Row, ...] = ()
    # Errors of the whole file (encoding, header): then no row is imported.
    errors: tuple[str, ...] = ()
    delimiter: str = ","
    columns: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.errors


def parse_players_csv(data: bytes) -> ParsedImport:
    """The rows of a players file: UTF-8 (BOM or not), `,` or `;`, a header row first."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return ParsedImport(errors=(str(NOT_UTF8),))
    lines = text.splitlines(keepends=True)
    offset = 0
    # Spreadsheets may write "sep=;" above the header to name the separator.
    if lines and re.fullmatch(r"sep=[,;]\s*", lines[0], flags=re.IGNORECASE):
        delimiter = lines[0][4]
        lines, offset = lines[1:], 1
    else:
        header_line = next((line for line in lines if line.strip()), "")
        delimiter = ";" if header_line.count(";") > header_line.count(",") else ","
    try:
        records = list(csv.reader(io.StringIO("".join(lines), newline=""), delimiter=delimiter))
    except csv.Error as error:
        return ParsedImport(
            errors=(gettext("The file cannot be read as CSV: %(error)s.") % {"error": error},)
        )
    numbered = [
        (number, record)
        for number, record in enumerate(records, start=1 + offset)
        if any(cell.strip() for cell in record)
    ]
    if not numbered:
        return ParsedImport(errors=(gettext("The file is empty."),), delimiter=delimiter)
    (_, header), body = numbered[0], numbered[1:]
    columns, errors = _read_header(header)
    if errors:
        return ParsedImport(errors=tuple(errors), delimiter=delimiter)
    if not body:
        return ParsedImport(
            errors=(gettext("The file has a header but no players."),),
            delimiter=delimiter,
            columns=tuple(column for column in columns if column),
        )
    return ParsedImport(
        rows=_check_rows(body, columns),
        delimiter=delimiter,
        columns=tuple(column for column in columns if column),
    )


def _read_header(header: Sequence[str]) -> tuple[list[str], list[str]]:
    """The field of each column ("" for a column without a header), and the errors."""
    columns: list[str] = []
    errors: list[str] = []
    for cell in header:
        label = clean_text(cell)
        if not label:
            columns.append("")
            continue
        column = HEADER_SYNONYMS.get(_header_key(label))
        if column is None:
            errors.append(
                gettext("Unknown column '%(label)s': %(hint)s.")
                % {"label": label, "hint": COLUMNS_HINT}
            )
        elif column in columns:
            errors.append(
                gettext("Column '%(label)s' is a second %(column)s column.")
                % {"label": label, "column": LABELS[column]}
            )
        columns.append(column or "")
    if NAME not in columns:
        errors.append(gettext("No name column: %(hint)s.") % {"hint": COLUMNS_HINT})
    return columns, errors


def _check_rows(body: Iterable[tuple[int, list[str]]], columns: list[str]) -> tuple[Row, ...]:
    rows: list[Row] = []
    by_number: dict[tuple[str, str], Row] = {}  # (club, member number)
    by_name: dict[tuple[str, str], Row] = {}  # (club, name)
    for number, record in body:
        values = {NAME: "", CLUB: "", MEMBER_NUMBER: ""}
        stray = False
        for index, cell in enumerate(record):
            column = columns[index] if index < len(columns) else ""
            if column:
                values[column] = clean_text(cell)
            elif cell.strip():
                stray = True
        row = Row(number, values[NAME], values[CLUB], values[MEMBER_NUMBER])
        error = _row_error(row, stray)
        if not error:
            error = _duplicate_error(row, by_number, by_name)
        if error:
            row = Row(number, row.name, row.club, row.member_number, error)
        else:
            if row.member_number:
                by_number[(fold(row.club), row.member_number)] = row
            by_name.setdefault((fold(row.club), fold(row.name)), row)
        rows.append(row)
    return tuple(rows)


def _row_error(row: Row, stray: bool = False) -> str:
    if not row.name:
        return gettext("empty name")
    if stray:
        return gettext("a value in a column without a header")
    for column, value in ((NAME, row.name), (CLUB, row.club), (MEMBER_NUMBER, row.member_number)):
        if len(value) > MAX_LENGTHS[column]:
            return gettext("%(column)s longer than %(most)s characters") % {
                "column": LABELS[column],
                "most": MAX_LENGTHS[column],
            }
    return ""


def _duplicate_error(
    row: Row,
    by_number: dict[tuple[str, str], Row],
    by_name: dict[tuple[str, str], Row],
) -> str:
    club = fold(row.club)
    if row.member_number:
        earlier = by_number.get((club, row.member_number))
        if earlier is not None:
            if fold(earlier.name) == fold(row.name):
                return _duplicate(earlier)
            return gettext("member number %(number)s is also on row %(row)s (%(name)s)") % {
                "number": row.member_number,
                "row": earlier.number,
                "name": earlier.name,
            }
        # The same name without a number above: that row already stands for this player.
        earlier = by_name.get((club, fold(row.name)))
        if earlier is not None and not earlier.member_number:
            return _duplicate(earlier)
        return ""
    earlier = by_name.get((club, fold(row.name)))
    if earlier is not None:
        return _duplicate(earlier)
    return ""


def _duplicate(earlier: Row) -> str:
    return gettext("duplicate of row %(row)s") % {"row": earlier.number}


def single_row(name: str, club: str = "", member_number: str = "") -> ParsedImport:
    """One player typed in a form, checked like a row of a file."""
    row = Row(1, clean_text(name), clean_text(club), clean_text(member_number))
    error = _row_error(row)
    if error:
        row = Row(1, row.name, row.club, row.member_number, error)
    return ParsedImport(rows=(row,), columns=(NAME, CLUB, MEMBER_NUMBER))


# --- 2. classifying ---------------------------------------------------------


class Status(enum.StrEnum):
    NEW = "new"
    KNOWN = "known"
    ERROR = "error"

    @property
    def label(self) -> str:
        """The status as the preview's badge shows it, in the active language."""
        return str(STATUS_LABELS[self])


STATUS_LABELS = {
    Status.NEW: gettext_lazy("new"),
    Status.KNOWN: gettext_lazy("known"),
    Status.ERROR: gettext_lazy("error"),
}


@dataclass
class Line:
    """A row and what importing it would do."""

    row: Row
    status: Status
    reason: str = ""  # why it is an error
    player: Player | None = None  # the known player
    club: Club | None = None  # the existing club
    new_club: bool = False  # the club is created with the row's spelling
    registered: bool = False  # the known player is already registered
    records_member_number: bool = False  # the known player gets the row's member number

    @property
    def note(self) -> str:
        if self.status is Status.ERROR:
            return self.reason
        if self.status is Status.NEW:
            if self.new_club:
                return gettext("new player, new club %(club)s") % {"club": self.row.club}
            return gettext("new player")
        if self.registered:
            return gettext("already registered")
        if self.records_member_number:
            return gettext("will be registered, member number %(number)s recorded") % {
                "number": self.row.member_number
            }
        return gettext("will be registered")


@dataclass
class Preview:
    lines: list[Line]
    errors: tuple[str, ...] = ()

    @property
    def counts(self) -> Counter:
        counts = Counter(line.status.value for line in self.lines)
        counts["registered"] = sum(1 for line in self.lines if line.registered)
        counts["to_register"] = sum(
            1 for line in self.lines if line.status is not Status.ERROR and not line.registered
        )
        return counts

    @property
    def can_confirm(self) -> bool:
        """A file without errors of its own and with at least one importable row."""
        return not self.errors and any(line.status is not Status.ERROR for line in self.lines)


def classify(parsed: ParsedImport, tournament: Tournament) -> Preview:
    """What importing `parsed` into `tournament` would do, row by row (three queries)."""
    if not parsed.ok:
        return Preview(lines=[], errors=parsed.errors)
    rows = parsed.rows
    clubs = {fold(club.name): club for club in Club.objects.all()}
    wanted = {fold(row.club) for row in rows if not row.error}
    club_ids = [clubs[name].pk for name in wanted if name in clubs]
    in_clubs = Q(club_id__in=club_ids)
    if "" in wanted:
        in_clubs |= Q(club__isnull=True)
    players_by_number: dict[tuple[int | None, str], Player] = {}
    players_by_name: dict[tuple[int | None, str], list[Player]] = {}
    if club_ids or "" in wanted:
        for player in Player.objects.filter(in_clubs).select_related("club").order_by("pk"):
            if player.member_number:
                players_by_number[(player.club_id, player.member_number)] = player
            players_by_name.setdefault((player.club_id, fold(player.name)), []).append(player)
    registered = set(tournament.registrations.values_list("player_id", flat=True))

    lines: list[Line] = []
    matched: dict[int, Row] = {}  # player pk → the row that matched them
    for row in rows:
        if row.error:
            lines.append(Line(row, Status.ERROR, reason=row.error))
            continue
        club = clubs.get(fold(row.club)) if row.club else None
        line = _match(row, club, players_by_number, players_by_name)
        if line.player is not None:
            earlier = matched.setdefault(line.player.pk, row)
            if earlier is not row:
                reason = gettext("same player as row %(row)s") % {"row": earlier.number}
                line = Line(row, Status.ERROR, reason=reason)
            else:
                line.registered = line.player.pk in registered
        lines.append(line)
    return Preview(lines=lines)


def _match(
    row: Row,
    club: Club | None,
    players_by_number: dict[tuple[int | None, str], Player],
    players_by_name: dict[tuple[int | None, str], list[Player]],
) -> Line:
    new_club = bool(row.club) and club is None
    if new_club:
        return Line(row, Status.NEW, new_club=True)
    club_id = club.pk if club else None
    club_label = club.name if club else gettext("no club")
    namesakes = players_by_name.get((club_id, fold(row.name)), [])
    if row.member_number:
        player = players_by_number.get((club_id, row.member_number))
        if player is not None:
            if fold(player.name) != fold(row.name):
                return Line(
                    row,
                    Status.ERROR,
                    reason=gettext("member number %(number)s already used by %(name)s in %(club)s")
                    % {"number": row.member_number, "name": player.name, "club": club_label},
                )
            return Line(row, Status.KNOWN, player=player, club=club)
        unnumbered = [player for player in namesakes if not player.member_number]
        if len(unnumbered) == 1:
            return Line(
                row, Status.KNOWN, player=unnumbered[0], club=club, records_member_number=True
            )
        if len(unnumbered) > 1:
            return Line(
                row,
                Status.ERROR,
                reason=gettext(
                    "%(count)s players named %(name)s in %(club)s have no member number: "
                    "fix them in the admin first"
                )
                % {"count": len(unnumbered), "name": row.name, "club": club_label},
            )
        return Line(row, Status.NEW, club=club)
    if len(namesakes) == 1:
        return Line(row, Status.KNOWN, player=namesakes[0], club=club)
    if len(namesakes) > 1:
        return Line(
            row,
            Status.ERROR,
            reason=gettext(
                "%(count)s players are named %(name)s in %(club)s: add the member number"
            )
            % {"count": len(namesakes), "name": row.name, "club": club_label},
        )
    return Line(row, Status.NEW, club=club)


# --- 3. importing -----------------------------------------------------------


@dataclass
class ImportResult:
    clubs_created: int = 0
    players_created: int = 0
    registered: int = 0
    already_registered: int = 0
    member_numbers_recorded: int = 0
    skipped: list[Line] = field(default_factory=list)
    players: list[Player] = field(default_factory=list)  # every player of an imported row

    def summary(self) -> str:
        parts = [
            ngettext("%(count)s new player", "%(count)s new players", self.players_created)
            % {"count": self.players_created},
            gettext("%(count)s registered") % {"count": self.registered},
        ]
        if self.already_registered:
            parts.append(
                gettext("%(count)s already registered") % {"count": self.already_registered}
            )
        if self.clubs_created:
            parts.append(
                ngettext("%(count)s new club", "%(count)s new clubs", self.clubs_created)
                % {"count": self.clubs_created}
            )
        if self.member_numbers_recorded:
            parts.append(
                ngettext(
                    "%(count)s member number recorded",
                    "%(count)s member numbers recorded",
                    self.member_numbers_recorded,
                )
                % {"count": self.member_numbers_recorded}
            )
        return ", ".join(parts) + "."


def import_players(parsed: ParsedImport, tournament: Tournament) -> ImportResult:
    """Create the missing clubs and players and register every valid row, all or nothing.

    The rows are classified again here, under a lock of the tournament, so two imports
    into one tournament do not interleave and what is written matches the database now.
    May raise IntegrityError when another tournament's import creates the same player at
    the same moment; then nothing is written.
    """
    with transaction.atomic():
        list(Tournament.objects.select_for_update().filter(pk=tournament.pk).values_list("pk"))
        preview = classify(parsed, tournament)
        if preview.errors:
            return ImportResult()
        result = ImportResult(skipped=[ln for ln in preview.lines if ln.status is Status.ERROR])
        lines = [line for line in preview.lines if line.status is not Status.ERROR]

        new_clubs: dict[str, Club] = {}
        for line in lines:
            if line.new_club and fold(line.row.club) not in new_clubs:
                new_clubs[fold(line.row.club)] = Club(name=line.row.club)
        Club.objects.bulk_create(new_clubs.values())
        result.clubs_created = len(new_clubs)

        new_players = []
        for line in lines:
            if line.status is Status.NEW:
                club = new_clubs[fold(line.row.club)] if line.new_club else line.club
                line.player = Player(
                    name=line.row.name, club=club, member_number=line.row.member_number
                )
                new_players.append(line.player)
        Player.objects.bulk_create(new_players)
        result.players_created = len(new_players)

        numbered = []
        for line in lines:
            if line.records_member_number:
                line.player.member_number = line.row.member_number
                numbered.append(line.player)
        Player.objects.bulk_update(numbered, ["member_number"])
        result.member_numbers_recorded = len(numbered)

        Registration.objects.bulk_create(
            Registration(tournament=tournament, player=line.player)
            for line in lines
            if not line.registered
        )
        result.registered = sum(1 for line in lines if not line.registered)
        result.already_registered = len(lines) - result.registered
        result.players = [line.player for line in lines]
    return result
