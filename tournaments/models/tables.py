"""A session's tables: each table, its seats and its code, the clock's events of a session."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db import models, transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.rules import BELGIAN
from tournaments.clock import MAX_MINUTES
from tournaments.models.people import Player


class TableManager(models.Manager["Table"]):
    def create_with_games(self, tables: Iterable[Table]) -> list[Table]:
        """Create the tables and the game each one plays, in one transaction.

        The one way tables are made: a table without its game cannot be played or shown.
        """
        # The game model, through the relation: `games` imports this module, not the reverse.
        game_model: Any = Table.game.related.related_model
        with transaction.atomic():
            created = self.bulk_create(list(tables))
            game_model.objects.bulk_create(game_model(table=table) for table in created)
        return created


class Table(models.Model):
    session = models.ForeignKey(
        "tournaments.Session",
        on_delete=models.CASCADE,
        related_name="tables",
        verbose_name=_("session"),
    )
    number = models.PositiveSmallIntegerField(_("number"))
    referee = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="refereed_tables",
        verbose_name=_("referee"),
    )
    # Minutes the session's clock gives this table beyond the session's (Session.extend_clock).
    clock_extension = models.PositiveSmallIntegerField(
        _("minutes added for this table"), default=0, editable=False
    )

    objects = TableManager()

    class Meta:
        ordering = ["session", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="unique_table_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_from_1"),
            models.CheckConstraint(
                condition=Q(clock_extension__lte=MAX_MINUTES),
                name="table_clock_extension_at_most_720",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.session} · table {self.number}"

    def get_absolute_url(self) -> str:
        return reverse("tables:detail", args=[self.pk])


class SessionClockEvent(models.Model):
    """The session clock's log: who set the limit, started, paused, resumed or extended it,
    and ended the session's games, when (shown on the session page)."""

    class Action(models.TextChoices):
        LIMIT = "limit", _("set the time limit")
        START = "start", _("started the clock")
        PAUSE = "pause", _("paused the clock")
        RESUME = "resume", _("resumed the clock")
        EXTEND = "extend", _("extended the time")
        END_GAMES = "end_games", _("ended the unfinished games at the time limit")

    session = models.ForeignKey(
        "tournaments.Session",
        on_delete=models.CASCADE,
        related_name="clock_events",
        verbose_name=_("session"),
    )
    # An extension for one table; None: every table.
    table = models.ForeignKey(
        "tournaments.Table", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    action = models.CharField(max_length=10, choices=Action)
    # The limit set, the minutes added, the minutes a pause lasted.
    minutes = models.PositiveSmallIntegerField(null=True, blank=True)
    # How many games "end the games" ended.
    games = models.PositiveSmallIntegerField(null=True, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)
    reason = models.CharField(max_length=500, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = _("clock event")
        verbose_name_plural = _("clock events")
        constraints = [
            models.CheckConstraint(
                condition=~Q(action="extend") | Q(minutes__isnull=False, minutes__gte=1),
                name="an_extension_adds_minutes",
            ),
            models.CheckConstraint(
                condition=Q(table__isnull=True) | Q(action="extend"),
                name="only_an_extension_is_for_one_table",
            ),
            models.CheckConstraint(
                condition=~Q(action="end_games") | ~Q(reason=""),
                name="ending_the_games_says_why",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_action_display()} ({self.session})"


class Seat(models.Model):
    table = models.ForeignKey(
        "tournaments.Table",
        on_delete=models.CASCADE,
        related_name="seats",
        verbose_name=_("table"),
    )
    position = models.PositiveSmallIntegerField(_("seat"), help_text=_("1..n, clockwise"))
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="seats", verbose_name=_("player")
    )
    # The game's current total and rank, cached from the engine by each change.
    total = models.IntegerField(_("total"), default=0, editable=False)
    rank = models.PositiveSmallIntegerField(_("rank"), null=True, blank=True, editable=False)
    # Elimination: the round after which the player went out (cached like the total), so that
    # the next round is scored from the seats alone.
    out_after = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    # The game points a director gave the seat (penalties less bonuses: the seat's
    # `Adjustment`s, tournaments.models.adjustments), cached by each of their changes. They
    # count in the game's result (`adjusted_total`, the rank) but never in the rounds' play:
    # `total` stays the engine's, from which the next round is scored.
    adjustment = models.IntegerField(_("game points given"), default=0, editable=False)

    class Meta:
        ordering = ["table", "position"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="unique_seat_position"),
            models.UniqueConstraint(fields=["table", "player"], name="unique_player_per_table"),
            models.CheckConstraint(
                condition=Q(position__gte=1, position__lte=BELGIAN.max_players),
                name="seat_position_1_to_8",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} (seat {self.position})"

    @property
    def adjusted_total(self) -> int:
        """The seat's total in the game's result: the rounds' total and the game points a
        director gave (docs/standings.md, "Penalty and bonus points")."""
        return self.total + self.adjustment


class TableCode(models.Model):
    """A secret link that lets any phone enter one table's rounds for one session (club nights).

    The code is never stored: it is an HMAC of the row (keyed with SECRET_KEY), so a copy of the
    database gives none away, it is checked in constant time, and it carries 160 bits. It works
    while its session runs and until the director revokes it (a new one is issued in its place).
    """

    table = models.ForeignKey(
        "tournaments.Table",
        on_delete=models.CASCADE,
        related_name="codes",
        verbose_name=_("table"),
    )
    salt = models.CharField(max_length=32, editable=False)
    created_at = models.DateTimeField(_("issued at"), default=timezone.now)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    class Meta:
        verbose_name = _("table code")
        verbose_name_plural = _("table codes")
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(revoked_at__isnull=True),
                name="one_live_code_a_table",
            ),
        ]

    def __str__(self) -> str:
        return f"code of {self.table}"

    def _mac(self) -> str:
        return salted_hmac(
            "tournaments.TableCode", f"{self.pk}:{self.table_id}:{self.salt}", algorithm="sha256"
        ).hexdigest()[: self.MAC_LENGTH]

    # Hex digits of the HMAC in a code: 40 × 4 = 160 bits.
    MAC_LENGTH = 40

    @property
    def code(self) -> str:
        return f"{self.pk}-{self._mac()}"

    @classmethod
    def issue(cls, table: Table) -> TableCode:
        """A new code for the table; the one it had stops working."""
        with transaction.atomic():
            cls.objects.filter(table=table, revoked_at__isnull=True).update(
                revoked_at=timezone.now()
            )
            return cls.objects.create(table=table, salt=secrets.token_hex(16))

    @classmethod
    def find(cls, code: str) -> TableCode | None:
        """The live code `code` names, or None (unknown, wrong, revoked: all look the same)."""
        number, _, mac = code.partition("-")
        if not number.isdigit() or len(mac) != cls.MAC_LENGTH or len(number) > 18:
            return None
        found = (
            cls.objects.filter(pk=int(number), revoked_at__isnull=True)
            .select_related("table__session__tournament", "table__game")
            .first()
        )
        if found is None or not constant_time_compare(found._mac(), mac):
            return None
        return found

    @classmethod
    def named(cls, code: str) -> TableCode | None:
        """The code `code` names, revoked or not (its secret checked): to say why it no
        longer opens its table; None for a code nobody was given."""
        number, _, mac = code.partition("-")
        if not number.isdigit() or len(mac) != cls.MAC_LENGTH or len(number) > 18:
            return None
        found = (
            cls.objects.filter(pk=int(number))
            .select_related("table__session__tournament", "table__game")
            .first()
        )
        if found is None or not constant_time_compare(found._mac(), mac):
            return None
        return found

    @property
    def why_not_working(self) -> str:
        """Why the code opens no table now, in words (empty while it works)."""
        session = self.table.session
        if self.revoked_at is not None:
            return gettext("the director gave this table a new code")
        if session.status == session.Status.FINISHED:
            return gettext("session %(number)s is finished") % {"number": session.number}
        if session.status != session.Status.RUNNING:
            return gettext(
                "session %(number)s has not started yet: this page works once the director "
                "starts it"
            ) % {"number": session.number}
        if session.tournament.status != session.tournament.Status.RUNNING:
            return gettext("the tournament is not running")
        if not session.by_table_codes:
            return gettext("this session's tables are kept by their referees")
        return ""

    @property
    def works(self) -> bool:
        """The code opens its table while the session runs with table codes."""
        session = self.table.session
        return (
            self.revoked_at is None
            and session.status == session.Status.RUNNING
            and session.tournament.status == session.tournament.Status.RUNNING
            and session.by_table_codes
        )
