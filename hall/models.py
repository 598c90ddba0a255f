"""The hall's screens: what each projector or TV in the venue shows, as its director set it.

A screen cycles by itself through the views that matter now (the seating, the standings, the
tables, the clock, the director's message), or stays on one; its page polls like the other
public pages and picks up the director's changes within one poll.
"""

from __future__ import annotations

import secrets

from django.db import models, transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournaments import signals
from tournaments.models.tournaments import Tournament

SECONDS_PER_VIEW = (5, 120)
MESSAGE_LENGTH = 280


class HallScreen(models.Model):
    class View(models.TextChoices):
        # The order a screen cycles in.
        MESSAGE = "message", pgettext_lazy("hall view", "Message")
        # While check-in at the door is open: its QR code and short address.
        CHECK_IN = "checkin", pgettext_lazy("hall view", "Check-in")
        CLOCK = "clock", pgettext_lazy("hall view", "Clock")
        SEATING = "seating", pgettext_lazy("hall view", "Seating")
        TABLES = "tables", pgettext_lazy("hall view", "Tables")
        STANDINGS = "standings", pgettext_lazy("hall view", "Standings")
        # Between sessions: the facts of the finished games (issue 38.5).
        FACTS = "facts", pgettext_lazy("hall view", "Facts")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="screens", verbose_name=_("tournament")
    )
    number = models.PositiveSmallIntegerField(_("number"))
    name = models.CharField(_("name"), max_length=60, blank=True)
    # Empty: cycle through every view that has something to show.
    pinned = models.CharField(_("shows"), max_length=10, choices=View, blank=True)
    paused = models.BooleanField(_("paused"), default=False)
    seconds = models.PositiveSmallIntegerField(_("seconds per view"), default=15)
    message = models.CharField(_("message"), max_length=MESSAGE_LENGTH, blank=True)
    # The secret link of the screen (private tournaments): an HMAC of the row, never stored.
    salt = models.CharField(max_length=32, editable=False, default="")
    changed_at = models.DateTimeField(_("changed at"), default=timezone.now)

    class Meta:
        ordering = ["tournament", "number"]
        # Moved from the tournaments app: the table keeps its name.
        db_table = "tournaments_hallscreen"
        verbose_name = _("hall screen")
        verbose_name_plural = _("hall screens")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_screen_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="screen_number_from_1"),
            models.CheckConstraint(
                condition=Q(seconds__gte=SECONDS_PER_VIEW[0], seconds__lte=SECONDS_PER_VIEW[1]),
                name="screen_seconds_in_range",
            ),
        ]

    def __str__(self) -> str:
        return self.label

    @property
    def label(self) -> str:
        return self.name or str(_("Screen %(number)s") % {"number": self.number})

    @classmethod
    def default(cls, tournament: Tournament) -> HallScreen:
        """Screen 1 as it is before a director sets one up (never saved by a visit)."""
        return cls(tournament=tournament, number=1)

    @classmethod
    def saved_first(cls, tournament: Tournament) -> HallScreen:
        """Screen 1 saved, with its secret link: a private tournament's hall opens by that
        link alone, so the director sees it before changing anything."""
        with transaction.atomic():
            Tournament.objects.select_for_update().filter(pk=tournament.pk).get()
            found, _ = cls.objects.get_or_create(
                tournament=tournament, number=1, defaults={"salt": secrets.token_hex(16)}
            )
            if not found.salt:
                found.set_up()
        return found

    @classmethod
    def add(cls, tournament: Tournament, name: str = "") -> HallScreen:
        """A new screen, numbered after the others (the unsaved screen 1 counts as one)."""
        with transaction.atomic():
            Tournament.objects.select_for_update().filter(pk=tournament.pk).get()
            last = tournament.screens.aggregate(last=Max("number"))["last"]
            if last is None:
                # The screen the public address showed until now becomes screen 1 for real.
                cls.objects.create(tournament=tournament, number=1, salt=secrets.token_hex(16))
                last = 1
            return cls.objects.create(
                tournament=tournament, number=last + 1, name=name, salt=secrets.token_hex(16)
            )

    def set_up(self, **changes: object) -> None:
        """Change what the screen shows (fields of the director's form); its page follows
        within one poll."""
        # Compared with the stored words: a ModelForm's validation has already copied the
        # new ones onto this instance.
        stored = type(self).objects.filter(pk=self.pk).values_list("message", flat=True)
        before = (stored.first() or "") if self.pk else ""
        told = "message" in changes and changes["message"] not in ("", before)
        for field, value in changes.items():
            setattr(self, field, value)
        if not self.salt:
            self.salt = secrets.token_hex(16)
        self.changed_at = timezone.now()
        self.full_clean()
        self.save()
        if told:
            signals.hall_message_changed.send(sender=HallScreen, screen=self)

    @property
    def stamp(self) -> str:
        """Part of the screen page's version: changes when the director changes the screen."""
        return self.changed_at.strftime("%Y%m%d%H%M%S%f") if self.pk else "0"

    # --- the secret link ------------------------------------------------------------------

    # Hex digits of the HMAC: 32 × 4 = 128 bits (a read-only page; table codes carry 160).
    MAC_LENGTH = 32

    def _mac(self) -> str:
        return salted_hmac(
            "tournaments.HallScreen",
            f"{self.pk}:{self.tournament_id}:{self.salt}",
            algorithm="sha256",
        ).hexdigest()[: self.MAC_LENGTH]

    @property
    def key(self) -> str:
        """The secret part of the screen's link; empty while the screen is not saved."""
        return f"{self.pk}-{self._mac()}" if self.pk and self.salt else ""

    def new_key(self) -> None:
        """The old link stops working (a screen's link leaked or a TV left the venue)."""
        self.set_up(salt=secrets.token_hex(16))

    @classmethod
    def find(cls, key: str) -> HallScreen | None:
        number, _, mac = key.partition("-")
        if not number.isdigit() or len(mac) != cls.MAC_LENGTH or len(number) > 18:
            return None
        found = cls.objects.filter(pk=int(number)).select_related("tournament").first()
        if found is None or not found.salt or not constant_time_compare(found._mac(), mac):
            return None
        return found
