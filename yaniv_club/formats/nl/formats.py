"""Dutch as Belgians write it: "21 november 2026", "21/11/2026" (not the Dutch 21-11-2026)."""

from __future__ import annotations

DATE_FORMAT = "j F Y"
SHORT_DATE_FORMAT = "d/m/Y"
SHORT_DATETIME_FORMAT = "d/m/Y H:i"
