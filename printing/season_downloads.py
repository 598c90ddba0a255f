"""The season standings as CSV, by the conventions of `printing.downloads` (UTF-8 with a byte
order mark, `,` or `;` with decimal commas beside `;`, names never read as formulas).

A line per player: place, player, club, season points, results counted, then a column per
tournament counted (its season points; in brackets when not among the best N), provisional.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

from django.utils.translation import pgettext, pgettext_lazy

from printing.downloads import _header, _text, _yes_no, csv_chunks, decimal
from seasons.models.seasons import SeasonTable

SEASON_HEADER = (
    pgettext_lazy("CSV column", "place"),
    pgettext_lazy("CSV column", "player"),
    pgettext_lazy("CSV column", "club"),
    pgettext_lazy("CSV column", "season points"),
    pgettext_lazy("CSV column", "results counted"),
)


def season_rows(table: SeasonTable, separator: str = ",") -> Iterator[tuple[object, ...]]:
    tournaments = [_text(entry.tournament.name) for entry in table.counted]
    yield (*_header(SEASON_HEADER), *tournaments, pgettext("CSV column", "provisional"))
    for row in table.rows:
        standing = row.standing
        cells = []
        for result in row.cells:
            if result is None:
                cells.append("")
                continue
            points = decimal(Fraction(result.points), separator)
            cells.append(points if result.counted else f"({points})")
        yield (
            standing.place,
            _text(row.player.name),
            _text(row.player.club.name) if row.player.club else "",
            decimal(Fraction(standing.points), separator),
            standing.counted,
            *cells,
            _yes_no(standing.provisional),
        )


def season_csv(table: SeasonTable, separator: str = ",") -> bytes:
    return b"".join(csv_chunks(season_rows(table, separator), separator))
