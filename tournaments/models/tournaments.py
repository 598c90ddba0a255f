"""A tournament and what it is made of: registrations, sessions, tables and seats.

This module comes before `games`: a table's game is reached through the relation
(`table.game`), never by importing the game models here.
"""

from __future__ import annotations

import functools
import logging
import operator
import secrets
from collections.abc import Hashable, Iterable, Sequence
from datetime import UTC, datetime
from typing import Any, NamedTuple, Self

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import connections, models, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring import finals, seating, standings
from scoring.errors import FinalError
from scoring.finals import CarryOver
from scoring.rules import BELGIAN, RULESETS, FalseYaniv, GameError, Ruleset
from scoring.seating import Draw
from scoring.standings import Standing
from tournaments.clock import AtTimeLimit
from tournaments.errors import Refused
from tournaments.models.accounts import Accounts
from tournaments.models.choices import Entry, TournamentStatus
from tournaments.models.people import Club, Player
from tournaments.models.registrations import Registration
from tournaments.models.sessions import BeyondPlan, Session
from tournaments.models.tables import Seat, Table
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
PRESET_LABELS = {
    "belgian": _("Belgian (championship)"),
    "israeli": _("Israeli (pagat.com)"),
    "wikipedia_en": _("English Wikipedia"),
    "wikipedia_fr": _("French Wikipedia"),
}


# Fields a tournament's save never writes: each has its one writer, with an UPDATE of its own.
_WRITTEN_BY_THEIR_OWN = frozenset({"standings_version", "has_adjustments", "has_substitutes"})


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


class Tournament(Accounts, Directed):
    # Module-level (tournaments.models.choices): the sessions read them without importing this.
    Status = TournamentStatus
    Entry = Entry

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

    # A substitute took a seat mid-game (tournaments.models.substitutions): whom the game's
    # result credits in the standings (scoring.standings.credited_standings).
    class SubstituteCredit(models.TextChoices):
        ORIGINAL = standings.CREDIT_ORIGINAL, _("The player who began the game")
        SUBSTITUTE = standings.CREDIT_SUBSTITUTE, _("The substitute who finished it")
        SPLIT = standings.CREDIT_SPLIT, _("Both, shared by the rounds each played")

    substitute_credit = models.CharField(
        _("a substitute's game counts for"),
        max_length=10,
        choices=SubstituteCredit,
        default=SubstituteCredit.ORIGINAL,
        help_text=_(
            "When a player leaves mid-game and a substitute takes the seat: whom the game's "
            "result (its placement points) credits in the standings."
        ),
    )
    # Set by the first penalty or bonus, and the first substitute (never by `save`): the
    # standings read them (one more query) only then.
    has_adjustments = models.BooleanField(default=False, editable=False)
    has_substitutes = models.BooleanField(default=False, editable=False)

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
                and field.attname not in _WRITTEN_BY_THEIR_OWN
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
            f"SELECT st.player_id, st.table_id, {number}st.total + st.adjustment, st.rank, "
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
        ranking = self.ranked_results(self._finished_rows(session, stage), session, stage)
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

    def ranked_results(
        self, rows: Sequence[Any], session: Session | None, stage: str | None
    ) -> list[Standing]:
        """The finished seats' results (`standings.SeatResult`s, their totals with the game
        points given) ranked: credited by the tournament's rule where a substitute took a
        seat, with the placement points a director gave. Those are read (one query each)
        only once the tournament has any: their models come after this one, and are reached
        by name. The seasons rank a tournament's results through it too."""
        stints = (
            model_named("Substitution").stints_of(self.pk, session, stage)
            if self.has_substitutes
            else {}
        )
        if stints:
            ranking = standings.credited_standings(rows, stints, self.substitute_credit)
        else:
            ranking = standings.standings_of_results(list(rows))
        if self.has_adjustments:
            given = model_named("Adjustment").placement_given(self.pk, session, stage)
            ranking = standings.adjusted(ranking, given)
        return ranking

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
        """Check every registered player in or out (by the director), withdrawn players
        aside; how many changed."""
        if checked_in:
            marks: dict[str, Any] = {
                "checked_in_at": timezone.now(),
                "checked_in_how": Registration.CheckInWay.DESK,
            }
        else:
            marks = {"checked_in_at": None, "checked_in_how": ""}
        return (
            self.registrations.filter(withdrawn_at__isnull=True)
            .exclude(checked_in=checked_in)
            .update(checked_in=checked_in, checked_in_device="", **marks)
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
