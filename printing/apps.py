"""PDFs, CSV, the JSON archive, backups and the venue's push."""

from __future__ import annotations

from django.apps import AppConfig


class PrintingConfig(AppConfig):
    name = "printing"
    verbose_name = "Printing and exports"
