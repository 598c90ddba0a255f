"""Players from a CSV file: parse, classify against the database, then import.

Three steps, so that a director sees everything before anything is written:

1. `parse_players_csv(data)` reads the bytes (UTF-8, with or without BOM, or Windows-1252 as
   Excel saves "CSV"; `,` or `;` separated; headers in English, Dutch or French) and checks
   each row on its own and against the rows above it. It touches no database. What Belgian
   clubs export works as it is: columns it does not know are ignored (a notice says which),
   first and last name columns (Voornaam/Familienaam, Prénom/Nom, First name/Last name) are
   joined into the name. A file of more than MAX_ROWS players is refused whole.
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

Within one file, two rows of a club whose names differ by accents, case or spaces alone are
one player (the later row is a duplicate). Against the database, names and clubs are compared
ignoring case and repeated spaces; member numbers exactly (a
member number's holder is the row's player when the names differ by accents alone). A new
player whose name is only alike a known one's in the club (`names`: accents and case,
swapped, one letter apart) has those `look_alikes`: the form asks, the preview says so.
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
from typing import Any, cast

from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils.formats import number_format
from django.utils.translation import gettext, gettext_lazy, ngettext

from tournaments import names
from tournaments.models import Club, Player, Registration, Tournament
from tournaments.models.people import direction_control_error, has_direction_controls

NAME, CLUB, MEMBER_NUMBER = "name", "club", "member_number"
# The name in two columns, joined "first last".
FIRST_NAME, LAST_NAME = "first_name", "last_name"
# A column the import does not use.
IGNORED = "ignored"

# The most players one file imports: a championship has about 500. The preview lists every
# row, so the cap also bounds the page (200,000 rows made a page of 53 MB).
MAX_ROWS = 2_000

# Header names after `_header_key` (lower case, no accents, punctuation as spaces).
HEADER_SYNONYMS: dict[str, str] = {
    **dict.fromkeys(
        ["name", "naam", "nom", "player", "speler", "joueur", "full name", "player name"], NAME
    ),
    **dict.fromkeys(
        ["first name", "firstname", "given name", "voornaam", "prenom", "prenom du joueur"],
        FIRST_NAME,
    ),
    **dict.fromkeys(
        [
            "last name",
            "lastname",
            "surname",
            "family name",
            "familienaam",
            "achternaam",
            "nom de famille",
        ],
        LAST_NAME,
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
    "the columns are name (or first name and last name), club and member number "
    "(or naam or voornaam and familienaam, club, lidnummer; "
    "or nom or prénom and nom, club, numéro de membre)"
)

UNREADABLE = gettext_lazy(
    "The file is neither UTF-8 nor Windows-1252 text: save it as “CSV UTF-8”."
)

# The model's field lengths.
MAX_LENGTHS: dict[str, int] = {
    column: field.max_length or 0
    for column, field in (
        (NAME, Player._meta.get_field("name")),
        (CLUB, Club._meta.get_field("name")),
        (MEMBER_NUMBER, Player._meta.get_field("member_number")),
    )
}
LABELS = {
    NAME: gettext_lazy("name"),
    FIRST_NAME: gettext_lazy("first name"),
    LAST_NAME: gettext_lazy("last name"),
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
    # Errors of the whole file (encoding, header, size): then no row is imported.
    errors: tuple[str, ...] = ()
    delimiter: str = ","
    columns: tuple[str, ...] = ()
    # What the director should know about how the file was read (ignored columns, …).
    notices: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.errors


WINDOWS_1252 = "cp1252"


def decode_csv(data: bytes) -> tuple[str, str] | None:
    """The file's text and its encoding: UTF-8 (with or without BOM), else Windows-1252 (what
    Excel saves as plain "CSV" in Belgium); None when it is neither."""
    try:
        return data.decode("utf-8-sig"), "utf-8"
    except UnicodeDecodeError:
        pass
    try:
        return data.decode(WINDOWS_1252), WINDOWS_1252
    except UnicodeDecodeError:
        return None


def parse_players_csv(data: bytes) -> ParsedImport:
    """The rows of a players file: UTF-8 or Windows-1252, `,` or `;`, a header row first."""
    decoded = decode_csv(data)
    if decoded is None:
        return ParsedImport(errors=(str(UNREADABLE),))
    text, encoding = decoded
    notices: list[str] = []
    if encoding == WINDOWS_1252:
        notices.append(
            gettext(
                "The file is not UTF-8: it was read as Windows-1252 (Excel's “CSV”). "
                "Check the accents in the names below."
            )
        )
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
    if len(body) > MAX_ROWS:
        return ParsedImport(
            errors=(
                gettext(
                    "The file has %(count)s rows of players: at most %(most)s can be imported "
                    "at once. Split it into smaller files."
                )
                % {
                    "count": number_format(len(body), force_grouping=True),
                    "most": number_format(MAX_ROWS, force_grouping=True),
                },
            ),
            delimiter=delimiter,
        )
    columns, errors, header_notices = _read_header(header)
    notices += header_notices
    used = tuple(column for column in columns if column and column != IGNORED)
    if errors:
        return ParsedImport(errors=tuple(errors), delimiter=delimiter)
    if not body:
        return ParsedImport(
            errors=(gettext("The file has a header but no players."),),
            delimiter=delimiter,
            columns=used,
            notices=tuple(notices),
        )
    return ParsedImport(
        rows=_check_rows(body, columns),
        delimiter=delimiter,
        columns=used,
        notices=tuple(notices),
    )


def _read_header(header: Sequence[str]) -> tuple[list[str], list[str], list[str]]:
    """The field of each column ("" for a column without a header, IGNORED for one the
    import does not use), the errors and the notices."""
    columns: list[str] = []
    labels: dict[str, str] = {}
    ignored: list[str] = []
    errors: list[str] = []
    for cell in header:
        label = clean_text(cell)
        if not label:
            columns.append("")
            continue
        column = HEADER_SYNONYMS.get(_header_key(label))
        if column is None:
            ignored.append(label)
            columns.append(IGNORED)
            continue
        if column in columns:
            errors.append(
                gettext("Column “%(label)s” is a second %(column)s column.")
                % {"label": label, "column": LABELS[column]}
            )
        columns.append(column)
        labels.setdefault(column, label)
    notices: list[str] = []
    if FIRST_NAME in columns or LAST_NAME in columns:
        if NAME in columns:
            if LAST_NAME not in columns:
                # "Voornaam;Naam", "Prénom;Nom": beside a first name, the name is the last one.
                columns[columns.index(NAME)] = LAST_NAME
                labels[LAST_NAME] = labels.pop(NAME)
            else:
                ignored.append(labels.pop(NAME))
                columns[columns.index(NAME)] = IGNORED
        parts = [labels[column] for column in (FIRST_NAME, LAST_NAME) if column in labels]
        notices.append(
            gettext("The name is made of the columns %(columns)s.")
            % {"columns": " + ".join(f"'{part}'" for part in parts)}
        )
    elif NAME not in columns:
        errors.append(gettext("No name column: %(hint)s.") % {"hint": COLUMNS_HINT})
    if ignored and not errors:
        notices.append(
            ngettext("Column ignored: %(columns)s.", "Columns ignored: %(columns)s.", len(ignored))
            % {"columns": ", ".join(f"'{label}'" for label in ignored)}
        )
    return columns, errors, notices


def _check_rows(body: Iterable[tuple[int, list[str]]], columns: list[str]) -> tuple[Row, ...]:
    rows: list[Row] = []
    by_number: dict[tuple[str, str], Row] = {}  # (club, member number)
    # (club, name without accents or case: "Hélène" and "Helene" in one file are one player)
    by_name: dict[tuple[str, str], Row] = {}
    for number, record in body:
        values = {NAME: "", FIRST_NAME: "", LAST_NAME: "", CLUB: "", MEMBER_NUMBER: ""}
        stray = False
        for index, cell in enumerate(record):
            column = columns[index] if index < len(columns) else ""
            if column == IGNORED:
                continue
            if column:
                values[column] = clean_text(cell)
            elif cell.strip():
                stray = True
        name = values[NAME] or clean_text(f"{values[FIRST_NAME]} {values[LAST_NAME]}")
        row = Row(number, name, values[CLUB], values[MEMBER_NUMBER])
        error = _row_error(row, stray)
        if not error:
            error = _duplicate_error(row, by_number, by_name)
        if error:
            row = Row(number, row.name, row.club, row.member_number, error)
        else:
            if row.member_number:
                by_number[(fold(row.club), row.member_number)] = row
            by_name.setdefault((fold(row.club), names.fold(row.name)), row)
        rows.append(row)
    return tuple(rows)


def _row_error(row: Row, stray: bool = False) -> str:
    if not row.name:
        return gettext("empty name")
    if stray:
        return gettext("a value in a column without a header")
    for column, value in ((NAME, row.name), (CLUB, row.club), (MEMBER_NUMBER, row.member_number)):
        if has_direction_controls(value):
            return direction_control_error(str(LABELS[column]))
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
            if names.fold(earlier.name) == names.fold(row.name):
                return _duplicate(earlier)
            return gettext("member number %(number)s is also on row %(row)s (%(name)s)") % {
                "number": row.member_number,
                "row": earlier.number,
                "name": earlier.name,
            }
        # The same name without a number above: that row already stands for this player.
        earlier = by_name.get((club, names.fold(row.name)))
        if earlier is not None and not earlier.member_number:
            return _duplicate(earlier)
        return ""
    earlier = by_name.get((club, names.fold(row.name)))
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
    # A new player whose name is like a known one's in the club (accents, case, swapped
    # names, one letter apart): the same person, perhaps.
    look_alikes: list[Player] = field(default_factory=list)

    @property
    def note(self) -> str:
        if self.status is Status.ERROR:
            return self.reason
        if self.status is Status.NEW:
            if self.look_alikes:
                return gettext("new player, but the club has %(names)s: the same person?") % {
                    "names": ", ".join(player.name for player in self.look_alikes)
                }
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


def classify(parsed: ParsedImport, tournament: Tournament, *, by: Any) -> Preview:
    """What importing `parsed` into `tournament` would do, row by row (four queries), for
    the director `by`: a club they may not see (another director's private tournaments
    alone know it) is an error of its row, so that registering a player never shows it."""
    if not parsed.ok:
        return Preview(lines=[], errors=parsed.errors)
    rows = parsed.rows
    clubs = {fold(club.name): club for club in Club.objects.all()}
    wanted = {fold(row.club) for row in rows if not row.error}
    club_ids = [clubs[name].pk for name in wanted if name in clubs]
    seen: set[int] = set()
    if club_ids:
        visible = Club.objects.visible_to(by).filter(pk__in=club_ids)
        seen = set(visible.values_list("pk", flat=True))
    # A club the director may not see is not theirs to register players with.
    club_ids = [pk for pk in club_ids if pk in seen]
    in_clubs = Q(club_id__in=club_ids)
    if "" in wanted:
        in_clubs |= Q(club__isnull=True)
    players_by_number: dict[tuple[int | None, str], Player] = {}
    players_by_name: dict[tuple[int | None, str], list[Player]] = {}
    shown: set[int] = set()  # the players the director may see
    if club_ids or "" in wanted:
        # A look-alike is named to the director: only players they may see (`shown`, issue 22).
        players = Player.objects.filter(in_clubs).annotate(
            shown=Exists(Player.objects.visible_to(by).filter(pk=OuterRef("pk")))
        )
        # `shown` is an annotation: the type checker knows players, not what they carry.
        annotated: Any = players.select_related("club").order_by("pk")
        for player in annotated:
            if player.shown:
                shown.add(player.pk)
            if player.member_number:
                players_by_number[(player.club_id, player.member_number)] = player
            players_by_name.setdefault((player.club_id, fold(player.name)), []).append(player)
    registered = set(tournament.registrations.values_list("player_id", flat=True))
    # The club's players by their names folded (accents too), for the look-alikes.
    alike: dict[int | None, names.NameIndex] = {}
    for (club_id, _), namesakes in players_by_name.items():
        for namesake in namesakes:
            alike.setdefault(club_id, names.NameIndex()).add(namesake.pk, namesake.name)
    by_pk = {namesake.pk: namesake for group in players_by_name.values() for namesake in group}

    lines: list[Line] = []
    matched: dict[int, Row] = {}  # player pk → the row that matched them
    for row in rows:
        if row.error:
            lines.append(Line(row, Status.ERROR, reason=row.error))
            continue
        club = clubs.get(fold(row.club)) if row.club else None
        if club is not None and club.pk not in seen:
            reason = gettext(
                "the club %(club)s belongs to another director's private tournament: "
                "give another club name"
            ) % {"club": row.club}
            lines.append(Line(row, Status.ERROR, reason=reason))
            continue
        line = _match(row, club, players_by_number, players_by_name)
        if line.status is Status.NEW and not line.new_club:
            index = alike.get(club.pk if club else None)
            line.look_alikes = [
                by_pk[pk]  # type: ignore[index]
                for pk, _ in (index.alike(row.name) if index else [])
                # Only a player the director may see is named (issue 22, finding 4).
                if pk in shown
                # A member number each, and not the same: two people.
                and not (row.member_number and by_pk[pk].member_number)  # type: ignore[index]
            ]
        known = line.player
        if known is not None:
            earlier = matched.setdefault(known.pk, row)
            if earlier is not row:
                reason = gettext("same player as row %(row)s") % {"row": earlier.number}
                line = Line(row, Status.ERROR, reason=reason)
            else:
                line.registered = known.pk in registered
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
            # The club's member number is the person: their name is theirs but for accents.
            if names.fold(player.name) != names.fold(row.name):
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


def import_players(parsed: ParsedImport, tournament: Tournament, *, by: Any) -> ImportResult:
    """Create the missing clubs and players and register every valid row, all or nothing.

    The rows are classified again here, under a lock of the tournament, so two imports
    into one tournament do not interleave and what is written matches the database now.
    May raise IntegrityError when another tournament's import creates the same player at
    the same moment; then nothing is written.
    """
    with transaction.atomic():
        list(Tournament.objects.select_for_update().filter(pk=tournament.pk).values_list("pk"))
        preview = classify(parsed, tournament, by=by)
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
        # Every line has its player now: a known one, or the one just created.
        players = [cast(Player, line.player) for line in lines]

        numbered = []
        for line, player in zip(lines, players, strict=True):
            if line.records_member_number:
                player.member_number = line.row.member_number
                numbered.append(player)
        Player.objects.bulk_update(numbered, ["member_number"])
        result.member_numbers_recorded = len(numbered)

        Registration.objects.bulk_create(
            Registration(tournament=tournament, player=player)
            for line, player in zip(lines, players, strict=True)
            if not line.registered
        )
        result.registered = sum(1 for line in lines if not line.registered)
        result.already_registered = len(lines) - result.registered
        result.players = players
    return result
