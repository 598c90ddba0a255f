"""The printed products, each a function returning a PDF's bytes (reportlab, A4).

- `blank_score_sheets(session)`: a page per table, ready for the referee's pen;
- `filled_score_sheet(game_sheet, show_names=)`: a game's sheet as recorded, with its chart;
- `standings_pdf(tournament, session=None)`: the standings for the wall;
- `tournament_report(tournament, show_names=)`: the club's archive of a tournament;
- `page_count(pdf)`: how many pages one of them has.

`document` lays out the pages; `rules_box`, `score_sheets`, `standings` and `report` draw
the products.
"""

from __future__ import annotations

from printing.document import page_count
from printing.report import tournament_report
from printing.score_sheets import blank_score_sheets, filled_score_sheet
from printing.standings import standings_pdf

__all__ = [
    "blank_score_sheets",
    "filled_score_sheet",
    "page_count",
    "standings_pdf",
    "tournament_report",
]
