"""A game's players agreeing to its sheet and raising disputes (table codes): a part of
`Game` (tournaments.models.games), as `SeatChanges` is. Each change locks the game, writes,
moves the version on and logs, as a round does."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from scoring.errors import GameError
from tournaments import signals
from tournaments.models.confirmations import Confirmation, Dispute
from tournaments.models.rounds import GameChange
from tournaments.models.tables import Seat, TableCode
from tournaments.models.tournaments import Tournament

# Disputes one table code (or one account) may send about a game in a minute, and the open
# disputes a game may hold: a phone sending in a loop would bury the director's queue.
DISPUTES_PER_MINUTE = 3
OPEN_DISPUTES_PER_GAME = 20


class TooManyDisputes(Exception):
    """Disputes sent faster than a table needs: the next one waits `retry_after` seconds."""

    def __init__(self, retry_after: int) -> None:
        self.retry_after = retry_after
        super().__init__(retry_after)


def _user(by: Any) -> Any:
    """The account behind a change: `by` is a user, or a table code (no account), or None."""
    return None if by is None or isinstance(by, TableCode) else by


class Agreement:
    """A part of `Game`."""

    # Declared by Game.
    if TYPE_CHECKING:
        table: Any
        finished: bool
        pk: Any

        @property
        def signed_off(self) -> bool: ...

        signed_off_at: Any
        confirmations: Any
        save: Callable[..., None]
        _locked: Callable[..., Any]
        _take_state: Callable[[Any], None]
        _log: Callable[..., None]

    def confirmations_needed(self) -> int:
        """How many players must agree to the sheet, by the tournament's rule (codes only)."""
        seats = self.table.seats.count()
        policy = self.table.session.tournament.confirmation
        if policy == Tournament.Confirmation.MAJORITY:
            return seats // 2 + 1
        if policy == Tournament.Confirmation.EVERY:
            return seats
        return 0

    def _count_without_confirmation(self) -> None:
        """A finished game of a table-code session whose tournament asks no confirmation counts
        as it is: signed off by the table's entries."""
        session = self.table.session
        if (
            self.finished
            and not self.signed_off
            and session.by_table_codes
            and session.tournament.confirmation == Tournament.Confirmation.NONE
        ):
            self.signed_off_at = timezone.now()
            self.save(update_fields=["signed_off_at"])

    def confirm(self, seat: Seat, *, by: Any, version: int, device: str = "") -> bool:
        """A player agrees to the finished sheet, as signing the paper one; True once enough
        players agreed and the sheet is signed off by them. `device`: the phone's own id
        (a signed cookie): passing one phone round is fine, and the sheet shows it."""
        with transaction.atomic():
            game = self._locked(version)
            if not game.finished:
                raise GameError("confirm_unfinished", "game")
            if game.signed_off:
                raise GameError("signed_off_already", "game")
            if seat.table_id != game.table_id:
                raise GameError("not_at_this_table", "game")
            Confirmation.objects.get_or_create(game=game, seat=seat, defaults={"device": device})
            agreed = game.confirmations.count() >= game.confirmations_needed()
            if agreed:
                game.signed_off_at = timezone.now()
                game.signed_off_by = None
            game.version += 1
            game.save(update_fields=["signed_off_at", "signed_off_by", "version"])
            game._log(GameChange.Action.CONFIRM, by, None, None, None, seat.player.name)
        self._take_state(game)
        return agreed

    def confirmation_devices(self) -> list[list[int]]:
        """The seat positions that agreed, grouped by the phone they agreed from, in the order
        they agreed (a confirmation without a known phone stands alone)."""
        groups: dict[str, list[int]] = {}
        for position, device, pk in self.confirmations.order_by("at", "pk").values_list(
            "seat__position", "device", "pk"
        ):
            groups.setdefault(device or f"#{pk}", []).append(position)
        return list(groups.values())

    def raise_dispute(self, number: int | None, text: str, *, by: Any) -> Dispute:
        """Something's wrong at the table: it goes to the director's queue and the audit log.
        At most DISPUTES_PER_MINUTE from one code or account a minute, and OPEN_DISPUTES_PER_GAME
        open at once (`TooManyDisputes`)."""
        with transaction.atomic():
            game = self._locked()
            now = timezone.now()
            sender = Q(code=by) if isinstance(by, TableCode) else Q(raised_by=_user(by))
            recent = list(
                game.disputes.filter(sender, raised_at__gt=now - timedelta(minutes=1))
                .order_by("raised_at")
                .values_list("raised_at", flat=True)
            )
            if len(recent) >= DISPUTES_PER_MINUTE:
                wait = recent[-DISPUTES_PER_MINUTE] + timedelta(minutes=1) - now
                raise TooManyDisputes(max(1, int(wait.total_seconds()) + 1))
            if game.disputes.filter(status=Dispute.Status.OPEN).count() >= OPEN_DISPUTES_PER_GAME:
                raise TooManyDisputes(60)
            if number is not None:
                game._stored_round(game.rows(), number)
            dispute = Dispute.objects.create(
                game=game,
                round_number=number,
                text=text,
                raised_by=_user(by),
                code=by if isinstance(by, TableCode) else None,
            )
            game.version += 1
            game.save(update_fields=["version"])
            game._log(GameChange.Action.DISPUTE, by, number, None, None, text)
            signals.dispute_raised.send(sender=Dispute, dispute=dispute)
        self._take_state(game)
        return dispute

    def dismiss_dispute(self, dispute: Dispute, answer: str, *, by: Any) -> None:
        """The director answers a dispute without changing the sheet."""
        with transaction.atomic():
            game = self._locked()
            game._answer(dispute, Dispute.Status.DISMISSED, answer, by)
            game.version += 1
            game.save(update_fields=["version"])
        self._take_state(game)

    def _answer(self, dispute: Dispute, status: str, answer: str, by: Any) -> None:
        locked = Dispute.objects.select_for_update().get(pk=dispute.pk, game_id=self.pk)
        if locked.status != Dispute.Status.OPEN:
            raise GameError("dispute_answered", "dispute")
        locked.status, locked.answer = status, answer
        locked.answered_by, locked.answered_at = _user(by), timezone.now()
        locked.save(update_fields=["status", "answer", "answered_by", "answered_at"])
        action = (
            GameChange.Action.RESOLVE
            if status == Dispute.Status.RESOLVED
            else GameChange.Action.DISMISS
        )
        self._log(action, by, locked.round_number, None, None, answer)
        signals.dispute_answered.send(sender=Dispute, dispute=locked)
        dispute.status, dispute.answer = locked.status, locked.answer
