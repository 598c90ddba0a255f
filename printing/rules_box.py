"""The rules box of a blank score sheet: what matters at the table, in columns.

Its lines are the rules page's (`tournaments.rules_text`): the rule set's rules in words,
then the marks a referee writes on a sheet under it.
"""

from __future__ import annotations

from reportlab.lib import colors
from reportlab.platypus import Flowable, Table, TableStyle

from printing.document import height_of, p
from scoring.rules import Ruleset
from tournaments.rules_text import marks_line, rule_lines


def rules_box(ruleset: Ruleset, width: float, columns: int) -> Table:
    """The rule set's lines in `columns` columns of about equal height, in a grey box."""
    lines = [p(line, "small") for line in [*rule_lines(ruleset), marks_line(ruleset)]]
    # Fill the columns in order, each up to an equal share of the text's height.
    heights = [height_of(line, width / columns - 8) for line in lines]
    share = sum(heights) / columns
    cells: list[list[Flowable]] = [[]]
    filled = 0.0
    for line, line_height in zip(lines, heights, strict=True):
        if cells[-1] and filled + line_height / 2 > share and len(cells) < columns:
            cells.append([])
            filled = 0.0
        cells[-1].append(line)
        filled += line_height
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
