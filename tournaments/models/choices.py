"""The tournament's choices that the models below it read too (a session's entry mode, the
tournament's status): here, so that `sessions` needs no import of `tournaments`.
`Tournament.Status` and `Tournament.Entry` are these."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class TournamentStatus(models.TextChoices):
    DRAFT = "draft", pgettext_lazy("tournament status", "Draft")
    RUNNING = "running", pgettext_lazy("tournament status", "Running")
    FINISHED = "finished", pgettext_lazy("tournament status", "Finished")


class Entry(models.TextChoices):
    """Who enters a table's rounds."""

    REFEREES = "referees", _("Referee accounts (championship)")
    TABLE_CODES = "table_codes", _("Table codes on any phone (club night)")
