"""Build the demo tournament and write it out as a fixture (fixtures/demo.json).

Every round goes through the real model methods (Game.record_round,
correct_round, undo_last_round), so the cached points, reductions, totals,
ranks and the audit log are exactly what the site would have stored. The
rounds come from the dealer (scoring.dealer) with a seeded random generator, and every
time is the demo day's: the same seed gives the same tournament (only the password hashes'
salts differ). Rebuild the fixture on an empty database:

    DATABASE_URL=sqlite:////tmp/demo.sqlite3 .venv/bin/python manage.py migrate
    DATABASE_URL=sqlite:////tmp/demo.sqlite3 .venv/bin/python manage.py build_demo

Load the result with `manage.py load_demo` (or `manage.py loaddata demo`).
"""

from __future__ import annotations

import logging
import random
from collections import Counter
from datetime import date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core import serializers
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from scoring import dealer, rules
from tournaments.models import (
    Club,
    Game,
    GameChange,
    Hand,
    Player,
    Registration,
    Round,
    Seat,
    Session,
    Table,
    Tournament,
)

SEED = 2026
BRUSSELS = ZoneInfo("Europe/Brussels")
DAY = date(2026, 11, 21)
DIRECTOR, DIRECTOR_PASSWORD = "director", "director-demo"
REFEREES = [f"referee{number}" for number in range(1, 5)]
REFEREE_PASSWORD = "referee-demo"
CLUB = "Yaniv Club Gent"
PLAYERS = [
    "Hélène Declercq",
    "Jürgen Peeters",
    "Emre Çelik",
    "Anouk Janssens",
    "Bram Maes",
    "Lotte Willems",
    "Wout Claes",
    "Fien Goossens",
    "Zoë Wouters",
    "Joëlle De Smet",
    "Seppe Mertens",
    "Noémie Dubois",
    "Thijs Van den Broeck",
    "Maëlle Lambert",
    "Stijn Vermeulen",
    "Inès El Amrani",
]
TABLES, SEATS = 4, 4
# Where the tournament's one forced false Yaniv happens: session 1, table 2.
FALSE_YANIV_AT = (1, 2, 4)


class Command(BaseCommand):
    help = (
        "Build the demo tournament on an empty database through the real model "
        "methods and write it as a fixture."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--output",
            default=str(Path(settings.BASE_DIR) / "fixtures" / "demo.json"),
            help="where to write the fixture (default: fixtures/demo.json)",
        )

    def handle(self, *args: object, output: str, verbosity: int, **options: object) -> None:
        User = get_user_model()
        if Tournament.objects.exists():
            raise CommandError(
                "the database already has tournaments: build the demo on an empty "
                "database (e.g. DATABASE_URL=sqlite:////tmp/demo.sqlite3)"
            )
        taken = User.objects.filter(username__in=[DIRECTOR, *REFEREES])
        if taken.exists() or Club.objects.filter(name=CLUB).exists():
            raise CommandError("the demo's users or club already exist")

        if verbosity < 2:
            # One log line per recorded round is noise here.
            logging.getLogger("tournaments.models.games").setLevel(logging.WARNING)
        with transaction.atomic():
            builder = DemoBuilder(random.Random(SEED))
            tournament = builder.build()
            objects = fixture_objects(tournament, builder.users)
            tally = what_happened(tournament)
        path = Path(output)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("w", encoding="utf-8") as stream:
            serializers.serialize(
                "json",
                objects,
                indent=1,
                use_natural_foreign_keys=True,
                use_natural_primary_keys=True,
                stream=stream,
            )
            stream.write("\n")
        summary = ", ".join(f"{what}: {count}" for what, count in tally.items())
        self.stdout.write(f"{len(objects)} objects written to {path} ({summary})")


def fixture_objects(tournament: Tournament, users: list) -> list:
    """Everything of the demo, each row after the rows it refers to."""
    games = Game.objects.filter(table__session__tournament=tournament)
    rounds = Round.objects.filter(game__in=games)
    return [
        *users,
        *Club.objects.filter(players__seats__table__session__tournament=tournament)
        .distinct()
        .order_by("pk"),
        *Player.objects.filter(seats__table__session__tournament=tournament)
        .distinct()
        .order_by("pk"),
        tournament,
        *tournament.registrations.order_by("pk"),
        *tournament.sessions.order_by("pk"),
        *Table.objects.filter(session__tournament=tournament).order_by("pk"),
        *Seat.objects.filter(table__session__tournament=tournament).order_by("pk"),
        *games.order_by("pk"),
        *rounds.order_by("pk"),
        *Hand.objects.filter(round__in=rounds).order_by("pk"),
        *GameChange.objects.filter(game__in=games).order_by("pk"),
    ]


def what_happened(tournament: Tournament) -> Counter[str]:
    """How often each thing the demo should show happened in its rounds."""
    tally: Counter[str] = Counter()
    rounds = Round.objects.filter(game__table__session__tournament=tournament)
    for stored in rounds.prefetch_related("hands"):
        tally[stored.kind] += 1
        for hand in stored.hands.all():
            tally["reduction"] += hand.reduction > 0
            if hand.along and stored.kind == rules.RoundKind.YANIV:
                beat = hand.points == 0
                tally["along (beat the caller)" if beat else "along (lost)"] += 1
    changes = GameChange.objects.filter(game__table__session__tournament=tournament)
    for action in (GameChange.Action.CORRECT, GameChange.Action.UNDO):
        tally[str(action.label)] = changes.filter(action=action).count()
    missing = [what for what in EXPECTED if not tally[what]]
    if missing:
        raise CommandError(f"the demo lacks {', '.join(missing)}: change SEED")
    return tally


EXPECTED = (
    "yaniv",
    "false_yaniv",
    "empty_hand",
    "reduction",
    "along (beat the caller)",
    "along (lost)",
    "corrected",
    "undone",
)


class DemoBuilder:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.users: list = []
        self.ruleset = rules.BELGIAN

    # --- people and the tournament ------------------------------------------

    def build(self) -> Tournament:
        User = get_user_model()
        joined = datetime(2026, 9, 1, 19, 30, tzinfo=BRUSSELS)
        self.director = User.objects.create_user(
            DIRECTOR,
            password=DIRECTOR_PASSWORD,
            first_name="Demo",
            last_name="Director",
            is_staff=True,
            date_joined=joined,
        )
        # Staff with every permission of the site's own app: the admin works.
        self.director.user_permissions.set(
            Permission.objects.filter(content_type__app_label="tournaments")
        )
        self.referees = [
            User.objects.create_user(
                username,
                password=REFEREE_PASSWORD,
                first_name="Referee",
                last_name=str(number),
                date_joined=joined,
            )
            for number, username in enumerate(REFEREES, start=1)
        ]
        self.users = [self.director, *self.referees]

        club = Club.objects.create(name=CLUB, city="Gent")
        self.players = [
            Player.objects.create(name=name, club=club, member_number=f"YCG-{n:04d}")
            for n, name in enumerate(PLAYERS, start=1)
        ]
        tournament = Tournament.objects.create(
            name="Belgian Championship 2026 (demo)",
            slug="belgisch-kampioenschap-2026",
            starts_on=DAY,
            ends_on=DAY,
            venue="Feestzaal Sint-Pietersabdij, Sint-Pietersplein 9, 9000 Gent",
            club=club,
            status=Tournament.Status.RUNNING,
            is_public=True,
        )
        tournament.directors.add(self.director)
        # The referee accounts are the tournament's: the session page offers them.
        tournament.referees.add(*self.referees)
        self.ruleset = tournament.ruleset
        Registration.objects.bulk_create(
            Registration(tournament=tournament, player=player, checked_in=True)
            for player in self.players
        )
        tournament.registrations.update(registered_at=joined)

        first = Session.objects.create(
            tournament=tournament, number=1, status=Session.Status.RUNNING
        )
        players = list(self.players)
        self.rng.shuffle(players)
        ended = max(
            self.play_to_the_end(table, start=self.clock(first, table))
            for table in self.seat(first, players)
        )
        first.status = Session.Status.FINISHED
        first.save(update_fields=["status"])
        Session.objects.filter(pk=first.pk).update(changed_at=ended)

        # Session 2 seats the players by their session-1 result: the best four
        # at table 1, and so on.
        second = Session.objects.create(
            tournament=tournament, number=2, status=Session.Status.RUNNING
        )
        standing = sorted(
            Seat.objects.filter(table__session=first).select_related("player"),
            key=lambda seat: (seat.rank, seat.total, seat.player.name),
        )
        order = []
        for start in range(0, len(standing), SEATS):
            group = [seat.player for seat in standing[start : start + SEATS]]
            self.rng.shuffle(group)
            order.extend(group)
        tables = self.seat(second, order)
        Session.objects.filter(pk=second.pk).update(changed_at=self.clock(second, tables[0]))
        for table in tables:
            self.play_some(table, start=self.clock(second, table))
        return tournament

    def seat(self, session: Session, players: list[Player]) -> list[Table]:
        tables = Table.objects.create_with_games(
            Table(session=session, number=number, referee=self.referees[number - 1])
            for number in range(1, TABLES + 1)
        )
        for number, table in enumerate(tables, start=1):
            group = players[(number - 1) * SEATS : number * SEATS]
            Seat.objects.bulk_create(
                Seat(table=table, position=position, player=player)
                for position, player in enumerate(group, start=1)
            )
        return tables

    def clock(self, session: Session, table: Table) -> datetime:
        hour = 10 if session.number == 1 else 14
        start = datetime.combine(DAY, datetime.min.time(), tzinfo=BRUSSELS)
        return start + timedelta(hours=hour, minutes=2 * table.number)

    # --- playing --------------------------------------------------------------

    def play_to_the_end(self, table: Table, start: datetime) -> datetime:
        """Rounds until the game is over; the time the sheet was last changed."""
        game, referee, at = table.game, table.referee, start
        while not game.finished:
            number = game.rounds.count() + 1
            if number > 60:
                raise CommandError(f"{table} does not end")
            at += self.pause()
            forced = (table.session.number, table.number, number) == FALSE_YANIV_AT
            entries = self.deal(game.rows().players, false_yaniv=forced)
            if (table.session.number, table.number, number) == (1, 1, 2):
                # A typo corrected by the director right away.
                self.record_typo_then_correct(game, entries, at)
                continue
            stored = game.record_round(entries, by=referee, number=number)
            self.stamp(game, at, stored)
        # The referees signed the sheets off, but table 4's is still provisional.
        if table.number != TABLES:
            at += timedelta(minutes=2)
            game.sign_off(by=referee, version=game.version)
            self.stamp(game, at)
            Game.objects.filter(pk=game.pk).update(signed_off_at=at)
        return at

    def play_some(self, table: Table, start: datetime) -> None:
        game, referee, at = table.game, table.referee, start
        for number in range(1, self.rng.randint(3, 6) + 1):
            at += self.pause()
            entries = self.deal_not_ending(game)
            if (table.session.number, table.number, number) == (2, 3, 3):
                self.record_swap_then_undo(game, entries, at)
                at += timedelta(minutes=1)
            stored = game.record_round(entries, by=referee, number=number)
            self.stamp(game, at, stored)

    def record_typo_then_correct(self, game: Game, entries: rules.Round, at: datetime) -> None:
        victim = next(
            label
            for label, hand in entries.hands.items()
            if label not in (entries.yaniv, entries.empty_hand, *entries.along) and hand < 40
        )
        right = entries.hands[victim]
        wrong = right + 10
        typo = rules.Round(
            hands={**entries.hands, victim: wrong},
            yaniv=entries.yaniv,
            along=entries.along,
            empty_hand=entries.empty_hand,
        )
        number = game.rounds.count() + 1
        stored = game.record_round(typo, by=game.table.referee, number=number)
        self.stamp(game, at, stored)
        game.correct_round(
            number,
            entries,
            by=self.director,
            reason=f"{victim} held {right}, not {wrong}: typo on the tablet.",
            version=game.version,
        )
        self.stamp(game, at + timedelta(minutes=1))

    def record_swap_then_undo(self, game: Game, entries: rules.Round, at: datetime) -> None:
        """The referee swaps two hands, sees it on the sheet and undoes the round."""
        first, second = [
            label
            for label in game.rows().players
            if label not in (entries.yaniv, entries.empty_hand)
        ][:2]
        swapped = rules.Round(
            hands={
                **entries.hands,
                first: entries.hands[second],
                second: entries.hands[first],
            },
            yaniv=entries.yaniv,
            along=entries.along,
            empty_hand=entries.empty_hand,
        )
        referee = game.table.referee
        number = game.rounds.count() + 1
        stored = game.record_round(swapped, by=referee, number=number)
        self.stamp(game, at, stored)
        game.undo_last_round(
            by=referee,
            reason=f"Hands of {first} and {second} swapped; entering the round again.",
            version=game.version,
        )
        self.stamp(game, at + timedelta(seconds=40))

    def pause(self) -> timedelta:
        return timedelta(minutes=self.rng.randint(3, 6), seconds=self.rng.randint(0, 59))

    def stamp(self, game: Game, at: datetime, stored: Round | None = None) -> None:
        """Demo times instead of the build's clock: the rounds of one tournament day."""
        if stored is not None:
            Round.objects.filter(pk=stored.pk).update(entered_at=at)
        last = game.changes.order_by("-pk").first()
        if last is not None:
            GameChange.objects.filter(pk=last.pk).update(at=at)
        if stored is not None or not game.signed_off:
            Game.objects.filter(pk=game.pk, finished=True).update(finished_at=at)

    # --- dealing --------------------------------------------------------------

    def deal_not_ending(self, game: Game) -> rules.Round:
        """A round after which nobody is over the limit yet."""
        rows = game.rows()
        for _attempt in range(100):
            entries = self.deal(rows.players)
            if not game.preview_round(entries, rows).finished:
                return entries
        raise CommandError(f"no round keeps {game} going")

    def deal(self, players: tuple[str, ...], *, false_yaniv: bool = False) -> rules.Round:
        """Plausible entries for the next round at a table: no false Yaniv unless forced."""
        return dealer.deal_round(
            players, self.ruleset, self.rng, false_yaniv=false_yaniv, false_yaniv_rate=0
        )
