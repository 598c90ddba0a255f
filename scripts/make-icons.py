"""Draw the site's PNG icons from static/icons/icon.svg with Debian's Chromium.

    .venv/bin/python scripts/make-icons.py

The favicon and the web app's icons (home screen, Apple touch icon, a maskable one with the
safe margin Android crops to) are committed; run this again after changing the SVG.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parents[1] / "static" / "icons"
# name → (size in pixels, share of the size the icon takes: maskable icons keep a margin)
SIZES = {
    "favicon-32.png": (32, 1.0),
    "apple-touch-icon.png": (180, 1.0),
    "icon-192.png": (192, 1.0),
    "icon-512.png": (512, 1.0),
    "icon-maskable-512.png": (512, 0.8),
}


def main() -> None:
    svg = (ICONS / "icon.svg").read_text("utf-8")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--headless", "--no-sandbox"]
        )
        page = browser.new_page()
        for name, (size, share) in SIZES.items():
            inner = round(size * share)
            page.set_viewport_size({"width": size, "height": size})
            page.set_content(
                f'<body style="margin:0;background:#0b6e4f;display:grid;place-items:center;'
                f'width:{size}px;height:{size}px">'
                f'<div style="width:{inner}px;height:{inner}px">{svg}</div></body>'
            )
            page.screenshot(path=str(ICONS / name), omit_background=share == 1.0)
            print(f"{name}: {size}×{size}")
        browser.close()


if __name__ == "__main__":
    main()
