"""What the standings mark beside a player, in words: the penalty and bonus points in force
(game points at a table, placement points in the standings), the games a seat changed hands
in (who played which rounds, and whom the result counts for), and a game total the house
rules took away from the sum of its rounds (a streak bonus, a reset). The standings page,
the hall, the PDFs, the CSV and the API print the same notes."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import F, Q
from django.utils.translation import gettext

from tournaments.models import Adjustment, Hand, Session, Substitution, Tournament


@dataclass(frozen=True)
class Note:
    """One mark's reason: what it is (`kind`: "penalty", "bonus" or "substitute") and the
    sentence the pages print."""

    kind: str
    text: str


def standings_notes(
    tournament: Tournament, session: Session | None = None
) -> dict[int, list[Note]]:
    """Player id → the notes of the standings overall or of one session: nothing to read
    (no query) for a tournament that never gave points nor took a substitute."""
    notes: dict[int, list[Note]] = defaultdict(list)
    if tournament.has_adjustments:
        # As the standings count games: game points once their game is over.
        given = Adjustment.objects.filter(tournament=tournament, removed_at__isnull=True).exclude(
            unit=Adjustment.Unit.GAME, seat__table__game__finished=False
        )
        if session is not None:
            given = given.filter(seat__table__session=session)
        for adjustment in given.select_related("seat__table__session").order_by("given_at", "pk"):
            text = f"{adjustment.short}, {adjustment.where}"
            notes[adjustment.player_id].append(Note(adjustment.kind, text))
    if tournament.has_substitutes:
        _substitutes(tournament, session, notes)
    if tournament.ruleset.streak_bonus:
        # Only streak rules take a total away from its rounds' sum on every table: one query
        # then, none otherwise (a player joining is noted with them; their sheet says it too).
        _house_rules(tournament, session, notes)
    return dict(notes)


def _house_rules(
    tournament: Tournament, session: Session | None, notes: dict[int, list[Note]]
) -> None:
    """A finished game's total that is not the sum of its rounds' points (issue 37): each
    streak bonus and reset, and the total a player joining started on, where it happened (one
    query)."""
    found = Hand.objects.filter(
        round__game__table__session__tournament=tournament, round__game__finished=True
    ).filter(~Q(bonus=0) | Q(reset=True) | Q(round__joined_id=F("seat_id")))
    if session is not None:
        found = found.filter(round__game__table__session=session)
    for hand in found.order_by(
        "round__game__table__session__number", "round__game__table__number", "round__number"
    ).values(
        "round__number",
        "round__game__table__session__number",
        "round__game__table__number",
        "round__joined_id",
        "seat_id",
        "seat__player_id",
        "points",
        "reduction",
        "total",
        "bonus",
        "reset",
    ):
        player_id, bonus, reset = hand["seat__player_id"], hand["bonus"], hand["reset"]
        where = {
            "round": hand["round__number"],
            "session": hand["round__game__table__session__number"],
            "table": hand["round__game__table__number"],
        }
        if hand["round__joined_id"] == hand["seat_id"] and not reset:
            start = hand["total"] - hand["points"] + hand["reduction"] - bonus
            text = gettext(
                "joined the game at %(amount)s before round %(round)s at session %(session)s, "
                "table %(table)s"
            ) % {**where, "amount": start}
            notes[player_id].append(Note("joined", text))
        if bonus:
            text = gettext(
                "%(amount)s streak bonus in round %(round)s at session %(session)s, table "
                "%(table)s"
            ) % {**where, "amount": f"{bonus:+d}"}
            notes[player_id].append(Note("streak", text))
        if reset:
            text = (
                gettext(
                    "back to 0 after an Assaf streak in round %(round)s at session %(session)s, "
                    "table %(table)s"
                )
                % where
            )
            notes[player_id].append(Note("streak", text))


def _substitutes(
    tournament: Tournament, session: Session | None, notes: dict[int, list[Note]]
) -> None:
    found = Substitution.objects.filter(
        seat__table__session__tournament=tournament, seat__table__game__finished=True
    )
    if session is not None:
        found = found.filter(seat__table__session=session)
    credit = tournament.get_substitute_credit_display()
    for change in found.select_related("seat__table__session", "player_out", "player_in").order_by(
        "seat__table__session__number", "seat__table__number", "from_round"
    ):
        table = change.seat.table
        where = {"session": table.session.number, "table": table.number}
        left = gettext(
            "left after round %(round)s at session %(session)s, table %(table)s; "
            "%(name)s took the seat (the game counts for: %(credit)s)"
        ) % {
            **where,
            "round": change.from_round - 1,
            "name": change.player_in.name,
            "credit": credit,
        }
        came = gettext(
            "took %(name)s's seat from round %(round)s at session %(session)s, table "
            "%(table)s (the game counts for: %(credit)s)"
        ) % {**where, "round": change.from_round, "name": change.player_out.name, "credit": credit}
        notes.setdefault(change.player_out_id, []).append(Note("substitute", left))
        notes.setdefault(change.player_in_id, []).append(Note("substitute", came))
