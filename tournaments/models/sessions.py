"""A tournament's sessions: the draw, the rebalance when players come or go, the start, the
clock, the end of every or chosen tables' games and the finish; the questions a director
confirms first."""

from __future__ import annotations

import hashlib
import logging
import random
import secrets
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.db import models, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from scoring import seating
from scoring.rules import BELGIAN
from scoring.seating import Draw, Rebalance
from tournaments import signals
from tournaments.clock import MAX_EXTENSION, MAX_MINUTES, ClockState, clock_state
from tournaments.errors import Refused
from tournaments.models.choices import Entry, TournamentStatus
from tournaments.models.people import Player
from tournaments.models.tables import Seat, SessionClockEvent, Table, TableCode
from tournaments.models.visibility import model_named

logger = logging.getLogger(__name__)

# The club-aware draws (`Session.Seating`) and how each weighs two clubmates at a table.
CLUB_WEIGHTS = {
    "clubs": seating.ClubWeight.AS_MEETING,
    "clubs_last": seating.ClubWeight.BELOW_REPEATS,
}


class NeedsConfirmation(ValueError):
    """The director asked for something that deserves a second look: the view asks first."""


class UnfinishedGames(NeedsConfirmation):
    """Starting a session while games of an earlier session are still being played."""

    def __init__(self, tables: list[Table]) -> None:
        self.tables = tables
        by_session: dict[int, list[str]] = {}
        for table in tables:
            by_session.setdefault(table.session.number, []).append(str(table.number))
        super().__init__(
            "; ".join(
                ngettext(
                    "session %(number)s still plays at table %(tables)s",
                    "session %(number)s still plays at tables %(tables)s",
                    len(numbers),
                )
                % {"number": number, "tables": ", ".join(numbers)}
                for number, numbers in by_session.items()
            )
        )


class GamesInPlay(NeedsConfirmation):
    """Finishing a session while some of its tables still play: their games would be left
    unfinished, their players out of the standings. The director ends them first (or not)."""

    def __init__(self, tables: list[Table]) -> None:
        self.tables = tables
        numbers = ", ".join(str(table.number) for table in tables)
        super().__init__(
            ngettext(
                "table %(tables)s still plays",
                "tables %(tables)s still play",
                len(tables),
            )
            % {"tables": numbers}
        )


class BeyondPlan(NeedsConfirmation):
    """Drawing a session the tournament did not plan (more than `session_count`)."""

    def __init__(self, number: int, planned: int) -> None:
        self.number, self.planned = number, planned
        super().__init__(
            ngettext(
                "the tournament plans %(planned)s session: session %(number)s would be one more",
                "the tournament plans %(planned)s sessions: session %(number)s would be one more",
                planned,
            )
            % {"planned": planned, "number": number}
        )


def move_standings(tournament_id: int) -> None:
    """What the tournament's standings show changed (a game finished or a finished one
    changed, a session written or deleted, a player withdrawn or renamed): its standings'
    version moves on, so that the hall's standings polls, which read it alone, see it. The
    writers of games and sessions call it inside their transaction."""
    model_named("Tournament").objects.filter(pk=tournament_id).update(
        standings_version=F("standings_version") + 1
    )


class SessionQuerySet(models.QuerySet["Session"]):
    def touch(self) -> int:
        """These sessions changed without a save of their own (a player renamed or withdrawn,
        the tournament's scorekeeping): their `changed_at`, which the pages' versions go by,
        and their tournaments' standings' versions move on, in one transaction."""
        with transaction.atomic():
            model_named("Tournament").objects.filter(pk__in=self.values("tournament_id")).update(
                standings_version=F("standings_version") + 1
            )
            return self.update(changed_at=timezone.now())


SessionManager = models.Manager.from_queryset(SessionQuerySet)


class Session(models.Model):
    class Status(models.TextChoices):
        PLANNED = "planned", pgettext_lazy("session status", "Planned")
        RUNNING = "running", pgettext_lazy("session status", "Running")
        FINISHED = "finished", pgettext_lazy("session status", "Finished")

    class Stage(models.TextChoices):
        QUALIFYING = "qualifying", pgettext_lazy("session stage", "Qualifying")
        FINAL = "final", pgettext_lazy("session stage", "Final")

    class Seating(models.TextChoices):
        RANDOM = "random", _("Random, fewest repeat meetings")
        # Clubmates apart (scoring.seating.ClubWeight): a clubmate weighs as a player met
        # before, or below every repeat meeting.
        CLUBS = "clubs", _("Random, clubmates apart")
        CLUBS_LAST = "clubs_last", _("Random, clubs apart if possible")
        STANDINGS = "standings", _("By standings (similar ranks together)")
        MANUAL = "manual", _("Manual")
        # A draw the rebalance changed after players came or went (issue 33.8: it read
        # "by hand", which the director never did).
        REBALANCED = "rebalanced", _("Rebalanced after check-in")

        @classmethod
        def drawn(cls) -> list[tuple[str, Any]]:
            """The methods a director draws with (swaps and moves make a manual seating, the
            rebalance a rebalanced one)."""
            return [
                (value, label)
                for value, label in cls.choices
                if value not in (cls.MANUAL, cls.REBALANCED)
            ]

    tournament = models.ForeignKey(
        "tournaments.Tournament",
        on_delete=models.CASCADE,
        related_name="sessions",
        verbose_name=_("tournament"),
    )
    number = models.PositiveSmallIntegerField(_("number"))
    status = models.CharField(_("status"), max_length=10, choices=Status, default=Status.PLANNED)
    stage = models.CharField(_("stage"), max_length=10, choices=Stage, default=Stage.QUALIFYING)
    seating = models.CharField(
        _("seating"), max_length=10, choices=Seating, default=Seating.RANDOM
    )
    # The random draw is reproducible from its seed; how well it avoided
    # earlier meetings is kept for the director.
    seed = models.BigIntegerField(_("seed"), null=True, blank=True)
    repeat_meetings = models.PositiveIntegerField(_("repeat meetings"), default=0)
    changed_at = models.DateTimeField(_("changed at"), auto_now=True)
    # Who changed table at the last redraw, swap or move (player ids): the hall screen shows
    # them first. Empty after the first draw.
    moved_players = models.JSONField(_("moved players"), default=list, blank=True, editable=False)
    # Empty: as the tournament says.
    entry = models.CharField(_("who enters rounds"), max_length=12, choices=Entry, blank=True)
    # The session clock (tournaments.clock): the time limit, when the clock started, the
    # pause going on, the seconds of the pauses before and the minutes added for every table
    # (a table's own are on the table). What is left is computed, never ticking in the rows.
    time_limit = models.PositiveSmallIntegerField(_("time limit (minutes)"), null=True, blank=True)
    clock_started_at = models.DateTimeField(
        _("clock started at"), null=True, blank=True, editable=False
    )
    clock_paused_at = models.DateTimeField(
        _("clock paused at"), null=True, blank=True, editable=False
    )
    clock_paused_seconds = models.PositiveIntegerField(default=0, editable=False)
    clock_extension = models.PositiveSmallIntegerField(
        _("minutes added for every table"), default=0, editable=False
    )

    objects = SessionManager()

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("session")
        verbose_name_plural = _("sessions")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_session_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="session_number_from_1"),
            models.CheckConstraint(
                condition=Q(time_limit__isnull=True)
                | Q(time_limit__gte=1, time_limit__lte=MAX_MINUTES),
                name="time_limit_1_to_720_minutes",
            ),
            # A clock starts with a limit; it pauses once started, not before it started.
            models.CheckConstraint(
                condition=Q(clock_started_at__isnull=True) | Q(time_limit__isnull=False),
                name="clock_starts_with_a_limit",
            ),
            models.CheckConstraint(
                condition=Q(clock_paused_at__isnull=True)
                | Q(
                    clock_started_at__isnull=False,
                    clock_paused_at__gte=models.F("clock_started_at"),
                ),
                name="clock_pauses_after_its_start",
            ),
            # Pauses and extensions belong to a started clock.
            models.CheckConstraint(
                condition=Q(clock_started_at__isnull=False)
                | Q(clock_paused_seconds=0, clock_extension=0),
                name="clock_pauses_and_extends_once_started",
            ),
            models.CheckConstraint(
                condition=Q(clock_extension__lte=MAX_MINUTES),
                name="clock_extension_at_most_720",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} · session {self.number}"

    # A session written or deleted may change what the standings show (its status, its stage,
    # its tables): the tournament's standings' version moves with it, in the same transaction.
    def save(self, *args: Any, **kwargs: Any) -> None:
        with transaction.atomic():
            super().save(*args, **kwargs)
            move_standings(self.tournament_id)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        with transaction.atomic():
            deleted = super().delete(*args, **kwargs)
            move_standings(self.tournament_id)
        return deleted

    @property
    def entry_mode(self) -> str:
        """Who enters this session's rounds: the session's own choice, else the tournament's."""
        return self.entry or self.tournament.entry

    @property
    def by_table_codes(self) -> bool:
        return self.entry_mode == Entry.TABLE_CODES

    # --- the seating draw -------------------------------------------------------

    def earlier_meetings(self) -> dict[frozenset[int], int]:
        """How often each pair of players sat together in this tournament's earlier sessions."""
        tables: dict[int, list[int]] = {}
        for table_id, player_id in Seat.objects.filter(
            table__session__tournament_id=self.tournament_id,
            table__session__number__lt=self.number,
        ).values_list("table_id", "player_id"):
            tables.setdefault(table_id, []).append(player_id)
        return seating.meetings([tables.values()])

    def seated_draw(self) -> Draw[int]:
        """The session's current seating as a draw (player ids, clockwise)."""
        tables: dict[int, list[int]] = {}
        for table_number, player_id in (
            Seat.objects.filter(table__session=self)
            .values_list("table__number", "player_id")
            .order_by("table__number", "position")
        ):
            tables.setdefault(table_number, []).append(player_id)
        seated = tuple(tuple(players) for _, players in sorted(tables.items()))
        return Draw(seated, self.seed or 0, self.repeat_meetings)

    def draw(self, method: str, seed: int) -> Draw[int]:
        """Seat the checked-in players afresh (a planned session only)."""
        if self.stage == self.Stage.FINAL:
            # The final seats the top of the standings, whatever the method asked.
            final = self.tournament.final_draw()
            self.seat(final, self.Seating.STANDINGS)
            return final
        players = self.present_players()
        if len(players) < BELGIAN.min_players:
            raise Refused("too_few_checked_in")
        met = self.earlier_meetings()
        target = self.tournament.table_size
        if method == self.Seating.STANDINGS:
            ranked = [player.pk for _, player in self.tournament.standings()]
            checked_in = set(players)
            order = [player for player in ranked if player in checked_in]
            # Players without a finished game yet come last, in a seeded random order.
            newcomers = sorted(checked_in - set(order))
            random.Random(seed).shuffle(newcomers)
            result = seating.draw_by_standings(
                order + newcomers,
                target,
                met,
                seed=seed,
                smallest=self.tournament.smallest_table,
            )
        else:
            if method not in CLUB_WEIGHTS:
                method = self.Seating.RANDOM
            result = seating.draw_random(
                players,
                met,
                seed,
                target,
                smallest=self.tournament.smallest_table,
                clubs=self.clubs_of(players) if method in CLUB_WEIGHTS else None,
                club_weight=CLUB_WEIGHTS.get(method, seating.ClubWeight.AS_MEETING),
            )
        self.seat(result, method)
        return result

    @staticmethod
    def clubs_of(players: list[int]) -> dict[int, int | None]:
        """Each player's club (its id; None without one), for the club-aware draw."""
        return dict(Player.objects.filter(pk__in=players).values_list("pk", "club_id"))

    def seat(self, draw: Draw[int], method: str) -> None:
        """Replace the session's tables by the draw's, in one transaction."""
        with transaction.atomic():
            session = Session.objects.select_for_update().get(pk=self.pk)
            if session.status != self.Status.PLANNED:
                raise Refused("seating_after_start")
            if session.tables.filter(game__rounds__isnull=False).exists():
                raise Refused("seating_has_rounds")
            referees = dict(session.tables.values_list("number", "referee_id"))
            before = dict(
                Seat.objects.filter(table__session=session).values_list(
                    "player_id", "table__number"
                )
            )
            session.tables.all().delete()
            tables = Table.objects.create_with_games(
                Table(session=session, number=number, referee_id=referees.get(number))
                for number in range(1, len(draw.tables) + 1)
            )
            Seat.objects.bulk_create(
                Seat(table=table, position=position, player_id=player)
                for table, players in zip(tables, draw.tables, strict=True)
                for position, player in enumerate(players, start=1)
            )
            session.seating, session.seed = method, draw.seed
            session.repeat_meetings = draw.repeat_meetings
            session.moved_players = sorted(
                player
                for number, players in enumerate(draw.tables, start=1)
                for player in players
                # A late player was seated nowhere before: new, not moved.
                if player in before and before[player] != number
            )
            session.save(
                update_fields=[
                    "seating",
                    "seed",
                    "repeat_meetings",
                    "moved_players",
                    "changed_at",
                ]
            )
            # A club night's new tables get their codes, ready for the table list.
            session.ensure_codes()
            signals.seating_changed.send(sender=Session, session=session)
        self.seating, self.seed, self.repeat_meetings = method, draw.seed, draw.repeat_meetings
        self.moved_players = session.moved_players

    # --- players who come and go ------------------------------------------------

    def present_players(self) -> list[int]:
        """The players a draw seats: checked in, not withdrawn (late players included)."""
        return list(
            self.tournament.registrations.filter(
                checked_in=True, withdrawn_at__isnull=True
            ).values_list("player_id", flat=True)
        )

    def rebalance(self) -> Rebalance[int] | None:
        """The seating's suggestion for a drawn session still planned when seated players are
        absent (checked out or withdrawn) or present players are not seated (late): the
        fewest moves back within the table bounds. None when there is nothing to do."""
        if self.status != self.Status.PLANNED or self.stage == self.Stage.FINAL:
            return None
        draw = self.seated_draw()
        if not draw.tables:
            return None
        present = set(self.present_players())
        seated = {player for table in draw.tables for player in table}
        absent, arrived = seated - present, present - seated
        if not absent and not arrived:
            return None
        tournament = self.tournament
        return seating.rebalance(
            draw,
            self.earlier_meetings(),
            absent=absent,
            arrived=arrived,
            target=tournament.table_size,
            smallest=tournament.smallest_table,
        )

    @staticmethod
    def rebalance_key(rebalanced: Rebalance[int]) -> str:
        """What the director saw: applying checks the suggestion is still the same."""
        steps = [(m.player, m.from_table, m.to_table) for m in rebalanced.moves]
        return hashlib.sha256(repr(steps).encode()).hexdigest()[:16]

    def apply_rebalance(self, key: str, *, by: Any) -> Rebalance[int]:
        """Seat the suggestion the director saw (`key`), in one transaction, and log it.

        A suggestion that changed since (someone checked in or out meanwhile) is refused:
        the page shows the new one.
        """
        with transaction.atomic():
            Session.objects.select_for_update().filter(pk=self.pk).first()
            rebalanced = self.rebalance()
            if rebalanced is None:
                raise Refused("rebalance_needless")
            if self.rebalance_key(rebalanced) != key:
                raise Refused("rebalance_changed")
            self.seat(rebalanced.draw, self.Seating.REBALANCED)
        logger.info(
            "rebalance: session %s of %s by %s: %s",
            self.number,
            self.tournament_id,
            by.get_username() if by else None,
            "; ".join(f"{m.player} {m.from_table}->{m.to_table}" for m in rebalanced.moves),
            extra={"tournament": self.tournament_id, "session": self.number},
        )
        return rebalanced

    def swap_players(self, a: int, b: int) -> Draw[int]:
        adjusted = seating.swap(self.seated_draw(), a, b, self.earlier_meetings())
        self.seat(adjusted, self.Seating.MANUAL)
        return adjusted

    def move_player(self, player: int, table_number: int) -> Draw[int]:
        adjusted = seating.move(
            self.seated_draw(), player, table_number - 1, self.earlier_meetings()
        )
        self.seat(adjusted, self.Seating.MANUAL)
        return adjusted

    def assign_referees(self, referees: dict[int, int | None]) -> None:
        """Table number → its referee's user id (None: no referee)."""
        tables = list(self.tables.all())
        for table in tables:
            table.referee_id = referees.get(table.number)
        Table.objects.bulk_update(tables, ["referee"])

    def start(
        self,
        referees: dict[int, int | None] | None = None,
        *,
        confirmed: bool = False,
        start_clock: bool = False,
        by: Any = None,
    ) -> None:
        """Start the session, with the referees chosen on the page (table number → user id)
        when given, in one transaction; a session taking table codes gets one per table.

        While an earlier session still plays, it starts only `confirmed` (else
        `UnfinishedGames`, naming the tables). With `start_clock` and a time limit, the clock
        starts with it (logged as `by`'s); otherwise the director starts it when play begins.
        """
        with transaction.atomic():
            session = Session.objects.select_for_update().get(pk=self.pk)
            if session.status != self.Status.PLANNED:
                raise Refused("started_already")
            if not session.tables.exists():
                raise Refused("draw_first")
            if not confirmed:
                unfinished = session.unfinished_earlier_tables()
                if unfinished:
                    raise UnfinishedGames(unfinished)
            if referees is not None:
                session.assign_referees(referees)
            session.status = self.Status.RUNNING
            session.save(update_fields=["status", "changed_at"])
            # A draft starts running; so does a tournament finished by its last planned
            # session when the director plays one beyond the plan.
            model_named("Tournament").objects.filter(
                pk=self.tournament_id,
                status__in=[TournamentStatus.DRAFT, TournamentStatus.FINISHED],
            ).update(status=TournamentStatus.RUNNING)
            session.ensure_codes()
            if start_clock and session.time_limit is not None:
                session._start_clock(by)
        self.status = self.Status.RUNNING
        self._take_clock(session)

    def unfinished_earlier_tables(self) -> list[Table]:
        """The tables of the tournament's earlier sessions whose game is not finished."""
        return list(
            Table.objects.filter(
                session__tournament_id=self.tournament_id,
                session__number__lt=self.number,
                game__finished=False,
            )
            .select_related("session")
            .order_by("session__number", "number")
        )

    # --- table codes ------------------------------------------------------------------

    def live_codes(self) -> dict[int, TableCode]:
        """Table id → its code that is not revoked (one query)."""
        return {
            code.table_id: code
            for code in TableCode.objects.filter(table__session=self, revoked_at__isnull=True)
        }

    def ensure_codes(self) -> dict[int, TableCode]:
        """Table id → its code, issuing one for every table without, while the session takes
        codes and is not finished (redrawn tables are new tables: they get new codes). Empty
        for a session of referee accounts."""
        if not self.by_table_codes or self.status == self.Status.FINISHED:
            return {}
        codes = self.live_codes()
        if all(table_id in codes for table_id in self.tables.values_list("pk", flat=True)):
            return codes
        with transaction.atomic():
            # One issuer at a time: a table has one live code.
            Session.objects.select_for_update().filter(pk=self.pk).first()
            codes = self.live_codes()
            for table in self.tables.exclude(pk__in=list(codes)):
                codes[table.pk] = TableCode.objects.create(table=table, salt=secrets.token_hex(16))
        return codes

    def reissue_code(self, table: Table) -> TableCode:
        """Revoke the table's code and issue a new one (the old link stops working at once)."""
        with transaction.atomic():
            session = Session.objects.select_for_update().get(pk=self.pk)
            if not session.by_table_codes or session.status == self.Status.FINISHED:
                raise Refused("no_table_codes")
            if table.session_id != session.pk:
                raise Refused("table_elsewhere")
            return TableCode.issue(table)

    def set_entry(self, entry: str) -> None:
        """Who enters this session's rounds: "" as the tournament says, or its own choice."""
        with transaction.atomic():
            session = Session.objects.select_for_update().get(pk=self.pk)
            if session.status == self.Status.FINISHED:
                raise Refused("entry_when_finished")
            session.entry = entry
            session.save(update_fields=["entry", "changed_at"])
            session.ensure_codes()
        self.entry = entry

    # --- the session clock (tournaments.clock) ---------------------------------------------

    def clock(self, table: Table | None = None, at: datetime | None = None) -> ClockState:
        """The clock at `at` (now), for the whole session or for one table (with the minutes
        added for it alone). Reads the rows as loaded: no query."""
        return clock_state(
            limit=self.time_limit,
            started_at=self.clock_started_at,
            paused_at=self.clock_paused_at,
            paused_seconds=self.clock_paused_seconds,
            extension=self.clock_extension,
            table_extension=table.clock_extension if table is not None else 0,
            at=at or timezone.now(),
        )

    def remaining(
        self, table: Table | None = None, at: datetime | None = None
    ) -> timedelta | None:
        """The time left at `at` (negative once it is up), None without a time limit."""
        left = self.clock(table, at).remaining
        return None if left is None else timedelta(seconds=left)

    def set_time_limit(self, minutes: int | None, *, by: Any) -> None:
        """The session's time limit in minutes (None: no limit), until its clock starts."""
        if minutes is not None and not 1 <= minutes <= MAX_MINUTES:
            raise Refused("time_limit_range", low=1, high=MAX_MINUTES)
        with transaction.atomic():
            session = self._locked_for_clock()
            if session.clock_started_at is not None:
                raise Refused("limit_after_start")
            session.time_limit = minutes
            session.save(update_fields=["time_limit", "changed_at"])
            session._log_clock(SessionClockEvent.Action.LIMIT, by, minutes=minutes)
        self._take_clock(session)

    def start_clock(self, *, by: Any) -> None:
        """Start the clock of a running session: the tables' time begins now."""
        with transaction.atomic():
            session = self._locked_for_clock()
            if session.status != self.Status.RUNNING:
                raise Refused("clock_before_session")
            if session.time_limit is None:
                raise Refused("limit_first")
            if session.clock_started_at is not None:
                raise Refused("clock_started")
            session._start_clock(by)
        self._take_clock(session)

    def _start_clock(self, by: Any) -> None:
        """Start the clock of this locked session row (in the caller's transaction)."""
        self.clock_started_at = timezone.now()
        self.save(update_fields=["clock_started_at", "changed_at"])
        self._log_clock(SessionClockEvent.Action.START, by, minutes=self.time_limit)

    def pause_clock(self, *, by: Any) -> None:
        """Stop time for every table (an announcement, an incident) until it resumes."""
        with transaction.atomic():
            session = self._locked_for_clock()
            if session.clock_started_at is None:
                raise Refused("clock_not_started")
            if session.clock_paused_at is not None:
                raise Refused("clock_paused")
            session.clock_paused_at = timezone.now()
            session.save(update_fields=["clock_paused_at", "changed_at"])
            session._log_clock(SessionClockEvent.Action.PAUSE, by)
        self._take_clock(session)

    def resume_clock(self, *, by: Any) -> None:
        """Time goes on for every table; the pause is not counted."""
        with transaction.atomic():
            session = self._locked_for_clock()
            if session.clock_paused_at is None:
                raise Refused("clock_not_paused")
            now = timezone.now()
            paused = max(0, round((now - session.clock_paused_at).total_seconds()))
            session.clock_paused_seconds += paused
            session.clock_paused_at = None
            session.save(update_fields=["clock_paused_seconds", "clock_paused_at", "changed_at"])
            session._log_clock(SessionClockEvent.Action.RESUME, by, minutes=round(paused / 60))
        self._take_clock(session)

    def extend_clock(
        self, minutes: int, table: Table | None = None, *, by: Any, reason: str = ""
    ) -> None:
        """Give every table (or `table` alone) `minutes` more, also once their time is up."""
        if not 1 <= minutes <= MAX_EXTENSION:
            raise Refused("extension_range", low=1, high=MAX_EXTENSION)
        with transaction.atomic():
            session = self._locked_for_clock()
            if session.clock_started_at is None:
                raise Refused("extend_before_start")
            if table is None:
                if session.clock_extension + minutes > MAX_MINUTES:
                    raise Refused("extended_too_long", most=MAX_MINUTES)
                session.clock_extension += minutes
            else:
                locked = Table.objects.select_for_update().filter(pk=table.pk, session=session)
                extended = locked.first()
                if extended is None:
                    raise Refused("table_elsewhere")
                if extended.clock_extension + minutes > MAX_MINUTES:
                    raise Refused("extended_too_long", most=MAX_MINUTES)
                extended.clock_extension += minutes
                extended.save(update_fields=["clock_extension"])
                table.clock_extension = extended.clock_extension
            # The pages' polls follow the session's stamp, a table's extension too.
            session.save(update_fields=["clock_extension", "changed_at"])
            session._log_clock(
                SessionClockEvent.Action.EXTEND, by, minutes=minutes, table=table, reason=reason
            )
        self._take_clock(session)

    def playing_tables(self) -> list[Table]:
        """The tables whose game is not over, by number, with their game (one query)."""
        return list(
            self.tables.filter(game__finished=False).select_related("game").order_by("number")
        )

    def end_games(
        self, *, by: Any, reason: str, tables: Iterable[int] | None = None
    ) -> list[Table]:
        """End the unfinished games of the session at the time limit (those of the table
        numbers `tables`, else every one), in one transaction: each game as
        `Game.end_at_time_limit` ends it (its totals final, ranked by them, its audit log
        saying `reason`), and the clock's log says how many. The tables ended."""
        if not reason.strip():
            raise Refused("end_reason")
        # The game model, through the relation: `games` imports this module, not the reverse.
        game_model: Any = Table.game.related.related_model
        with transaction.atomic():
            session = Session.objects.select_for_update().get(pk=self.pk)
            if session.status == self.Status.PLANNED:
                raise Refused("session_not_started")
            # Every game to end, locked at once: a round recorded meanwhile waits, then finds
            # its game over.
            playing = game_model.objects.select_for_update(of=("self",)).filter(
                table__session=session, finished=False
            )
            if tables is not None:
                playing = playing.filter(table__number__in=list(tables))
            games = list(playing.select_related("table").order_by("table__number"))
            if not games and tables is not None:
                raise Refused("choose_playing_table")
            if not games:
                raise Refused("games_over")
            for game in games:
                game.end_at_time_limit(by=by, reason=reason, version=game.version)
            session.save(update_fields=["changed_at"])
            session._log_clock(
                SessionClockEvent.Action.END_GAMES, by, games=len(games), reason=reason
            )
        self.changed_at = session.changed_at
        return [game.table for game in games]

    def _locked_for_clock(self) -> Session:
        """This session's row, locked: one clock change at a time. A finished session's
        clock stays as it was."""
        session = Session.objects.select_for_update().select_related("tournament").get(pk=self.pk)
        if session.status == self.Status.FINISHED:
            raise Refused("clock_when_finished")
        return session

    def _log_clock(
        self,
        action: str,
        by: Any,
        *,
        minutes: int | None = None,
        table: Table | None = None,
        games: int | None = None,
        reason: str = "",
    ) -> SessionClockEvent:
        signals.clock_changed.send(sender=Session, session=self)
        return SessionClockEvent.objects.create(
            session=self,
            table=table,
            action=action,
            minutes=minutes,
            games=games,
            by=by if getattr(by, "is_authenticated", False) else None,
            reason=reason,
        )

    def _take_clock(self, session: Session) -> None:
        """Adopt the locked copy's clock, keeping this instance's loaded relations."""
        for field in (
            "time_limit",
            "clock_started_at",
            "clock_paused_at",
            "clock_paused_seconds",
            "clock_extension",
            "changed_at",
        ):
            setattr(self, field, getattr(session, field))

    def finishes_tournament(self) -> bool:
        """Finishing this session finishes the tournament: it is the final, or the last
        planned session (or one beyond the plan) of a tournament without a final, with no
        other session left to play (two queries)."""
        if self.stage == self.Stage.FINAL:
            return True
        tournament = model_named("Tournament").objects.get(pk=self.tournament_id)
        if tournament.has_final or self.number < tournament.session_count:
            return False
        others = Session.objects.filter(tournament_id=self.tournament_id).exclude(pk=self.pk)
        return not others.exclude(status=self.Status.FINISHED).exists()

    def finish(self, *, end_games: bool = False, by: Any = None) -> None:
        """Finish the running session. While tables still play it refuses (`GamesInPlay`,
        naming them) unless `end_games`: then, in the same transaction, their games end at
        the time limit as `end_games` ends them (logged as `by`'s, ranked by their totals),
        so no player of the session is left out of the standings."""
        with transaction.atomic():
            session = Session.objects.select_for_update().get(pk=self.pk)
            if session.status != self.Status.RUNNING:
                raise Refused("finish_not_running")
            playing = session.playing_tables()
            if playing and not end_games:
                raise GamesInPlay(playing)
            if playing:
                session.end_games(
                    by=by,
                    reason=gettext("Session %(number)s finished while the game was played.")
                    % {"number": session.number},
                )
            ends_tournament = session.finishes_tournament()
            session.status = self.Status.FINISHED
            session.save(update_fields=["status", "changed_at"])
            if ends_tournament:
                # The final, or the last planned session of a tournament without one, decides
                # the tournament: finishing it finishes the tournament (a director never has
                # to remember a second switch).
                model_named("Tournament").objects.filter(pk=session.tournament_id).update(
                    status=TournamentStatus.FINISHED
                )
        self.status = self.Status.FINISHED
