"""QR codes as inline SVG: reportlab's encoder (already a dependency for the PDFs), drawn here.

reportlab's own SVG renderer styles every square with a `style` attribute, which a strict
Content-Security-Policy refuses (the code then shows nothing), and gives each drawing the same
ids. This draws the dark modules as one path, styled by attributes only, with no ids.
"""

from __future__ import annotations

import itertools

from reportlab.graphics.barcode import qrencoder

# The quiet zone around the code, in modules, as the standard asks.
BORDER = 4


def qr_modules(text: str) -> list[list[bool]]:
    """The code's modules, row by row from the top: True is dark."""
    code = qrencoder.QRCode(None, qrencoder.QRErrorCorrectLevel.L)
    code.addData(text)
    code.make()
    return [[bool(module) for module in row] for row in code.modules]


def qr_svg(text: str, size: int = 120) -> str:
    """An <svg> element encoding `text`, `size` pixels square, ready to inline in HTML."""
    modules = qr_modules(text)
    side = len(modules) + 2 * BORDER
    runs = []
    for y, row in enumerate(modules, start=BORDER):
        x = BORDER
        for dark, group in itertools.groupby(row):
            length = len(list(group))
            if dark:
                runs.append(f"M{x} {y}h{length}v1h-{length}z")
            x += length
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
        f'viewBox="0 0 {side} {side}" shape-rendering="crispEdges" aria-hidden="true">'
        f'<rect width="{side}" height="{side}" fill="#fff"/>'
        f'<path fill="#000" d="{"".join(runs)}"/></svg>'
    )
