"""Downloads too heavy to render in a request (the tournament report of a championship takes
seconds): rendered by a background task (`printing.tasks.prepare_download`) and kept here,
one row per version of what it shows, in the database (the web servers and the worker share
it, whatever the cache is).
"""

from __future__ import annotations

import datetime

from django.db import models, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.models.tournaments import Tournament

# A file asked for this long ago and not ready is asked for again (a task that failed to be
# queued, or a queue emptied by hand): the worker renders one in seconds.
ASK_AGAIN_AFTER = datetime.timedelta(minutes=10)


class PreparedDownload(models.Model):
    """A download asked for (`ready_at` empty: its task has not run yet) or ready."""

    class Kind(models.TextChoices):
        REPORT = "report", _("tournament report")

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="prepared_downloads",
        verbose_name=_("tournament"),
    )
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    # The digest of everything the file shows (`tournaments.caching.key`: the version, the
    # language, the release, whether it names the referees): one row per file.
    key = models.CharField(_("key"), max_length=100, unique=True)
    version = models.CharField(_("version"), max_length=100)
    show_names = models.BooleanField(_("names the accounts"), default=False)
    content = models.BinaryField(_("content"), null=True, editable=False)
    requested_at = models.DateTimeField(_("asked for at"), default=timezone.now)
    ready_at = models.DateTimeField(_("ready at"), null=True, blank=True)

    class Meta:
        verbose_name = _("prepared download")
        verbose_name_plural = _("prepared downloads")
        indexes = [models.Index(fields=["tournament", "kind"], name="prepared_by_tournament")]

    def __str__(self) -> str:
        return f"{self.tournament_id} {self.kind} {self.version}"

    @property
    def file(self) -> bytes:
        """The rendered file, as bytes (PostgreSQL gives a memoryview)."""
        return bytes(self.content or b"")

    @classmethod
    def ask(
        cls,
        tournament: Tournament,
        kind: PreparedDownload.Kind,
        key: str,
        version: str,
        show_names: bool,
    ) -> tuple[PreparedDownload, bool]:
        """The row of the file `key` names, and whether this call asked for it (its caller
        queues the task that renders it): the first call, and one finding it asked for
        `ASK_AGAIN_AFTER` ago and still not ready (its task lost: a second task for it is
        harmless). Two calls at once ask once: the key is unique, the new moment one update."""
        prepared, created = cls.objects.get_or_create(
            key=key,
            defaults={
                "tournament": tournament,
                "kind": kind,
                "version": version,
                "show_names": show_names,
            },
        )
        if created or prepared.ready_at is not None:
            return prepared, created
        now = timezone.now()
        if prepared.requested_at > now - ASK_AGAIN_AFTER:
            return prepared, False
        asked = cls.objects.filter(pk=prepared.pk, requested_at=prepared.requested_at).update(
            requested_at=now
        )
        return prepared, bool(asked)

    def store(self, content: bytes) -> int:
        """Keep the rendered file; the files of the tournament's earlier versions asked for
        before this one go (never a newer one, whose task may have run first). Its size."""
        with transaction.atomic():
            stored = PreparedDownload.objects.filter(pk=self.pk, ready_at__isnull=True).update(
                content=content, ready_at=timezone.now()
            )
            PreparedDownload.objects.filter(
                ~Q(version=self.version),
                tournament=self.tournament_id,
                kind=self.kind,
                requested_at__lt=self.requested_at,
            ).delete()
        return len(content) if stored else 0
