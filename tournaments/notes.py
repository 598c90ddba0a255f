"""What the standings mark beside a player, in words: the penalty and bonus points in force
(game points at a table, placement points in the standings) and the games a seat changed
hands in (who played which rounds, and whom the result counts for). The standings page, the
hall, the PDFs, the CSV and the API print the same notes."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.utils.translation import gettext

from tournaments.models import Adjustment, Session, Substitution, Tournament


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
    return dict(notes)


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
