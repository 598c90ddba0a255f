"""Version 1 of the public read API, mounted at /api/v1/ by the project's URLs.

Its OpenAPI 3 description is made from the code at /api/v1/openapi.json; the interactive
page (Swagger UI) is /api/v1/docs, served from django-ninja's own static files ("ninja" is an
installed app for that alone): no script or style from elsewhere, as the site's
Content-Security-Policy requires.
"""

from __future__ import annotations

from ninja import NinjaAPI, Swagger
from ninja.renderers import JSONRenderer

from api import players, ratings, seasons, statistics, tournaments
from api.http import AddressThrottle, install_error_handlers


class Utf8Renderer(JSONRenderer):
    """JSON as UTF-8 text: players' names read as they are written (Hélène, not H\\u00e9l…)."""

    json_dumps_params = {"ensure_ascii": False}


api = NinjaAPI(
    title="Yaniv Club",
    version="1",
    description=(
        "The public data of the site, read-only: the public tournaments (drafts and private "
        "tournaments never appear), their sessions, tables with each game as a game record, "
        "the standings, the players, the public seasons with their standings, and the "
        "ratings as the players' pages show them. Lists are pages (`limit`, `offset`, "
        "`count`). Every answer carries an `ETag`: send it back in `If-None-Match` to get "
        "`304 Not Modified` while nothing changed. Every operation answers `HEAD` (no body) "
        "and `OPTIONS`, and any web page may read it from a browser (CORS: any origin, no "
        "credentials). Requests are limited per client address (`429` with `Retry-After`). "
        "Errors are JSON with a `code`, a `405` for any other method included. A "
        "tournament with a final: its `standings` are the official ones (the final's order "
        "first, with its carry-over), a session's standings its games alone. Yaniv statistics "
        "(a player's, each player's in a tournament, a tournament's facts) are computed from "
        "the recorded hands."
    ),
    urls_namespace="api-v1",
    throttle=[AddressThrottle()],
    renderer=Utf8Renderer(),
    # No validator badge: Swagger UI would send the description's address to its online
    # validator (an image from elsewhere, which the Content-Security-Policy refuses anyway).
    docs=Swagger(settings={"validatorUrl": None}),
)
install_error_handlers(api)
api.add_router("", tournaments.router)
api.add_router("", players.router)
api.add_router("", seasons.router)
api.add_router("", ratings.router)
api.add_router("", statistics.router)
