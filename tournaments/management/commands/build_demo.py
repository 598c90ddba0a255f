"""Build the demo tournament and write it out as a fixture (fixtures/demo.json).

Every round goes through the real model methods (Game.record_round,
correct_round, undo_last_round), so the cached points, reductions, totals,
ranks and the audit log are exactly what the site would have stored. The
rounds come from a seeded random generator: the same seed gives the same
tournament. Load the result with `manage.py loaddata demo`.
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

from scoring import rules
from scoring.models import Game, GameChange, Hand, Round
from tournaments.models import Club, Player, Registration, Seat, Session, Table, Tournament

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
            logging.getLogger("scoring.models").setLevel(logging.WARNING)
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
        # Staff with every permission of the site's own apps: the admin works.
        self.director.user_permissions.set(
            Permission.objects.filter(content_type__app_label__in=["tournaments", "scoring"])
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
        Registration.objects.bulk_create(
            Registration(tournament=tournament, player=player, checked_in=True)
            for player in self.players
        )

        first = Session.objects.create(
            tournament=tournament, number=1, status=Session.Status.RUNNING
        )
        players = list(self.players)
        self.rng.shuffle(players)
        for table in self.seat(first, players):
            self.play_to_the_end(table, start=self.clock(first, table))
        first.status = Session.Status.FINISHED
        first.save(update_fields=["status"])

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
        for table in self.seat(second, order):
            self.play_some(table, start=self.clock(second, table))
        return tournament

    def seat(self, session: Session, players: list[Player]) -> list[Table]:
        tables = []
        for number in range(1, TABLES + 1):
            table = Table.objects.create(
                session=session, number=number, referee=self.referees[number - 1]
            )
            group = players[(number - 1) * SEATS : number * SEATS]
            Seat.objects.bulk_create(
                Seat(table=table, position=position, player=player)
                for position, player in enumerate(group, start=1)
            )
            tables.append(table)
        return tables

    def clock(self, session: Session, table: Table) -> datetime:
        hour = 10 if session.number == 1 else 14
        start = datetime.combine(DAY, datetime.min.time(), tzinfo=BRUSSELS)
        return start + timedelta(hours=hour, minutes=2 * table.number)

    # --- playing --------------------------------------------------------------

    def play_to_the_end(self, table: Table, start: datetime) -> None:
        game, referee, at = table.game, table.referee, start
        while not game.finished:
            number = game.rounds.count() + 1
            if number > 60:
                raise CommandError(f"{table} does not end")
            at += self.pause()
            forced = (table.session.number, table.number, number) == FALSE_YANIV_AT
            entries = self.deal(game, false_yaniv=forced)
            if (table.session.number, table.number, number) == (1, 1, 2):
                # A typo corrected by the director right away.
                self.record_typo_then_correct(game, entries, at)
                continue
            stored = game.record_round(entries, by=referee, number=number)
            self.stamp(game, at, stored)
        # The referees signed the sheets off, but table 4's is still provisional.
        if table.number != TABLES:
            game.sign_off(by=referee, version=game.version)

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
            for label in game.sheet().players
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
        last = game.changes.order_by("-pk").values_list("pk", flat=True).first()
        GameChange.objects.filter(pk=last).update(at=at)
        Game.objects.filter(pk=game.pk, finished=True).update(finished_at=at)

    # --- dealing --------------------------------------------------------------

    def deal_not_ending(self, game: Game) -> rules.Round:
        """A round after which nobody is over the limit yet."""
        sheet = game.sheet()
        for _attempt in range(100):
            entries = self.deal(game)
            if not game.preview_round(entries, sheet).finished:
                return entries
        raise CommandError(f"no round keeps {game} going")

    def deal(self, game: Game, *, false_yaniv: bool = False) -> rules.Round:
        """Plausible entries for the next round at this table."""
        rng = self.rng
        players = list(game.sheet().players)
        ending = rng.random()
        if not false_yaniv and ending < 0.08:
            emptier = rng.choice(players)
            hands = {p: 0 if p == emptier else self.hand(2, 40, 14) for p in players}
            return rules.Round(hands=hands, empty_hand=emptier)
        caller = rng.choice(players)
        caller_hand = rng.randint(6, 9) if false_yaniv else rng.choice(CALLS)
        hands = {p: caller_hand if p == caller else self.hand(0, 38, 9) for p in players}
        # The declarations go clockwise from the caller; a low hand may go along.
        start = players.index(caller)
        clockwise = players[start + 1 :] + players[:start]
        along = tuple(p for p in clockwise if hands[p] <= 7 and rng.random() < 0.45)
        return rules.Round(hands=hands, yaniv=caller, along=along)

    def hand(self, low: int, high: int, mode: int) -> int:
        return max(0, min(50, round(self.rng.triangular(low, high, mode))))


# Hand totals at a Yaniv call: mostly close to the limit.
CALLS = (0, 1, 2, 2, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 5)
