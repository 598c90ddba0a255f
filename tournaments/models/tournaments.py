"""A tournament and what it is made of: registrations, sessions, tables and seats.

This module comes before `games`: a table's game is reached through the relation
(`table.game`), never by importing the game models here.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import operator
import random
import secrets
from collections.abc import Hashable, Iterable
from datetime import UTC, datetime, timedelta
from typing import Any, NamedTuple, Self

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connections, models, transaction
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from scoring import finals, seating, standings
from scoring.errors import FinalError
from scoring.finals import CarryOver
from scoring.rules import BELGIAN, RULESETS, FalseYaniv, GameError, Ruleset
from scoring.seating import Draw, Rebalance
from tournaments import signals
from tournaments.clock import MAX_EXTENSION, MAX_MINUTES, AtTimeLimit, ClockState, clock_state
from tournaments.errors import Refused
from tournaments.models.people import Club, Player
from tournaments.models.visibility import Directed, DirectedQuerySet, model_named, sees_everything
from tournaments.texts import final_error, game_error

logger = logging.getLogger(__name__)

# How the tournament form and the PDFs name the false-Yaniv options of the rules engine.
FALSE_YANIV_LABELS = {
    FalseYaniv.OTHERS_SCORE_ZERO.value: _("others score zero"),
    FalseYaniv.OTHERS_SCORE_HAND.value: _("others score hand"),
}

# A one-time password: 16 letters and digits that cannot be mistaken for one another on paper
# (no 0/o, 1/l/i), in groups of four: 31 ** 16, about 79 bits.
PASSWORD_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
PASSWORD_GROUPS = 4


def one_time_password() -> str:
    """A strong password to print on an account's card and type once on a phone."""
    return "-".join(
        "".join(secrets.choice(PASSWORD_ALPHABET) for _ in range(4))
        for _ in range(PASSWORD_GROUPS)
    )


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


# How the tournament form names the engine's rule sets (RULESETS).
PRESET_LABELS = {
    "belgian": _("Belgian (championship)"),
    "israeli": _("Israeli (pagat.com)"),
    "wikipedia_en": _("English Wikipedia"),
    "wikipedia_fr": _("French Wikipedia"),
}


def _player_id(player: object) -> int:
    """The standings' players are player ids."""
    assert isinstance(player, int), player
    return player


def _standings_start() -> int:
    """A new tournament's first standings' version: a random number, so that no two
    tournaments share a version, even in a rebuilt database (the cache outlives it)."""
    return secrets.randbits(48)


def _version(change: int | None, sessions_made: int, sessions_at: datetime | None) -> str:
    """A tournament's live version: its last change, its sessions' count and last change (to
    the microsecond, in UTC)."""
    stamp = sessions_at.astimezone(UTC).strftime("%Y%m%d%H%M%S%f") if sessions_at else "0"
    return f"{change or 0}-{sessions_made}-{stamp}"


class StandingClub(NamedTuple):
    """A player's club as the standings show it."""

    pk: int
    name: str


class StandingPlayer(NamedTuple):
    """A player as the standings show them (the pages, PDFs, CSV, hall and API): the row
    the database returns as it is, since a championship's 512 model instances cost more than
    ranking them."""

    pk: int
    name: str
    club_id: int | None
    club_name: str | None
    # They withdrew from the tournament.
    withdrawn: bool

    @property
    def id(self) -> int:
        return self.pk

    @property
    def club(self) -> StandingClub | None:
        return None if self.club_id is None else StandingClub(self.club_id, self.club_name or "")

    def __str__(self) -> str:
        return self.name


# A line of the standings: the player's standing and the player.
StandingRow = tuple[standings.Standing, StandingPlayer]


# Each row of the players' statement made a `StandingPlayer` in C (no call per row).
_standing_player = functools.partial(tuple.__new__, StandingPlayer)
_PK = _PLACE = operator.itemgetter(0)
_PLAYER = operator.itemgetter(1)


def _place_and_name(row: StandingRow) -> tuple[int, str]:
    return row[0].place, row[1].name


def _quoted(using: str, *models_: Any) -> tuple[str, ...]:
    """The models' tables as the database `using` names them in a statement."""
    quote = connections[using].ops.quote_name
    return tuple(quote(model._meta.db_table) for model in models_)


class TournamentQuerySet(DirectedQuerySet["Tournament"]):
    def listed(self) -> Self:
        """What the public lists show: public and not a draft."""
        return self.filter(is_public=True).exclude(status=self.model.Status.DRAFT)

    def visible_to(self, user: Any) -> Self:
        """`access.can_view` as a query: the public tournaments, and for an account the ones
        it directs or referees a table of (every one for a superuser)."""
        if sees_everything(user) or not user.is_authenticated:
            return self.public_or_directed_by(user)
        refereed = model_named("Table").objects.filter(referee_id=user.pk)
        return self.filter(
            Q(is_public=True)
            | Q(pk__in=self._directed_by(user))
            | Q(pk__in=refereed.values("session__tournament_id"))
        )

    def countable_by(self, user: Any) -> Self:
        """`access.can_count_in_season` as a query: the public tournaments (their results are
        public) and the private ones `user` directs."""
        return self.public_or_directed_by(user)


class Tournament(Directed):
    class Status(models.TextChoices):
        DRAFT = "draft", pgettext_lazy("tournament status", "Draft")
        RUNNING = "running", pgettext_lazy("tournament status", "Running")
        FINISHED = "finished", pgettext_lazy("tournament status", "Finished")

    class Entry(models.TextChoices):
        """Who enters a table's rounds."""

        REFEREES = "referees", _("Referee accounts (championship)")
        TABLE_CODES = "table_codes", _("Table codes on any phone (club night)")

    class Confirmation(models.TextChoices):
        """When rounds come through a table code: who must agree to the final sheet."""

        NONE = "none", _("Nobody: the table's entries count as they are")
        EVERY = "every", _("Every player of the table")
        MAJORITY = "majority", _("A majority of the table")

    class Role(models.TextChoices):
        """What an account does in a tournament (its people page)."""

        REFEREE = "referee", _("referee")
        DIRECTOR = "director", _("co-director")

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("address"), max_length=80, unique=True)
    starts_on = models.DateField(_("first day"))
    ends_on = models.DateField(_("last day"), null=True, blank=True)
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    club = models.ForeignKey(
        Club,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournaments",
        verbose_name=_("organising club"),
    )
    status = models.CharField(_("status"), max_length=10, choices=Status, default=Status.DRAFT)
    is_public = models.BooleanField(
        _("public"), default=True, help_text=_("Anyone can follow the tables and standings.")
    )
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="directed_tournaments",
        verbose_name=_("directors"),
    )
    # Who created it: a co-director may not take it from them (issue 22).
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="created_tournaments",
        verbose_name=_("created by"),
    )
    referees = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="refereed_tournaments",
        verbose_name=_("referees"),
        help_text=_("The accounts that may referee a table of this tournament."),
    )
    entry = models.CharField(
        _("who enters rounds"), max_length=12, choices=Entry, default=Entry.REFEREES
    )
    confirmation = models.CharField(
        _("players' confirmation"),
        max_length=10,
        choices=Confirmation,
        default=Confirmation.EVERY,
        help_text=_("With table codes: who must agree to a finished sheet before it counts."),
    )
    table_size = models.PositiveSmallIntegerField(
        _("players per table"),
        default=4,
        help_text=_("The table size the seating draw aims at (2–8)."),
    )
    session_count = models.PositiveSmallIntegerField(
        _("sessions"),
        default=4,
        help_text=_("How many sessions (seatings) the tournament plans."),
    )
    # Players who come and go: tables of 3 to target + 1 (at least 5) unless tables of 2 are
    # allowed; the standings by total placement points, or by their average per game.
    small_tables = models.BooleanField(
        _("tables of 2 when needed"),
        default=False,
        help_text=_(
            "Without it the draw seats 3 to 5 players a table around a target of 4 (3 to the "
            "target + 1), and never 1 or 2."
        ),
    )

    class Ranking(models.TextChoices):
        TOTAL = standings.BY_TOTAL, _("Total placement points: every game counts")
        AVERAGE = (
            standings.BY_AVERAGE,
            _("Placement points per game: late players are not behind for the games they missed"),
        )

    ranking = models.CharField(
        _("standings"),
        max_length=10,
        choices=Ranking,
        default=Ranking.TOTAL,
        help_text=_(
            "The rules add up every game's placement points; a tournament with late players "
            "may rank by the average instead."
        ),
    )
    # The rule options of the engine's Ruleset (BELGIAN otherwise).
    false_yaniv = models.CharField(
        _("false Yaniv"),
        max_length=20,
        choices=[
            (choice.value, FALSE_YANIV_LABELS.get(choice.value, choice.value.replace("_", " ")))
            for choice in FalseYaniv
        ],
        default=BELGIAN.false_yaniv.value,
        help_text=_("Who scores what besides the caller when a Yaniv is false."),
    )
    preset = models.CharField(
        _("rule set"),
        max_length=20,
        choices=[(name, PRESET_LABELS.get(name, name)) for name in RULESETS],
        default=BELGIAN.name,
        help_text=_("The house rules the games are scored by."),
    )
    # Options of the engine (Ruleset.with_options) on top of the preset, e.g. {"yaniv_limit": 7}.
    rule_options = models.JSONField(_("rule options"), default=dict, blank=True)
    # The standings' version, moved on (`move_standings`) by every write of a session and
    # every game change that touches the standings, in its transaction: the hall's unchanged
    # standings poll reads one row. No save of the tournament writes it (`save`).
    standings_version = models.PositiveBigIntegerField(default=_standings_start, editable=False)
    # The final (scoring.finals): the top of the standings after the qualifying sessions.
    final_players = models.PositiveSmallIntegerField(
        _("players in the final"),
        default=0,
        help_text=_("0: no final. The best of the standings after the qualifying sessions."),
    )
    final_tables = models.PositiveSmallIntegerField(
        _("final tables"),
        default=1,
        choices=[
            (1, _("One final table")),
            (2, _("Two: an A final for the first places, a B final for the next")),
        ],
    )
    final_carry_over = models.CharField(
        _("carried into the final"),
        max_length=10,
        choices=[
            (CarryOver.NONE.value, _("Nothing: the final game decides")),
            (CarryOver.PLACEMENT.value, _("The qualifying placement points")),
            (CarryOver.TOTALS.value, _("The qualifying sum of totals (lowest wins)")),
        ],
        default=CarryOver.NONE.value,
    )
    # When a session's clock runs out (tournaments.clock).
    at_time_limit = models.CharField(
        _("at the time limit"),
        max_length=12,
        choices=AtTimeLimit,
        default=AtTimeLimit.FINISH_ROUND,
        help_text=_("What the tables do when their session's time limit is reached."),
    )

    objects = TournamentQuerySet.as_manager()

    class Meta:
        ordering = ["-starts_on", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_on__isnull=True) | Q(ends_on__gte=models.F("starts_on")),
                name="tournament_ends_after_it_starts",
            ),
            models.CheckConstraint(
                condition=Q(table_size__gte=2, table_size__lte=BELGIAN.max_players),
                name="table_size_2_to_8",
            ),
            models.CheckConstraint(
                condition=Q(session_count__gte=1, session_count__lte=30),
                name="session_count_1_to_30",
            ),
            # No final, or one that its one or two tables can seat.
            models.CheckConstraint(
                condition=Q(final_players=0)
                | Q(final_tables=1, final_players__gte=2, final_players__lte=8)
                | Q(final_tables=2, final_players__gte=4, final_players__lte=16),
                name="final_fits_its_tables",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        # Only `move_standings` moves the standings' version, with an UPDATE of its own: an
        # instance read before a game finished must not write its older number back (a
        # version shown twice for different standings).
        if not self._state.adding and kwargs.get("update_fields") is None:
            deferred = self.get_deferred_fields()
            kwargs["update_fields"] = [
                field.attname
                for field in self._meta.concrete_fields
                if not field.primary_key
                and field.attname not in deferred
                and field.attname != "standings_version"
            ]
        super().save(*args, **kwargs)

    def clean(self) -> None:
        super().clean()
        if self.final_players:
            try:
                finals.table_sizes_of_final(self.final_players, self.final_tables)
            except FinalError as error:
                raise ValidationError({"final_players": final_error(error)}) from None
        if self.preset in RULESETS:
            try:
                self.ruleset  # noqa: B018 - the options must make a ruleset
            except GameError as error:
                raise ValidationError({"rule_options": game_error(error)}) from None

    @property
    def options(self) -> Any:
        """The engine options on top of the preset, as a game record holds them."""
        options = self.rule_options
        if RULESETS[self.preset].scores_false_yaniv and isinstance(options, dict):
            # Only a preset that knows a false Yaniv takes the tournament's false-Yaniv rule.
            options = {**options, "false_yaniv": self.false_yaniv}
        return options

    @property
    def ruleset(self) -> Ruleset:
        return RULESETS[self.preset].with_options(self.options)

    def finished_seats(
        self, session: Session | None = None, stage: str | None = None
    ) -> list[standings.FinishedSeat]:
        """Every seat of a finished game (one query), for the standings, as `FinishedSeat`
        tuples."""
        return list(
            map(
                functools.partial(tuple.__new__, standings.FinishedSeat),
                self._finished_rows(session, stage, with_session=True),
            )
        )

    def _finished_rows(
        self, session: Session | None, stage: str | None, *, with_session: bool = False
    ) -> list[Any]:
        """The finished seats as the database returns them: `FinishedSeat`'s columns, or
        without the session the standings' `SeatResult`s: plain rows, no model instances and
        no conversion per value (whether the sheet is signed off is asked of the database,
        and `provisional` is its boolean as the driver returns it: 0 or 1 on SQLite).

        Raw SQL with parameters, written for the database it runs on: a championship's
        4,096 rows through the ORM's values_list cost 1.6× fetching them, the standings as a
        whole 3× (against ≤ 2×, `bench hotpath`)."""
        using = Seat.objects.db
        seat, table, session_table, game = _quoted(
            using, Seat, Table, Session, Table.game.related.related_model
        )
        params: list[int | str] = [self.pk]
        among = ""
        if session is not None:
            among = " AND s.id = %s"
            params.append(session.pk)
        elif stage is not None:
            among = " AND s.stage = %s"
            params.append(stage)
        number = "s.number, " if with_session else ""
        sql = (
            f"SELECT st.player_id, st.table_id, {number}st.total, st.rank, "
            "g.signed_off_at IS NULL "
            f"FROM {seat} st JOIN {table} t ON t.id = st.table_id "
            f"JOIN {session_table} s ON s.id = t.session_id JOIN {game} g ON g.table_id = t.id "
            f"WHERE s.tournament_id = %s AND g.finished{among}"
        )
        with connections[using].cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchall()

    def standings(self, session: Session | None = None) -> list[StandingRow]:
        """The standings, overall or of one session, with each player (two queries).

        Overall, they are the qualifying sessions' (a final's game is not one more game of
        the same kind: `final_standings` places its players above the rest)."""
        stage = Session.Stage.QUALIFYING if self.has_final else None
        ranking = standings.standings_of_results(self._finished_rows(session, stage))
        players = self.standing_players(map(_PLAYER, ranking))
        withdrawn = {player.pk for player in players.values() if player.withdrawn}
        if withdrawn or self.ranking != standings.BY_TOTAL:
            ranking = standings.ranked(ranking, by=self.ranking, withdrawn=withdrawn)
        # Each standing with its player, in C (a championship has 512).
        rows = list(zip(ranking, map(players.__getitem__, map(_PLAYER, ranking)), strict=True))
        # By place, then name: the ranking is by place already, its shared places by id.
        if len(set(map(_PLACE, ranking))) < len(ranking):
            rows.sort(key=_place_and_name)
        return rows

    def standing_players(self, ids: Iterable[Hashable]) -> dict[Hashable, StandingPlayer]:
        """The players of these ids as the standings show them, by id (one query). Raw SQL,
        as `_finished_rows`: the ids (numbers read from the database) are written into the
        statement, one statement whatever their count (SQLite limits the parameters)."""
        using = Player.objects.db
        player, club, registration = _quoted(using, Player, Club, Registration)
        listed = ", ".join(map(str, map(int, ids))) or "NULL"  # type: ignore[arg-type]
        sql = (
            "SELECT p.id, p.name, p.club_id, c.name, r.withdrawn_at IS NOT NULL "
            f"FROM {player} p LEFT JOIN {club} c ON c.id = p.club_id "
            f"LEFT JOIN {registration} r ON r.player_id = p.id AND r.tournament_id = %s "
            f"WHERE p.id IN ({listed})"
        )
        with connections[using].cursor() as cursor:
            cursor.execute(sql, [self.pk])
            players = list(map(_standing_player, cursor.fetchall()))
        return dict(zip(map(_PK, players), players, strict=True))

    def live_version(self, finished_games_only: bool = False) -> str:
        """Changes whenever a game or a session of the tournament does (one cheap query).

        The standings only move when a game finishes or a finished game changes: with
        `finished_games_only`, the standings' version (`standings_version`, read anew), which
        rounds of games still being played leave alone, so the hall's standings polls keep
        getting 204 while the tables play.
        """
        if finished_games_only:
            version = (
                Tournament.objects.filter(pk=self.pk)
                .values_list("standings_version", flat=True)
                .first()
            )
            return str(version or 0)
        last_change = self.game_changes.order_by("-pk").values("pk")[:1]
        row = (
            Tournament.objects.filter(pk=self.pk)
            .order_by()
            .values_list(
                models.Subquery(last_change),
                models.Count("sessions"),
                models.Max("sessions__changed_at"),
            )
            .first()
        )
        return _version(*row) if row else "0-0-0"

    @classmethod
    def public_standings_version(cls, slug: str, number: int | None = None) -> str | None:
        """The standings' version (`live_version(finished_games_only=True)`) of a public
        tournament, and of its session `number` if given, read by slug before anything is
        loaded: the hall's unchanged polls answer 204 from it alone. None for a private
        tournament, or no such tournament or session: the caller takes the access check.

        The hall's unchanged polls are held to 1.5× a bare `/health/`: a parameterised
        `raw()` query, since building the same query with the ORM cost more than running it
        (`bench hotpath`)."""
        tournament, session = _quoted(cls.objects.db, cls, Session)
        sql = (
            f"SELECT tn.id, tn.standings_version FROM {tournament} tn "
            "WHERE tn.slug = %s AND tn.is_public"
        )
        params: list[Any] = [slug]
        if number is not None:
            sql += (
                f" AND EXISTS (SELECT 1 FROM {session} s "
                "WHERE s.tournament_id = tn.id AND s.number = %s)"
            )
            params.append(number)
        found = list(cls.objects.raw(sql, params))
        return str(found[0].standings_version) if found else None

    def save_with_director(self, user: Any) -> None:
        """Save a new tournament with `user` as its director (and creator), in one
        transaction."""
        self.created_by = user
        super().save_with_director(user)

    def check_in_all(self, checked_in: bool) -> int:
        """Check every registered player in or out, withdrawn players aside; how many changed."""
        return (
            self.registrations.filter(withdrawn_at__isnull=True)
            .exclude(checked_in=checked_in)
            .update(checked_in=checked_in)
        )

    @property
    def smallest_table(self) -> int | None:
        """The smallest table the draw may make when asked for tables of 2 (else the
        seating's default, 3)."""
        return seating.MIN_TABLE if self.small_tables else None

    @property
    def table_bounds(self) -> tuple[int, int]:
        """The smallest and largest table the draw makes around the tournament's target."""
        return seating.table_bounds(self.table_size, self.smallest_table)

    def open_session(self, method: str, seed: int, *, beyond_plan: bool = False) -> Session:
        """Open the next session and draw its seating, in one transaction.

        A session still planned is returned as it is (a second click opens nothing); a draw
        that cannot be made (ValueError, SeatingError) leaves no session behind. A session
        beyond the planned `session_count` is drawn only `beyond_plan` (else `BeyondPlan`).
        """
        with transaction.atomic():
            locked = Tournament.objects.select_for_update().get(pk=self.pk)
            last = locked.sessions.order_by("-number").first()
            if last is not None and last.status == Session.Status.PLANNED:
                return last
            number = (last.number + 1) if last else 1
            if number > locked.session_count and not beyond_plan:
                raise BeyondPlan(number, locked.session_count)
            session = Session.objects.create(tournament=locked, number=number)
            session.draw(method, seed)
        return session

    @property
    def has_final(self) -> bool:
        return self.final_players > 0

    def final_session(self) -> Session | None:
        return self.sessions.filter(stage=Session.Stage.FINAL).first()

    def final_draw(self) -> Draw[int]:
        """The final's tables from the qualifying standings: the best first, table 1 the A
        final (FinalError when it cannot be drawn as set). A withdrawn player is never a
        finalist: the next qualified player takes the seat."""
        ranked = [
            (standing, player) for standing, player in self.standings() if not standing.withdrawn
        ]
        names = {standing.player: player.name for standing, player in ranked}
        tables = finals.finalists(
            [standing for standing, _ in ranked],
            self.final_players,
            self.final_tables,
            label=names.__getitem__,
        )
        session = self.final_session()
        met = session.earlier_meetings() if session else {}
        seated = tuple(tuple(map(_player_id, table)) for table in tables)
        return Draw(seated, 0, seating.count_repeat_meetings(seated, met))

    def final_standings(
        self, qualifying: Iterable[StandingRow] | None = None
    ) -> list[tuple[finals.FinalStanding, StandingPlayer]] | None:
        """The standings with the final's players first (scoring.finals); None while the
        tournament has no final session. Until every final game is over, the qualifying
        places stand, provisional. `qualifying`: the overall `standings()`, if the caller
        has them already."""
        final = self.final_session() if self.has_final else None
        if final is None:
            return None
        qualifying = self.standings() if qualifying is None else list(qualifying)
        seats = list(
            Seat.objects.filter(table__session=final).values_list(
                "player_id", "table_id", "table__number", "rank", "total", "table__game__finished"
            )
        )
        # A game ranks every seat once it is finished, and a table's seats finish together.
        results = finals.final_results(
            (player, table_id, number, rank, total)
            for player, table_id, number, rank, total, finished in seats
            if finished and rank is not None
        )
        ranking = finals.final_standings(
            [standing for standing, _ in qualifying],
            results,
            CarryOver(self.final_carry_over),
            finished=bool(seats) and all(row[5] for row in seats),
        )
        players: dict[Any, StandingPlayer] = {player.pk: player for _, player in qualifying}
        missing = [row.player for row in ranking if row.player not in players]
        if missing:
            players.update(self.standing_players(missing))
        return [(row, players[row.player]) for row in ranking]

    def official_standings(self) -> list[tuple[finals.FinalStanding, StandingPlayer]]:
        """The tournament's official standings, as its CSV and the API give them (the
        standings page and the hall show the same order): with a final opened, the final
        standings (its players first, `final_standings`); otherwise the overall standings,
        each row of the qualifying stage."""
        qualifying = self.standings()
        final = self.final_standings(qualifying)
        if final is not None:
            return final
        return [
            (
                finals.FinalStanding(
                    s.place, s.player, "qualifying", None, s.points, s, None, s.provisional
                ),
                player,
            )
            for s, player in qualifying
        ]

    def open_final(self) -> Session:
        """Open the final (a session of its own after the qualifying ones) and seat the top
        of the standings, in one transaction. Once open, it is returned as it is."""
        with transaction.atomic():
            locked = Tournament.objects.select_for_update().get(pk=self.pk)
            if not locked.has_final:
                raise Refused("no_final")
            final = locked.final_session()
            if final is not None:
                return final
            if locked.sessions.exclude(status=Session.Status.FINISHED).exists():
                raise Refused("qualifying_unfinished")
            draw = locked.final_draw()
            last = locked.sessions.order_by("-number").first()
            session = Session.objects.create(
                tournament=locked,
                number=(last.number + 1) if last else 1,
                stage=Session.Stage.FINAL,
            )
            session.seat(draw, Session.Seating.STANDINGS)
        return session

    # --- people: the accounts that direct and referee it -----------------------------

    def people(self) -> list[tuple[Any, list[str]]]:
        """Every account of the tournament with its roles (Role values), by username."""
        roles: dict[int, list[str]] = {}
        for role, users in (
            (self.Role.DIRECTOR, self.directors.all()),
            (self.Role.REFEREE, self.referees.all()),
        ):
            for user_id in users.values_list("pk", flat=True):
                roles.setdefault(user_id, []).append(role)
        accounts = get_user_model().objects.filter(pk__in=roles).order_by("username")
        return [(user, roles[user.pk]) for user in accounts]

    def has_account(self, user: Any) -> bool:
        """The account directs or referees this tournament."""
        return (
            self.directors.filter(pk=user.pk).exists() or self.referees.filter(pk=user.pk).exists()
        )

    def _accounts_of(self, role: str) -> Any:
        return self.directors if role == self.Role.DIRECTOR else self.referees

    def create_account(self, username: str, role: str) -> tuple[Any, str]:
        """A new account that referees (or co-directs) the tournament, with a strong one-time
        password; the password is returned to be shown once and is stored hashed only.

        A co-director is not made staff: they direct the tournaments they are added to.
        """
        password = one_time_password()
        model = get_user_model()
        taken = Refused("username_taken", username=username)
        try:
            with transaction.atomic():
                # Usernames differ by more than their case: "Ref1" and "ref1" would confuse.
                if model.objects.filter(username__iexact=username).exists():
                    raise taken
                user = model.objects.create_user(username, password=password)
                AccountOrigin.objects.create(user=user, tournament=self)
                self._accounts_of(role).add(user)
        except IntegrityError:  # the same username created at the same moment
            raise taken from None
        return user, password

    def add_account(self, username: str, role: str, *, by: Any) -> Any:
        """Add an existing account, named by its exact username, as a referee or co-director.

        An account made for a tournament belongs to it: only who directs that tournament adds
        it elsewhere (`by`), and only they make it active again after it was deactivated on
        leaving its last tournament. An account deactivated by an administrator, or made
        by one, stays as it is.
        """
        model = get_user_model()
        with transaction.atomic():
            user = model.objects.select_for_update().filter(username=username).first()
            if user is None:
                raise Refused("no_such_account", username=username)
            origin = AccountOrigin.objects.filter(user=user).select_related("tournament").first()
            if origin is not None and not origin.tournament.is_director(by):
                raise Refused("account_of_another_director", username=username)
            accounts = self._accounts_of(role)
            if accounts.filter(pk=user.pk).exists():
                already = "directs_already" if role == self.Role.DIRECTOR else "referees_already"
                raise Refused(already, username=username)
            if not user.is_active:
                if origin is None or self._has_rights_of_its_own(user):
                    raise Refused("account_deactivated", username=username)
                user.is_active = True
                user.save(update_fields=["is_active"])
            accounts.add(user)
        self.forget_directors()
        return user

    def own_accounts(self, among: Iterable[int] | None = None) -> set[int]:
        """The ids of the accounts made for this tournament (`AccountOrigin`) that belong to
        it alone and have no rights of their own (staff, superuser, permissions, groups): its
        directors may reset their passwords, and removing one deactivates it. No director
        reaches another tournament's people. Five queries, whatever the number of accounts."""
        model = get_user_model()
        accounts = model.objects.filter(
            Q(directed_tournaments=self) | Q(refereed_tournaments=self), origin__tournament=self
        )
        if among is not None:
            accounts = accounts.filter(pk__in=list(among))
        ids = set(accounts.values_list("pk", flat=True))
        if not ids:
            return ids
        directors: Any = Tournament.directors.through
        referees: Any = Tournament.referees.through
        taken = set(
            model.objects.filter(pk__in=ids)
            .filter(
                Q(is_staff=True)
                | Q(is_superuser=True)
                | Q(user_permissions__isnull=False)
                | Q(groups__isnull=False)
            )
            .values_list("pk", flat=True)
        )
        # The tournament's creator is nobody's to reset or deactivate.
        if self.created_by_id is not None:
            taken.add(self.created_by_id)
        for through in (directors, referees):
            taken |= set(
                through.objects.filter(user_id__in=ids)
                .exclude(tournament_id=self.pk)
                .values_list("user_id", flat=True)
            )
        # A table of another tournament still to be played.
        taken |= set(
            Table.objects.filter(referee_id__in=ids)
            .exclude(session__tournament=self)
            .exclude(session__status=Session.Status.FINISHED)
            .values_list("referee_id", flat=True)
        )
        return ids - taken

    def owns_account(self, user: Any) -> bool:
        return user.pk in self.own_accounts(among=[user.pk])

    @staticmethod
    def _has_rights_of_its_own(user: Any) -> bool:
        """Staff, superusers and accounts given permissions are the administrators' to manage."""
        return bool(
            user.is_staff
            or user.is_superuser
            or user.user_permissions.exists()
            or user.groups.exists()
        )

    def remove_account(self, user: Any, *, by: Any) -> bool:
        """Take the account off the tournament (both roles, and the tables it referees in
        sessions still to finish), in one transaction; it is deactivated when it belongs to
        no other tournament and has no rights of its own. True when deactivated."""
        with transaction.atomic():
            locked = Tournament.objects.select_for_update().get(pk=self.pk)
            if user.pk == by.pk:
                raise Refused("remove_yourself")
            if not locked.has_account(user):
                raise Refused("account_not_here", username=user.get_username())
            if (
                locked.directors.filter(pk=user.pk).exists()
                and not locked.directors.exclude(pk=user.pk).exists()
            ):
                raise Refused("last_director")
            if user.pk == locked.created_by_id and not by.is_superuser:
                raise Refused("creator_stays", username=user.get_username())
            # Checked while it still belongs here: owned by this tournament alone.
            deactivate = locked.owns_account(user)
            locked.directors.remove(user)
            locked.referees.remove(user)
            Table.objects.filter(session__tournament=locked, referee=user).exclude(
                session__status=Session.Status.FINISHED
            ).update(referee=None)
            if deactivate:
                type(user).objects.filter(pk=user.pk).update(is_active=False)
                user.is_active = False
        self.forget_directors()
        return deactivate

    def reset_password(self, user: Any, *, by: Any) -> str:
        """A new one-time password for an account of this tournament alone (returned to be
        shown once); the old password, and every session logged in with it, stop working."""
        with transaction.atomic():
            locked = type(user).objects.select_for_update().get(pk=user.pk)
            if locked.pk == by.pk:
                raise Refused("own_password")
            if not self.has_account(locked):
                raise Refused("account_not_here", username=locked.get_username())
            if not self.owns_account(locked):
                raise Refused("password_of_shared_account", username=locked.get_username())
            password = one_time_password()
            locked.set_password(password)
            locked.save(update_fields=["password"])
        return password

    def set_scorekeeping(self, entry: str, confirmation: str) -> None:
        """Who enters the rounds (referee accounts or table codes) and who must agree to a
        finished sheet entered by table code; sessions with a choice of their own keep it."""
        with transaction.atomic():
            Tournament.objects.select_for_update().filter(pk=self.pk).update(
                entry=entry, confirmation=confirmation
            )
            # The public pages and the table pages follow the sessions' version.
            self.sessions.exclude(status=Session.Status.FINISHED).touch()
            self.entry, self.confirmation = entry, confirmation
            for session in self.sessions.exclude(status=Session.Status.FINISHED):
                session.tournament = self
                session.ensure_codes()


class AccountOrigin(models.Model):
    """The tournament an account was made for on its people page: the account is that
    tournament's. Only a director of it adds the account to a tournament, reactivates it or
    resets its password; an account made elsewhere (an administrator, `createdirector`) is
    never reset, deactivated or reactivated by a director. Deleting the tournament leaves the
    account to the administrators."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        primary_key=True,
        on_delete=models.CASCADE,
        related_name="origin",
        verbose_name=_("account"),
    )
    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="made_accounts",
        verbose_name=_("made for"),
    )

    class Meta:
        verbose_name = _("account's tournament")
        verbose_name_plural = _("accounts' tournaments")

    def __str__(self) -> str:
        return f"{self.user} ({self.tournament})"


class Registration(models.Model):
    """A player entered in a tournament; only checked-in players are seated."""

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="registrations",
        verbose_name=_("tournament"),
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="registrations", verbose_name=_("player")
    )
    checked_in = models.BooleanField(_("checked in"), default=False)
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

    def set_checked_in(self, checked_in: bool) -> None:
        """Check the player in or out; a withdrawn player returns first (`come_back`)."""
        if checked_in and self.withdrawn:
            raise Refused("withdrawn_check_in", name=self.player.name)
        self.checked_in = checked_in
        self.save(update_fields=["checked_in"])

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
            locked.save(
                update_fields=["withdrawn_at", "withdrawn_by", "withdrawal_reason", "checked_in"]
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
            .exclude(session__status=Session.Status.PLANNED)
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
            locked.save(
                update_fields=["withdrawn_at", "withdrawn_by", "withdrawal_reason", "checked_in"]
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
        last = Session.objects.filter(tournament_id=self.tournament_id).order_by("-number")[:1]
        Session.objects.filter(pk__in=models.Subquery(last.values("pk"))).touch()

    def seated_in(self) -> Session | None:
        """The first session the player is seated in, if any."""
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


def move_standings(tournament_id: int) -> None:
    """What the tournament's standings show changed (a game finished or a finished one
    changed, a session written or deleted, a player withdrawn or renamed): its standings'
    version moves on, so that the hall's standings polls, which read it alone, see it. The
    writers of games and sessions call it inside their transaction."""
    Tournament.objects.filter(pk=tournament_id).update(
        standings_version=F("standings_version") + 1
    )


class SessionQuerySet(models.QuerySet["Session"]):
    def touch(self) -> int:
        """These sessions changed without a save of their own (a player renamed or withdrawn,
        the tournament's scorekeeping): their `changed_at`, which the pages' versions go by,
        and their tournaments' standings' versions move on, in one transaction."""
        with transaction.atomic():
            Tournament.objects.filter(pk__in=self.values("tournament_id")).update(
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
        STANDINGS = "standings", _("By standings (similar ranks together)")
        MANUAL = "manual", _("Manual")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="sessions", verbose_name=_("tournament")
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
    entry = models.CharField(
        _("who enters rounds"), max_length=12, choices=Tournament.Entry, blank=True
    )
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
        return self.entry_mode == Tournament.Entry.TABLE_CODES

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
            method = self.Seating.RANDOM
            result = seating.draw_random(
                players, met, seed, target, smallest=self.tournament.smallest_table
            )
        self.seat(result, method)
        return result

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
            self.seat(rebalanced.draw, self.Seating.MANUAL)
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
            Tournament.objects.filter(
                pk=self.tournament_id, status=Tournament.Status.DRAFT
            ).update(status=Tournament.Status.RUNNING)
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
            session.status = self.Status.FINISHED
            session.save(update_fields=["status", "changed_at"])
            if session.stage == self.Stage.FINAL:
                # The final decides the tournament: finishing it finishes the tournament
                # (a director never has to remember a second switch).
                Tournament.objects.filter(pk=session.tournament_id).update(
                    status=Tournament.Status.FINISHED
                )
        self.status = self.Status.FINISHED


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
        Session, on_delete=models.CASCADE, related_name="tables", verbose_name=_("session")
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
        Session, on_delete=models.CASCADE, related_name="clock_events", verbose_name=_("session")
    )
    # An extension for one table; None: every table.
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
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
        Table, on_delete=models.CASCADE, related_name="seats", verbose_name=_("table")
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


class TableCode(models.Model):
    """A secret link that lets any phone enter one table's rounds for one session (club nights).

    The code is never stored: it is an HMAC of the row (keyed with SECRET_KEY), so a copy of the
    database gives none away, it is checked in constant time, and it carries 160 bits. It works
    while its session runs and until the director revokes it (a new one is issued in its place).
    """

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="codes", verbose_name=_("table")
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
        if session.status == Session.Status.FINISHED:
            return gettext("session %(number)s is finished") % {"number": session.number}
        if session.status != Session.Status.RUNNING:
            return gettext(
                "session %(number)s has not started yet: this page works once the director "
                "starts it"
            ) % {"number": session.number}
        if session.tournament.status != Tournament.Status.RUNNING:
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
            and session.status == Session.Status.RUNNING
            and session.tournament.status == Tournament.Status.RUNNING
            and session.by_table_codes
        )
