from __future__ import annotations

import random

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from scoring.rules import BELGIAN, RULESETS, FalseYaniv, GameError, Ruleset
from tournaments import seating, standings
from tournaments.texts import game_error

# How the tournament form and the PDFs name the false-Yaniv options of the rules engine.
FALSE_YANIV_LABELS = {
    FalseYaniv.OTHERS_SCORE_ZERO.value: _("others score zero"),
    FalseYaniv.OTHERS_SCORE_HAND.value: _("others score hand"),
}

# How the tournament form names the engine's rule sets (RULESETS).
PRESET_LABELS = {
    "belgian": _("Belgian (championship)"),
    "israeli": _("Israeli (pagat.com)"),
    "wikipedia_en": _("English Wikipedia"),
    "wikipedia_fr": _("French Wikipedia"),
}


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True)
    city = models.CharField(_("city"), max_length=120, blank=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    name = models.CharField(_("name"), max_length=120)
    club = models.ForeignKey(
        Club,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="players",
        verbose_name=_("club"),
    )
    member_number = models.CharField(_("member number"), max_length=40, blank=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "member_number"],
                condition=~Q(member_number=""),
                name="unique_member_number_per_club",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Tournament(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", pgettext_lazy("tournament status", "Draft")
        RUNNING = "running", pgettext_lazy("tournament status", "Running")
        FINISHED = "finished", pgettext_lazy("tournament status", "Finished")

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
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        super().clean()
        if self.preset in RULESETS:
            try:
                self.ruleset  # noqa: B018 - the options must make a ruleset
            except GameError as error:
                raise ValidationError({"rule_options": game_error(error.message)}) from None

    @property
    def options(self) -> object:
        """The engine options on top of the preset, as a game record holds them."""
        options = self.rule_options
        if RULESETS[self.preset].scores_false_yaniv and isinstance(options, dict):
            # Only a preset that knows a false Yaniv takes the tournament's false-Yaniv rule.
            options = {**options, "false_yaniv": self.false_yaniv}
        return options

    @property
    def ruleset(self) -> Ruleset:
        return RULESETS[self.preset].with_options(self.options)

    def finished_seats(self, session: Session | None = None) -> list[standings.FinishedSeat]:
        """Every seat of a finished game (one query), for the standings."""
        seats = Seat.objects.filter(table__session__tournament=self, table__game__finished=True)
        if session is not None:
            seats = seats.filter(table__session=session)
        return [
            standings.FinishedSeat(
                player=player,
                table=table,
                session=session_number,
                total=total,
                rank=rank,
                provisional=signed_off_at is None,
            )
            for player, table, session_number, total, rank, signed_off_at in seats.values_list(
                "player_id",
                "table_id",
                "table__session__number",
                "total",
                "rank",
                "table__game__signed_off_at",
            )
        ]

    def standings(self, session: Session | None = None) -> list[tuple[standings.Standing, Player]]:
        """The standings, overall or of one session, with each player (two queries)."""
        ranking = standings.standings(self.finished_seats(session))
        players = Player.objects.select_related("club").in_bulk([s.player for s in ranking])
        return sorted(
            ((standing, players[standing.player]) for standing in ranking),
            key=lambda row: (row[0].place, row[1].name),
        )

    def live_version(self, finished_games_only: bool = False) -> str:
        """Changes whenever a game or a session of the tournament does (two cheap queries).

        The standings only move when a game finishes or a finished game changes: with
        `finished_games_only`, rounds of games still being played leave the version alone,
        so the hall's standings polls keep getting 204 while the tables play.
        """
        from scoring.models import GameChange

        changes = GameChange.objects.filter(game__table__session__tournament=self)
        if finished_games_only:
            changes = changes.filter(game__finished=True)
        last = changes.aggregate(last=models.Max("pk"), games=models.Count("game", distinct=True))
        sessions = self.sessions.aggregate(last=models.Max("changed_at"), count=models.Count("pk"))
        stamp = sessions["last"].strftime("%Y%m%d%H%M%S%f") if sessions["last"] else "0"
        return f"{last['last'] or 0}.{last['games']}-{sessions['count']}-{stamp}"

    def is_director(self, user) -> bool:
        if not user.is_authenticated:
            return False
        if user.is_superuser:
            return True
        # Asked several times per request (permission check, page controls).
        known = self.__dict__.setdefault("_directors_known", {})
        if user.pk not in known:
            known[user.pk] = self.directors.filter(pk=user.pk).exists()
        return known[user.pk]


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

    class Meta:
        ordering = ["tournament", "player__name"]
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="unique_registration"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament}"


class Session(models.Model):
    class Status(models.TextChoices):
        PLANNED = "planned", pgettext_lazy("session status", "Planned")
        RUNNING = "running", pgettext_lazy("session status", "Running")
        FINISHED = "finished", pgettext_lazy("session status", "Finished")

    class Seating(models.TextChoices):
        RANDOM = "random", _("Random, fewest repeat meetings")
        STANDINGS = "standings", _("By standings (similar ranks together)")
        MANUAL = "manual", _("Manual")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="sessions", verbose_name=_("tournament")
    )
    number = models.PositiveSmallIntegerField(_("number"))
    status = models.CharField(_("status"), max_length=10, choices=Status, default=Status.PLANNED)
    seating = models.CharField(
        _("seating"), max_length=10, choices=Seating, default=Seating.RANDOM
    )
    # The random draw is reproducible from its seed; how well it avoided
    # earlier meetings is kept for the director.
    seed = models.BigIntegerField(_("seed"), null=True, blank=True)
    repeat_meetings = models.PositiveIntegerField(_("repeat meetings"), default=0)
    changed_at = models.DateTimeField(_("changed at"), auto_now=True)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("session")
        verbose_name_plural = _("sessions")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_session_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="session_number_from_1"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} · session {self.number}"

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

    def seated_draw(self) -> seating.Draw[int]:
        """The session's current seating as a draw (player ids, clockwise)."""
        tables: dict[int, list[int]] = {}
        for table_number, player_id in (
            Seat.objects.filter(table__session=self)
            .values_list("table__number", "player_id")
            .order_by("table__number", "position")
        ):
            tables.setdefault(table_number, []).append(player_id)
        seated = tuple(tuple(players) for _, players in sorted(tables.items()))
        return seating.Draw(seated, self.seed or 0, self.repeat_meetings)

    def draw(self, method: str, seed: int) -> seating.Draw[int]:
        """Seat the checked-in players afresh (a planned session only)."""
        players = list(
            self.tournament.registrations.filter(checked_in=True).values_list(
                "player_id", flat=True
            )
        )
        if len(players) < BELGIAN.min_players:
            raise ValueError(gettext("check in at least 2 players before the draw"))
        met = self.earlier_meetings()
        target = self.tournament.table_size
        if method == self.Seating.STANDINGS:
            ranked = [standing.player for standing, _ in self.tournament.standings()]
            checked_in = set(players)
            order = [player for player in ranked if player in checked_in]
            # Players without a finished game yet come last, in a seeded random order.
            newcomers = sorted(checked_in - set(order))
            random.Random(seed).shuffle(newcomers)
            result = seating.draw_by_standings(order + newcomers, target, met, seed=seed)
        else:
            method = self.Seating.RANDOM
            result = seating.draw_random(players, met, seed, target)
        self.seat(result, method)
        return result

    def seat(self, draw: seating.Draw[int], method: str) -> None:
        """Replace the session's tables by the draw's, in one transaction."""
        with transaction.atomic():
            session = Session.objects.select_for_update().get(pk=self.pk)
            if session.status != self.Status.PLANNED:
                raise ValueError(gettext("the seating can only change before the session starts"))
            if session.tables.filter(game__rounds__isnull=False).exists():
                raise ValueError(
                    gettext("rounds were recorded at these tables: the seating stays")
                )
            referees = dict(session.tables.values_list("number", "referee_id"))
            session.tables.all().delete()
            for number, players in enumerate(draw.tables, start=1):
                table = Table.objects.create(
                    session=session, number=number, referee_id=referees.get(number)
                )
                Seat.objects.bulk_create(
                    Seat(table=table, position=position, player_id=player)
                    for position, player in enumerate(players, start=1)
                )
            session.seating, session.seed = method, draw.seed
            session.repeat_meetings = draw.repeat_meetings
            session.save(update_fields=["seating", "seed", "repeat_meetings", "changed_at"])
        self.seating, self.seed, self.repeat_meetings = method, draw.seed, draw.repeat_meetings

    def swap_players(self, a: int, b: int) -> seating.Draw[int]:
        adjusted = seating.swap(self.seated_draw(), a, b, self.earlier_meetings())
        self.seat(adjusted, self.Seating.MANUAL)
        return adjusted

    def move_player(self, player: int, table_number: int) -> seating.Draw[int]:
        adjusted = seating.move(
            self.seated_draw(), player, table_number - 1, self.earlier_meetings()
        )
        self.seat(adjusted, self.Seating.MANUAL)
        return adjusted

    def start(self) -> None:
        with transaction.atomic():
            session = Session.objects.select_for_update().get(pk=self.pk)
            if session.status != self.Status.PLANNED:
                raise ValueError(gettext("this session has already started"))
            if not session.tables.exists():
                raise ValueError(gettext("draw the seating before starting the session"))
            session.status = self.Status.RUNNING
            session.save(update_fields=["status", "changed_at"])
            Tournament.objects.filter(
                pk=self.tournament_id, status=Tournament.Status.DRAFT
            ).update(status=Tournament.Status.RUNNING)
        self.status = self.Status.RUNNING

    def finish(self) -> None:
        with transaction.atomic():
            session = Session.objects.select_for_update().get(pk=self.pk)
            if session.status != self.Status.RUNNING:
                raise ValueError(gettext("only a running session can be finished"))
            session.status = self.Status.FINISHED
            session.save(update_fields=["status", "changed_at"])
        self.status = self.Status.FINISHED


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

    class Meta:
        ordering = ["session", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="unique_table_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_from_1"),
        ]

    def __str__(self) -> str:
        return f"{self.session} · table {self.number}"

    def save(self, *args, **kwargs) -> None:
        # Every table plays exactly one game: create it with the table.
        from scoring.models import Game

        adding = self._state.adding
        with transaction.atomic():
            super().save(*args, **kwargs)
            if adding:
                Game.objects.create(table=self)

    def get_absolute_url(self) -> str:
        return reverse("table", args=[self.pk])


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
