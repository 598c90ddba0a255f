"""What the players say about a finished sheet: a seat's confirmation (table codes), a dispute
("Something's wrong?") and its answer."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy

from tournaments.models.tables import Seat, TableCode


class Confirmation(models.Model):
    """A player agreed to the finished sheet (table codes): as signing the paper one."""

    game = models.ForeignKey(
        "tournaments.Game", on_delete=models.CASCADE, related_name="confirmations"
    )
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+")
    at = models.DateTimeField(default=timezone.now)
    # The phone it was given from (a random id in a signed cookie; empty: unknown).
    device = models.CharField(max_length=32, blank=True, default="")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="one_confirmation_a_player"),
        ]

    def __str__(self) -> str:
        return f"{self.seat} agreed to {self.game}"


class Dispute(models.Model):
    """ "Something's wrong" at a table: a line for the director, answered in the open."""

    class Status(models.TextChoices):
        OPEN = "open", gettext_lazy("open")
        RESOLVED = "resolved", gettext_lazy("resolved by a correction")
        DISMISSED = "dismissed", gettext_lazy("dismissed")

    game = models.ForeignKey("tournaments.Game", on_delete=models.CASCADE, related_name="disputes")
    # None: about the whole sheet.
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    text = models.CharField(max_length=500)
    raised_at = models.DateTimeField(default=timezone.now)
    raised_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    code = models.ForeignKey(
        TableCode, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    status = models.CharField(max_length=10, choices=Status, default=Status.OPEN)
    answer = models.CharField(max_length=500, blank=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-raised_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status="open") | ~Q(answer=""), name="an_answered_dispute_says_why"
            ),
        ]

    def __str__(self) -> str:
        return f"dispute about round {self.round_number} of {self.game}"

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN
