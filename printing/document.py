"""What every printed product shares: A4 pages, styles, the header and footer, small helpers.

The text is set in DejaVu Sans, embedded (a subset), so the suits ♠♥♦♣, arrows and every
accented name print on any printer. Every text is in the active language (the request's,
set by the locale middleware), dates and placement points too.
"""

from __future__ import annotations

import functools
import io
import re
from xml.sax.saxutils import escape

from django.utils import formats, timezone
from django.utils.translation import gettext, ngettext, pgettext
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import BaseDocTemplate, Flowable, Frame, PageTemplate, Paragraph

from scoring.rules import Ruleset
from tournaments.fonts import BOLD, FONT, register_fonts

PORTRAIT, LANDSCAPE = "portrait", "landscape"
SIDE, TOP, BOTTOM = 10 * mm, 10 * mm, 12 * mm

RED = colors.HexColor("#c62828")
GREY = colors.HexColor("#666666")
LINE = colors.HexColor("#9a9a9a")
SOFT = colors.HexColor("#eeeeee")
SUITS = '♠<font color="#c62828">♥♦</font>♣'


@functools.cache
def styles() -> dict[str, ParagraphStyle]:
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


def p(text: str, style: str = "body") -> Paragraph:
    """A paragraph of reportlab markup (escape what comes from users with `e`)."""
    return Paragraph(text, styles()[style])


def e(text: object) -> str:
    return escape(str(text))


def when(moment) -> str:
    return formats.date_format(timezone.localtime(moment), "SHORT_DATETIME_FORMAT")


def day(date) -> str:
    return formats.date_format(date, "DATE_FORMAT")


def page_size(orientation: str) -> tuple[float, float]:
    return landscape(A4) if orientation == LANDSCAPE else A4


def frame_size(orientation: str) -> tuple[float, float]:
    width, height = page_size(orientation)
    return width - 2 * SIDE, height - TOP - BOTTOM


def build(story: list[Flowable], *, title: str, footer: str, first: str = PORTRAIT) -> bytes:
    """Lay out the story on A4 pages (portrait or landscape by NextPageTemplate)."""
    register_fonts()
    printed = when(timezone.now())

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
        frame_width, frame_height = frame_size(orientation)
        frame = Frame(SIDE, BOTTOM, frame_width, frame_height, 0, 0, 0, 0, id=orientation)
        templates.append(
            PageTemplate(
                id=orientation,
                frames=[frame],
                onPage=decorate,
                pagesize=page_size(orientation),
            )
        )
    if first == LANDSCAPE:
        templates.reverse()
    buffer = io.BytesIO()
    document = BaseDocTemplate(
        buffer,
        pagesize=page_size(first),
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


# --- small helpers of several products ------------------------------------------------


def players(count: int) -> str:
    return ngettext("%(count)s player", "%(count)s players", count) % {"count": count}


def decks(ruleset: Ruleset, player_count: int) -> str:
    count = ruleset.decks(player_count)
    return ngettext("%(count)s deck", "%(count)s decks", count) % {"count": count}


def orientation_for(player_count: int) -> str:
    """Up to 4 players a sheet stands upright; 5 to 8 need the width."""
    return LANDSCAPE if player_count > 4 else PORTRAIT


def title(text: str) -> Paragraph:
    return p(f"{SUITS} {text}", "title")


def height_of(flowable: Flowable, width: float) -> float:
    return flowable.wrap(width, 10_000)[1]


def fitted(text: str, width: float, size: float) -> str | Paragraph:
    """A grid cell's label, set smaller when a language's word is wider than its column."""
    needed = pdfmetrics.stringWidth(text, FONT, size)
    if needed <= width:
        return text
    smaller = max(4, size * width / needed)
    style = ParagraphStyle(
        "fitted", styles()["head"], fontSize=smaller, leading=smaller + 1, textColor=GREY
    )
    return Paragraph(e(text), style)


def game_state(game, round_count: int) -> str:
    """Where a game stands: not started, in progress, over (signed off or provisional).

    Each state is one sentence with its count (ngettext): a count slotted into another
    sentence cannot agree with it ("1 manche enregistrées")."""
    count = {"count": round_count}
    if game.ended_at_time_limit:
        state = ngettext(
            "ended at the time limit after %(count)s round",
            "ended at the time limit after %(count)s rounds",
            round_count,
        )
    elif game.finished:
        state = ngettext(
            "game over after %(count)s round", "game over after %(count)s rounds", round_count
        )
    elif round_count:
        return (
            ngettext(
                "in progress: %(count)s round recorded",
                "in progress: %(count)s rounds recorded",
                round_count,
            )
            % count
        )
    else:
        return gettext("not started")
    state %= count
    if game.signed_off_at:
        return state + " · " + gettext("signed off")
    return state + " · " + gettext("provisional (not signed off)")


def rank_text(rank: int | None) -> str:
    """A rank as the language writes it: "1st", "1e", "1er" ("" before the first round).

    The sheet's state (in progress, over) says whether it is final."""
    if rank is None:
        return ""
    return ordinal(rank)


def ordinal(number: int) -> str:
    """An ordinal number in the active language: "2nd", "2e" (Dutch and French)."""
    if number == 1:
        pattern = pgettext("ordinal number: 1", "%(number)sst")
    elif number % 100 in (11, 12, 13):
        pattern = pgettext("ordinal number: 11, 12, 13, 111…", "%(number)sth")
    elif number % 10 == 1:
        pattern = pgettext("ordinal number: 21, 31…", "%(number)sst")
    elif number % 10 == 2:
        pattern = pgettext("ordinal number: 2, 22…", "%(number)snd")
    elif number % 10 == 3:
        pattern = pgettext("ordinal number: 3, 23…", "%(number)srd")
    else:
        pattern = pgettext("ordinal number: 4, 5… 10, 14…", "%(number)sth")
    return pattern % {"number": number}
