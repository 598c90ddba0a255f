"""What each event tells whom: the messages of one event, each worded in its phone's language.

Every function here runs in a task, after the change committed: it reads the rows as they are
now (a redraw since the task was queued is what the player sees), and returns the event's
name, its tournament and its drafts. A draft names the player it concerns (None: the
tournament's announcements), a key that makes it once per phone, and how to word it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

from django.urls import reverse
from django.utils.translation import gettext

from hall.models import HallScreen
from tournaments.models import Dispute, Game, Seat, Session, Table, Tournament


@dataclass(frozen=True)
class Draft:
    player_id: int | None
    key: str
    # Called with the phone's language active: (title, body).
    words: Callable[[], tuple[str, str]]
    url: str
    # A referee's account instead of a player (then `player_id` is None).
    referee_id: int | None = None


@dataclass(frozen=True)
class Event:
    name: str
    tournament: Tournament
    drafts: list[Draft]
    # Keys of messages this event replaces, for a player still waiting for them (a draw
    # moved before its first message went): a key prefix.
    replaces: str = ""


def _player_url(tournament: Tournament, player_id: int) -> str:
    if tournament.is_public:
        return reverse("public:player", args=[tournament.slug, player_id])
    # A private tournament's pages are for its staff: the phone opens the site.
    return reverse("public:home")


def _table_title(session: Session, table_number: int) -> str:
    return gettext("Session %(session)s, table %(table)s") % {
        "session": session.number,
        "table": table_number,
    }


def draw(session_id: int) -> Event | None:
    session = Session.objects.select_related("tournament").filter(pk=session_id).first()
    if session is None:
        return None
    tournament = session.tournament
    seats = Seat.objects.filter(table__session=session).select_related("table")
    moved = set(session.moved_players)
    drafts = []
    for seat in seats:
        numbers = {"session": session.number, "table": seat.table.number, "seat": seat.position}

        def words(numbers: dict[str, int] = numbers, moved: bool = seat.player_id in moved):
            text = (
                gettext("Session %(session)s, changed: table %(table)s, seat %(seat)s")
                if moved
                else gettext("Session %(session)s: table %(table)s, seat %(seat)s")
            )
            return tournament.name, text % numbers

        drafts.append(
            Draft(
                seat.player_id,
                f"draw:{session.pk}:{seat.table.number}:{seat.position}",
                words,
                _player_url(tournament, seat.player_id),
            )
        )
    return Event(f"draw:{session.pk}", tournament, drafts, replaces=f"draw:{session.pk}:")


def _game(game_id: int) -> Game | None:
    return Game.objects.select_related("table__session__tournament").filter(pk=game_id).first()


def game_over(game_id: int) -> Event | None:
    game = _game(game_id)
    if game is None or not game.finished:
        return None
    session = game.table.session
    tournament = session.tournament
    seats = list(game.table.seats.all())
    drafts = []
    for seat in seats:
        numbers = {"rank": seat.rank, "players": len(seats), "total": seat.total}

        def words(numbers: dict[str, int | None] = numbers) -> tuple[str, str]:
            return _table_title(session, game.table.number), gettext(
                "Game over: rank %(rank)s of %(players)s, with %(total)s points."
            ) % numbers

        drafts.append(
            Draft(
                seat.player_id,
                f"over:{game.pk}",
                words,
                _player_url(tournament, seat.player_id),
            )
        )
    return Event(f"over:{game.pk}", tournament, drafts)


def signed_off(game_id: int) -> Event | None:
    game = _game(game_id)
    if game is None or game.signed_off_at is None:
        return None
    session = game.table.session
    tournament = session.tournament

    def words() -> tuple[str, str]:
        return _table_title(session, game.table.number), gettext(
            "Your sheet was signed off: the result counts."
        )

    drafts = [
        Draft(player_id, f"signed:{game.pk}", words, _player_url(tournament, player_id))
        for player_id in game.table.seats.values_list("player_id", flat=True)
    ]
    return Event(f"signed:{game.pk}", tournament, drafts)


def corrected(game_id: int, number: int, version: int, changes: list[list]) -> Event | None:
    """`changes`: [name, hand before, hand after] of each player whose hand changed."""
    game = _game(game_id)
    if game is None:
        return None
    session = game.table.session
    tournament = session.tournament

    def words() -> tuple[str, str]:
        if changes:
            what = ", ".join(f"{name} {before} → {after}" for name, before, after in changes)
            text = gettext("Round %(round)s was corrected: %(changes)s.") % {
                "round": number,
                "changes": what,
            }
        else:
            text = gettext("Round %(round)s was corrected: who called Yaniv or went along.") % {
                "round": number
            }
        return _table_title(session, game.table.number), text

    drafts = [
        Draft(
            player_id,
            f"correct:{game.pk}:{version}",
            words,
            _player_url(tournament, player_id),
        )
        for player_id in game.table.seats.values_list("player_id", flat=True)
    ]
    return Event(f"correct:{game.pk}:{version}", tournament, drafts)


def dispute_answered(dispute_id: int) -> Event | None:
    """The table raised it (its referee or a phone with its code): its players hear back."""
    dispute = (
        Dispute.objects.select_related("game__table__session__tournament")
        .filter(pk=dispute_id)
        .exclude(status=Dispute.Status.OPEN)
        .first()
    )
    if dispute is None:
        return None
    table = dispute.game.table
    tournament = table.session.tournament

    def words() -> tuple[str, str]:
        text = (
            gettext("The director corrected the sheet: %(answer)s")
            if dispute.status == Dispute.Status.RESOLVED
            else gettext("The director answered: %(answer)s")
        ) % {"answer": dispute.answer}
        return _table_title(table.session, table.number), text

    drafts = [
        Draft(player_id, f"dispute:{dispute.pk}", words, _player_url(tournament, player_id))
        for player_id in table.seats.values_list("player_id", flat=True)
    ]
    return Event(f"dispute:{dispute.pk}", tournament, drafts)


def hall_message(screen_id: int, message: str) -> Event | None:
    """The director's message as a hall screen showed it, to the phones opted in to
    announcements; the same words on two screens are one message."""
    screen = HallScreen.objects.select_related("tournament").filter(pk=screen_id).first()
    message = message.strip()
    if screen is None or not message:
        return None
    tournament = screen.tournament
    digest = hashlib.sha256(message.encode()).hexdigest()[:16]
    url = (
        reverse("public:tournament", args=[tournament.slug])
        if tournament.is_public
        else reverse("public:home")
    )
    draft = Draft(None, f"hall:{digest}", lambda: (tournament.name, message), url)
    return Event(f"hall:{tournament.pk}:{digest}", tournament, [draft])


def _to_referee(table: Table, key: str, words: Callable[[], tuple[str, str]]) -> Event:
    """One message to the phones of `table`'s referee, opening the table's page."""
    draft = Draft(
        None, key, words, reverse("tables:detail", args=[table.pk]), referee_id=table.referee_id
    )
    return Event(key, table.session.tournament, [draft])


def dispute_raised(dispute_id: int) -> Event | None:
    """ "Something's wrong?" at a table: its referee's phones hear it."""
    dispute = (
        Dispute.objects.select_related("game__table__session__tournament")
        .filter(pk=dispute_id)
        .first()
    )
    if dispute is None or dispute.game.table.referee_id is None:
        return None
    table = dispute.game.table

    def words() -> tuple[str, str]:
        text = (
            gettext("A dispute about round %(round)s: %(text)s")
            % {"round": dispute.round_number, "text": dispute.text}
            if dispute.round_number
            else gettext("A dispute about the whole sheet: %(text)s") % {"text": dispute.text}
        )
        return _table_title(table.session, table.number), text

    return _to_referee(table, f"raised:{dispute.pk}", words)


LAST_MINUTES = 5


def last_minutes(table_id: int, ends_at: str) -> Event | None:
    """Five minutes left at a table, for its referee: only while the clock still ends at the
    moment the task was planned for (a pause or an extension since plans another)."""
    table = Table.objects.select_related("session__tournament").filter(pk=table_id).first()
    if table is None or table.referee_id is None:
        return None
    state = table.session.clock(table)
    if state.ends_at is None or state.ends_at.isoformat() != ends_at or state.over:
        return None

    def words() -> tuple[str, str]:
        return _table_title(table.session, table.number), gettext(
            "%(minutes)s minutes left on the clock."
        ) % {"minutes": LAST_MINUTES}

    return _to_referee(table, f"clock:{table.pk}:{ends_at}", words)


EVENTS: dict[str, Callable[..., Event | None]] = {
    "last_minutes": last_minutes,
    "dispute_raised": dispute_raised,
    "draw": draw,
    "game_over": game_over,
    "signed_off": signed_off,
    "corrected": corrected,
    "dispute_answered": dispute_answered,
    "hall_message": hall_message,
}
