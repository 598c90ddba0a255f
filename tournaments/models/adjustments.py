"""Penalty and bonus points a director gives, with a reason (docs/standings.md).

Two kinds of points, as tournaments use both:

- **game points**, given to a seat of one game: a penalty adds them to the seat's total, a
  bonus takes them off. They count in the game's result — the seat's total, so the ranks at
  the table, the placement points and the sum of totals — but never in the rounds' play: no
  exact 50/100/150 reduction, no end of the game, no one out (the cards decide those; the
  seat's `total` stays the engine's, `Seat.adjustment` holds the points given).
- **placement points**, given to a player in the standings: a bonus adds them to the
  player's points, a penalty takes them off, in halves. Given at a game's seat, they count
  in that session's standings too; given to the player alone, in the overall ones.

Every change is one transaction and is logged (`AdjustmentChange`: given, corrected, removed,
each with who, when and why); game points also in the game's audit log (`GameChange`), since
they change its sheet's result.
"""

from __future__ import annotations

import logging
from collections.abc import Hashable
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.db.models import Q, Sum
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.errors import Refused
from tournaments.models.games import Game
from tournaments.models.people import Player
from tournaments.models.rounds import GameChange
from tournaments.models.sessions import Session
from tournaments.models.tables import Seat
from tournaments.models.tournaments import Tournament
from tournaments.models.visibility import model_named

logger = logging.getLogger(__name__)

# The most a director gives at once: game points (a whole number) and placement points.
MOST_GAME_POINTS = 500
MOST_PLACEMENT_POINTS = 100


def plain(points: Decimal) -> str:
    """Points as written: 10, 1.5 (never 10.0)."""
    return format(Decimal(points).normalize(), "f")


class Adjustment(models.Model):
    class Kind(models.TextChoices):
        PENALTY = "penalty", _("penalty")
        BONUS = "bonus", _("bonus")

    class Unit(models.TextChoices):
        GAME = "game", _("game points")
        PLACEMENT = "placement", _("placement points")

    class Reason(models.TextChoices):
        LATE = "late", _("late")
        CONDUCT = "conduct", _("conduct")
        SLOW_PLAY = "slow_play", _("slow play")
        RULING = "ruling", _("a director's ruling")
        OTHER = "other", _("other")

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="adjustments",
        verbose_name=_("tournament"),
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="adjustments", verbose_name=_("player")
    )
    # The game's seat the points were given at (game points always; placement points may).
    seat = models.ForeignKey(
        Seat,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="adjustments",
        verbose_name=_("seat"),
    )
    kind = models.CharField(_("penalty or bonus"), max_length=8, choices=Kind)
    unit = models.CharField(_("in"), max_length=10, choices=Unit)
    points = models.DecimalField(_("points"), max_digits=5, decimal_places=1)
    reason = models.CharField(_("reason"), max_length=10, choices=Reason)
    text = models.CharField(_("details"), max_length=200, blank=True)
    given_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    given_at = models.DateTimeField(_("given at"), default=timezone.now)
    removed_at = models.DateTimeField(_("removed at"), null=True, blank=True)
    removed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    removal_reason = models.CharField(_("why removed"), max_length=200, blank=True)

    class Meta:
        ordering = ["tournament", "given_at", "pk"]
        verbose_name = _("penalty or bonus")
        verbose_name_plural = _("penalties and bonuses")
        constraints = [
            models.CheckConstraint(condition=Q(points__gt=0), name="adjustment_points_positive"),
            models.CheckConstraint(
                condition=Q(unit="placement") | Q(seat__isnull=False),
                name="game_points_are_given_at_a_seat",
            ),
            models.CheckConstraint(
                condition=~Q(reason="other") | ~Q(text=""), name="other_reason_says_what"
            ),
            models.CheckConstraint(
                condition=Q(removed_at__isnull=True, removal_reason="")
                | (Q(removed_at__isnull=False) & ~Q(removal_reason="")),
                name="a_removal_says_why",
            ),
        ]
        indexes = [models.Index(fields=["tournament", "player"], name="adjustments_of_a_player")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.points} {self.get_unit_display()}: {self.player}"

    def clean(self) -> None:
        """Game points are whole (1 to MOST_GAME_POINTS), placement points come in halves
        (0.5 to MOST_PLACEMENT_POINTS), as the standings count them."""
        super().clean()
        if self.points is None:
            return
        if self.unit == self.Unit.GAME and (
            self.points != int(self.points) or not 1 <= self.points <= MOST_GAME_POINTS
        ):
            raise ValidationError(
                {
                    "points": gettext("Game points are whole, 1 to %(most)s.")
                    % {"most": MOST_GAME_POINTS}
                }
            )
        if self.unit == self.Unit.PLACEMENT and (
            self.points * 2 != int(self.points * 2)
            or not Decimal("0.5") <= self.points <= MOST_PLACEMENT_POINTS
        ):
            raise ValidationError(
                {
                    "points": gettext("Placement points come in halves, 0.5 to %(most)s.")
                    % {"most": MOST_PLACEMENT_POINTS}
                }
            )
        if self.reason == self.Reason.OTHER and not self.text.strip():
            raise ValidationError({"text": gettext("Say what the reason is.")})

    @property
    def removed(self) -> bool:
        return self.removed_at is not None

    @property
    def signed(self) -> Decimal:
        """What the points do: game points added to the total (a penalty) or taken off (a
        bonus); placement points added to the standings' points (a bonus) or taken off."""
        penalty = self.kind == self.Kind.PENALTY
        higher = penalty if self.unit == self.Unit.GAME else not penalty
        return self.points if higher else -self.points

    @property
    def why(self) -> str:
        """The reason in words, with its details: "late: 20 minutes" ("other": the text)."""
        if self.reason == self.Reason.OTHER:
            return self.text
        reason = str(self.get_reason_display())
        return f"{reason}: {self.text}" if self.text else reason

    @property
    def summary(self) -> str:
        """ "Penalty: +10 game points (late)", as the logs and audit trail read it."""
        sign = "+" if self.signed > 0 else "−"
        points = plain(abs(self.signed))
        return gettext("%(kind)s: %(sign)s%(points)s %(unit)s to %(name)s (%(why)s)") % {
            "kind": self.get_kind_display().capitalize(),
            "sign": sign,
            "points": points,
            "unit": self.get_unit_display(),
            "name": self.player.name,
            "why": self.why,
        }

    @staticmethod
    def placement_given(
        tournament_id: int, session: Session | None = None, stage: str | None = None
    ) -> dict[Hashable, Fraction]:
        """Player → the placement points given in force (bonuses less penalties), for the
        standings overall (every one; with `stage`, those given to the player alone or at a
        seat of that stage) or of one session (those given at its seats). One query."""
        given = Adjustment.objects.filter(
            tournament_id=tournament_id, unit=Adjustment.Unit.PLACEMENT, removed_at__isnull=True
        )
        if session is not None:
            given = given.filter(seat__table__session=session)
        elif stage is not None:
            given = given.filter(Q(seat__isnull=True) | Q(seat__table__session__stage=stage))
        points: dict[Hashable, Fraction] = {}
        for adjustment in given:
            points[adjustment.player_id] = points.get(adjustment.player_id, Fraction(0)) + (
                Fraction(adjustment.signed)
            )
        return points

    @property
    def short(self) -> str:
        """ "Penalty: +10 game points (late)", as a mark beside the player reads it."""
        return gettext("%(kind)s: %(sign)s%(points)s %(unit)s (%(why)s)") % {
            "kind": self.get_kind_display().capitalize(),
            "sign": "+" if self.signed > 0 else "−",
            "points": plain(abs(self.signed)),
            "unit": self.get_unit_display(),
            "why": self.why,
        }

    @property
    def where(self) -> str:
        """Where the points were given: "session 2, table 3", or "in the standings"."""
        if self.seat is None:
            return gettext("in the standings")
        table = self.seat.table
        return gettext("session %(session)s, table %(table)s") % {
            "session": table.session.number,
            "table": table.number,
        }

    def _fields(self) -> dict[str, str]:
        return {
            "kind": self.kind,
            "unit": self.unit,
            "points": plain(self.points),
            "reason": self.reason,
            "text": self.text,
        }

    # --- the director's changes: each one transaction ------------------------------------

    @classmethod
    def give(
        cls, tournament: Tournament, player: Player, *, seat: Seat | None = None, by: Any, **what
    ) -> Adjustment:
        """Give a player points (`what`: kind, unit, points, reason, text), at a game's seat
        (game points always) or in the standings."""
        adjustment = cls(tournament=tournament, player=player, seat=seat, given_by=by, **what)
        adjustment._check_where()
        with transaction.atomic():
            adjustment.full_clean(exclude=["tournament", "player", "seat", "given_by"])
            adjustment.save()
            adjustment._log(AdjustmentChange.Action.GIVE, None, "", by)
            adjustment._follow(by)
        return adjustment

    def correct(self, *, why: str, by: Any, **what: Any) -> None:
        """Change the kind, points or reason (`what`), saying why."""
        with transaction.atomic():
            locked = self._locked_in_force(why)
            before = locked._fields()
            for field, value in what.items():
                setattr(locked, field, value)
            locked.full_clean(exclude=["tournament", "player", "seat", "given_by"])
            locked.save()
            locked._log(AdjustmentChange.Action.CORRECT, before, why.strip(), by)
            locked._follow(by)
        self.refresh_from_db()

    def remove(self, *, why: str, by: Any) -> None:
        """Take the points back, saying why; the row stays, marked removed."""
        with transaction.atomic():
            locked = self._locked_in_force(why)
            locked.removed_at, locked.removed_by = timezone.now(), by
            locked.removal_reason = why.strip()[:200]
            locked.save(update_fields=["removed_at", "removed_by", "removal_reason"])
            locked._log(AdjustmentChange.Action.REMOVE, locked._fields(), why.strip(), by)
            locked._follow(by)
        self.refresh_from_db()

    def _locked_in_force(self, why: str) -> Adjustment:
        """This row locked for a change that says `why`: refused without a reason, or once
        removed."""
        if not why.strip():
            raise Refused("adjustment_why")
        locked = Adjustment.objects.select_for_update().get(pk=self.pk)
        if locked.removed:
            raise Refused("adjustment_removed")
        return locked

    def _check_where(self) -> None:
        """Game points at a seat of this tournament's game where the player sits; none of
        placement points at a final's table (the final is ranked by its game)."""
        if self.seat is None:
            if self.unit == self.Unit.GAME:
                raise Refused("adjustment_needs_game")
            return
        if self.seat.player_id != self.player_id:
            raise Refused("adjustment_not_seated", name=self.player.name)
        session = self.seat.table.session
        if self.unit == self.Unit.PLACEMENT and session.stage == Session.Stage.FINAL:
            raise Refused("adjustment_in_final")

    def _log(self, action: str, before: dict[str, str] | None, why: str, by: Any) -> None:
        AdjustmentChange.objects.create(
            adjustment=self,
            action=action,
            before=before,
            after=None if action == AdjustmentChange.Action.REMOVE else self._fields(),
            why=why,
            by=by if getattr(by, "is_authenticated", False) else None,
        )
        logger.info(
            "adjustment %s: %s by %s%s",
            action,
            self.summary,
            by.get_username() if getattr(by, "is_authenticated", False) else None,
            f": {why}" if why else "",
            extra={"tournament": self.tournament_id, "player": self.player_id},
        )

    def _follow(self, by: Any) -> None:
        """What the points change follows them, in the same transaction: the seat's game
        points, ranks and sheet (the game's audit log too), or the standings' version; the
        tournament's standings read adjustments from now on."""
        Tournament.objects.filter(pk=self.tournament_id, has_adjustments=False).update(
            has_adjustments=True
        )
        if Adjustment.tournament.is_cached(self):
            self.tournament.has_adjustments = True
        if self.unit == self.Unit.GAME:
            assert self.seat is not None
            game = Game.objects.select_related("table__session__tournament").get(
                table_id=self.seat.table_id
            )
            game.change_seats(
                self._cache_on_seat, by=by, action=GameChange.Action.ADJUST, rescore=False
            )
            return
        sessions = model_named("Session").objects.filter(tournament_id=self.tournament_id)
        last = sessions.order_by("-number")[:1]
        sessions.filter(pk__in=models.Subquery(last.values("pk"))).touch()

    def _cache_on_seat(self, game: Game, seats: list[Seat]) -> str:
        """The seat's game points again from its adjustments in force (under the game's
        lock): the audit log's line."""
        for seat in seats:
            if seat.pk == self.seat_id:
                given = Adjustment.objects.filter(
                    seat=seat, unit=self.Unit.GAME, removed_at__isnull=True
                )
                penalties = given.filter(kind=self.Kind.PENALTY).aggregate(sum=Sum("points"))
                bonuses = given.filter(kind=self.Kind.BONUS).aggregate(sum=Sum("points"))
                seat.adjustment = int((penalties["sum"] or 0) - (bonuses["sum"] or 0))
        if self.removed:
            return gettext("Removed: %(summary)s: %(why)s") % {
                "summary": self.summary,
                "why": self.removal_reason,
            }
        return self.summary


class AdjustmentChange(models.Model):
    """The log of a penalty or bonus: given, corrected, removed, with who, when and why."""

    class Action(models.TextChoices):
        GIVE = "give", _("given")
        CORRECT = "correct", _("corrected")
        REMOVE = "remove", _("removed")

    adjustment = models.ForeignKey(
        Adjustment, on_delete=models.CASCADE, related_name="changes", verbose_name=_("penalty")
    )
    action = models.CharField(_("change"), max_length=8, choices=Action)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    why = models.CharField(_("why"), max_length=200, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(_("at"), default=timezone.now)

    class Meta:
        ordering = ["adjustment", "at", "pk"]
        verbose_name = _("change of a penalty or bonus")
        verbose_name_plural = _("changes of penalties and bonuses")
        constraints = [
            models.CheckConstraint(
                condition=Q(action="give") | ~Q(why=""), name="an_adjustment_change_says_why"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_action_display()}: {self.adjustment}"
