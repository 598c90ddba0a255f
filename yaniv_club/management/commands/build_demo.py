"""Build the demo and write it out as a fixture (fixtures/demo.json).

The demo is a club's season: a finished club night and the Belgian championship being played,
both counting for one public season; the championship's hall screens and the clock of its
running session; everyone's ratings over the finished games.

Every round goes through the real model methods (Game.record_round, correct_round,
undo_last_round), as do the club night's draws, the session clock, the hall screens, the
season and the ratings (`seasons.ratings.recompute`), so the cached points, reductions,
totals, ranks, ratings and the audit log are exactly what the site would have stored. The
rounds come from the dealer (scoring.dealer) with seeded random generators, and every time is
the demo's: the same seeds give the same demo (only the password hashes' salts differ). The
championship is dealt from SEED alone, as before the club night existed. Rebuild the fixture
on an empty database:

    rm -f /tmp/demo.sqlite3
    DATABASE_URL=sqlite:////tmp/demo.sqlite3 .venv/bin/python manage.py migrate
    DATABASE_URL=sqlite:////tmp/demo.sqlite3 .venv/bin/python manage.py build_demo

Load the result with `manage.py load_demo`, which also starts the running session's clock
again relative to the moment it loads (`manage.py loaddata demo` keeps the demo day's clock,
long run out).
"""

from __future__ import annotations

import hashlib
import logging
import random
from collections import Counter
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from pathlib import Path
from zoneinfo import ZoneInfo

from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core import serializers
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from hall.models import HallScreen
from scoring import dealer, rules
from seasons import ratings
from seasons.models import PlayerRating, RatingChange, RatingLedger, Season, SeasonTournament
from seasons.models.seasons import season_tables
from tournaments.clock import Phase
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
    SessionClockEvent,
    Table,
    Tournament,
)
from tournaments.sheets import GameSheet

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
# Where the championship's one forced false Yaniv happens: session 1, table 2.
FALSE_YANIV_AT = (1, 2, 4)

# The running session's clock: its limit, when it started, and the minutes table 3 got
# back for the round it entered twice (its hands swapped, undone, entered again).
SESSION_MINUTES = 90
CLOCK_STARTS = time(14, 0)
TABLE_3_EXTENSION = 5

# The club night two weeks earlier: 12 of the 16 players, 4 sessions of 3 tables drawn at
# random with the fewest repeat meetings, "each player deals twice". Its own generator: the
# championship's rounds stay those its seed always dealt.
NIGHT = date(2026, 11, 6)
NIGHT_SEED = 611
NIGHT_PLAYERS = 12
NIGHT_SESSIONS = 4
NIGHT_RULES = {"deals_per_player": 2}

# The season: a table of points per place, the championship × 1.5, each player's best
# result counting (the other one struck through on the season page).
SEASON_POINTS = [25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
SEASON_BEST_OF = 1
CHAMPIONSHIP_COEFFICIENT = Decimal("1.5")
SEASON_OPENED = datetime(2026, 10, 1, 20, 0, tzinfo=BRUSSELS)

HALL_MESSAGE = (
    "Session 2 is under way: 90 minutes on the clock. When it reaches 0:00, finish the round "
    "being played: it is the last. Prize-giving at 18:00 by the bar."
)


class Command(BaseCommand):
    help = (
        "Build the demo (a club night and the championship in one season, hall screens, a "
        "session clock, ratings) on an empty database through the real model methods and "
        "write it as a fixture."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--output",
            default=str(Path(settings.BASE_DIR) / "fixtures" / "demo.json"),
            help="where to write the fixture (default: fixtures/demo.json)",
        )

    def handle(self, *args: object, output: str, verbosity: int, **options: object) -> None:
        User = get_user_model()
        # The fixture is every row of the database (fixture_objects): nothing else may be in it.
        if any(model.objects.exists() for model in (Tournament, Player, Club, Season)):
            raise CommandError(
                "the database already has tournaments, players, clubs or seasons: build the "
                "demo on an empty database (e.g. DATABASE_URL=sqlite:////tmp/demo.sqlite3)"
            )
        if User.objects.exists():
            raise CommandError("the database already has user accounts: build on an empty one")

        if verbosity < 2:
            # One log line per recorded round is noise here.
            logging.getLogger("tournaments.models.games").setLevel(logging.WARNING)
        with transaction.atomic():
            builder = DemoBuilder(random.Random(SEED))
            builder.build()
            objects = fixture_objects(builder.users)
            tally = what_happened(builder.championship)
            tally.update(what_else(builder))
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


# The demo's models, each after the models it refers to; RatingLedger is the ratings' lock,
# made by the first rating write of any site.
IN_ORDER = (
    Club,
    Player,
    Tournament,
    Registration,
    Session,
    Table,
    Seat,
    SessionClockEvent,
    Game,
    Round,
    Hand,
    GameChange,
    HallScreen,
    Season,
    SeasonTournament,
    RatingChange,
    PlayerRating,
)
LEFT_OUT = (RatingLedger,)


def fixture_objects(users: list) -> list:
    """Every row of the demo, each after the rows it refers to. The demo is built on an empty
    database: a row of any other model of the site's app would be lost, so it is refused."""
    objects = [*users]
    for model in IN_ORDER:
        objects.extend(model.objects.order_by("pk"))
    for other in apps.get_app_config("tournaments").get_models():
        if other not in IN_ORDER and other not in LEFT_OUT and other._default_manager.exists():
            raise CommandError(f"the demo made {other.__name__} rows the fixture leaves out")
    return objects


def what_happened(tournament: Tournament) -> Counter[str]:
    """How often each thing the demo should show happened in the championship's rounds."""
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


def what_else(builder: DemoBuilder) -> Counter[str]:
    """The club night, the season and the ratings show what they should, or the build fails."""
    tally: Counter[str] = Counter()
    tally["club night games"] = Game.objects.filter(
        table__session__tournament=builder.night, finished=True
    ).count()
    rated = PlayerRating.objects.filter(games__gte=ratings.min_games()).count()
    tally["players with a rating shown"] = rated
    table = season_tables([builder.season])[builder.season.pk]
    tally["season rows"] = len(table.rows)
    tally["season results struck through"] = sum(
        1 for row in table.rows for cell in row.cells if cell is not None and not cell.counted
    )
    clock = builder.running.clock(at=builder.frozen_at)
    if not rated or not tally["season rows"] or clock.phase is not Phase.RUNNING:
        raise CommandError(
            f"the demo lacks a rating, season standings or a running clock: {tally}"
        )
    return tally


class DemoBuilder:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.users: list = []
        self.ruleset = rules.BELGIAN
        # The start of each session's first deal, by session id.
        self.starts: dict[int, datetime] = {}
        # When the championship's undone round was undone (its table got time back).
        self.undone_at: datetime | None = None

    def build(self) -> None:
        self.people()
        self.championship = self.build_championship()
        self.night = self.build_club_night()
        self.season = self.build_season()
        self.set_up_the_hall()
        # Every finished game, in the order they finished (the club night's first).
        ratings.recompute()

    # --- people ---------------------------------------------------------------------------

    def people(self) -> None:
        User = get_user_model()
        joined = datetime(2026, 9, 1, 19, 30, tzinfo=BRUSSELS)
        self.joined = joined
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
        self.club = Club.objects.create(name=CLUB, city="Gent")
        self.players = [
            Player.objects.create(name=name, club=self.club, member_number=f"YCG-{n:04d}")
            for n, name in enumerate(PLAYERS, start=1)
        ]

    def register(self, tournament: Tournament, players: list[Player], at: datetime) -> None:
        Registration.objects.bulk_create(
            Registration(tournament=tournament, player=player, checked_in=True)
            for player in players
        )
        tournament.registrations.update(registered_at=at)

    # --- the championship, being played ------------------------------------------------------

    def build_championship(self) -> Tournament:
        tournament = Tournament.objects.create(
            name="Belgian Championship 2026 (demo)",
            slug="belgisch-kampioenschap-2026",
            starts_on=DAY,
            ends_on=DAY,
            venue="Feestzaal Sint-Pietersabdij, Sint-Pietersplein 9, 9000 Gent",
            club=self.club,
            status=Tournament.Status.RUNNING,
            is_public=True,
        )
        self.championship = tournament
        tournament.directors.add(self.director)
        # The referee accounts are the tournament's: the session page offers them.
        tournament.referees.add(*self.referees)
        self.ruleset = tournament.ruleset
        self.register(tournament, self.players, self.joined)

        first = Session.objects.create(
            tournament=tournament, number=1, status=Session.Status.RUNNING
        )
        self.starts[first.pk] = self.on_the_day(time(10, 0))
        players = list(self.players)
        self.rng.shuffle(players)
        ended = max(
            self.play_to_the_end(table, start=self.first_deal(table))
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
        self.starts[second.pk] = self.on_the_day(CLOCK_STARTS)
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
        # The director set the limit before the session and started the clock with it.
        second.set_time_limit(SESSION_MINUTES, by=self.director)
        second.start_clock(by=self.director)
        last = max(self.play_some(table, start=self.first_deal(table)) for table in tables)
        assert self.undone_at is not None
        extended_at = self.undone_at + timedelta(minutes=1)
        second.extend_clock(
            TABLE_3_EXTENSION,
            tables[2],
            by=self.director,
            reason="The round entered with two hands swapped was undone and entered again.",
        )
        self.stamp_clock(second, extended_at)
        self.running = second
        # The moment the demo stands still: load_demo starts the clock again from it.
        self.frozen_at = max(last, extended_at)
        Session.objects.filter(pk=second.pk).update(changed_at=self.frozen_at)
        second.refresh_from_db()
        return tournament

    def stamp_clock(self, session: Session, extended_at: datetime) -> None:
        """The demo day's moments for the clock (set before the build's own clock moved on)."""
        started = self.on_the_day(CLOCK_STARTS)
        Session.objects.filter(pk=session.pk).update(clock_started_at=started)
        moments: dict[str, datetime] = {
            SessionClockEvent.Action.LIMIT: started - timedelta(minutes=20),
            SessionClockEvent.Action.START: started,
            SessionClockEvent.Action.EXTEND: extended_at,
        }
        for event in session.clock_events.all():
            SessionClockEvent.objects.filter(pk=event.pk).update(at=moments[event.action])

    def on_the_day(self, at: time) -> datetime:
        return datetime.combine(DAY, at, tzinfo=BRUSSELS)

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

    def first_deal(self, table: Table) -> datetime:
        return self.starts[table.session_id] + timedelta(minutes=2 * table.number)

    # --- the club night, two weeks earlier ----------------------------------------------------

    def build_club_night(self) -> Tournament:
        self.rng = random.Random(NIGHT_SEED)
        night = Tournament(
            name="Club night November 2026 (demo)",
            slug="clubavond-november-2026",
            starts_on=NIGHT,
            ends_on=NIGHT,
            venue="Clublokaal De Kring, Kouter 29, 9000 Gent",
            club=self.club,
            is_public=True,
            session_count=NIGHT_SESSIONS,
            rule_options=NIGHT_RULES,
        )
        night.full_clean()
        night.save()
        night.directors.add(self.director)
        night.referees.add(*self.referees[: NIGHT_PLAYERS // SEATS])
        self.ruleset = night.ruleset
        doors = datetime.combine(NIGHT, time(19, 0), tzinfo=BRUSSELS)
        present = sorted(self.rng.sample(self.players, NIGHT_PLAYERS), key=lambda p: p.pk)
        self.register(night, present, doors - timedelta(days=3))
        start = doors + timedelta(minutes=15)
        for _number in range(NIGHT_SESSIONS):
            # The real draw: random, the fewest repeat meetings, reproducible from its seed.
            session = night.open_session(Session.Seating.RANDOM, seed=self.rng.randrange(10**6))
            session.start(
                {
                    table.number: self.referees[table.number - 1].pk
                    for table in session.tables.all()
                }
            )
            self.starts[session.pk] = start
            ended = max(
                self.play_to_the_end(table, start=self.first_deal(table))
                for table in session.tables.select_related("referee", "session")
            )
            session.finish()
            Session.objects.filter(pk=session.pk).update(changed_at=ended)
            # The next draw once the last table has signed its sheet off.
            start = ended + timedelta(minutes=10)
        night.status = Tournament.Status.FINISHED
        night.save(update_fields=["status"])
        return night

    # --- the season, the hall -----------------------------------------------------------------

    def build_season(self) -> Season:
        season = Season(
            name="Yaniv Club Gent ranking 2026 (demo)",
            slug="yaniv-club-gent-2026",
            description=(
                "The club's nights and the Belgian championship. Points per place; the "
                "championship counts × 1.5; each player's best result counts."
            ),
            club=self.club,
            is_public=True,
            scheme=Season.Scheme.TABLE,
            points_table=SEASON_POINTS,
            best_of=SEASON_BEST_OF,
        )
        season.full_clean()
        season.save_with_director(self.director)
        season.add_tournament(self.night)
        season.add_tournament(self.championship, CHAMPIONSHIP_COEFFICIENT)
        Season.objects.filter(pk=season.pk).update(
            created_at=SEASON_OPENED, changed_at=SEASON_OPENED
        )
        SeasonTournament.objects.filter(season=season).update(added_at=SEASON_OPENED)
        return season

    def set_up_the_hall(self) -> None:
        """Screen 1 in the hall cycles through every view with the director's message; screen
        2, at the bar, stays on the standings."""
        bar = HallScreen.add(self.championship, "Bar")
        bar.set_up(pinned=HallScreen.View.STANDINGS, seconds=30)
        hall = self.championship.screens.get(number=1)
        hall.set_up(name="Main hall", message=HALL_MESSAGE, seconds=15)
        set_up_at = self.on_the_day(CLOCK_STARTS) - timedelta(minutes=15)
        for screen in (hall, bar):
            # A secret link the same at every build (a site's SECRET_KEY keeps it secret).
            salt = hashlib.sha256(f"{SEED} demo screen {screen.number}".encode()).hexdigest()
            HallScreen.objects.filter(pk=screen.pk).update(salt=salt[:32], changed_at=set_up_at)

    # --- playing --------------------------------------------------------------------------

    def happening(self, table: Table, number: int) -> tuple[int, int, int] | None:
        """Where round `number` of `table` is in the championship (its scripted moments)."""
        if table.session.tournament_id != self.championship.pk:
            return None
        return (table.session.number, table.number, number)

    def play_to_the_end(self, table: Table, start: datetime) -> datetime:
        """Rounds until the game is over; the time the sheet was last changed."""
        game, referee, at = table.game, table.referee, start
        while not game.finished:
            number = game.rounds.count() + 1
            if number > 60:
                raise CommandError(f"{table} does not end")
            at += self.pause()
            where = self.happening(table, number)
            entries = self.deal(game.rows().players, false_yaniv=where == FALSE_YANIV_AT)
            if where == (1, 1, 2):
                # A typo corrected by the director right away.
                self.record_typo_then_correct(game, entries, at)
                continue
            stored = game.record_round(entries, by=referee, number=number)
            self.stamp(game, at, stored)
        # The referees signed the sheets off, but the championship's table 4 is provisional.
        if self.happening(table, 0) is None or table.number != TABLES:
            at += timedelta(minutes=2)
            game.sign_off(by=referee, version=game.version)
            self.stamp(game, at)
            Game.objects.filter(pk=game.pk).update(signed_off_at=at)
        return at

    def play_some(self, table: Table, start: datetime) -> datetime:
        """A few rounds of a game that goes on; the time of the last one."""
        game, referee, at = table.game, table.referee, start
        for number in range(1, self.rng.randint(3, 6) + 1):
            at += self.pause()
            entries = self.deal_not_ending(game)
            if self.happening(table, number) == (2, 3, 3):
                self.record_swap_then_undo(game, entries, at)
                self.undone_at = at + timedelta(seconds=40)
                at += timedelta(minutes=1)
            stored = game.record_round(entries, by=referee, number=number)
            self.stamp(game, at, stored)
        return at

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
        """A round after which nobody is over the limit yet (as the referee's preview says)."""
        sheet = GameSheet.load(game)
        for _attempt in range(100):
            entries = self.deal(sheet.players)
            if not sheet.preview(entries).ends_game:
                return entries
        raise CommandError(f"no round keeps {game} going")

    def deal(self, players: tuple[str, ...], *, false_yaniv: bool = False) -> rules.Round:
        """Plausible entries for the next round at a table: no false Yaniv unless forced."""
        return dealer.deal_round(
            players, self.ruleset, self.rng, false_yaniv=false_yaniv, false_yaniv_rate=0
        )
