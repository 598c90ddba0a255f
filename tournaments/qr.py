"""QR codes as inline SVG, drawn by reportlab (already a dependency for the PDFs)."""

from __future__ import annotations

from reportlab.graphics import renderSVG
from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.shapes import Drawing


def qr_svg(text: str, size: int = 120) -> str:
    """An <svg> element encoding `text`, `size` points square, ready to inline in HTML."""
    widget = QrCodeWidget(text)
    left, bottom, right, top = widget.getBounds()
    drawing = Drawing(
        size, size, transform=[size / (right - left), 0, 0, size / (top - bottom), 0, 0]
    )
    drawing.add(widget)
    svg = renderSVG.drawToString(drawing)
    # Drop the XML prolog: the element goes inside an HTML page.
    return svg[svg.index("<svg") :]
