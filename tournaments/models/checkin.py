"""Check-in at the door: a tournament's door (open or closed, its short address, the
safeguard a player passes, whether it takes registrations) and the registrations players
send from their phones.

A player scans the door's QR code (the hall screen, a poster, or types the short address
`/in/<code>/`), finds their name and checks in on their phone. What proves it is them is the
director's choice (`Door.Safeguard`): nothing, their member number, or a code shown at the
desk. The phone that checked a player in may undo it for `UNDO_MINUTES`. An open event may
take registrations at the door (`EntryRequest`): each approved by a director, or accepted up
to a number of players with a waiting list beyond it (`tournaments.checkin` accepts them: it
matches players as the players' import does).
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import models, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments import signals
from tournaments.errors import Refused
from tournaments.models.registrations import Registration
from tournaments.models.tournaments import Tournament

# The short address's letters: none that a phone's reader mistakes for another (0/O, 1/I).
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
# 32 ** 6: about a billion addresses, guessed at most 500 a quarter of an hour.
CODE_LENGTH = 6
# The desk's code: 6 digits (a million), typed on a phone's number pad.
DESK_CODE_DIGITS = 6
# How long the phone that checked a player in may undo it.
UNDO_MINUTES = 10
# Registrations waiting for a director or on the waiting list at once: beyond, the door
# takes no more (a visitor sending them in a loop fills nothing else).
OPEN_REQUESTS = 100


def new_door_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_desk_code() -> str:
    return "".join(secrets.choice("0123456789") for _ in range(DESK_CODE_DIGITS))


def _typed(value: str) -> str:
    """A code or number as a phone sends it: its letters and digits, case aside (a member
    number G-12 typed as g12)."""
    return "".join(char for char in value if char.isalnum()).upper()


class Door(models.Model):
    """A tournament's check-in at the door."""

    class Safeguard(models.TextChoices):
        NONE = "none", _("None: a tap on their name")
        MEMBER_NUMBER = "member_number", _("Their member number")
        DESK_CODE = "desk_code", _("A code shown at the desk")

    class Entries(models.TextChoices):
        CLOSED = "closed", _("No: only registered players check in")
        APPROVAL = "approval", _("Yes, each approved by a director")
        CAPACITY = "capacity", _("Yes, up to a number of players, then a waiting list")

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="door", verbose_name=_("tournament")
    )
    # The short address (/in/<code>/): stored, since a player may type it.
    code = models.CharField(_("short address"), max_length=CODE_LENGTH, unique=True)
    is_open = models.BooleanField(_("check-in open"), default=False)
    safeguard = models.CharField(
        _("a player proves it is them with"),
        max_length=14,
        choices=Safeguard,
        default=Safeguard.NONE,
    )
    desk_code = models.CharField(_("the desk's code"), max_length=DESK_CODE_DIGITS)
    entries = models.CharField(
        _("registrations at the door"), max_length=10, choices=Entries, default=Entries.CLOSED
    )
    capacity = models.PositiveSmallIntegerField(
        _("players at most"),
        null=True,
        blank=True,
        help_text=_("Registrations beyond it go on a waiting list."),
    )
    changed_at = models.DateTimeField(_("changed at"), default=timezone.now)

    class Meta:
        verbose_name = _("door")
        verbose_name_plural = _("doors")
        constraints = [
            models.CheckConstraint(
                condition=~Q(entries="capacity") | Q(capacity__gte=1),
                name="a_capacity_door_says_how_many",
            ),
        ]

    def __str__(self) -> str:
        return f"door of {self.tournament}"

    @classmethod
    def of(cls, tournament: Tournament) -> Door:
        """The tournament's door, made (closed) the first time it is asked for."""
        door = cls.objects.filter(tournament=tournament).first()
        if door is not None:
            return door
        with transaction.atomic():
            Tournament.objects.select_for_update().filter(pk=tournament.pk).get()
            door, _ = cls.objects.get_or_create(
                tournament=tournament,
                defaults={"code": cls._free_code(), "desk_code": new_desk_code()},
            )
        return door

    @classmethod
    def _free_code(cls) -> str:
        while True:
            code = new_door_code()
            if not cls.objects.filter(code=code).exists():
                return code

    @classmethod
    def find(cls, code: str) -> Door | None:
        """The door of a short address (as typed: case and spaces aside), or None."""
        typed = _typed(code)
        if len(typed) != CODE_LENGTH or any(char not in CODE_ALPHABET for char in typed):
            return None
        return cls.objects.filter(code=typed).select_related("tournament").first()

    def set_up(self, **changes: Any) -> None:
        """The director's settings (open or closed, the safeguard, registrations, capacity);
        a raised capacity lets the waiting list in (`tournaments.checkin.let_in`)."""
        for field, value in changes.items():
            setattr(self, field, value)
        if self.entries != self.Entries.CAPACITY:
            self.capacity = None
        self.changed_at = timezone.now()
        self.full_clean(exclude=["tournament"])
        with transaction.atomic():
            self.save()
            signals.door_changed.send(sender=Door, door=self)

    def new_desk_code(self) -> None:
        """A new code for the desk (the old one was seen by who should not)."""
        self.set_up(desk_code=new_desk_code())

    @property
    def works(self) -> bool:
        """Players may check in: the door is open and the tournament not over."""
        return self.is_open and self.tournament.status != Tournament.Status.FINISHED

    @property
    def takes_entries(self) -> bool:
        return self.works and self.entries != self.Entries.CLOSED

    # --- a player at the door -------------------------------------------------------------

    def proof_fails(self, registration: Registration, proof: str) -> Refused | None:
        """Why `proof` (what the player typed) does not show it is them, or None."""
        if self.safeguard == self.Safeguard.MEMBER_NUMBER:
            number = registration.player.member_number
            if not number:
                return Refused("door_no_member_number", name=registration.player.name)
            if _typed(proof) != _typed(number):
                return Refused("door_wrong_member_number", name=registration.player.name)
        elif self.safeguard == self.Safeguard.DESK_CODE:
            return self.desk_code_fails(proof)
        return None

    def desk_code_fails(self, proof: str) -> Refused | None:
        """Why `proof` is not the desk's code (a registration at a door that asks it)."""
        return None if _typed(proof) == self.desk_code else Refused("door_wrong_desk_code")

    @property
    def way(self) -> str:
        """How a player checking in here is checked in (the director's list says it)."""
        return {
            self.Safeguard.NONE: Registration.CheckInWay.PHONE,
            self.Safeguard.MEMBER_NUMBER: Registration.CheckInWay.MEMBER_NUMBER,
            self.Safeguard.DESK_CODE: Registration.CheckInWay.DESK_CODE,
        }[self.Safeguard(self.safeguard)]

    def check_in(self, registration: Registration, *, device: str) -> None:
        """The player checks in on their phone (the proof checked by the caller first:
        `proof_fails`, a wrong one counted as a guess); refused while the door is closed."""
        with transaction.atomic():
            locked = self._locked_registration(registration)
            if locked.checked_in:
                raise Refused("door_checked_in_already", name=registration.player.name)
            locked.set_checked_in(True, how=self.way, device=device)
        registration.refresh_from_db()

    def undo(self, registration: Registration, *, device: str) -> None:
        """The phone that checked the player in takes it back (a name tapped by mistake),
        within UNDO_MINUTES; later, or from another phone, the desk does it."""
        with transaction.atomic():
            locked = self._locked_registration(registration)
            since = timezone.now() - timedelta(minutes=UNDO_MINUTES)
            if not (
                locked.checked_in
                and device
                and locked.checked_in_device == device
                and locked.checked_in_at is not None
                and locked.checked_in_at >= since
            ):
                raise Refused(
                    "door_undo_late", name=registration.player.name, minutes=UNDO_MINUTES
                )
            locked.set_checked_in(False)
        registration.refresh_from_db()

    def may_undo(self, registration: Registration, device: str) -> bool:
        """Whether this phone may still undo the player's check-in (the page offers it)."""
        return bool(
            registration.checked_in
            and device
            and registration.checked_in_device == device
            and registration.checked_in_at
            and registration.checked_in_at >= timezone.now() - timedelta(minutes=UNDO_MINUTES)
        )

    def _locked_registration(self, registration: Registration) -> Registration:
        """The registration locked, with the door's state checked under the lock."""
        door = Door.objects.select_for_update().select_related("tournament").get(pk=self.pk)
        if not door.works:
            raise Refused("door_closed")
        locked = (
            Registration.objects.select_for_update(of=("self",))
            .select_related("player")
            .get(pk=registration.pk, tournament_id=self.tournament_id)
        )
        if locked.withdrawn:
            raise Refused("door_withdrawn", name=locked.player.name)
        return locked


class EntryRequest(models.Model):
    """A registration sent from a phone at the door: waiting for a director's approval or
    on the waiting list, then accepted (a registration, checked in) or declined."""

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for a director")
        WAITING = "waiting", _("on the waiting list")
        ACCEPTED = "accepted", _("registered")
        DECLINED = "declined", _("declined")

    door = models.ForeignKey(
        Door, on_delete=models.CASCADE, related_name="requests", verbose_name=_("door")
    )
    name = models.CharField(_("name"), max_length=200)
    club = models.CharField(_("club"), max_length=200, blank=True)
    member_number = models.CharField(_("member number"), max_length=40, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status)
    # Why it waits for a director though the door takes registrations by itself (a name
    # alike a known player's, a member number held by another).
    note = models.CharField(_("note"), max_length=300, blank=True)
    # The phone that sent it (`access.device_of`): it shows that phone its answer.
    device = models.CharField(max_length=16, editable=False)
    created_at = models.DateTimeField(_("sent at"), default=timezone.now)
    answered_at = models.DateTimeField(_("answered at"), null=True, blank=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("answered by"),
    )
    registration = models.ForeignKey(
        Registration,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="entry_requests",
        verbose_name=_("registration"),
    )

    class Meta:
        ordering = ["door", "created_at", "pk"]
        verbose_name = _("registration at the door")
        verbose_name_plural = _("registrations at the door")
        indexes = [models.Index(fields=["door", "status"], name="door_requests_by_status")]

    def __str__(self) -> str:
        return f"{self.name} at {self.door}"

    @property
    def open(self) -> bool:
        return self.status in (self.Status.PENDING, self.Status.WAITING)

    def place_on_waiting_list(self) -> int:
        """The request's place on the waiting list (1: the next one in)."""
        return (
            EntryRequest.objects.filter(
                door_id=self.door_id, status=self.Status.WAITING, pk__lte=self.pk
            ).count()
            if self.status == self.Status.WAITING
            else 0
        )
