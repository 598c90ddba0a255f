"""The archive's import of what a tournament holds beside its rounds: penalty and bonus points
(their game points cached on the seats before the rounds are scored, so that the ranks count
them), substitutes at the seats, check-in at the door and the registrations sent there.

A part of the import (`printing.archive_import`): it reads players and users through the
importer, and refuses as it does (`refused`, `check`), in the same transaction.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from printing import archive_file
from tournaments.models import (
    Adjustment,
    AdjustmentChange,
    Door,
    EntryRequest,
    Registration,
    Seat,
    Substitution,
    Tournament,
)


class BesideImport:
    def __init__(self, importer: Any, archive: archive_file.ArchiveFile) -> None:
        self.importer = importer
        self.archive = archive
        self.refused: Callable[[str], Exception] = importer.refusal
        self.check: Callable[..., None] = importer.check
        self.seats: dict[tuple[int, int, int], Seat] = {}
        self.substituted = False
        self.points: dict[tuple[int, int, int], int] = {}
        for about in archive.adjustments:
            if about.unit == Adjustment.Unit.GAME and about.removed_at is None:
                key = (about.session or 0, about.table or 0, about.seat or 0)
                signed = about.points if about.kind == Adjustment.Kind.PENALTY else -about.points
                self.points[key] = self.points.get(key, 0) + int(signed)

    def game_points(self, session: int, table: int, position: int) -> int:
        """The game points in force given at a seat (penalties less bonuses)."""
        return self.points.get((session, table, position), 0)

    def seated(
        self, session: int, table: archive_file.TableFile, seats: Sequence[Seat], where: str
    ) -> None:
        """A table's seats made: kept for the adjustments, their substitutes stored."""
        made = []
        for listed, seat in zip(table.seats, seats, strict=True):
            self.seats[session, table.number, seat.position] = seat
            holders = [seat.player]
            for index, about in enumerate(listed.substitutes, start=1):
                place = f"{where}, seat {seat.position}, substitutes[{index}]"
                player_out = self.importer.player(about.player_out, f"{place}: player_out")
                player_in = self.importer.player(about.player_in, f"{place}: player_in")
                made.append(
                    Substitution(
                        seat=seat,
                        player_out=player_out,
                        player_in=player_in,
                        from_round=about.from_round,
                        reason=about.reason,
                        by=self.importer.users.named(about.by, f"{place}: by"),
                        at=about.at,
                    )
                )
                holders.append(player_in)
            if listed.substitutes and holders[-1] != seat.player:
                raise self.refused(
                    f"{where}, seat {seat.position}: the last substitute must be the player "
                    "seated there"
                )
        Substitution.objects.bulk_create(made)
        self.substituted |= bool(made)

    def finish(self, tournament: Tournament) -> None:
        """The adjustments (their seats made), the door, and what the standings read."""
        for index, about in enumerate(self.archive.adjustments, start=1):
            self.adjustment(tournament, about, f"adjustments[{index}]")
        if self.archive.door is not None:
            self.door(tournament, self.archive.door)
        Tournament.objects.filter(pk=tournament.pk).update(
            has_adjustments=bool(self.archive.adjustments), has_substitutes=self.substituted
        )
        tournament.has_adjustments = bool(self.archive.adjustments)
        tournament.has_substitutes = self.substituted

    def adjustment(
        self, tournament: Tournament, about: archive_file.AdjustmentFile, where: str
    ) -> None:
        seat = None
        if (about.session, about.table, about.seat) != (None, None, None):
            seat = self.seats.get((about.session or 0, about.table or 0, about.seat or 0))
            if seat is None:
                raise self.refused(f"{where}: session, table and seat name no seat of the file")
        elif about.unit == Adjustment.Unit.GAME:
            raise self.refused(f"{where}: game points are given at a seat")
        users = self.importer.users
        adjustment = Adjustment(
            tournament=tournament,
            player=self.importer.player(about.player, f"{where}: player"),
            seat=seat,
            kind=about.kind,
            unit=about.unit,
            points=about.points,
            reason=about.reason,
            text=about.text,
            given_by=users.named(about.given_by, f"{where}: given_by"),
            given_at=about.given_at,
            removed_at=about.removed_at,
            removed_by=users.named(about.removed_by, f"{where}: removed_by"),
            removal_reason=about.removal_reason,
        )
        self.check(adjustment, where, exclude=["tournament", "player", "seat", "given_by"])
        adjustment.save()
        AdjustmentChange.objects.bulk_create(
            AdjustmentChange(
                adjustment=adjustment,
                action=change.action,
                before=change.before,
                after=change.after,
                why=change.why,
                by=users.named(change.by, f"{where}: changes[{number}]: by"),
                at=change.at,
            )
            for number, change in enumerate(about.changes, start=1)
        )

    def door(self, tournament: Tournament, about: archive_file.DoorFile) -> None:
        door = Door.of(tournament)
        door.is_open, door.safeguard = about.is_open, about.safeguard
        door.entries, door.capacity = about.entries, about.capacity
        self.check(door, "door", exclude=["tournament"])
        door.save()
        requests = []
        for index, listed in enumerate(about.requests, start=1):
            where = f"door: requests[{index}]"
            registration = None
            if listed.player is not None:
                player = self.importer.player(listed.player, f"{where}: player")
                registration = Registration.objects.filter(
                    tournament=tournament, player=player
                ).first()
            requests.append(
                EntryRequest(
                    door=door,
                    name=listed.name,
                    club=listed.club,
                    member_number=listed.member_number,
                    status=listed.status,
                    note=listed.note,
                    created_at=listed.created_at,
                    answered_at=listed.answered_at,
                    answered_by=self.importer.users.named(listed.answered_by, f"{where}: by"),
                    registration=registration,
                )
            )
        EntryRequest.objects.bulk_create(requests)
