"""The QR codes the pages show (table codes, the table list, the account card): drawn by
attributes only, as the Content-Security-Policy wants, and encoding exactly their text."""

from __future__ import annotations

import re

from tournaments.qr import BORDER, qr_modules, qr_svg

URL = "https://yaniv.example.be/c/12-0123456789abcdef0123456789abcdef01234567/"


def drawn_modules(svg: str) -> list[list[bool]]:
    """The dark squares the SVG's path draws, back as rows of modules."""
    side = int(re.search(r'viewBox="0 0 (\d+) \1"', svg).group(1))  # type: ignore[union-attr]
    size = side - 2 * BORDER
    modules = [[False] * size for _ in range(size)]
    path = re.search(r'<path fill="#000" d="([^"]*)"', svg).group(1)  # type: ignore[union-attr]
    for x, y, length in re.findall(r"M(\d+) (\d+)h(\d+)v1h-\3z", path):
        for column in range(int(x), int(x) + int(length)):
            modules[int(y) - BORDER][column - BORDER] = True
    return modules


def test_the_qr_code_is_styled_by_attributes_only_and_has_no_ids():
    svg = qr_svg(URL)
    assert "style" not in svg and " id=" not in svg and "<?xml" not in svg
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" width="120" height="120"')


def test_the_qr_code_draws_every_module_of_the_encoded_text_and_no_other():
    modules = qr_modules(URL)
    # Version 4 (33 × 33 modules) holds the 71 characters of a table code's link.
    assert len(modules) == 33
    assert drawn_modules(qr_svg(URL)) == modules
    # The three finder patterns: 7 dark modules along the top of each.
    assert modules[0][:7] == [True] * 7 and modules[0][-7:] == [True] * 7
    assert modules[-1][:7] == [True] * 7


def test_a_qr_code_weighs_under_4_kb_instead_of_37():
    assert len(qr_svg(URL)) < 4_000
