"""English as the site has always written it: "21 November 2026", "21 Nov 2026"."""

from __future__ import annotations

DATE_FORMAT = "j F Y"
SHORT_DATE_FORMAT = "j M Y"
SHORT_DATETIME_FORMAT = "j M Y, H:i"
