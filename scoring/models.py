"""Round records: a table's game, its rounds as entered, and the audit log.

The referee's raw entries (hand totals, caller or emptied hand, along) are the
truth. Points, reductions and totals come from the engine (scoring.rules) and
are cached on the rows; every change of a game rescores it in the same
transaction, under a row lock on the game.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property

from django.conf import settings
from django.db import models, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from scoring import rules
from scoring.records import round_to_record
from tournaments.models import Seat, Table

logger = logging.getLogger(__name__)


class RoundConflict(Exception):
    """The round was recorded meanwhile, e.g. by a second device at the table."""

    def __init__(self, existing: Round, entries: rules.Round | None = None) -> None:
        self.existing = existing
        # The stored round's entries, to tell a phone's retry from a real conflict.
        self.entries = entries
        who = existing.entered_by.get_username() if existing.entered_by else gettext("someone")
        super().__init__(
            gettext("round %(number)s was just recorded by %(who)s")
            % {"number": existing.number, "who": who}
        )


def same_entries(a: rules.Round, b: rules.Round) -> bool:
    """The same round as entered, whatever order the along players came in."""
    return (
        dict(a.hands) == dict(b.hands)
        and (a.yaniv, a.empty_hand) == (b.yaniv, b.empty_hand)
        and set(a.along) == set(b.along)
    )


class SheetChanged(Exception):
    """A correction form was filled in on an older version of the sheet."""

    def __init__(self) -> None:
        super().__init__(
            gettext(
                "the sheet was changed since this form was opened: check the rounds "
                "and enter the correction again"
            )
        )


@dataclass(frozen=True)
class Sheet:
    """A game as stored, ready for the engine: seats, rounds and their scores."""

    seats: tuple[Seat, ...]
    rounds: tuple[Round, ...]

    @cached_property
    def labels(self) -> dict[int, str]:
        """Seat id → the name the engine and the referee use for that seat."""
        names = [seat.player.name for seat in self.seats]
        return {
            seat.pk: (name if names.count(name) == 1 else f"{name} (seat {seat.position})")
            for seat, name in zip(self.seats, names, strict=True)
        }

    @cached_property
    def players(self) -> tuple[str, ...]:
        labels = self.labels
        return tuple(labels[seat.pk] for seat in self.seats)

    def seat_for(self, label: str) -> Seat:
        ids = {name: seat_id for seat_id, name in self.labels.items()}
        return next(seat for seat in self.seats if seat.pk == ids[label])

    def entries(self, stored: Round) -> rules.Round:
        labels = self.labels
        return rules.Round(
            hands={labels[hand.seat_id]: hand.hand_total for hand in stored.hands.all()},
            yaniv=labels.get(stored.caller_id),
            along=tuple(labels[hand.seat_id] for hand in stored.hands.all() if hand.along),
            empty_hand=labels.get(stored.empty_hand_id),
        )

    def engine_rounds(self) -> list[rules.Round]:
        return [self.entries(stored) for stored in self.rounds]

    def rows(self) -> list[SheetRow]:
        """The score sheet from the cached numbers, one row a round, seats in order.

        A player who is out (elimination) has no hand: their cell is empty and keeps the total.
        """
        rows = []
        last = {seat.pk: 0 for seat in self.seats}
        for stored in self.rounds:
            hands = {hand.seat_id: hand for hand in stored.hands.all()}
            cells = []
            for seat in self.seats:
                hand = hands.get(seat.pk)
                if hand is None:
                    cells.append(SheetCell.out_of_game(last[seat.pk]))
                    continue
                last[seat.pk] = hand.total
                cells.append(
                    SheetCell(
                        hand_total=hand.hand_total,
                        points=hand.points,
                        reduction=hand.reduction,
                        total=hand.total,
                        mark=hand_mark(stored, hand),
                    )
                )
            rows.append(
                SheetRow(
                    number=stored.number,
                    kind=stored.kind,
                    cells=tuple(cells),
                    entered_by=stored.entered_by.get_username() if stored.entered_by else "",
                )
            )
        return rows


@dataclass(frozen=True)
class SheetCell:
    """One player's line in one round of the score sheet."""

    # None for a player who is out (elimination): no hand that round.
    hand_total: int | None
    points: int
    reduction: int
    total: int
    # "caller", "assaf" (an Assaf's caller), "false" (a false Yaniv's caller), "along",
    # "empty", "out" (no hand: eliminated) or "".
    mark: str

    @classmethod
    def out_of_game(cls, total: int) -> SheetCell:
        return cls(hand_total=None, points=0, reduction=0, total=total, mark="out")

    @property
    def out(self) -> bool:
        return self.hand_total is None

    @property
    def arrived(self) -> int:
        """The total before the reduction: a sheet shows `100 → 50`."""
        return self.total + self.reduction


@dataclass(frozen=True)
class SheetRow:
    number: int
    kind: str
    cells: tuple[SheetCell, ...]
    entered_by: str


def hand_mark(stored: Round, hand: Hand) -> str:
    """How a sheet marks a hand: "caller", "assaf", "false", "along", "empty" or ""."""
    if stored.empty_hand_id == hand.seat_id:
        return "empty"
    if stored.caller_id == hand.seat_id:
        return {
            rules.RoundKind.FALSE_YANIV: "false",
            rules.RoundKind.ASSAF: "assaf",
        }.get(stored.kind, "caller")
    if hand.along and stored.kind == rules.RoundKind.YANIV:
        return "along"
    return ""


class Game(models.Model):
    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="game")
    finished = models.BooleanField(default=False)
    ended_at_time_limit = models.BooleanField(default=False)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Bumped by every change; a correction form must carry the version it saw.
    version = models.PositiveIntegerField(default=0)
    # The referee's sign-off once the players checked the sheet; until then a
    # finished game counts as provisional in the standings.
    signed_off_at = models.DateTimeField(null=True, blank=True)
    signed_off_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(ended_at_time_limit=False) | Q(finished=True),
                name="time_limit_end_is_finished",
            ),
            models.CheckConstraint(
                condition=Q(signed_off_at__isnull=True) | Q(finished=True),
                name="only_a_finished_game_is_signed_off",
            ),
        ]

    def __str__(self) -> str:
        return f"game at {self.table}"

    @property
    def ruleset(self) -> rules.Ruleset:
        return self.table.session.tournament.ruleset

    def sheet(self) -> Sheet:
        seats = tuple(self.table.seats.select_related("player").order_by("position"))
        rounds = tuple(
            self.rounds.select_related("entered_by").prefetch_related("hands").order_by("number")
        )
        return Sheet(seats, rounds)

    def score(self, sheet: Sheet | None = None) -> rules.GameResult:
        sheet = sheet or self.sheet()
        return rules.score_game(
            rules.Game(sheet.players, tuple(sheet.engine_rounds()), self.ruleset)
        )

    def preview_round(self, entries: rules.Round, sheet: Sheet) -> rules.GameResult:
        """The game as it would be with `entries` as its next round; saves nothing."""
        if self.ended_at_time_limit:
            raise self._over(len(sheet.rounds) + 1)
        return rules.score_game(
            rules.Game(sheet.players, (*sheet.engine_rounds(), entries), self.ruleset)
        )

    # --- state changes: each one transaction, under a lock on the game row --

    def record_round(self, entries: rules.Round, *, by, number: int) -> Round:
        """Record round `number` (the next one) from the referee's entries."""
        with transaction.atomic():
            game = self._locked()
            sheet = game.sheet()
            if number < 1:
                raise rules.GameError("rounds", "rounds are numbered from 1", round_number=number)
            if number <= len(sheet.rounds):
                existing = sheet.rounds[number - 1]
                raise RoundConflict(existing, sheet.entries(existing))
            if number != len(sheet.rounds) + 1:
                raise rules.GameError(
                    "rounds", "rounds are recorded in order", round_number=number
                )
            result = game.preview_round(entries, sheet)
            stored = Round.objects.create(
                game=game, number=number, entered_by=by, **game._ending(entries, sheet)
            )
            Hand.objects.bulk_create(
                Hand(
                    round=stored,
                    seat=seat,
                    hand_total=entries.hands[label],
                    along=label in entries.along,
                )
                for seat, label in zip(sheet.seats, sheet.players, strict=True)
                # A player who is out (elimination) has no hand.
                if label in entries.hands
            )
            sheet = Sheet(sheet.seats, (*sheet.rounds, stored))
            game._store(sheet, result, first_changed=number)
            game._log(GameChange.Action.RECORD, by, number, None, entries, "")
        self._take_state(game)
        return stored

    def correct_round(
        self, number: int, entries: rules.Round, *, by, reason: str, version: int
    ) -> None:
        """Replace round `number`'s entries; later rounds are rescored."""
        with transaction.atomic():
            game = self._locked(version)
            sheet = game.sheet()
            stored = game._stored_round(sheet, number)
            before = sheet.entries(stored)
            engine_rounds = sheet.engine_rounds()
            engine_rounds[number - 1] = entries
            try:
                result = rules.score_game(
                    rules.Game(sheet.players, tuple(engine_rounds), game.ruleset)
                )
            except rules.GameError as error:
                if error.round_number and error.round_number > number and error.field == "hands":
                    # Elimination: the correction changes who plays the later rounds.
                    raise rules.GameError(
                        "rounds",
                        f"this correction changes who is out of the game before round"
                        f" {error.round_number}: undo the rounds after it first",
                        round_number=number,
                    ) from error
                if error.round_number and error.round_number > number:
                    raise rules.GameError(
                        "rounds",
                        f"this correction ends the game at round {error.round_number - 1},"
                        f" but rounds up to {len(sheet.rounds)} were played after it",
                        round_number=number,
                    ) from error
                raise
            for field, value in game._ending(entries, sheet).items():
                setattr(stored, field, value)
            stored.save(update_fields=["kind", "caller", "empty_hand"])
            hands = {hand.seat_id: hand for hand in stored.hands.all()}
            if {sheet.labels[seat_id] for seat_id in hands} != set(entries.hands):
                # Who plays a round is fixed by the rounds before it.
                raise rules.GameError(
                    "hands",
                    "hands must name every player still in the game exactly once",
                    round_number=number,
                )
            for seat_id, hand in hands.items():
                hand.hand_total = entries.hands[sheet.labels[seat_id]]
                hand.along = sheet.labels[seat_id] in entries.along
            Hand.objects.bulk_update(list(hands.values()), ["hand_total", "along"])
            game._store(sheet, result, first_changed=number)
            game._log(GameChange.Action.CORRECT, by, number, before, entries, reason)
        self._take_state(game)

    def undo_last_round(self, *, by, reason: str, version: int) -> None:
        with transaction.atomic():
            game = self._locked(version)
            sheet = game.sheet()
            if not sheet.rounds:
                raise rules.GameError("rounds", "there is no round to undo")
            last = sheet.rounds[-1]
            before = sheet.entries(last)
            last.delete()
            sheet = Sheet(sheet.seats, sheet.rounds[:-1])
            result = game.score(sheet)
            game._store(sheet, result, first_changed=None)
            game._log(GameChange.Action.UNDO, by, last.number, before, None, reason)
        self._take_state(game)

    @property
    def signed_off(self) -> bool:
        return self.signed_off_at is not None

    @property
    def provisional(self) -> bool:
        """Finished, but the sheet is not signed off yet."""
        return self.finished and not self.signed_off

    def sign_off(self, *, by, version: int) -> None:
        """The referee confirms the finished sheet, as players sign the paper one."""
        with transaction.atomic():
            game = self._locked(version)
            if not game.finished:
                raise rules.GameError("game", "only a finished game can be signed off")
            if game.signed_off:
                raise rules.GameError("game", "the game is already signed off")
            game.signed_off_at = timezone.now()
            game.signed_off_by = by
            game.version += 1
            game.save(update_fields=["signed_off_at", "signed_off_by", "version"])
            game._log(GameChange.Action.SIGN_OFF, by, None, None, None, "")
        self._take_state(game)

    def end_at_time_limit(self, *, by, reason: str, version: int) -> None:
        """Stop the game: the current totals are final."""
        with transaction.atomic():
            game = self._locked(version)
            if game.finished:
                raise rules.GameError("game", "the game is already over")
            sheet = game.sheet()
            game.ended_at_time_limit = True
            game._store(sheet, game.score(sheet), first_changed=None)
            game._log(GameChange.Action.END, by, None, None, None, reason)
        self._take_state(game)

    def store_rounds(
        self, rounds: Sequence[tuple[rules.Round, object, datetime]], *, ended_at_time_limit: bool
    ) -> rules.GameResult:
        """Store a whole recorded game at once (an import): (entries, entered_by, entered_at).

        The engine scores the rounds as one game and `_store` caches its numbers as after any
        change; nothing is logged (an import restores the audit log as it was recorded).
        """
        with transaction.atomic():
            game = self._locked()
            sheet = game.sheet()
            if sheet.rounds:
                raise rules.GameError("rounds", "the game already has rounds")
            engine_rounds = tuple(entries for entries, _, _ in rounds)
            result = rules.score_game(rules.Game(sheet.players, engine_rounds, game.ruleset))
            stored = Round.objects.bulk_create(
                Round(
                    game=game,
                    number=number,
                    entered_by=by,
                    entered_at=at,
                    **game._ending(entries, sheet),
                )
                for number, (entries, by, at) in enumerate(rounds, start=1)
            )
            Hand.objects.bulk_create(
                Hand(
                    round=round_,
                    seat=seat,
                    hand_total=entries.hands[label],
                    along=label in entries.along,
                )
                for round_, entries in zip(stored, engine_rounds, strict=True)
                for seat, label in zip(sheet.seats, sheet.players, strict=True)
                if label in entries.hands
            )
            game.ended_at_time_limit = ended_at_time_limit
            game._store(game.sheet(), result, first_changed=1)
        self._take_state(game)
        return result

    # --- helpers of the state changes ----------------------------------------

    def _take_state(self, game: Game) -> None:
        """Adopt the locked copy's new state, keeping this instance's loaded relations."""
        for field in (
            "finished",
            "ended_at_time_limit",
            "finished_at",
            "version",
            "signed_off_at",
            "signed_off_by_id",
        ):
            setattr(self, field, getattr(game, field))

    def _locked(self, version: int | None = None) -> Game:
        game = (
            # Lock only the game row: other tables of the session go on meanwhile.
            Game.objects.select_for_update(of=("self",))
            .select_related("table__session__tournament")
            .get(pk=self.pk)
        )
        if version is not None and version != game.version:
            raise SheetChanged()
        return game

    def _over(self, number: int) -> rules.GameError:
        return rules.GameError("rounds", "the game is already over", round_number=number)

    def _stored_round(self, sheet: Sheet, number: int) -> Round:
        if not 1 <= number <= len(sheet.rounds):
            raise rules.GameError("rounds", f"there is no round {number}")
        return sheet.rounds[number - 1]

    def _ending(self, entries: rules.Round, sheet: Sheet) -> dict[str, object]:
        kind = rules.round_kind(entries, self.ruleset)
        return {
            "kind": kind.value,
            "caller": sheet.seat_for(entries.yaniv) if entries.yaniv else None,
            "empty_hand": sheet.seat_for(entries.empty_hand) if entries.empty_hand else None,
        }

    def _store(self, sheet: Sheet, result: rules.GameResult, *, first_changed: int | None) -> None:
        """Cache the engine's numbers on the rows; rounds before a change keep theirs."""
        labels = sheet.labels
        changed = []
        for stored, scored in zip(sheet.rounds, result.rounds, strict=True):
            if first_changed is None or stored.number < first_changed:
                continue
            for hand in stored.hands.all():
                label = labels[hand.seat_id]
                hand.points = scored.points[label]
                hand.reduction = scored.reductions.get(label, 0)
                hand.total = scored.totals[label]
                changed.append(hand)
            if stored.kind != scored.kind.value:
                stored.kind = scored.kind.value
                stored.save(update_fields=["kind"])
        if changed:
            Hand.objects.bulk_update(changed, ["points", "reduction", "total"])
        ranks = {placing.player: placing.rank for placing in result.ranking}
        for seat in sheet.seats:
            seat.total = result.totals[labels[seat.pk]]
            seat.rank = ranks[labels[seat.pk]]
        Seat.objects.bulk_update(sheet.seats, ["total", "rank"])
        finished = result.finished or self.ended_at_time_limit
        if finished and not self.finished:
            self.finished_at = timezone.now()
        elif not finished:
            # A correction that reopens the game voids its sign-off.
            self.finished_at = None
            self.signed_off_at = None
            self.signed_off_by = None
        self.finished = finished
        self.version += 1
        self.save(
            update_fields=[
                "finished",
                "ended_at_time_limit",
                "finished_at",
                "version",
                "signed_off_at",
                "signed_off_by",
            ]
        )

    def _log(
        self,
        action: str,
        by,
        number: int | None,
        before: rules.Round | None,
        after: rules.Round | None,
        reason: str,
    ) -> None:
        GameChange.objects.create(
            game=self,
            action=action,
            round_number=number,
            user=by,
            before=round_to_record(before) if before else None,
            after=round_to_record(after) if after else None,
            reason=reason,
            version=self.version,
        )
        logger.info(
            "game change: %s round=%s table=%s by=%s version=%s",
            action,
            number,
            self.table_id,
            by.get_username() if by else None,
            self.version,
        )


class Round(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=12, choices=[(k.value, k.value) for k in rules.RoundKind])
    caller = models.ForeignKey(
        Seat, null=True, blank=True, on_delete=models.RESTRICT, related_name="+"
    )
    empty_hand = models.ForeignKey(
        Seat, null=True, blank=True, on_delete=models.RESTRICT, related_name="+"
    )
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    entered_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="unique_round_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_from_1"),
            # One caller or one emptied hand, never both, never neither.
            models.CheckConstraint(
                condition=(
                    Q(kind="empty_hand", empty_hand__isnull=False, caller__isnull=True)
                    | Q(
                        kind__in=["yaniv", "false_yaniv", "assaf"],
                        caller__isnull=False,
                        empty_hand__isnull=True,
                    )
                ),
                name="round_has_one_ending",
            ),
        ]

    def __str__(self) -> str:
        return f"round {self.number} of {self.game}"


class Hand(models.Model):
    """One player's entries in one round, with the engine's numbers cached."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="hands")
    # RESTRICT, not PROTECT: deleting a whole table deletes its rounds in the same cascade.
    seat = models.ForeignKey(Seat, on_delete=models.RESTRICT, related_name="hands")
    hand_total = models.PositiveSmallIntegerField()
    along = models.BooleanField(default=False)
    points = models.IntegerField(default=0)
    reduction = models.PositiveSmallIntegerField(default=0)
    total = models.IntegerField(default=0)

    class Meta:
        ordering = ["round", "seat__position"]
        constraints = [
            models.UniqueConstraint(fields=["round", "seat"], name="unique_hand_per_seat"),
            models.CheckConstraint(
                condition=Q(hand_total__gte=0, hand_total__lte=rules.BELGIAN.max_hand),
                name="hand_total_0_to_50",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.seat} in {self.round}"


class GameChange(models.Model):
    """The audit log: every record, correction, undo and end of a game."""

    class Action(models.TextChoices):
        RECORD = "record", gettext_lazy("recorded")
        CORRECT = "correct", gettext_lazy("corrected")
        UNDO = "undo", gettext_lazy("undone")
        END = "end", gettext_lazy("ended at the time limit")
        SIGN_OFF = "sign_off", gettext_lazy("signed off")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="changes")
    action = models.CharField(max_length=10, choices=Action)
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    reason = models.TextField(blank=True)
    version = models.PositiveIntegerField()

    class Meta:
        ordering = ["game", "-at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(action__in=["record", "sign_off"]) | ~Q(reason=""),
                name="change_needs_a_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_action_display()} round {self.round_number} of {self.game}"

    @property
    def before_text(self) -> str:
        return describe_entries(self.before)

    @property
    def after_text(self) -> str:
        return describe_entries(self.after)


def describe_entries(record: dict | None) -> str:
    """A round record as a referee reads it: "Ann 3 (Yaniv), Bart 12 (along)"."""
    if not record:
        return ""
    along = set(record.get("along", []))
    parts = []
    for player, hand in record["hands"].items():
        if player == record.get("yaniv"):
            note = " " + gettext("(Yaniv)")
        elif player == record.get("empty_hand"):
            note = " " + gettext("(emptied)")
        else:
            note = " " + gettext("(along)") if player in along else ""
        parts.append(f"{player} {hand}{note}")
    return ", ".join(parts)
