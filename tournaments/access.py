"""Who may do what: the one place the site decides it.

Roles: anyone may follow a public tournament; its directors (and superusers) direct it; a
table's referee records its rounds while the session runs. Every view gets its object
through a `get_…` helper here: 404 for who may not see it (a private tournament's name
stays hidden), 403 for who may see it but not do this.

The same rules as queries — what a user may see in a list or a select, what the public lists
show — are the models' managers (`tournaments.models.visibility`):
`Tournament.objects.visible_to(user)` is `can_view` for many, `Season.objects.visible_to(user)`
is `can_view_season`, `Tournament.objects.countable_by(user)` is `can_count_in_season`, and
`.listed()` is what anyone sees listed (public, not a draft).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any, NamedTuple, TypeVar, cast

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db import connections, router
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Model
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from tournaments.addresses import client_network, count
from tournaments.clock import clock_state
from tournaments.models import (
    Door,
    Game,
    Player,
    Seat,
    Session,
    Table,
    TableCode,
    Tournament,
    raw_reads,
)

T = TypeVar("T")

# --- questions ------------------------------------------------------------------


def can_direct(user: Any, tournament: Tournament) -> bool:
    return tournament.is_director(user)


def can_view(user: Any, tournament: Tournament) -> bool:
    """Public tournaments for anyone; a private one for its directors and referees only."""
    if tournament.is_public:
        return True
    if not user.is_authenticated:
        return False
    return (
        can_direct(user, tournament)
        or Table.objects.filter(session__tournament=tournament, referee=user).exists()
    )


def can_referee(user: Any, table: Table) -> bool:
    """Directors at their tournaments; a referee at their table while it plays."""
    if not user.is_authenticated:
        return False
    tournament = table.session.tournament
    # The referee first: it needs no query (a round's submission is the busiest write).
    # A signed-off sheet is closed to the referee: only a director changes it.
    if (
        not table.game.signed_off
        and table.referee_id == user.pk
        and table.session.status == Session.Status.RUNNING
        and tournament.status == Tournament.Status.RUNNING
    ):
        return True
    return can_direct(user, tournament)


def can_sign_off(user: Any, table: Table) -> bool:
    """Directors; the table's referee while the tournament runs, its session finished or not:
    the players check the sheet once the clock has ended play (issue 33.6)."""
    if not user.is_authenticated:
        return False
    if (
        table.referee_id == user.pk
        and not table.game.signed_off
        and table.session.tournament.status == Tournament.Status.RUNNING
    ):
        return True
    return can_direct(user, table.session.tournament)


def can_see_names(user: Any, table: Table) -> bool:
    """Account names (who entered, who changed) are for the people running the table."""
    return user.is_authenticated and (
        table.referee_id == user.pk or can_direct(user, table.session.tournament)
    )


def can_create_tournament(user: Any) -> bool:
    return user.is_authenticated and user.has_perm("tournaments.add_tournament")


# --- the objects a view works on ------------------------------------------------


def get_tournament_for_viewer(request: HttpRequest, slug: str) -> Tournament:
    """The tournament, or 404 for anyone who may not see it (names stay hidden)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    if not can_view(request.user, tournament):
        raise Http404("No such tournament.")
    return tournament


def get_tournament_for_director(request: HttpRequest, slug: str) -> Tournament:
    """The tournament, or 404 for who may not see it and 403 for who may only read it."""
    tournament = get_object_or_404(Tournament, slug=slug)
    if can_direct(request.user, tournament):
        return tournament
    if not can_view(request.user, tournament):
        raise Http404("No such tournament.")
    raise PermissionDenied(gettext("Only a director of the tournament can do this."))


def get_session_for_director(request: HttpRequest, slug: str, number: int) -> Session:
    tournament = get_tournament_for_director(request, slug)
    session = get_object_or_404(tournament.sessions.all(), number=number)
    # The same tournament object: its director check is remembered.
    session.tournament = tournament
    return session


def require_superuser(request: HttpRequest) -> None:
    """Merging players is the administrators': 404 for anyone else (the page stays hidden)."""
    if not (request.user.is_authenticated and request.user.is_superuser):
        raise Http404("No such page.")


# --- table codes: a table's entry page without an account ------------------------------


class TooManyGuesses(Exception):
    """A wrong table code or screen link from an address (or a site) that guessed too many:
    answer 429 with Retry-After (seconds) instead of 404."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(retry_after)
        self.retry_after = retry_after


def guessed(request: HttpRequest, find: Callable[[], T | None]) -> T:
    """What `find` finds, whoever asks: a right code or screen link is never refused (at a
    club night every phone shares the venue's one public address). Only wrong guesses count,
    in fixed windows of CODE_GUESS_WINDOW seconds: past CODE_GUESSES from one address, or
    CODE_GUESSES_ALL from everyone (many addresses, one guesser), a wrong guess answers 429
    with Retry-After until the window ends, instead of 404. With codes of 160 bits guessing
    is hopeless anyway; the limit makes it loud and keeps it from loading the site."""
    found = find()
    if found is not None:
        return found
    count_wrong_guess(request)
    raise Http404("No such code.")


def count_wrong_guess(request: HttpRequest) -> None:
    """One more wrong guess from the request's address (a code, a screen link, the door's
    short address, a member number or desk code typed at the door): past the limits of
    `guessed`, TooManyGuesses (answered 429 with Retry-After) until the window ends."""
    window = getattr(settings, "CODE_GUESS_WINDOW", 15 * 60)
    now = int(timezone.now().timestamp())
    number = now // window
    mine = count(f"table-code-misses:{number}:{client_network(request)}", window)
    everyone = count(f"table-code-misses:{number}:*", window)
    if mine > getattr(settings, "CODE_GUESSES", 20) or everyone > getattr(
        settings, "CODE_GUESSES_ALL", 500
    ):
        raise TooManyGuesses(retry_after=(number + 1) * window - now)


def find_code(request: HttpRequest, code: str) -> TableCode:
    """The working table code, or 404 (unknown, wrong, revoked and expired look the same);
    guesses limited per address."""

    def working() -> TableCode | None:
        found = TableCode.find(code)
        return found if found is not None and found.works else None

    return guessed(request, working)


def find_door(request: HttpRequest, code: str) -> Door:
    """The door of a short address (open or not: its page says so), or 404; wrong addresses
    counted as a table code's guesses. A private tournament's door opens by its address
    alone, as its screens by their links."""
    return guessed(request, lambda: Door.find(code))


def closed_code(code: str) -> TableCode | None:
    """A code that opens no table now but was once given out (revoked, its session not
    started or finished): its page says why in words. None for a code nobody was given.
    Called after `find_code` refused it, so guesses are counted there."""
    named = TableCode.named(code)
    return named if named is not None and not named.works else None


def why_code_closed(code: str) -> str:
    """Why a table code no longer takes rounds, in words."""
    named = closed_code(code)
    if named is None:
        return gettext("this table's code is not known")
    return named.why_not_working


# What a phone is told when its referee's account is no longer logged in on it.
LOGGED_OUT = gettext_lazy("you are no longer logged in on this phone: log in again to send them")


# The phone's own id: a random value in a signed cookie, set the first time the phone agrees
# to a sheet. Not a secret and not a login: it tells the sheet and the director which seats
# agreed from one phone passed round the table.
DEVICE_COOKIE = "yaniv_device"
DEVICE_SALT = "tournaments.device"


def device_of(request: HttpRequest) -> tuple[str, bool]:
    """The phone's id and whether it is new (the answer must then set the cookie)."""
    device = request.get_signed_cookie(DEVICE_COOKIE, default=None, salt=DEVICE_SALT)
    if device and len(device) == 16 and device.isalnum():
        return device, False
    return secrets.token_hex(8), True


def remember_device(response: HttpResponse, device: str, request: HttpRequest) -> None:
    response.set_signed_cookie(
        DEVICE_COOKIE,
        device,
        salt=DEVICE_SALT,
        max_age=2 * 365 * 24 * 3600,
        httponly=True,
        samesite="Lax",
        secure=request.is_secure(),
    )


@dataclass(frozen=True)
class Entrant:
    """Who records at a table: an account (`user`), or a table code (`code`, no account;
    `typed`: the code as its address has it)."""

    table: Table
    user: Any = None
    code: TableCode | None = None
    typed: str | None = None
    # The table's seats clockwise with their players, as the access check read them (not
    # locked): what the entry form is checked against. Empty where it read none.
    seats: tuple[Seat, ...] = ()

    @property
    def by(self) -> Any:
        """As the game's methods take it: the user, else the code."""
        return self.code if self.code is not None else self.user

    def viewer(self) -> Viewer:
        """What the entrant may see and do on the table page, asked after their change (a
        change that signed the sheet off closed it to them)."""
        return _viewer(self.user, self.table, self.typed)


def _table(request: HttpRequest, table_id: int | None, code: str | None) -> Table:
    """The table as every table view checks it, with its session, tournament, game and
    referee (one query); 404 for who may not see it."""
    if code is not None:
        return find_code(request, code).table
    if table_id is None:
        raise Http404("No such table.")
    table = _table_read(table_id)
    if table is None or not can_view(request.user, table.session.tournament):
        raise Http404("No such table.")
    return table


def _table_read(table_id: int) -> Table | None:
    """The table with its session, tournament, game and referee in one raw statement, each
    object reaching the next as `select_related` leaves them (`tournaments.models.raw_reads`:
    why not through the ORM)."""
    return _table_rows_read(table_id, with_seats=False)[0]


def _table_rows_read(table_id: int, *, with_seats: bool) -> tuple[Table | None, list[Seat]]:
    """`_table_read`, and `with_seats` the table's seats clockwise with their players (one
    row each, in the same statement)."""
    connection = connections[router.db_for_read(Table)]
    with connection.cursor() as cursor:
        cursor.execute(_table_read_sql(connection, with_seats), [table_id])
        rows = cursor.fetchall()
    if not rows:
        return None, []
    table, session, tournament, game, referee = raw_reads.instances(
        _TABLE_MODELS, rows[0], connection
    )
    session.tournament = tournament  # type: ignore[union-attr]
    table.session, table.game, table.referee = session, game, referee  # type: ignore[union-attr]
    seats = []
    offset = sum(map(raw_reads.width, _TABLE_MODELS))
    for row in rows if with_seats else ():
        seat, player = raw_reads.instances((Seat, Player), row[offset:], connection)
        if seat is not None:
            seat.player, seat.table = player, table  # type: ignore[attr-defined]
            seats.append(cast(Seat, seat))
    return cast(Table, table), seats


def _table_read_sql(connection: BaseDatabaseWrapper, with_seats: bool) -> str:
    """The statement of `_table_rows_read` for each database, quoted for it (made once)."""
    key = (connection.vendor, with_seats)
    if key not in _TABLE_READ_SQL:
        quote = connection.ops.quote_name
        every: tuple[type[Model], ...] = (*_TABLE_MODELS, Seat, Player)
        models = every if with_seats else _TABLE_MODELS
        aliases = ("t", "s", "tn", "g", "u", "se", "p")[: len(models)]
        t, s, tn, g, u, se, p = (quote(model._meta.db_table) for model in every)
        selected = ", ".join(
            raw_reads.columns(model, alias, connection)
            for model, alias in zip(models, aliases, strict=True)
        )
        seats = (
            f" LEFT JOIN {se} se ON se.table_id = t.id LEFT JOIN {p} p ON p.id = se.player_id"
            if with_seats
            else ""
        )
        _TABLE_READ_SQL[key] = (
            f"SELECT {selected} FROM {t} t JOIN {s} s ON s.id = t.session_id "
            f"JOIN {tn} tn ON tn.id = s.tournament_id "
            f"LEFT JOIN {g} g ON g.table_id = t.id LEFT JOIN {u} u ON u.id = t.referee_id"
            f"{seats} WHERE t.id = %s" + (" ORDER BY se.position" if with_seats else "")
        )
    return _TABLE_READ_SQL[key]


# What every table view reads of its table, in this order.
_TABLE_MODELS: tuple[type[Model], ...] = (Table, Session, Tournament, Game, get_user_model())
# The statements of `_table_rows_read`, by database and with or without the seats.
_TABLE_READ_SQL: dict[tuple[str, bool], str] = {}


def get_table_for_viewer(
    request: HttpRequest, table_id: int | None = None, code: str | None = None
) -> Table:
    return _table(request, table_id, code)


def public_table_poll(table_id: int) -> tuple[int, str] | None:
    """A public tournament's table as a poll compares it: its game's version and its clock's
    token, in one narrow indexed query (anyone may see it: no user to load). None for a
    table of a private tournament or none at all: the caller then takes the full access
    check.

    The hall's most frequent request, held to 1.5× a bare `/health/`: a parameterised
    statement read with a cursor, since building the same query with the ORM's joins cost
    ten times running it, and even `raw()`'s instance a quarter of it (`bench hotpath`)."""
    connection = connections[router.db_for_read(Table)]
    with connection.cursor() as cursor:
        cursor.execute(_public_table_poll_sql(connection), [table_id])
        found = cursor.fetchone()
    if found is None:
        return None
    version, limit, started_at, paused_at, paused_seconds, extension, table_extension = found
    # The clock as `Session.clock` reads it, on the columns read.
    state = clock_state(
        limit=limit,
        started_at=_as_read(connection, "clock_started_at", started_at),
        paused_at=_as_read(connection, "clock_paused_at", paused_at),
        paused_seconds=paused_seconds,
        extension=extension,
        table_extension=table_extension,
        at=timezone.now(),
    )
    return version, state.token


def _as_read(connection: BaseDatabaseWrapper, name: str, value: Any) -> Any:
    """A column of the session's field `name` as the ORM gives it: through the database's
    converters and the field's own (SQLite's times come naive, in UTC, and leave aware)."""
    column = Session._meta.get_field(name).get_col(Session._meta.db_table)  # type: ignore[union-attr]
    converters = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
    for convert in converters:
        value = convert(value, column, connection)
    return value


def _public_table_poll_sql(connection: BaseDatabaseWrapper) -> str:
    """The poll's statement, its names quoted for the database it runs on."""
    quote = connection.ops.quote_name
    table, session, tournament, game = (
        quote(model._meta.db_table) for model in (Table, Session, Tournament, Game)
    )
    return (
        "SELECT g.version, s.time_limit, s.clock_started_at, s.clock_paused_at, "
        "s.clock_paused_seconds, s.clock_extension, t.clock_extension "
        f"FROM {table} t JOIN {session} s ON s.id = t.session_id "
        f"JOIN {tournament} tn ON tn.id = s.tournament_id "
        f"JOIN {game} g ON g.table_id = t.id "
        "WHERE t.id = %s AND tn.is_public"
    )


def get_entrant(
    request: HttpRequest, table_id: int | None = None, code: str | None = None
) -> Entrant:
    """Who may record at the table: its referee or a director (by account), or anyone with
    the table's code while its session takes table codes; 403 for who may only follow it."""
    if code is not None:
        found = find_code(request, code)
        if found.table.game.signed_off:
            raise PermissionDenied(gettext("The sheet is signed off: only a director changes it."))
        return Entrant(found.table, code=found, typed=code)
    table, seats = _table_with_seats(request, table_id)
    if not can_referee(request.user, table):
        if table.game.signed_off and can_view(request.user, table.session.tournament):
            raise PermissionDenied(gettext("The sheet is signed off: only a director changes it."))
        raise PermissionDenied(
            gettext("Only the table's referee or a director can change this game.")
        )
    return Entrant(table, user=request.user, seats=seats)


def _table_with_seats(
    request: HttpRequest, table_id: int | None
) -> tuple[Table, tuple[Seat, ...]]:
    """As `_table`, with the table's seats and their players in the same query: a round's
    post is checked against them before its write locks them, at no query more."""
    if table_id is None:
        raise Http404("No such table.")
    table, seats = _table_rows_read(table_id, with_seats=True)
    if table is None or not can_view(request.user, table.session.tournament):
        raise Http404("No such table.")
    return table, tuple(seats)


class Viewer(NamedTuple):
    """Who looks at the table page, as the access checks decided once: what they may do and
    see there, and by which address (an account's, or a table code's)."""

    editable: bool
    is_director: bool
    # Account names (who entered, who changed) are for the people running the table.
    show_names: bool
    code: str | None
    table_id: int
    may_sign_off: bool = False

    @property
    def ns(self) -> str:
        """The table page by account (tables:) or by table code (codes:), with the same views."""
        return "codes" if self.code is not None else "tables"

    @property
    def key(self) -> str | int:
        return self.code if self.code is not None else self.table_id

    @property
    def follower(self) -> bool:
        """Someone who only follows the table by account (or none): the same sheet as anyone
        else following it, no entry controls and no account names."""
        return self.code is None and not self.editable and not self.show_names


def table_viewer(request: HttpRequest, table: Table, code: str | None = None) -> Viewer:
    """Who looks at the table page, decided once: its referee or a director, or the holder of
    a working table code, may record there (`editable`); a follower may only follow."""
    if code is not None:
        find_code(request, code)
    return _viewer(request.user, table, code)


def _viewer(user: Any, table: Table, code: str | None) -> Viewer:
    """The viewer by a working table `code` (checked by the caller), else by account."""
    if code is not None:
        return Viewer(
            editable=not table.game.signed_off,
            is_director=False,
            show_names=False,
            code=code,
            table_id=table.pk,
        )
    return Viewer(
        editable=can_referee(user, table),
        is_director=can_direct(user, table.session.tournament),
        show_names=can_see_names(user, table),
        code=None,
        table_id=table.pk,
        may_sign_off=can_sign_off(user, table),
    )


def get_table_for_referee(request: HttpRequest, table_id: int) -> Table:
    """The table for who may record at it by account; 403 for who may only follow it."""
    return get_entrant(request, table_id).table


def get_table_to_sign_off(request: HttpRequest, table_id: int) -> Table:
    """The table for who may sign its sheet off (`can_sign_off`); 403 for anyone else."""
    table = _table(request, table_id, None)
    if not can_sign_off(request.user, table):
        raise PermissionDenied(
            gettext("Only the table's referee or a director can change this game.")
        )
    return table


def get_table_for_director(request: HttpRequest, table_id: int) -> Table:
    table = _table(request, table_id, None)
    if not can_direct(request.user, table.session.tournament):
        raise PermissionDenied(gettext("Only a director of the tournament can do this."))
    return table


# --- decorators -------------------------------------------------------------------


def downloads_limited(view: Callable[..., Any]) -> Callable[..., Any]:
    """At most DOWNLOADS_PER_MINUTE PDF, CSV and JSON downloads from one client address a
    minute (fixed windows), then 429 with Retry-After: a few clients fetching reports in a
    loop slowed the referees' pages (issue 22). The render bound (`caching.RENDERS`) still
    holds the whole site's renders."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        window = 60
        now = int(timezone.now().timestamp())
        number = now // window
        downloads = count(f"downloads:{number}:{client_network(request)}", window)
        if downloads > getattr(settings, "DOWNLOADS_PER_MINUTE", 30):
            wait = (number + 1) * window - now
            response = HttpResponse(
                gettext(
                    "Too many downloads from this address in a minute: try again in "
                    "%(seconds)s seconds."
                )
                % {"seconds": wait},
                status=429,
                content_type="text/plain; charset=utf-8",
            )
            response["Retry-After"] = str(wait)
            response["Cache-Control"] = "no-store"
            return response
        return view(request, *args, **kwargs)

    return wrapper


def login_to_read(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Anonymous GETs go to the login page; anonymous POSTs go on to the permission check
    (and meet the same 403/404 as anyone else's)."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated and request.method in ("GET", "HEAD"):
            return redirect_to_login(request.get_full_path())
        return view(request, *args, **kwargs)

    return wrapper
