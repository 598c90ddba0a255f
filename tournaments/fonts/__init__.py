"""DejaVu Sans, for the PDFs and the score chart: it has ♠♥♦♣, arrows and every accent."""

from __future__ import annotations

import functools
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FONTS = Path(__file__).resolve().parent
FONT, BOLD = "DejaVuSans", "DejaVuSans-Bold"


@functools.cache
def register_fonts() -> None:
    """DejaVu Sans as reportlab TrueType fonts: embedded in every PDF that uses them."""
    pdfmetrics.registerFont(TTFont(FONT, str(FONTS / "DejaVuSans.ttf")))
    pdfmetrics.registerFont(TTFont(BOLD, str(FONTS / "DejaVuSans-Bold.ttf")))
    pdfmetrics.registerFontFamily(FONT, normal=FONT, bold=BOLD, italic=FONT, boldItalic=BOLD)
