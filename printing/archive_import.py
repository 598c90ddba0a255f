"""The JSON archive read back: a whole tournament imported in one transaction (its shape checked by
printing.archive_file first, then what needs the site or the engine), with a report of what came
in."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction

from printing import archive_file
from printing.archive import FORMAT, VERSION
from printing.archive_beside import BesideImport as _BesideImport
from scoring import rules
from scoring.records import game_from_record, read_json
from tournaments.models import (
    Club,
    Game,
    GameChange,
    Player,
    Registration,
    Seat,
    Session,
    SessionClockEvent,
    Table,
    Tournament,
)
from tournaments.models.seats import seat_label
from tournaments.player_import import fold
from tournaments.sheets import GameSheet


class ImportRefused(Exception):
    """The file cannot be imported: the message says where and why; nothing was written."""


class ImportConflict(ImportRefused):
    """Another import wrote the same tournament or club first (two pushes of one archive at
    once): answered 409; nothing of this one was written."""


@dataclass
class ImportReport:
    tournament: Tournament
    sessions: int = 0
    tables: int = 0
    rounds: int = 0
    players_created: int = 0
    players_matched: int = 0
    players_matched_by_name: int = 0
    director: str = ""
    clubs_created: list[str] = field(default_factory=list)
    users_created: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        tournament = self.tournament
        lines = [
            f"Imported {tournament.name} ({tournament.slug}): {self.sessions} session(s), "
            f"{self.tables} table(s), {self.rounds} round(s); players: "
            f"{self.players_created} new, {self.players_matched} matched "
            f"({self.players_matched - self.players_matched_by_name} by club and member "
            f"number, {self.players_matched_by_name} by name and club)."
        ]
        if self.director:
            lines.append(f"{self.director} directs the imported tournament.")
        if self.clubs_created:
            lines.append(f"New clubs: {', '.join(self.clubs_created)}.")
        if self.users_created:
            lines.append(
                f"Created {len(self.users_created)} user(s) as inactive accounts without a "
                f"usable password: {', '.join(self.users_created)}. An administrator must "
                "activate them and set a password before they can log in."
            )
        lines.extend(self.notes)
        return lines


# The largest export the import reads: a championship's archive is tens of megabytes.
ARCHIVE_MAX_CHARS = 500_000_000


def loads(text: str | bytes) -> object:
    """The file's JSON (bytes are UTF-8, a byte order mark is no error), within the limits of
    `scoring.records.read_json`: nested 2,000 deep or a number of 5,000 digits is refused."""
    try:
        return read_json(text, max_chars=ARCHIVE_MAX_CHARS)
    except rules.GameError as error:
        raise ImportRefused(f"the file is not valid JSON: {error.message}") from None


def import_tournament(data: object, director: Any = None, *, pushed: bool = False) -> ImportReport:
    """Create the tournament of an export (`tournament_to_data`) in one transaction; an
    existing account given as `director` directs it too.

    `pushed`: the director pushed it (a venue's import token): the import has their rights
    only. It matches only players they may see, records member numbers only on players of
    their own tournaments, and makes directors only of accounts that already direct with them
    (creating none). Without it (an operator's `manage.py import_tournament`) the file's
    players and directors are matched among all the site's."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ImportRefused(f'not a tournament export: "format" must be "{FORMAT}"')
    version = data.get("version")
    if type(version) is not int or version != VERSION:
        raise ImportRefused(
            f"unknown version {version!r} of the export format: this site reads version {VERSION}"
        )
    try:
        archive = archive_file.read(data)
    except archive_file.Refused as error:
        raise ImportRefused(str(error)) from None
    try:
        with transaction.atomic():
            return _Importer(director, pushed=pushed).run(archive)
    except IntegrityError as error:
        # Another import of the same file (or of one sharing its slug or a new club) committed
        # first, between this one's checks and its writes: nothing of this one was written.
        raise ImportConflict(
            "another import of this tournament (or of a club it creates) was saved at the "
            "same moment"
        ) from error


def _check(instance: models.Model, where: str, exclude: Sequence[str] = ()) -> None:
    """The model's own validation (lengths, choices, constraints), as an import error."""
    try:
        instance.full_clean(exclude=list(exclude), validate_unique=False)
    except ValidationError as error:
        problems = "; ".join(
            f"{name}: {' '.join(messages)}" if name != "__all__" else " ".join(messages)
            for name, messages in error.message_dict.items()
        )
        raise ImportRefused(f"{where}: {problems}") from None


class _Users:
    """Users by username: the site's, else new inactive accounts without a password."""

    def __init__(self) -> None:
        self.model = get_user_model()
        username = self.model._meta.get_field(self.model.USERNAME_FIELD)
        # None: the user model's username has no length limit.
        self.max_length = username.max_length if isinstance(username, models.Field) else None
        self.known: dict[str, Any] = {}
        self.created: list[str] = []

    def _too_long(self, name: str) -> bool:
        return self.max_length is not None and len(name) > self.max_length

    def named(self, name: object, place: str) -> Any:
        """The user of that username (the file's), or None for null. Its length is the user
        model's: checked here, not in the file's shape."""
        if name is None:
            return None
        if not isinstance(name, str) or not name.strip() or self._too_long(name):
            raise ImportRefused(f"{place} must be a username")
        if name not in self.known:
            user = self.model._default_manager.filter(**{self.model.USERNAME_FIELD: name}).first()
            if user is None:
                # No password: an unusable one, so the account cannot log in until set.
                user = self.model._default_manager.create_user(name, is_active=False)
                self.created.append(name)
            self.known[name] = user
        return self.known[name]


def _labels(names: Sequence[str]) -> list[str]:
    """The names a game record uses for the players seated in order (`seat_label`)."""
    return [seat_label(name, position, names) for position, name in enumerate(names, start=1)]


def _renamed_round(entries: rules.Round, names: dict[str, str]) -> rules.Round:
    def new(name: str) -> str:
        return names.get(name, name)

    joins = entries.joins
    return rules.Round(
        hands={new(name): hand for name, hand in entries.hands.items()},
        yaniv=new(entries.yaniv) if entries.yaniv is not None else None,
        along=tuple(new(name) for name in entries.along),
        empty_hand=new(entries.empty_hand) if entries.empty_hand is not None else None,
        jokers={new(name): held for name, held in entries.jokers.items()},
        joins=None if joins is None else rules.Join(new(joins.name), joins.start),
    )


def _joining(record: object) -> set[str]:
    """The names a game record's rounds seat as joining players (`joins`)."""
    if not isinstance(record, dict) or not isinstance(record.get("rounds"), list):
        return set()
    return {
        entry["joins"]["name"]
        for entry in record["rounds"]
        if isinstance(entry, dict)
        and isinstance(entry.get("joins"), dict)
        and isinstance(entry["joins"].get("name"), str)
    }


def _renamed_record(value: Any, names: dict[str, str]) -> Any:
    """A round record of the audit log ("before", "after") with the site's names."""
    if not isinstance(value, dict) or not names:
        return value
    renamed = dict(value)
    if isinstance(value.get("hands"), dict):
        renamed["hands"] = {names.get(k, k): hand for k, hand in value["hands"].items()}
    for key in ("yaniv", "empty_hand"):
        if isinstance(value.get(key), str):
            renamed[key] = names.get(value[key], value[key])
    if isinstance(value.get("along"), list):
        renamed["along"] = [names.get(n, n) if isinstance(n, str) else n for n in value["along"]]
    if isinstance(value.get("jokers"), dict):
        renamed["jokers"] = {names.get(k, k): held for k, held in value["jokers"].items()}
    joins = value.get("joins")
    if isinstance(joins, dict) and isinstance(joins.get("name"), str):
        renamed["joins"] = {**joins, "name": names.get(joins["name"], joins["name"])}
    return renamed


@dataclass
class _FilePlayer:
    """A player as the file lists it, and the site's player it is (or a new one)."""

    file_id: int
    name: str
    club: Club | None
    member_number: str
    player: Player | None = None


class _Importer:
    def __init__(self, director: Any = None, pushed: bool = False) -> None:
        self.users = _Users()
        # The import acts with the director's rights (a venue's push), not an operator's.
        self.scoped = pushed and director is not None
        self.clubs: dict[str, Club] = {}
        self.players: dict[int, Player] = {}
        # The file's name of each of its players: the game records use it.
        self.file_names: dict[int, str] = {}
        self.director = director
        self.notes: list[str] = []

    # How the import's parts (printing.archive_beside) refuse and check as it does.
    refusal = staticmethod(ImportRefused)
    check = staticmethod(_check)

    def run(self, archive: archive_file.ArchiveFile) -> ImportReport:
        about = archive.tournament
        slug = about.slug
        if Tournament.objects.filter(slug=slug).exists():
            raise ImportRefused(
                f"tournament: a tournament with the slug {slug!r} already exists on this "
                "site (was this file imported before?)"
            )
        report = ImportReport(tournament=Tournament(slug=slug))
        self.read_clubs(archive.clubs, report)
        self.read_players(archive.players, report)
        tournament = self.create_tournament(about)
        report.tournament = tournament
        if self.director is not None:
            tournament.directors.add(self.director)
            report.director = self.director.get_username()
        self.create_registrations(archive.registrations, tournament)
        self.beside = _BesideImport(self, archive)
        numbers: set[int] = set()
        for session in archive.sessions:
            if session.number in numbers:
                raise ImportRefused(f"sessions: duplicate session number {session.number}")
            numbers.add(session.number)
            self.create_session(tournament, session, report)
        final_numbers = list(
            tournament.sessions.filter(stage=Session.Stage.FINAL).values_list("number", flat=True)
        )
        if len(final_numbers) > 1:
            raise ImportRefused(
                f"sessions: a tournament has one final, not {len(final_numbers)} "
                f"(sessions {', '.join(map(str, final_numbers))})"
            )
        if final_numbers and not tournament.has_final:
            raise ImportRefused(
                f"session {final_numbers[0]}: a final session needs the tournament's final "
                "(final_players 2 or more)"
            )
        self.beside.finish(tournament)
        report.users_created = self.users.created
        report.notes.extend(self.notes)
        return report

    def read_clubs(self, clubs: list[archive_file.ClubFile], report: ImportReport) -> None:
        for index, listed in enumerate(clubs, start=1):
            name = listed.name
            if name in self.clubs:
                raise ImportRefused(f"clubs: {name!r} is listed twice")
            club = Club.objects.filter(name=name).first()
            if club is None:
                club = Club(name=name, city=listed.city)
                _check(club, f"clubs[{index}]")
                club.save()
                report.clubs_created.append(name)
            self.clubs[name] = club

    def club(self, name: str | None, where: str) -> Club | None:
        if name is None:
            return None
        if name not in self.clubs:
            raise ImportRefused(f"{where}: club {name!r} is not one of the file's clubs")
        return self.clubs[name]

    def read_players(self, players: list[archive_file.PlayerFile], report: ImportReport) -> None:
        listed: list[_FilePlayer] = []
        numbered: dict[tuple[int, str], int] = {}
        for about in players:
            player_id = about.id
            if player_id in self.file_names:
                raise ImportRefused(f"players: duplicate id {player_id}")
            club = self.club(about.club, f"player {player_id}")
            member_number = about.member_number
            if club is not None and member_number:
                key = (club.pk, member_number)
                if key in numbered:
                    raise ImportRefused(
                        f"player {player_id}: member number {member_number} of {club.name} "
                        f"is also player {numbered[key]}'s"
                    )
                numbered[key] = player_id
            self.file_names[player_id] = about.name
            listed.append(_FilePlayer(player_id, about.name, club, member_number))
        self.match_players(listed, report)
        new: list[Player] = []
        recorded: list[Player] = []
        changeable = self.may_change([item.player for item in listed if item.player])
        self.drop_unseen_numbers(listed)
        for listing in listed:
            player = listing.player
            if player is None:
                player = Player(
                    name=listing.name, club=listing.club, member_number=listing.member_number
                )
                _check(player, f"player {listing.file_id}", exclude=["club"])
                new.append(player)
            elif listing.member_number and not player.member_number and player.pk in changeable:
                player.member_number = listing.member_number
                recorded.append(player)
            self.players[listing.file_id] = player
        Player.objects.bulk_create(new)
        Player.objects.bulk_update(recorded, ["member_number"])
        report.players_created = len(new)

    def candidates(self) -> models.QuerySet[Player]:
        """The site's players a file player may be: with an importing director, only those
        they may see (`Player.objects.visible_to`); another director's private players are
        never matched, written to or named in the report (issue 34)."""
        if not self.scoped:
            return Player.objects.all()
        return Player.objects.visible_to(self.director)

    def may_change(self, players: list[Player]) -> set[int]:
        """Of `players`, those whose member number the import may record: the players of a
        tournament the importing director directs (all of them without a director)."""
        pks = [player.pk for player in players]
        if not self.scoped:
            return set(pks)
        directed = Tournament.objects.directed_by(self.director)
        return set(
            Player.objects.seen_in(directed).filter(pk__in=pks).values_list("pk", flat=True)
        )

    def drop_unseen_numbers(self, listed: list[_FilePlayer]) -> None:
        """A new player's member number that a player the director may not see holds (the
        site's one per club) is not recorded: the import neither fails on it, which would
        tell whose it is, nor reaches that player. The report counts them, naming none."""
        if not self.scoped:
            return
        new = [item for item in listed if item.player is None and item.member_number and item.club]
        held = set(
            Player.objects.filter(
                club__in={item.club for item in new},
                member_number__in={item.member_number for item in new},
            ).values_list("club_id", "member_number")
        )
        dropped = 0
        for item in new:
            if item.club is not None and (item.club.pk, item.member_number) in held:
                item.member_number = ""
                dropped += 1
        if dropped:
            self.notes.append(
                f"{dropped} member number(s) of the file not recorded: the site has them for "
                "players you may not see or change."
            )

    def match_players(self, listed: list[_FilePlayer], report: ImportReport) -> None:
        """Find the site's player of each listed one: by club and member number first, then
        by name and club (the players' import's rules); one site player per file player,
        among those the importing director may see."""
        clubs = [club.pk for club in self.clubs.values()]
        by_number: dict[tuple[int | None, str], Player] = {}
        by_name: dict[tuple[int | None, str], list[Player]] = defaultdict(list)
        for player in (
            self.candidates()
            .filter(models.Q(club_id__in=clubs) | models.Q(club__isnull=True))
            .order_by("pk")
        ):
            if player.member_number:
                by_number[(player.club_id, player.member_number)] = player
            by_name[(player.club_id, fold(player.name))].append(player)
        in_file: dict[tuple[int | None, str], int] = defaultdict(int)
        for listing in listed:
            in_file[(listing.club.pk if listing.club else None, fold(listing.name))] += 1
        taken: set[int] = set()
        for listing in listed:
            club_id = listing.club.pk if listing.club else None
            found = by_number.get((club_id, listing.member_number))
            if listing.member_number and found is not None and found.pk not in taken:
                listing.player = found
                taken.add(found.pk)
        for listing in listed:
            if listing.player is not None:
                continue
            club_id = listing.club.pk if listing.club else None
            key = (club_id, fold(listing.name))
            # A member number that the site does not know: one of the namesakes without one.
            namesakes = [
                player
                for player in by_name.get(key, [])
                if player.pk not in taken and not (listing.member_number and player.member_number)
            ]
            if in_file[key] > 1 or not namesakes:
                continue
            if len(namesakes) > 1:
                report.notes.append(
                    f"Player {listing.file_id} {listing.name!r}: {len(namesakes)} players of "
                    "that name and club on the site, and no member number to tell them "
                    "apart: a new player is created."
                )
                continue
            listing.player = namesakes[0]
            taken.add(namesakes[0].pk)
            report.players_matched_by_name += 1
        for listing in listed:
            matched = listing.player
            if matched is None:
                continue
            report.players_matched += 1
            if matched.name != listing.name:
                where = listing.club.name if listing.club else "no club"
                number = listing.member_number or matched.member_number
                report.notes.append(
                    f"Player {listing.file_id} {listing.name!r} is the site's {matched.name!r} "
                    f"({where}{', member number ' + number if number else ''}): the site's "
                    "name is kept."
                )

    def player(self, player_id: object, where: str) -> Player:
        """The site's player of the file's id."""
        if type(player_id) is not int or player_id not in self.players:
            raise ImportRefused(f"{where}: player {player_id!r} is not one of the file's players")
        return self.players[player_id]

    def create_tournament(self, about: archive_file.TournamentFile) -> Tournament:
        options = about.options
        try:
            ruleset = rules.RULESETS[about.preset].with_options(options)
        except rules.GameError as error:
            raise ImportRefused(f"tournament: options: {error.message}") from None
        rule_options = dict(options)
        if ruleset.scores_false_yaniv:
            # The tournament keeps its false-Yaniv rule in a field of its own.
            rule_options.pop("false_yaniv", None)
        tournament = Tournament(
            name=about.name,
            slug=about.slug,
            starts_on=about.starts_on,
            ends_on=about.ends_on,
            venue=about.venue,
            club=self.club(about.club, "tournament"),
            status=about.status,
            is_public=about.is_public,
            table_size=about.table_size,
            session_count=about.session_count,
            small_tables=about.small_tables,
            ranking=about.ranking,
            false_yaniv=ruleset.false_yaniv.value,
            preset=about.preset,
            rule_options=rule_options,
            final_players=about.final_players,
            final_tables=about.final_tables,
            final_carry_over=about.final_carry_over,
            at_time_limit=about.at_time_limit,
            substitute_credit=about.substitute_credit,
        )
        _check(tournament, "tournament", exclude=["club"])
        tournament.save()
        if not self.scoped:
            tournament.directors.set(
                self.users.named(name or "", f"tournament: directors[{index}]")
                for index, name in enumerate(about.directors, start=1)
            )
        else:
            tournament.directors.set(self.co_directors(about.directors))
        return tournament

    def co_directors(self, names: Sequence[object]) -> list[Any]:
        """Of the file's directors, the accounts that already direct a tournament with the
        importing director (and the importer): nobody else is made a director, and no account
        is created. The report says how many names were left out, never which exist."""
        model = get_user_model()
        wanted = {name for name in names if isinstance(name, str) and name.strip()}
        together = model._default_manager.filter(
            directed_tournaments__in=Tournament.objects.directed_by(self.director),
            **{f"{model.USERNAME_FIELD}__in": wanted},
        ).distinct()
        kept = [user for user in together if user.pk != self.director.pk]
        left_out = len(wanted) - len(kept) - (self.director.get_username() in wanted)
        if left_out:
            self.notes.append(
                f"{left_out} of the file's directors not made directors here: only accounts "
                "that already direct a tournament with you are."
            )
        return kept

    def create_registrations(
        self, listed: list[archive_file.RegistrationFile], tournament: Tournament
    ) -> None:
        registrations: dict[int, tuple[Registration, datetime | None]] = {}
        for index, about in enumerate(listed, start=1):
            where = f"registrations[{index}]"
            player = self.player(about.player, where)
            if player.pk in registrations:
                raise ImportRefused(f"registrations: {player.name} is registered twice")
            registration = Registration(
                tournament=tournament,
                player=player,
                checked_in=about.checked_in,
                withdrawn_at=about.withdrawn_at,
                withdrawn_by=self.users.named(about.withdrawn_by, f"{where}: withdrawn_by"),
                withdrawal_reason=about.withdrawal_reason,
                checked_in_at=about.checked_in_at,
                checked_in_how=about.checked_in_how,
            )
            if registration.withdrawn != bool(registration.withdrawal_reason) or (
                registration.withdrawn and registration.checked_in
            ):
                raise ImportRefused(
                    f"{where}: a withdrawal has a reason and is not checked in, "
                    "and only a withdrawal has a reason"
                )
            registrations[player.pk] = (registration, about.registered_at)
        Registration.objects.bulk_create(r for r, _ in registrations.values())
        # registered_at is set on creation: put the recorded moments back.
        dated = []
        for registration, registered_at in registrations.values():
            if registered_at is not None:
                registration.registered_at = registered_at
                dated.append(registration)
        Registration.objects.bulk_update(dated, ["registered_at"])

    def create_session(
        self, tournament: Tournament, about: archive_file.SessionFile, report: ImportReport
    ) -> None:
        number = about.number
        where = f"session {number}"
        session = Session(
            tournament=tournament,
            number=number,
            stage=about.stage,
            status=about.status,
            seating=about.seating,
            seed=about.seed,
            repeat_meetings=about.repeat_meetings,
            time_limit=about.time_limit,
            clock_started_at=about.clock_started_at,
            clock_paused_at=about.clock_paused_at,
            clock_paused_seconds=about.clock_paused_seconds,
            clock_extension=about.clock_extension,
        )
        _check(session, where, exclude=["tournament"])
        session.save()
        report.sessions += 1
        tables: dict[int, Table] = {}
        for table in about.tables:
            if table.number in tables:
                raise ImportRefused(f"session {number}: duplicate table number {table.number}")
            tables[table.number] = self.create_table(session, table, report)
        self.create_clock_events(session, tables, about.clock_events)

    def create_clock_events(
        self,
        session: Session,
        tables: dict[int, Table],
        listed: list[archive_file.ClockEventFile],
    ) -> None:
        events = []
        for index, about in enumerate(listed, start=1):
            where = f"session {session.number}, clock_events[{index}]"
            if about.table is not None and about.table not in tables:
                raise ImportRefused(f"{where}: table names no table of session {session.number}")
            event = SessionClockEvent(
                session=session,
                table=tables.get(about.table) if about.table is not None else None,
                action=about.action,
                minutes=about.minutes,
                games=about.games,
                by=self.users.named(about.by, f"{where}: by"),
                at=about.at,
                reason=about.reason,
            )
            _check(event, where, exclude=["session", "table", "by"])
            events.append(event)
        SessionClockEvent.objects.bulk_create(events)

    def create_table(
        self, session: Session, about: archive_file.TableFile, report: ImportReport
    ) -> Table:
        where = f"session {session.number}, table {about.number}"
        (table,) = Table.objects.create_with_games(
            [
                Table(
                    session=session,
                    number=about.number,
                    referee=self.users.named(about.referee, f"{where}: referee"),
                    clock_extension=about.clock_extension,
                )
            ]
        )
        report.tables += 1
        seats: list[Seat] = []
        file_names = []
        for listed in about.seats:
            player = self.player(listed.player, f"{where}, seat {listed.position}")
            # The game points given at the seat count in its ranks: cached before its rounds.
            given = self.beside.game_points(session.number, about.number, listed.position)
            seats.append(
                Seat(table=table, position=listed.position, player=player, adjustment=given)
            )
            file_names.append(self.file_names[listed.player])
        if [seat.position for seat in seats] != list(range(1, len(seats) + 1)):
            raise ImportRefused(f"{where}: seats must be numbered 1 to {len(seats)} in order")
        players = [seat.player for seat in seats]
        for seat in seats:
            if players.count(seat.player) > 1:
                raise ImportRefused(f"{where}: {seat.player.name} has two seats")
        Seat.objects.bulk_create(seats)
        game = table.game
        game.table = table
        report.rounds += self.store_game(game, about.game, file_names, where)
        self.beside.seated(session.number, about, seats, where)
        return table

    def store_game(
        self, game: Game, about: archive_file.GameFile, file_names: Sequence[str], where: str
    ) -> int:
        """Store the game's rounds, sign-off and audit log; the number of rounds.

        The record names the players as the file does (`file_names`, seat order); a matched
        player may have another name on the site: the rounds are stored under the site's.
        """
        record = about.record
        # The names the game's record and rounds use: the sheet's ("Name (seat n)" if shared).
        players = _labels(file_names)
        # A player who joined mid-game is seated at the end and comes in through a round.
        starting = [player for player in players if player not in _joining(record)]
        if not isinstance(record, dict) or record.get("players") != starting:
            raise ImportRefused(
                f"{where}: the game record's players must be the seated players in seat "
                f"order, but those who join in a round: {', '.join(starting)}"
            )
        site_players = GameSheet.load(game).players
        names = {
            file_name: site_name
            for file_name, site_name in zip(players, site_players, strict=True)
            if file_name != site_name
        }
        record_rounds = record.get("rounds", [])
        entered = about.rounds_entered
        ended_at_time_limit = about.ended_at_time_limit
        # A game nobody changed has no scores yet (no ranks either): it stays that way.
        touched = bool(record_rounds or ended_at_time_limit or about.changes)
        if touched:
            try:
                recorded = game_from_record(record)
            except rules.GameError as error:
                raise ImportRefused(f"{where}: {error}") from None
            if names:
                recorded = rules.Game(
                    tuple(names.get(player, player) for player in recorded.players),
                    tuple(_renamed_round(entries, names) for entries in recorded.rounds),
                    recorded.ruleset,
                )
            if recorded.ruleset != game.ruleset:
                raise ImportRefused(
                    f"{where}: the game record's rule set or options are not the tournament's"
                )
            if len(entered) != len(recorded.rounds):
                raise ImportRefused(
                    f"{where}: rounds_entered must have one entry per round "
                    f"({len(recorded.rounds)})"
                )
            rounds = [
                (
                    entries,
                    self.users.named(entry.by, f"{where}: rounds_entered[{number}]: by"),
                    entry.at,
                )
                for number, (entries, entry) in enumerate(
                    zip(recorded.rounds, entered, strict=True), start=1
                )
            ]
            try:
                game.store_rounds(rounds, ended_at_time_limit=ended_at_time_limit)
            except rules.GameError as error:
                raise ImportRefused(f"{where}: {error}") from None
        finished = about.finished
        if finished != game.finished:
            said, really = ("finished", "do not finish it") if finished else ("running", "end it")
            raise ImportRefused(
                f"{where}: the file says the game is {said}, but its rounds {really}"
            )
        signed_off_by = self.users.named(about.signed_off_by, f"{where}: signed_off_by")
        if about.signed_off_at is not None and not finished:
            raise ImportRefused(f"{where}: only a finished game can be signed off")
        if signed_off_by is not None and about.signed_off_at is None:
            raise ImportRefused(f"{where}: signed_off_by without signed_off_at")
        history = [
            self.change(change, names, f"{where}: changes[{index}]")
            for index, change in enumerate(about.changes, start=1)
        ]
        game.restore_history(
            history,
            finished_at=about.finished_at if finished else None,
            signed_off_at=about.signed_off_at,
            signed_off_by=signed_off_by,
            version=about.version,
        )
        return len(record_rounds) if touched else 0

    def change(
        self, about: archive_file.ChangeFile, names: dict[str, str], where: str
    ) -> GameChange:
        """One change of the audit log, as recorded (its game is set when it is restored),
        under the site's names of the players."""
        if not about.reason and about.action not in ("record", "sign_off"):
            raise ImportRefused(f"{where}: reason is needed for a {about.action} change")
        return GameChange(
            action=about.action,
            round_number=about.round,
            user=self.users.named(about.user, f"{where}: user"),
            at=about.at,
            before=_renamed_record(about.before, names),
            after=_renamed_record(about.after, names),
            reason=about.reason,
            version=about.version,
        )
