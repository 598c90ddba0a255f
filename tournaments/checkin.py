"""Registrations at the door: what a phone sends, and a director's answer.

The door (`tournaments.models.checkin.Door`) takes a player's name, club and member number.
It is matched as the players' import matches a row (`player_import`: by club and member
number, else by name); a row the import would register as it is becomes a registration,
checked in, at once when the door takes registrations up to a capacity and there is room, and
waits on the waiting list beyond it. A row the import would question (a name alike a known
player's, a member number held by another player, an unknown club of another director's
private tournament) waits for a director, whatever the door's way: the phone is never told
whom it resembles. With the director's approval as the door's way, every registration
waits for one. Each change is one transaction under a lock of the door.
"""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.utils import timezone

from tournaments import player_import
from tournaments.errors import Refused
from tournaments.models import Registration
from tournaments.models.checkin import OPEN_REQUESTS, Door, EntryRequest

logger = logging.getLogger(__name__)

# A registration still to be answered: waiting for a director, or on the waiting list.
_OPEN = (EntryRequest.Status.PENDING, EntryRequest.Status.WAITING)


def _row(request: EntryRequest | dict[str, str]) -> player_import.ParsedImport:
    if isinstance(request, EntryRequest):
        return player_import.single_row(request.name, request.club, request.member_number)
    return player_import.single_row(request["name"], request["club"], request["member_number"])


def _line(door: Door, parsed: player_import.ParsedImport, by: Any) -> player_import.Line:
    return player_import.classify(parsed, door.tournament, by=by).lines[0]


def _door_director(door: Door) -> Any:
    """Whom the door registers for when no director answers: the tournament's creator (the
    clubs they may see are those a registration may name)."""
    return door.tournament.created_by or AnonymousUser()


def send(door: Door, entry: dict[str, str], *, device: str) -> EntryRequest:
    """A phone's registration (`entry`: name, club, member number, checked by the form).

    Refused when the door takes none, when the player is registered already, or when
    OPEN_REQUESTS wait already. The same phone sending the same name again gets its earlier
    request back."""
    with transaction.atomic():
        door = _locked(door)
        if not door.takes_entries:
            raise Refused("door_no_entries")
        parsed = _row(entry)
        row = parsed.rows[0]
        earlier = door.requests.filter(device=device, name=row.name, status__in=_OPEN).first()
        if earlier is not None:
            return earlier
        if door.requests.filter(status__in=_OPEN).count() >= OPEN_REQUESTS:
            raise Refused("door_requests_full")
        line = _line(door, parsed, _door_director(door))
        if line.registered:
            raise Refused("door_registered_already", name=row.name)
        request = EntryRequest(
            door=door,
            name=row.name,
            club=row.club,
            member_number=row.member_number,
            device=device,
            status=EntryRequest.Status.PENDING,
        )
        if line.status is player_import.Status.ERROR or line.look_alikes:
            request.note = line.note[:300]
        elif door.entries == Door.Entries.CAPACITY:
            request.status = (
                EntryRequest.Status.ACCEPTED if _room(door) else EntryRequest.Status.WAITING
            )
        request.save()
        if request.status == EntryRequest.Status.ACCEPTED:
            _register(door, request, by=None)
    logger.info(
        "registration at the door: %s to %s (%s)",
        request.name,
        door.tournament_id,
        request.status,
        extra={"tournament": door.tournament_id},
    )
    return request


def approve(request: EntryRequest, *, by: Any) -> Registration:
    """A director accepts a registration (pending, or on the waiting list: beyond the
    capacity, as the director chooses): registered and checked in."""
    with transaction.atomic():
        door = _locked(request.door)
        locked = EntryRequest.objects.select_for_update().get(pk=request.pk, door=door)
        if not locked.open:
            raise Refused("door_request_answered")
        registration = _register(door, locked, by=by)
    request.refresh_from_db()
    return registration


def decline(request: EntryRequest, *, by: Any) -> None:
    """A director declines a registration (pending or on the waiting list)."""
    with transaction.atomic():
        door = _locked(request.door)
        locked = EntryRequest.objects.select_for_update().get(pk=request.pk, door=door)
        if not locked.open:
            raise Refused("door_request_answered")
        locked.status = EntryRequest.Status.DECLINED
        locked.answered_at, locked.answered_by = timezone.now(), by
        locked.save(update_fields=["status", "answered_at", "answered_by"])
    request.refresh_from_db()


def let_in(door: Door) -> int:
    """The waiting list's first registrations while there is room (after the capacity was
    raised or a player left): how many came in."""
    admitted = 0
    with transaction.atomic():
        door = _locked(door)
        if door.entries != Door.Entries.CAPACITY:
            return 0
        for request in door.requests.filter(status=EntryRequest.Status.WAITING).order_by(
            "created_at", "pk"
        ):
            if not _room(door):
                break
            _register(door, request, by=None)
            admitted += 1
    return admitted


def _locked(door: Door) -> Door:
    return Door.objects.select_for_update().select_related("tournament").get(pk=door.pk)


def _room(door: Door) -> bool:
    """Fewer players registered (withdrawn ones aside) than the door takes."""
    registered = door.tournament.registrations.filter(withdrawn_at__isnull=True).count()
    return door.capacity is not None and registered < door.capacity


def _register(door: Door, request: EntryRequest, *, by: Any) -> Registration:
    """The request's player registered (matched or created as the import does) and checked
    in, the request accepted; refused, with the import's reason, when its row cannot be."""
    parsed = _row(request)
    director = by if by is not None else _door_director(door)
    line = _line(door, parsed, director)
    if line.status is player_import.Status.ERROR:
        raise Refused("door_entry_refused", name=request.name, reason=line.reason)
    if line.registered:
        raise Refused("door_registered_already", name=request.name)
    result = player_import.import_players(parsed, door.tournament, by=director)
    registration = Registration.objects.get(tournament=door.tournament, player=result.players[0])
    registration.set_checked_in(
        True, how=Registration.CheckInWay.REGISTERED, device=request.device
    )
    request.status, request.registration = EntryRequest.Status.ACCEPTED, registration
    request.answered_at, request.answered_by = timezone.now(), by
    request.save(update_fields=["status", "registration", "answered_at", "answered_by"])
    return registration
