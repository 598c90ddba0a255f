"""Round records: a table's game, its rounds as entered, and the audit log.

The referee's raw entries (hand totals, caller or emptied hand, along) are the
truth. Points, reductions and totals come from the engine (scoring.rules) and
are cached on the rows; every change of a game rescores it in the same
transaction, under a row lock on the game.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Sequence
from datetime import datetime, timedelta
from typing import Any, cast
from uuid import UUID

from django.conf import settings
from django.db import IntegrityError, connections, models, router, transaction
from django.db.models import Q
from django.utils import timezone

from scoring import rules
from scoring.errors import GameError
from scoring.records import round_to_record
from tournaments import clock, metrics, signals
from tournaments.models import raw_reads
from tournaments.models.agreement import Agreement, _user
from tournaments.models.confirmations import Confirmation, Dispute
from tournaments.models.people import Player
from tournaments.models.round_changes import (
    MAX_TYPED_AGO,
    AlreadyApplied,
    AlreadyStored,
    Recorded,
    RoundChange,
    RoundConflict,
    SheetChanged,
    same_entries,
)
from tournaments.models.rounds import GameChange, Hand, Round
from tournaments.models.scoring_state import (
    SCORED_FIELDS,
    join_fields,
    scored_hand,
    seat_joiner,
    starting_labels,
    streaks_before,
    unseat_joiner,
)
from tournaments.models.seat_changes import SeatChanges
from tournaments.models.seats import GameRows, save_standing, seat_labels
from tournaments.models.sessions import Session, move_standings
from tournaments.models.tables import Seat, Table, TableCode

logger = logging.getLogger(__name__)

# The changes that put entries into a round: a round "stored since" a version is one of theirs.
_ENTERING = ("record", "correct", "resolve")


# What a recorded round changes of the game's row.
_GAME_STATE = ["round_count", "finished", "finished_at", "ended_at_time_limit", "version"]


class Game(SeatChanges, Agreement, models.Model):
    # Whether the game was finished when its change began (set under the lock).
    _was_finished: bool = False

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="game")
    finished = models.BooleanField(default=False)
    ended_at_time_limit = models.BooleanField(default=False)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Bumped by every change; a correction form must carry the version it saw.
    version = models.PositiveIntegerField(default=0)
    # How many rounds are recorded (cached by each change): the next round's number.
    round_count = models.PositiveSmallIntegerField(default=0)
    # The referee's sign-off once the players checked the sheet; until then a
    # finished game counts as provisional in the standings.
    signed_off_at = models.DateTimeField(null=True, blank=True)
    signed_off_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        # The table keeps the name it had when games were their own app (migration 0004).
        db_table = "scoring_game"
        constraints = [
            models.CheckConstraint(
                condition=Q(ended_at_time_limit=False) | Q(finished=True),
                name="time_limit_end_is_finished",
            ),
            models.CheckConstraint(
                condition=Q(signed_off_at__isnull=True) | Q(finished=True),
                name="only_a_finished_game_is_signed_off",
            ),
        ]

    def __str__(self) -> str:
        return f"game at {self.table}"

    @property
    def ruleset(self) -> rules.Ruleset:
        return self.table.session.tournament.ruleset

    def rows(self) -> GameRows:
        """The seats and rounds as stored (three queries, whatever the game's length)."""
        return GameRows.of_games([self])[self.pk]

    def score(self, rows: GameRows | None = None) -> rules.GameResult:
        rows = rows or self.rows()
        return rules.score_game(
            rules.Game(rows.starting_players, tuple(rows.engine_rounds()), self.ruleset)
        )

    # --- state changes: each one transaction, under a lock on the game row --

    def record_round(
        self, entries: rules.Round, *, by, number: int, client_id: UUID | None = None
    ) -> Round:
        """Record round `number` (the next one) from the referee's entries (`record`)."""
        return self.record(RoundChange(entries, number, client_id), by=by).round

    def record(self, change: RoundChange, *, by: Any) -> Recorded:
        """Record the next round, as a page or a phone sent it (`RoundChange`).

        A round is stored once however often a phone sends it (its `client_id`:
        `AlreadyApplied` for a repeat). The same entries already stored under its number are
        that round, whoever typed them (`Recorded.anew` false); different ones are a
        `RoundConflict`, and entries equal to a round stored under another number since the
        sheet the phone typed on are `AlreadyStored`: never stored as another round.

        The game and its seats are read and locked in one query; the engine checks the
        entries against those seats (a form read them before the lock: a seat changed
        meanwhile is refused here, never stored). The new round is scored from the seats'
        cached totals (and who is out), not from the whole history: a round costs the same
        queries in round 1 and in round 40.
        """
        entered_at = timezone.now()
        if change.typed_ago is not None:
            entered_at -= min(max(change.typed_ago, timedelta(0)), MAX_TYPED_AGO)
        try:
            with transaction.atomic():
                game, seats = self._locked_with_seats()
                game._check_typed_on(change)
                version_under_lock = game.version
                stored = game._append(
                    change.entries,
                    by=by,
                    number=change.number,
                    client_id=change.client_id,
                    seats=seats,
                    entered_at=entered_at,
                    late_reason=change.late_reason,
                )
        except IntegrityError:
            # A phone replaying a change while another request stores it: the database's
            # one-row-per-client-id is the last word.
            if change.client_id is not None and self._applied(change.client_id):
                raise AlreadyApplied(self.version) from None
            raise
        self._take_state(game)
        self._rerate(game)
        metrics.ROUND_SAVES.inc()
        # Told under the lock, not by comparing versions this instance read before it
        # (another request may come between).
        return Recorded(stored, seats, anew=game.version != version_under_lock)

    def _check_typed_on(self, change: RoundChange) -> None:
        """Under the lock: a round equal to one another phone stored since the sheet this
        one was typed on is that round (`AlreadyStored`); a phone that knew the stored sheet
        as it is now and still numbers its round among the stored ones is behind on its own
        rounds, not meeting another phone's: a choice to show (`RoundConflict`)."""
        typed_on, number = change.typed_on, change.number
        if typed_on.known is not None and not typed_on.another:
            self.check_not_stored_since(
                change.entries,
                number,
                known=typed_on.known,
                mine=typed_on.mine,
                client_id=change.client_id,
            )
        if (
            change.base is not None
            and self.version <= change.base
            and number <= self.round_count
            and not (change.client_id is not None and self._applied(change.client_id))
        ):
            rows = self.rows()
            existing = rows.rounds[number - 1]
            raise RoundConflict(existing, rows.entries(existing), change.entries)

    def _append(
        self,
        entries: rules.Round,
        *,
        by: Any,
        number: int,
        client_id: UUID | None,
        seats: list[Seat],
        entered_at: datetime | None = None,
        late_reason: str = "",
    ) -> Round:
        if number < 1:
            raise GameError("rounds_from_one", "rounds", round_number=number)
        if number <= self.round_count:
            self._check_not_applied(client_id)
            rows = self.rows()
            existing = rows.rounds[number - 1]
            if same_entries(rows.entries(existing), entries):
                # A flaky phone sent the same round twice, or two phones typed the same
                # round: it is stored once, all is well.
                return existing
            raise RoundConflict(existing, rows.entries(existing), entries)
        if number != self.round_count + 1:
            raise GameError("rounds_in_order", "rounds", round_number=number)
        if self.ended_at_time_limit and not late_reason:
            raise self._over(number)
        if late_reason and (not self.ended_at_time_limit or self.signed_off_at is not None):
            # Only a game the clock ended takes a late round, and only until it is signed off.
            raise self._over(number)
        seat_joiner(self, seats, entries, number)
        labels = seat_labels(seats)
        # The players before the round, clockwise: all but one joining in it.
        players = starting_labels([labels[seat.pk] for seat in seats], (entries,))
        by_label = {labels[seat.pk]: seat for seat in seats}
        out_in_round = {
            labels[seat.pk]: seat.out_after for seat in seats if seat.out_after is not None
        }
        ruleset = self.ruleset
        scored = rules.score_round(
            players,
            {label: by_label[label].total for label in players},
            entries,
            number,
            ruleset,
            out=tuple(out_in_round),
            streaks=streaks_before(self.pk, labels, ruleset),
        )
        stored = Round(
            game=self,
            number=number,
            kind=scored.kind.value,
            caller=by_label[entries.yaniv] if entries.yaniv else None,
            empty_hand=by_label[entries.empty_hand] if entries.empty_hand else None,
            entered_by=_user(by),
            entered_at=entered_at or timezone.now(),
            **join_fields(entries, by_label),
        )
        stored.save(force_insert=True)
        Hand.objects.bulk_create(
            [
                Hand(
                    round=stored,
                    seat=by_label[label],
                    hand_total=hand,
                    along=label in entries.along,
                    jokers=entries.jokers.get(label, 0),
                    **scored_hand(scored, label),
                )
                # A player who is out (elimination) has no hand.
                for label, hand in entries.hands.items()
            ]
        )
        out_in_round.update(dict.fromkeys(scored.eliminated, number))
        seated = tuple(labels[seat.pk] for seat in seats)
        ranking = rules.rank(seated, scored.totals, out_in_round if ruleset.eliminates else None)
        ranks = {placing.player: placing.rank for placing in ranking}
        for seat in seats:
            label = labels[seat.pk]
            seat.total, seat.rank = scored.totals[label], ranks[label]
            seat.out_after = out_in_round.get(label)
        save_standing(seats)
        self.round_count = number
        if scored.ends_game:
            self.finished, self.finished_at = True, timezone.now()
            # A late round that ends the game by the rules ends it so, not by the clock.
            self.ended_at_time_limit = False
        elif late_reason:
            # Added after the time limit: the game stays ended there, its totals final.
            pass
        elif self._ends_at_the_time_limit(stored):
            # As `end_at_time_limit`: the totals are final, ranked as just computed.
            self.finished, self.finished_at = True, timezone.now()
            self.ended_at_time_limit = True
        self.version += 1
        self.save(update_fields=_GAME_STATE)
        self._log(GameChange.Action.RECORD, by, number, None, entries, late_reason, client_id)
        if self.ended_at_time_limit and not late_reason:
            rule = self.table.session.tournament.at_time_limit
            self._log(GameChange.Action.END, by, None, None, None, clock.end_reason(rule))
        self._count_without_confirmation()
        return stored

    def _ends_at_the_time_limit(self, stored: Round) -> bool:
        """The session's time was up for this table when `stored` was recorded and, by the
        tournament's rule, it is the last round: the round being played at the limit
        ("finish the round"), or the one after it ("one last round"). The rows are loaded
        with the game: a query only once the time is up, under "one last round"."""
        table = self.table
        session = table.session
        state = session.clock(table, at=stored.entered_at)
        if not state.over or state.ends_at is None:
            return False
        needed = clock.rounds_to_end(session.tournament.at_time_limit)
        if needed is None:
            return False
        if needed == 1:
            return True
        before = self.rounds.filter(entered_at__gt=state.ends_at).exclude(pk=stored.pk)
        return before.count() + 1 >= needed

    def correct_round(
        self,
        number: int,
        entries: rules.Round,
        *,
        by,
        reason: str,
        version: int,
        client_id: UUID | None = None,
        dispute: Dispute | None = None,
        known: int | None = None,
        mine: Collection[UUID] = (),
    ) -> None:
        """Replace round `number`'s entries; later rounds are rescored.

        With `dispute`, the correction answers it: resolved, with the correction's reason.

        `known`, `mine`: as for a round (`check_not_stored_since`), the sheet the phone made
        the correction on and its own changes since. Entries another phone stored since as
        another round are that round (`AlreadyStored`): a round replaced with them would be
        stored twice (a referee's "replace round 1 with mine" where the other phone stored
        mine as round 2). None: the referee's word that it is another round, or a form.
        """
        with transaction.atomic():
            game = self._locked(version, client_id)
            if known is not None:
                game.check_not_stored_since(entries, number, known=known, mine=mine)
            rows = game.rows()
            stored = game._stored_round(rows, number)
            before = rows.entries(stored)
            engine_rounds = rows.engine_rounds()
            engine_rounds[number - 1] = entries
            try:
                result = rules.score_game(
                    rules.Game(rows.starting_players, tuple(engine_rounds), game.ruleset)
                )
            except GameError as error:
                if error.round_number and error.round_number > number and error.field == "hands":
                    # Elimination: the correction changes who plays the later rounds.
                    raise GameError(
                        "correction_changes_who_is_out",
                        "rounds",
                        round_number=number,
                        round=error.round_number,
                    ) from error
                if error.round_number and error.round_number > number:
                    played_after = len(rows.rounds) - error.round_number + 1
                    raise GameError(
                        "correction_ends_game"
                        if played_after > 1
                        else "correction_ends_game_before_last",
                        "rounds",
                        round_number=number,
                        round=error.round_number - 1,
                        next=error.round_number,
                        last=len(rows.rounds),
                    ) from error
                raise
            for field, value in game._ending(entries, rows).items():
                setattr(stored, field, value)
            stored.save(update_fields=["kind", "caller", "empty_hand"])
            hands = {hand.seat_id: hand for hand in stored.hands.all()}
            if {rows.labels[seat_id] for seat_id in hands} != set(entries.hands):
                # Who plays a round is fixed by the rounds before it.
                raise GameError("hands_name_players", "hands", round_number=number)
            for seat_id, hand in hands.items():
                hand.hand_total = entries.hands[rows.labels[seat_id]]
                hand.along = rows.labels[seat_id] in entries.along
                hand.jokers = entries.jokers.get(rows.labels[seat_id], 0)
            Hand.objects.bulk_update(list(hands.values()), ["hand_total", "along", "jokers"])
            game._store(rows, result, first_changed=number)
            game._log(GameChange.Action.CORRECT, by, number, before, entries, reason, client_id)
            signals.round_corrected.send(
                Game, game=game, number=number, before=before, after=entries
            )
            if dispute is not None:
                game._answer(dispute, Dispute.Status.RESOLVED, reason, by)
            game._count_without_confirmation()
        self._take_state(game)
        self._rerate(game)

    def undo_last_round(
        self, *, by, reason: str, version: int, client_id: UUID | None = None
    ) -> None:
        with transaction.atomic():
            game = self._locked(version, client_id)
            rows = game.rows()
            if not rows.rounds:
                raise GameError("nothing_to_undo", "rounds")
            last = rows.rounds[-1]
            before = rows.entries(last)
            last.delete()
            rows = unseat_joiner(GameRows(rows.seats, rows.rounds[:-1]), last)
            result = game.score(rows)
            game._store(rows, result, first_changed=None)
            game._log(GameChange.Action.UNDO, by, last.number, before, None, reason, client_id)
        self._take_state(game)
        self._rerate(game)

    @property
    def signed_off(self) -> bool:
        return self.signed_off_at is not None

    @property
    def provisional(self) -> bool:
        """Finished, but the sheet is not signed off yet."""
        return self.finished and not self.signed_off

    def sign_off(self, *, by, version: int) -> None:
        """The referee confirms the finished sheet, as players sign the paper one."""
        with transaction.atomic():
            game = self._locked(version)
            if not game.finished:
                raise GameError("sign_off_unfinished", "game")
            if game.signed_off:
                raise GameError("signed_off_already", "game")
            game.signed_off_at = timezone.now()
            game.signed_off_by = by
            game.version += 1
            game.save(update_fields=["signed_off_at", "signed_off_by", "version"])
            game._log(GameChange.Action.SIGN_OFF, by, None, None, None, "")
        self._take_state(game)

    def end_at_time_limit(self, *, by, reason: str, version: int) -> None:
        """Stop the game: the current totals are final."""
        with transaction.atomic():
            game = self._locked(version)
            if game.finished:
                raise GameError("game_over", "game")
            rows = game.rows()
            game.ended_at_time_limit = True
            game._store(rows, game.score(rows), first_changed=None)
            game._log(GameChange.Action.END, by, None, None, None, reason)
        self._take_state(game)
        self._rerate(game)

    def store_rounds(
        self, rounds: Sequence[tuple[rules.Round, Any, datetime]], *, ended_at_time_limit: bool
    ) -> rules.GameResult:
        """Store a whole recorded game at once (an import): (entries, entered_by, entered_at).

        The engine scores the rounds as one game and `_store` caches its numbers as after any
        change; nothing is logged (an import restores the audit log as it was recorded).
        """
        with transaction.atomic():
            game = self._locked()
            rows = game.rows()
            if rows.rounds:
                raise GameError("game_has_rounds", "rounds")
            engine_rounds = tuple(entries for entries, _, _ in rounds)
            players = starting_labels(rows.players, engine_rounds)
            result = rules.score_game(rules.Game(players, engine_rounds, game.ruleset))
            by_label = {label: rows.seat_for(label) for label in rows.players}
            stored = Round.objects.bulk_create(
                Round(
                    game=game,
                    number=number,
                    entered_by=by,
                    entered_at=at,
                    **game._ending(entries, rows),
                    **join_fields(entries, by_label),
                )
                for number, (entries, by, at) in enumerate(rounds, start=1)
            )
            Hand.objects.bulk_create(
                Hand(
                    round=round_,
                    seat=seat,
                    hand_total=entries.hands[label],
                    along=label in entries.along,
                    jokers=entries.jokers.get(label, 0),
                )
                for round_, entries in zip(stored, engine_rounds, strict=True)
                for seat, label in zip(rows.seats, rows.players, strict=True)
                if label in entries.hands
            )
            game.ended_at_time_limit = ended_at_time_limit
            game._store(game.rows(), result, first_changed=1)
            if game.finished:
                # Nothing is logged here: the standings move all the same.
                move_standings(game.table.session.tournament_id)
        self._take_state(game)
        self._rerate(game)
        return result

    def restore_history(
        self,
        changes: Sequence[GameChange],
        *,
        finished_at: datetime | None,
        signed_off_at: datetime | None,
        signed_off_by,
        version: int,
    ) -> None:
        """Put back what an import recorded beside the rounds (after `store_rounds`).

        `changes` is the audit log as recorded (unsaved, in order); `finished_at` the moment
        the game finished, at the time limit or not (None keeps the stored one); the sign-off
        and the version as they were. Nothing is rescored and nothing new is logged.
        """
        with transaction.atomic():
            game = self._locked()
            if signed_off_at is not None and not game.finished:
                raise GameError("sign_off_unfinished", "game")
            if game.finished and finished_at is not None:
                game.finished_at = finished_at
            game.signed_off_at = signed_off_at
            game.signed_off_by = signed_off_by
            game.version = version
            game.save(update_fields=["finished_at", "signed_off_at", "signed_off_by", "version"])
            for change in changes:
                change.game = game
            GameChange.objects.bulk_create(changes)
            if any(change.standing for change in changes):
                move_standings(game.table.session.tournament_id)
        self._take_state(game)
        self._rerate(game)

    # --- helpers of the state changes ----------------------------------------

    def _rerate(self, game: Game) -> None:
        """Once a change of a finished game (or one it finished) commits, the ratings follow
        it, outside the change's transaction: a round never waits for them nor fails by them."""
        if game.finished or game._was_finished:
            signals.finished_game_changed.send(sender=Game, game_id=game.pk)

    def _take_state(self, game: Game) -> None:
        """Adopt the locked copy's new state, keeping this instance's loaded relations."""
        if game.finished and not game._was_finished:
            signals.game_finished.send(sender=Game, game=game)
        elif game.signed_off_at and not self.signed_off_at:
            signals.sheet_signed_off.send(sender=Game, game=game)
        for field in (
            "round_count",
            "finished",
            "ended_at_time_limit",
            "finished_at",
            "version",
            "signed_off_at",
            "signed_off_by_id",
        ):
            setattr(self, field, getattr(game, field))

    def _locked(self, version: int | None = None, client_id: UUID | None = None) -> Game:
        game = (
            # Lock only the game row: other tables of the session go on meanwhile.
            Game.objects.select_for_update(of=("self",))
            .select_related("table__session__tournament")
            .get(pk=self.pk)
        )
        game._was_finished = game.finished
        # A repeat is recognised before its version: it was made on the sheet it saw.
        game._check_not_applied(client_id)
        if version is not None and version != game.version:
            raise SheetChanged()
        return game

    def _locked_with_seats(self) -> tuple[Game, list[Seat]]:
        """The game and its seats clockwise (with players), both locked, in one raw statement
        (`tournaments.models.raw_reads`: why not through the ORM)."""
        # One table object for every seat and the game, with its session and tournament as
        # the caller loaded them (the access check does): not read again under the lock.
        table = self._table_with_tournament()
        connection = connections[router.db_for_write(Game, instance=self)]
        with connection.cursor() as cursor:
            cursor.execute(_locked_seats_sql(connection), [self.pk])
            read = cursor.fetchall()
        if not read:
            raise GameError("player_count", "players", low=2, high=8)
        seats = []
        for row in read:
            seat, player, game = raw_reads.instances((Seat, Player, Game), row, connection)
            seat.player, seat.table = player, table  # type: ignore[union-attr]
            seats.append(cast(Seat, seat))
        game = cast(Game, game)
        game._was_finished = game.finished
        game.table = table
        return game, seats

    def _table_with_tournament(self) -> Table:
        """This game's table with its session and tournament: as loaded with the game, else
        read in one query."""
        table = self.table if Game.table.is_cached(self) else None
        if (
            table is None
            or not Table.session.is_cached(table)
            or not Session.tournament.is_cached(table.session)
        ):
            table = Table.objects.select_related("session__tournament").get(pk=self.table_id)
        return table

    def _check_not_applied(self, client_id: UUID | None) -> None:
        """A change a device sends again (a replayed outbox) is applied once."""
        if client_id is not None and self._applied(client_id):
            raise AlreadyApplied(self.version)

    @staticmethod
    def _applied(client_id: UUID) -> bool:
        """Whether the device's change `client_id` is stored (client ids are unique)."""
        return GameChange.objects.filter(client_id=client_id).exists()

    def rounds_stored_since(
        self, known: int, mine: Collection[UUID] = ()
    ) -> list[tuple[Round, rules.Round]]:
        """The rounds recorded or corrected after version `known` by other changes than
        `mine` (the phone's own, stored since), with their entries as stored now. No query
        when every change since is the phone's own (a phone in step)."""
        if self.version <= known + len(mine):
            return []
        numbers = set(
            self.changes.filter(version__gt=known, action__in=_ENTERING)
            .exclude(client_id__in=list(mine))
            .values_list("round_number", flat=True)
        )
        if not numbers:
            return []
        rows = self.rows()
        return [(each, rows.entries(each)) for each in rows.rounds if each.number in numbers]

    def check_not_stored_since(
        self,
        entries: rules.Round,
        number: int,
        *,
        known: int,
        mine: Collection[UUID] = (),
        client_id: UUID | None = None,
    ) -> None:
        """`AlreadyStored` if a round stored since version `known` (not by `mine`) has these
        entries under another number: the same round, typed on two phones. Under the same
        number it is answered as that round (`_append`); a change sent again (its client id
        stored) is answered as applied."""
        for existing, stored in self.rounds_stored_since(known, mine):
            if existing.number != number and same_entries(stored, entries):
                if client_id is not None and self._applied(client_id):
                    return
                raise AlreadyStored(existing, entries)

    def _over(self, number: int) -> GameError:
        return GameError("game_over", "rounds", round_number=number)

    def _stored_round(self, rows: GameRows, number: int) -> Round:
        if not 1 <= number <= len(rows.rounds):
            raise GameError("no_such_round", "rounds", number=number)
        return rows.rounds[number - 1]

    def _ending(self, entries: rules.Round, rows: GameRows) -> dict[str, object]:
        kind = rules.round_kind(entries, self.ruleset)
        return {
            "kind": kind.value,
            "caller": rows.seat_for(entries.yaniv) if entries.yaniv else None,
            "empty_hand": rows.seat_for(entries.empty_hand) if entries.empty_hand else None,
        }

    def _store(
        self, rows: GameRows, result: rules.GameResult, *, first_changed: int | None
    ) -> None:
        """Cache the engine's numbers on the rows; rounds before a change keep theirs."""
        if self.finished:
            # The players agreed to a sheet that is no more.
            Confirmation.objects.filter(game=self).delete()
        labels = rows.labels
        changed = []
        for stored, scored in zip(rows.rounds, result.rounds, strict=True):
            if first_changed is None or stored.number < first_changed:
                continue
            for hand in stored.hands.all():
                for field, value in scored_hand(scored, labels[hand.seat_id]).items():
                    setattr(hand, field, value)
                changed.append(hand)
            if stored.kind != scored.kind.value:
                stored.kind = scored.kind.value
                stored.save(update_fields=["kind"])
        if changed:
            Hand.objects.bulk_update(changed, SCORED_FIELDS)
        ranks = {placing.player: placing.rank for placing in result.ranking}
        for seat in rows.seats:
            seat.total = result.totals[labels[seat.pk]]
            seat.rank = ranks[labels[seat.pk]]
            seat.out_after = result.out_in_round.get(labels[seat.pk])
        save_standing(rows.seats)
        self.round_count = len(rows.rounds)
        finished = result.finished or self.ended_at_time_limit
        if finished and not self.finished:
            self.finished_at = timezone.now()
        elif not finished:
            # A correction that reopens the game voids its sign-off.
            self.finished_at = None
            self.signed_off_at = None
            self.signed_off_by = None
        self.finished = finished
        self.version += 1
        self.save(
            update_fields=[
                "round_count",
                "finished",
                "ended_at_time_limit",
                "finished_at",
                "version",
                "signed_off_at",
                "signed_off_by",
            ]
        )

    def _log(
        self,
        action: str,
        by: Any,
        number: int | None,
        before: rules.Round | None,
        after: rules.Round | None,
        reason: str,
        client_id: UUID | None = None,
    ) -> None:
        user = _user(by)
        change = GameChange(
            game=self,
            tournament_id=self.table.session.tournament_id,
            # The standings move when a game finishes, or when a finished one changes.
            standing=self.finished or self._was_finished,
            client_id=client_id,
            action=action,
            round_number=number,
            user=user,
            code=by if isinstance(by, TableCode) else None,
            before=round_to_record(before, self.ruleset) if before else None,
            after=round_to_record(after, self.ruleset) if after else None,
            reason=reason,
            version=self.version,
        )
        change.save(force_insert=True)
        if change.standing:
            move_standings(self.table.session.tournament_id)
        logger.info(
            "game change: %s round=%s table=%s by=%s version=%s",
            action,
            number,
            self.table_id,
            user.get_username() if user else ("table code" if by else None),
            self.version,
        )


def _locked_seats_sql(connection: Any) -> str:
    """A round's write's read: the seats clockwise with their players and the game, the game
    row and the seats locked (not the table or the session: the session's other tables go on;
    SQLite has no row locks, its write transaction holds the database)."""
    if connection.vendor not in _LOCKED_SEATS_SQL:
        quote = connection.ops.quote_name
        seat, player, game = (quote(m._meta.db_table) for m in (Seat, Player, Game))
        selected = ", ".join(
            raw_reads.columns(model, alias, connection)
            for model, alias in ((Seat, "s"), (Player, "p"), (Game, "g"))
        )
        lock = " FOR UPDATE OF s, g" if connection.features.has_select_for_update_of else ""
        _LOCKED_SEATS_SQL[connection.vendor] = (
            f"SELECT {selected} FROM {seat} s JOIN {game} g ON g.table_id = s.table_id "
            f"JOIN {player} p ON p.id = s.player_id WHERE g.id = %s ORDER BY s.position{lock}"
        )
    return _LOCKED_SEATS_SQL[connection.vendor]


# The locked read's statement for each database, quoted for it (made at the first read).
_LOCKED_SEATS_SQL: dict[str, str] = {}
