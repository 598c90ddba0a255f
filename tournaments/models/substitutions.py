"""A seat that changes hands mid-game, and seats typed wrongly (docs/standings.md).

**Substitutes.** A player who must leave a game being played is replaced at their seat by
another player of the tournament (registered and checked in by the director first if new):
the seat keeps its total, its hands and its game points, the game goes on. The seat's player
is the one sitting there now (the table page, the referee's form and the next rounds name
them); a `Substitution` says who left, who came and from which round. Whom the game's result
credits in the standings is the tournament's setting (`Tournament.substitute_credit`): the
player who began the game, the substitute, or both by the rounds each played (`stints_of`
tells the standings who played what).

**Seats typed wrongly.** Two players whose seats were swapped by mistake change seats: each
keeps their own hands, the game is scored again from its rounds (a false Yaniv's left
neighbour may now be another player), and refused, changing nothing, if the rounds no longer
score as recorded.

Both are changes of the seats beside the rounds, under the game's lock
(`Game.change_seats`), in its audit log.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Hashable, Iterable
from typing import Any

from django.conf import settings
from django.db import models, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring import standings
from scoring.errors import GameError
from scoring.rules import BELGIAN
from tournaments.errors import Refused, sentence
from tournaments.models.adjustments import Adjustment
from tournaments.models.games import Game
from tournaments.models.people import Player
from tournaments.models.registrations import Registration
from tournaments.models.rounds import GameChange, Hand
from tournaments.models.sessions import Session
from tournaments.models.tables import Seat
from tournaments.models.tournaments import Tournament

logger = logging.getLogger(__name__)


class Substitution(models.Model):
    seat = models.ForeignKey(
        Seat, on_delete=models.CASCADE, related_name="substitutions", verbose_name=_("seat")
    )
    player_out = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        related_name="substituted_out",
        verbose_name=_("player who left"),
    )
    player_in = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        related_name="substituted_in",
        verbose_name=_("substitute"),
    )
    # The first round the substitute plays.
    from_round = models.PositiveSmallIntegerField(_("from round"))
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(_("at"), default=timezone.now)

    class Meta:
        ordering = ["seat", "from_round"]
        verbose_name = _("substitute")
        verbose_name_plural = _("substitutes")
        constraints = [
            models.UniqueConstraint(fields=["seat", "from_round"], name="one_substitute_a_round"),
            models.CheckConstraint(
                condition=Q(from_round__gte=2), name="a_substitute_comes_after_a_round"
            ),
            models.CheckConstraint(
                condition=~Q(player_out=models.F("player_in")), name="a_substitute_is_another"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_in} for {self.player_out} from round {self.from_round}"

    @staticmethod
    def stints_of(
        tournament_id: int, session: Session | None = None, stage: str | None = None
    ) -> dict[tuple[Hashable, Hashable], list[standings.Stint]]:
        """`stints_of`, for the tournament's standings (which reach it by the model's name:
        this module comes after theirs)."""
        return stints_of(tournament_id, session, stage)

    @classmethod
    def bring_in(cls, seat: Seat, player: Player, *, by: Any, reason: str = "") -> Substitution:
        """`player` takes `seat` from the next round on, in one transaction: checked in if
        they were not; refused while no round is recorded (the seating changes then), once
        the game is over or the seat is out, or when the player plays or played at this
        table, or plays another game now."""
        table = seat.table
        tournament = table.session.tournament
        made: list[Substitution] = []

        def change(game: Game, seats: list[Seat]) -> str:
            locked = next(found for found in seats if found.pk == seat.pk)
            _check_substitute(game, locked, player, seats)
            made.append(
                cls.objects.create(
                    seat=locked,
                    player_out=locked.player,
                    player_in=player,
                    from_round=game.round_count + 1,
                    reason=reason.strip()[:200],
                    by=by if getattr(by, "is_authenticated", False) else None,
                )
            )
            Seat.objects.filter(pk=locked.pk).update(player=player)
            text = gettext("%(in)s takes %(out)s's seat %(position)s from round %(round)s") % {
                "in": player.name,
                "out": locked.player.name,
                "position": locked.position,
                "round": game.round_count + 1,
            }
            locked.player = player
            return f"{text}: {reason.strip()}" if reason.strip() else text

        with transaction.atomic():
            registration = _present(tournament, player)
            Tournament.objects.filter(pk=tournament.pk, has_substitutes=False).update(
                has_substitutes=True
            )
            tournament.has_substitutes = True
            table.game.change_seats(
                change, by=by, action=GameChange.Action.SUBSTITUTE, rescore=False
            )
            if not registration.checked_in:
                registration.set_checked_in(True)
        seat.refresh_from_db()
        logger.info(
            "substitute: %s for %s at table %s",
            player.name,
            made[0].player_out.name,
            table.pk,
            extra={"tournament": tournament.pk, "player": player.pk},
        )
        return made[0]


def _present(tournament: Tournament, player: Player) -> Registration:
    """The substitute's registration (made if they had none); a withdrawn player returns
    first."""
    registration, _ = Registration.objects.select_for_update().get_or_create(
        tournament=tournament, player=player
    )
    if registration.withdrawn:
        raise Refused("withdrawn_check_in", name=player.name)
    return registration


def _check_substitute(game: Game, seat: Seat, player: Player, seats: list[Seat]) -> None:
    if game.finished:
        raise Refused("substitute_game_over")
    if game.round_count < 1:
        raise Refused("substitute_before_play")
    if seat.out_after is not None:
        raise Refused("substitute_out", name=seat.player.name)
    played_here = Substitution.objects.filter(
        seat__table_id=seat.table_id, player_out=player
    ).exists()
    if played_here or any(found.player_id == player.pk for found in seats):
        raise Refused("substitute_at_table", name=player.name)
    elsewhere = (
        Seat.objects.filter(
            player=player,
            table__session__tournament_id=seat.table.session.tournament_id,
            table__game__finished=False,
            table__session__status=Session.Status.RUNNING,
        )
        .select_related("table__session")
        .first()
    )
    if elsewhere is not None:
        raise Refused(
            "substitute_elsewhere",
            name=player.name,
            table=elsewhere.table.number,
            session=elsewhere.table.session.number,
        )


def swap_seats(game: Game, first: Seat, second: Seat, *, by: Any, reason: str) -> None:
    """Two players' seats were typed the wrong way round: they change seats, each keeping
    their hands, and the game is scored again (refused, nothing changed, if its rounds no
    longer score as recorded). Through a free seat number: a table of the most players has
    none, and is refused."""
    if first.pk == second.pk:
        raise Refused("reseat_same_seat")

    def change(locked: Game, seats: list[Seat]) -> str:
        by_pk = {seat.pk: seat for seat in seats}
        one, other = by_pk[first.pk], by_pk[second.pk]
        taken = {seat.position for seat in seats}
        free = next((n for n in range(1, BELGIAN.max_players + 1) if n not in taken), None)
        if free is None:
            raise Refused("reseat_full_table", count=len(seats))
        # One at a time, through the free number: a seat's number is unique at its table.
        Seat.objects.filter(pk=one.pk).update(position=free)
        Seat.objects.filter(pk=other.pk).update(position=one.position)
        Seat.objects.filter(pk=one.pk).update(position=other.position)
        text = gettext("%(first)s now at seat %(one)s, %(second)s at seat %(other)s") % {
            "first": one.player.name,
            "one": other.position,
            "second": other.player.name,
            "other": one.position,
        }
        return f"{text}: {reason.strip()}" if reason.strip() else text

    try:
        game.change_seats(change, by=by, action=GameChange.Action.RESEAT, rescore=True)
    except GameError as error:
        raise Refused("reseat_changes_game", error=sentence(error)) from error


# --- who played which rounds -----------------------------------------------------------------


def stints_of(
    tournament_id: int, session: Session | None = None, stage: str | None = None
) -> dict[tuple[Hashable, Hashable], list[standings.Stint]]:
    """The seats of finished games that changed hands, as the standings credit them: (table,
    the seat's player now) → who played it in turn, with their rounds and the part of the
    seat's total scored meanwhile (the game points given to each added). Three queries."""
    found = Substitution.objects.filter(
        seat__table__session__tournament_id=tournament_id, seat__table__game__finished=True
    )
    if session is not None:
        found = found.filter(seat__table__session=session)
    elif stage is not None:
        found = found.filter(seat__table__session__stage=stage)
    by_seat: dict[int, list[Substitution]] = defaultdict(list)
    for substitution in found.select_related("seat__table__game").order_by("seat", "from_round"):
        by_seat[substitution.seat_id].append(substitution)
    if not by_seat:
        return {}
    totals: dict[int, dict[int, int]] = defaultdict(dict)
    for seat_id, number, total in Hand.objects.filter(seat_id__in=by_seat).values_list(
        "seat_id", "round__number", "total"
    ):
        totals[seat_id][number] = total
    given: dict[tuple[int, int], int] = defaultdict(int)
    for seat_id, player_id, kind, points in Adjustment.objects.filter(
        seat_id__in=by_seat, unit=Adjustment.Unit.GAME, removed_at__isnull=True
    ).values_list("seat_id", "player_id", "kind", "points"):
        given[seat_id, player_id] += int(points if kind == Adjustment.Kind.PENALTY else -points)
    return {
        (changes[0].seat.table_id, changes[0].seat.player_id): _seat_stints(
            changes, totals[seat_id], given
        )
        for seat_id, changes in by_seat.items()
    }


def _seat_stints(
    changes: list[Substitution], totals: dict[int, int], given: dict[tuple[int, int], int]
) -> list[standings.Stint]:
    """One seat's players in turn: the rounds each played (to the end of the game, or to the
    round the seat went out) and what the seat scored meanwhile."""
    seat = changes[0].seat
    last = seat.table.game.round_count
    if seat.out_after is not None:
        last = min(last, seat.out_after)
    players = [changes[0].player_out_id, *(change.player_in_id for change in changes)]
    starts = [1, *(change.from_round for change in changes), last + 1]

    def total_after(number: int) -> int:
        played = [n for n in totals if n <= number]
        return totals[max(played)] if played else 0

    stints, seen = [], set()
    for player, start, end in zip(players, starts, starts[1:], strict=False):
        end = min(end, last + 1)
        points = total_after(end - 1) - total_after(start - 1) if end > start else 0
        if player not in seen:
            # A player's game points at this seat once, whichever of their turns.
            points += given.get((seat.pk, player), 0)
            seen.add(player)
        stints.append(standings.Stint(player, max(0, end - start), points))
    return stints


def played_rounds(
    seats: Iterable[Seat] | models.QuerySet[Seat],
) -> dict[int, list[tuple[Player, int, int | None]]]:
    """Seat id → who played it in turn: (player, first round, last round or None: on to the
    end), for the seats given (or a query of them) that changed hands (one query)."""
    among: Any = seats if isinstance(seats, models.QuerySet) else [seat.pk for seat in seats]
    found: dict[int, list[Substitution]] = defaultdict(list)
    for substitution in Substitution.objects.filter(seat__in=among).select_related(
        "player_out", "player_in"
    ):
        found[substitution.seat_id].append(substitution)
    turns = {}
    for seat_id, changes in found.items():
        changes.sort(key=lambda change: change.from_round)
        players = [changes[0].player_out, *(change.player_in for change in changes)]
        starts = [1, *(change.from_round for change in changes)]
        ends: list[int | None] = [start - 1 for start in starts[1:]] + [None]
        turns[seat_id] = list(zip(players, starts, ends, strict=True))
    return turns
