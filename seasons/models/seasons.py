"""Seasons: tournaments grouped into one ranking ("Belgian ranking 2027", "club nights autumn").

The organiser (the season's directors) picks the scheme (placement points or a table of
points per place), the coefficient of each tournament and how many results count ("best N of
M"); `scoring.seasons` computes the season standings from the tournaments' final places. A
public season counts its public tournaments only: a private tournament's players never reach a
public page through a season.
"""

from __future__ import annotations

import hashlib
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Self

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import connections, models, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring import finals, seasons, standings
from tournaments.errors import Refused, sentence
from tournaments.models.people import Club, Player
from tournaments.models.rounds import GameChange
from tournaments.models.sessions import Session
from tournaments.models.tables import Seat, Table
from tournaments.models.tournaments import Tournament
from tournaments.models.visibility import Directed, DirectedQuerySet


def season_error(error: seasons.SeasonError) -> str:
    """A season computation's error in the active language, as a sentence."""
    return sentence(error)


class SeasonQuerySet(DirectedQuerySet["Season"]):
    def listed(self) -> Self:
        return self.filter(is_public=True)

    def visible_to(self, user: Any) -> Self:
        """`access.can_view_season` as a query: the public seasons and the user's own."""
        return self.public_or_directed_by(user)


class Season(Directed):
    class Scheme(models.TextChoices):
        PLACEMENT = (
            seasons.Scheme.PLACEMENT.value,
            _("Placement points: N − place + 1 among the N players ranked"),
        )
        TABLE = seasons.Scheme.TABLE.value, _("A table of points per place")

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("address"), max_length=80, unique=True)
    description = models.TextField(_("description"), blank=True)
    club = models.ForeignKey(
        Club,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="seasons",
        verbose_name=_("organising club"),
        help_text=_("The club's page shows the season's ranking."),
    )
    is_public = models.BooleanField(
        _("public"),
        default=True,
        help_text=_(
            "Anyone can follow the season standings. A public season counts public "
            "tournaments only."
        ),
    )
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="directed_seasons",
        db_table="tournaments_season_directors",
        verbose_name=_("organisers"),
    )
    scheme = models.CharField(
        _("season points"), max_length=10, choices=Scheme, default=Scheme.PLACEMENT
    )
    points_table = models.JSONField(
        _("points per place"),
        default=list,
        blank=True,
        help_text=_("Place 1 first, e.g. 25, 20, 16, 13, 11, 10; a place beyond it gets 0."),
    )
    best_of = models.PositiveSmallIntegerField(
        _("results counted"),
        null=True,
        blank=True,
        help_text=_("Count each player's best N results; empty: every result counts."),
    )
    tournaments: models.ManyToManyField[Tournament, SeasonTournament] = models.ManyToManyField(
        Tournament,
        through="SeasonTournament",
        related_name="seasons",
        verbose_name=_("tournaments"),
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now, editable=False)
    # Any change of the season's settings or tournaments: the standings page's version.
    changed_at = models.DateTimeField(_("changed at"), auto_now=True)

    objects = SeasonQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "name"]
        # Moved from the tournaments app: the table keeps its name.
        db_table = "tournaments_season"
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [
            models.CheckConstraint(
                condition=Q(best_of__isnull=True)
                | Q(best_of__gte=1, best_of__lte=seasons.MOST_BEST_OF),
                name="season_best_of_in_range",
            ),
            models.CheckConstraint(
                condition=Q(scheme__in=[choice.value for choice in seasons.Scheme]),
                name="season_scheme_known",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def rules(self) -> seasons.Rules:
        table = self.points_table if isinstance(self.points_table, list) else []
        return seasons.Rules(
            scheme=seasons.Scheme(self.scheme),
            points_table=tuple(table),
            best_of=self.best_of,
        )

    def clean(self) -> None:
        super().clean()
        # A table of points is checked when the scheme uses it (it is kept for a switch back).
        try:
            seasons.check_rules(self.rules)
        except seasons.SeasonError as error:
            field = "best_of" if error.code == "best_of_range" else "points_table"
            raise ValidationError({field: season_error(error)}) from None

    # --- its tournaments --------------------------------------------------------------------

    def entries_in_order(self) -> list[SeasonTournament]:
        """The season's tournaments in the order they were played (one query)."""
        return list(
            self.entries.select_related("tournament").order_by(
                "tournament__starts_on", "tournament__name", "pk"
            )
        )

    def counts(self, tournament: Tournament) -> bool:
        """A public season counts public tournaments only; a private one, all of its own."""
        return tournament.is_public or not self.is_public

    def add_tournament(self, tournament: Tournament, coefficient: Decimal | str = "1") -> None:
        """Count the tournament in this season with its coefficient (once); a coefficient out
        of range is the engine's SeasonError, a second count Refused."""
        value = seasons.check_coefficient(coefficient)
        with transaction.atomic():
            Season.objects.select_for_update().filter(pk=self.pk).first()
            if self.entries.filter(tournament=tournament).exists():
                raise Refused("counts_already", tournament=tournament.name)
            SeasonTournament.objects.create(season=self, tournament=tournament, coefficient=value)
            self.save(update_fields=["changed_at"])

    def set_coefficient(self, entry: SeasonTournament, coefficient: Decimal | str) -> None:
        value = seasons.check_coefficient(coefficient)
        with transaction.atomic():
            SeasonTournament.objects.filter(pk=entry.pk, season=self).update(coefficient=value)
            self.save(update_fields=["changed_at"])
        entry.coefficient = value

    def remove_tournament(self, entry: SeasonTournament) -> None:
        with transaction.atomic():
            SeasonTournament.objects.filter(pk=entry.pk, season=self).delete()
            self.save(update_fields=["changed_at"])

    # --- the standings ----------------------------------------------------------------------

    def standings(self) -> SeasonTable:
        """The season standings with each player and their results per tournament, in a
        constant number of queries (three), whatever the number of tournaments and players."""
        return season_tables([self])[self.pk]

    def live_version(self) -> str:
        """Changes whenever the season standings may (one query): the season's settings and
        tournaments, a finished game of one of them changing, a session of one of them, or a
        tournament's status or visibility."""
        entries = SeasonTournament.objects.filter(season=self).annotate(
            change=models.Subquery(
                GameChange.objects.filter(tournament=models.OuterRef("tournament"), standing=True)
                .order_by("-pk")
                .values("pk")[:1]
            ),
            sessions_at=models.Subquery(
                Tournament.objects.filter(pk=models.OuterRef("tournament"))
                .annotate(at=models.Max("sessions__changed_at"))
                .values("at")[:1]
            ),
        )
        rows = sorted(
            entries.values_list(
                "tournament_id",
                "coefficient",
                "tournament__status",
                "tournament__is_public",
                "change",
                "sessions_at",
            )
        )
        digest = hashlib.sha256(repr((self.changed_at, rows)).encode()).hexdigest()[:16]
        return f"{self.pk}-{digest}"


class SeasonTournament(models.Model):
    """A tournament counted in a season, with its coefficient (1 by default)."""

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="entries", verbose_name=_("season")
    )
    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="season_entries",
        verbose_name=_("tournament"),
    )
    coefficient = models.DecimalField(
        _("coefficient"),
        max_digits=5,
        decimal_places=2,
        default=Decimal("1"),
        help_text=_("The tournament's season points are multiplied by it (e.g. 1.5)."),
    )
    added_at = models.DateTimeField(_("added at"), default=timezone.now, editable=False)

    class Meta:
        ordering = ["season", "tournament__starts_on", "pk"]
        # Moved from the tournaments app: the table keeps its name.
        db_table = "tournaments_seasontournament"
        verbose_name = _("tournament of a season")
        verbose_name_plural = _("tournaments of a season")
        constraints = [
            models.UniqueConstraint(
                fields=["season", "tournament"], name="a_tournament_counts_once_a_season"
            ),
            models.CheckConstraint(
                condition=Q(
                    coefficient__gte=seasons.COEFFICIENT_LOW,
                    coefficient__lte=seasons.COEFFICIENT_HIGH,
                ),
                name="season_coefficient_in_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} in {self.season} (× {self.coefficient})"


# --- reading the standings -----------------------------------------------------------------


@dataclass(frozen=True)
class SeasonRow:
    """A line of the season standings: the standing, the player, and one cell per counted
    tournament of the season (None where the player did not play it)."""

    standing: seasons.SeasonStanding
    player: Player
    cells: tuple[seasons.Result | None, ...]


@dataclass(frozen=True)
class SeasonTable:
    season: Season
    entries: tuple[SeasonTournament, ...]  # every tournament of the season, in order
    counted: tuple[SeasonTournament, ...]  # those it counts (public ones in a public season)
    rows: tuple[SeasonRow, ...]

    def row_of(self, player_id: int) -> SeasonRow | None:
        return next((row for row in self.rows if row.player.pk == player_id), None)


def finished_seats_of(tournament_ids: Iterable[int]) -> dict[int, list[standings.FinishedSeat]]:
    """Every seat of a finished game of these tournaments, by tournament, in one query.

    The same rows as `Tournament.finished_seats`, for many tournaments at once: read as plain
    rows, no model instances.
    """
    ids = sorted(set(tournament_ids))
    by_tournament: dict[int, list[standings.FinishedSeat]] = {pk: [] for pk in ids}
    if not ids:
        return by_tournament
    rows: Any = (
        Seat.objects.filter(table__session__tournament_id__in=ids, table__game__finished=True)
        .order_by()
        .values_list(
            "table__session__tournament_id",
            "player_id",
            "table_id",
            "table__session__number",
            # The total in the game's result: with the game points a director gave.
            models.F("total") + models.F("adjustment"),
            "rank",
            models.ExpressionWrapper(
                Q(table__game__signed_off_at__isnull=True), output_field=models.BooleanField()
            ),
        )
    )
    sql, params = rows.query.sql_with_params()
    with connections[rows.db].cursor() as cursor:
        cursor.execute(sql, params)
        for tournament_id, *seat in cursor.fetchall():
            by_tournament[tournament_id].append(standings.FinishedSeat(*seat))
    return by_tournament


def final_places(
    tournament_ids: Iterable[int],
    seats_by_tournament: dict[int, list[standings.FinishedSeat]] | None = None,
) -> dict[int, list[standings.Standing]]:
    """Each tournament's final places as its standings page gives them, in three queries for
    them all (their settings, their finished seats unless given, their final tables).

    By the tournament's ranking (total or per-game average); with a final, the qualifying
    sessions' standings and then the final (`scoring.finals`): its players first, each
    Standing keeping its qualifying figures with the final place. A final still being played
    leaves the qualifying places, provisional.
    """
    ids = sorted(set(tournament_ids))
    seats = seats_by_tournament if seats_by_tournament is not None else finished_seats_of(ids)
    rules, marked = _ranking_rules(ids)
    final_tables: dict[int, dict[Hashable, tuple[int, int, bool]]] = {pk: {} for pk in ids}
    for tournament_id, table_id, session_number, number, finished in Table.objects.filter(
        session__tournament_id__in=ids, session__stage=Session.Stage.FINAL
    ).values_list("session__tournament_id", "pk", "session__number", "number", "game__finished"):
        final_tables[tournament_id][table_id] = (session_number, number, finished)
    places = {}
    for pk in ids:
        ranking, final_players, carry = rules.get(pk, (standings.BY_TOTAL, 0, ""))
        tables = final_tables[pk]
        final_sessions = {session for session, _, _ in tables.values()}
        qualifying_seats = [
            seat for seat in seats.get(pk, []) if seat.session not in final_sessions
        ]
        qualifying = _qualifying(qualifying_seats, marked.get(pk), ranking, final_players)
        if not final_players or not tables:
            places[pk] = qualifying
            continue
        results = finals.final_results(
            (seat.player, seat.table, tables[seat.table][1], seat.rank, seat.total)
            for seat in seats.get(pk, [])
            if seat.table in tables
        )
        ranked = finals.final_standings(
            qualifying,
            results,
            finals.CarryOver(carry),
            finished=all(finished for _, _, finished in tables.values()),
        )
        by_player = {standing.player: standing for standing in qualifying}
        places[pk] = [
            by_player[row.player]._replace(place=row.place, provisional=row.provisional)
            for row in ranked
            if row.player in by_player
        ]
    return places


def _ranking_rules(
    ids: list[int],
) -> tuple[dict[int, tuple[str, int, str]], dict[int, Tournament]]:
    """Each tournament's ranking, final players and carry-over (one query); and, read whole
    (one query, for those alone), the tournaments that gave points or took a substitute."""
    rules = {
        pk: (ranking, final_players, carry)
        for pk, ranking, final_players, carry, *marks in Tournament.objects.filter(
            pk__in=ids
        ).values_list(
            "pk",
            "ranking",
            "final_players",
            "final_carry_over",
            "has_adjustments",
            "has_substitutes",
        )
        if not any(marks)
    }
    marked = {
        tournament.pk: tournament
        for tournament in Tournament.objects.filter(pk__in=set(ids) - set(rules))
    }
    rules.update(
        (pk, (tournament.ranking, tournament.final_players, tournament.final_carry_over))
        for pk, tournament in marked.items()
    )
    return rules, marked


def _qualifying(
    seats: list[standings.FinishedSeat],
    marked: Tournament | None,
    ranking: str,
    final_players: int,
) -> list[standings.Standing]:
    """A tournament's qualifying standings from its seats; one that gave points or took a
    substitute (`marked`) ranks as its standings page does (Tournament.ranked_results)."""
    if marked is None:
        return standings.ranked(standings.standings(seats), by=ranking)
    stage = Session.Stage.QUALIFYING if final_players else None
    rows = [(seat.player, seat.table, seat.total, seat.rank, seat.provisional) for seat in seats]
    return standings.ranked(marked.ranked_results(rows, None, stage), by=ranking)


def season_events(
    season: Season,
    entries: Sequence[SeasonTournament],
    places: dict[int, list[standings.Standing]],
) -> list[seasons.Event]:
    return [
        seasons.Event(
            key=entry.tournament_id,
            coefficient=entry.coefficient,
            placings=tuple(
                seasons.Placing(standing.player, standing.place, bool(standing.provisional))
                for standing in places.get(entry.tournament_id, [])
            ),
            provisional=entry.tournament.status != Tournament.Status.FINISHED,
        )
        for entry in entries
    ]


def season_tables(
    season_list: Sequence[Season], places: dict[int, list[standings.Standing]] | None = None
) -> dict[int, SeasonTable]:
    """The standings of several seasons at once, in three queries whatever their number
    (their tournaments; every finished seat of those; the players with their clubs). `places`:
    tournaments' standings the caller already has (not read again)."""
    if not season_list:
        return {}
    by_season: dict[int, list[SeasonTournament]] = {season.pk: [] for season in season_list}
    for entry in (
        SeasonTournament.objects.filter(season__in=[season.pk for season in season_list])
        .select_related("tournament")
        .order_by("tournament__starts_on", "tournament__name", "pk")
    ):
        by_season[entry.season_id].append(entry)
    chosen = {season.pk: season for season in season_list}
    counted = {
        pk: [entry for entry in entries if chosen[pk].counts(entry.tournament)]
        for pk, entries in by_season.items()
    }
    known = places or {}
    wanted = {entry.tournament_id for entries in counted.values() for entry in entries}
    places = {**known, **final_places(wanted - set(known))}
    ranked = {
        pk: seasons.season_standings(chosen[pk].rules, season_events(chosen[pk], entries, places))
        for pk, entries in counted.items()
    }
    players = Player.objects.select_related("club").in_bulk(
        {standing.player for ranking in ranked.values() for standing in ranking}
    )
    tables = {}
    for pk, ranking in ranked.items():
        columns = [entry.tournament_id for entry in counted[pk]]
        rows = []
        for standing in ranking:
            by_event = {result.event: result for result in standing.results}
            rows.append(
                SeasonRow(
                    standing=standing,
                    player=players[standing.player],
                    cells=tuple(by_event.get(column) for column in columns),
                )
            )
        rows.sort(key=lambda row: (row.standing.place, row.player.name))
        tables[pk] = SeasonTable(
            season=chosen[pk],
            entries=tuple(by_season[pk]),
            counted=tuple(counted[pk]),
            rows=tuple(rows),
        )
    return tables
