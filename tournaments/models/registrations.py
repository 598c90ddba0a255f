"""Who plays in a tournament: a player's registration (check-in, withdraw, come back), and
the accounts a tournament gave out."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.db import models, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.errors import Refused
from tournaments.models.people import Player
from tournaments.models.tables import Seat, Table
from tournaments.models.visibility import model_named

logger = logging.getLogger(__name__)


class CheckInWay(models.TextChoices):
    """How a player was checked in (the director's list at the door says it)."""

    DESK = "desk", _("by the director")
    PHONE = "phone", _("on their phone")
    MEMBER_NUMBER = "member_number", _("on their phone, with their member number")
    DESK_CODE = "desk_code", _("on their phone, with the desk's code")
    REGISTERED = "registered", _("registered on their phone")


class Registration(models.Model):
    """A player entered in a tournament; only checked-in players are seated."""

    CheckInWay = CheckInWay

    tournament = models.ForeignKey(
        "tournaments.Tournament",
        on_delete=models.CASCADE,
        related_name="registrations",
        verbose_name=_("tournament"),
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="registrations", verbose_name=_("player")
    )
    checked_in = models.BooleanField(_("checked in"), default=False)
    # When and how the player last checked in (tournaments.models.checkin: at the door), and
    # the phone they did it on (its id, `access.device_of`): that phone may undo it a while.
    checked_in_at = models.DateTimeField(_("checked in at"), null=True, blank=True)
    checked_in_how = models.CharField(
        _("checked in"), max_length=14, choices=CheckInWay, blank=True
    )
    checked_in_device = models.CharField(max_length=16, blank=True, editable=False)
    registered_at = models.DateTimeField(_("registered at"), auto_now_add=True)
    # A player who withdrew mid-tournament: drawn no more, their finished games counting as
    # they are. Who and why are kept with it (and in the log); `come_back` clears them.
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)
    withdrawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("withdrawn by"),
    )
    withdrawal_reason = models.CharField(_("reason for withdrawing"), max_length=200, blank=True)

    class Meta:
        ordering = ["tournament", "player__name"]
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="unique_registration"),
            # A withdrawal says why, and a withdrawn player is not checked in.
            models.CheckConstraint(
                condition=Q(withdrawn_at__isnull=True, withdrawal_reason="")
                | (Q(withdrawn_at__isnull=False, checked_in=False) & ~Q(withdrawal_reason="")),
                name="a_withdrawal_says_why",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament}"

    @property
    def withdrawn(self) -> bool:
        return self.withdrawn_at is not None

    def set_checked_in(
        self, checked_in: bool, *, how: str = CheckInWay.DESK, device: str = ""
    ) -> None:
        """Check the player in (`how`: by the director, or on a phone with its id) or out; a
        withdrawn player returns first (`come_back`)."""
        if checked_in and self.withdrawn:
            raise Refused("withdrawn_check_in", name=self.player.name)
        if checked_in and not self.checked_in:
            self.checked_in_at, self.checked_in_how = timezone.now(), how
            self.checked_in_device = device
        elif not checked_in:
            self.checked_in_at, self.checked_in_how, self.checked_in_device = None, "", ""
        self.checked_in = checked_in
        self.save(
            update_fields=["checked_in", "checked_in_at", "checked_in_how", "checked_in_device"]
        )

    def withdraw(self, reason: str, *, by: Any) -> list[Table]:
        """The player withdraws: checked out, never drawn again, in one transaction.

        Their finished games count as they are. A game they sit at that is not finished is
        left alone (the table plays it out, or the director ends it at the time limit): the
        tables of such games are returned for the director's message. A session still planned
        shows them as absent, with the seating's suggestion of moves.
        """
        reason = reason.strip()
        if not reason:
            raise Refused("withdraw_reason")
        with transaction.atomic():
            locked = Registration.objects.select_for_update().get(pk=self.pk)
            if locked.withdrawn:
                raise Refused("withdrawn_already", name=self.player.name)
            locked.withdrawn_at, locked.withdrawn_by = timezone.now(), by
            locked.withdrawal_reason, locked.checked_in = reason, False
            locked.checked_in_at, locked.checked_in_how, locked.checked_in_device = None, "", ""
            locked.save(
                update_fields=[
                    "withdrawn_at",
                    "withdrawn_by",
                    "withdrawal_reason",
                    "checked_in",
                    "checked_in_at",
                    "checked_in_how",
                    "checked_in_device",
                ]
            )
            locked._standings_changed()
        self.withdrawn_at, self.withdrawn_by = locked.withdrawn_at, locked.withdrawn_by
        self.withdrawal_reason, self.checked_in = locked.withdrawal_reason, False
        logger.info(
            "withdrawal: %s from %s by %s: %s",
            self.player.name,
            self.tournament_id,
            by.get_username() if by else None,
            reason,
            extra={"player": self.player_id, "tournament": self.tournament_id},
        )
        return list(
            Table.objects.filter(
                session__tournament_id=self.tournament_id,
                seats__player_id=self.player_id,
                game__finished=False,
            )
            .exclude(session__status=model_named("Session").Status.PLANNED)
            .select_related("session")
            .order_by("session__number", "number")
        )

    def come_back(self, *, by: Any) -> None:
        """A withdrawn player returns (a mistake, or they came back): checked in again and
        drawn from the next session on, in one transaction. The log keeps the withdrawal."""
        with transaction.atomic():
            locked = Registration.objects.select_for_update().get(pk=self.pk)
            if not locked.withdrawn:
                raise Refused("not_withdrawn", name=self.player.name)
            locked.withdrawn_at, locked.withdrawn_by, locked.withdrawal_reason = None, None, ""
            locked.checked_in = True
            locked.checked_in_at, locked.checked_in_how = timezone.now(), CheckInWay.DESK
            locked.save(
                update_fields=[
                    "withdrawn_at",
                    "withdrawn_by",
                    "withdrawal_reason",
                    "checked_in",
                    "checked_in_at",
                    "checked_in_how",
                ]
            )
            locked._standings_changed()
        self.withdrawn_at, self.withdrawn_by, self.withdrawal_reason = None, None, ""
        self.checked_in = True
        logger.info(
            "return: %s to %s by %s",
            self.player.name,
            self.tournament_id,
            by.get_username() if by else None,
            extra={"player": self.player_id, "tournament": self.tournament_id},
        )

    def _standings_changed(self) -> None:
        """The standings mark withdrawn players: their pages' version (the sessions' last
        change) moves on, so polls and cached parts show the change."""
        sessions = model_named("Session").objects
        last = sessions.filter(tournament_id=self.tournament_id).order_by("-number")[:1]
        sessions.filter(pk__in=models.Subquery(last.values("pk"))).touch()

    def seated_in(self) -> Any:
        """The first session the player is seated in, if any (a `Session`: that module
        imports this one)."""
        seat = (
            Seat.objects.filter(
                table__session__tournament_id=self.tournament_id, player_id=self.player_id
            )
            .select_related("table__session")
            .order_by("table__session__number")
            .first()
        )
        return seat.table.session if seat else None

    def remove(self) -> None:
        """Take the player off the tournament; a seated player stays registered."""
        with transaction.atomic():
            session = self.seated_in()
            if session is not None:
                raise Refused("seated_stays", name=self.player.name, number=session.number)
            self.delete()
