"""Schemathesis against the site's own OpenAPI description (issue 16, the API's tests).

The description is read from /api/v1/openapi.json of the site itself (its WSGI application,
in this process, on the test database), then every operation is called with requests made
from it: path parameters either as generated or the real ones (so that most calls reach a
tournament, session, table, player or season), queries and headers as generated. Every answer
must be no server error and conform to the description (status, content type, headers, body).
Bounded: `EXAMPLES` per operation.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from tests.api.conftest import HIDDEN_SLUGS, SEASON_SLUG, World
from tests.profiles import sized
from tournaments.models import Player

# Examples per operation (under CI; the profile's share of them locally): the whole run
# stays well under a minute.
EXAMPLES = sized(30)


# The description, as the site serves it (no database needed to make it).
schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", WSGIHandler())
# The real path parameters of the test's world (filled by `real_parameters`).
REAL: dict[str, list[Any]] = {}


def _valid(name: str, value: Any) -> bool:
    """Whether a generated path parameter is within the description's bounds."""
    if name == "slug":
        return isinstance(value, str) and re.fullmatch(r"[-a-zA-Z0-9_]{1,80}", value) is not None
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def _real(name: str) -> Any:
    # Deferred: the real values are known once the test's world is made.
    return st.deferred(lambda: st.sampled_from(REAL[name]))


@schema.hook
def flatmap_path_parameters(context: Any, path_parameters: dict[str, Any]) -> Any:
    """Valid generated path parameters, or the real ones (three times in four, so that most
    requests reach something to answer with); invalid ones as they are (the negative cases:
    they must be refused)."""
    if not path_parameters or not all(
        _valid(name, value) for name, value in path_parameters.items()
    ):
        return st.just(path_parameters)
    chosen = {name: _real(name) for name in path_parameters}
    return st.integers(0, 3).flatmap(
        lambda pick: st.just(path_parameters) if pick == 0 else st.fixed_dictionaries(chosen)
    )


@pytest.fixture
def real_parameters(world: World) -> Iterator[None]:
    REAL.update(
        # The listed tournament and the public season, more often than the hidden ones (which
        # answer 404); a season's address is a tournament's unknown one, and the other way.
        slug=[world.championship.slug] * 4 + [SEASON_SLUG] * 4 + list(HIDDEN_SLUGS),
        number=[1, 2, 3],
        table=[1, 2],
        player_id=list(Player.objects.values_list("pk", flat=True)),
    )
    # As Django's test client does: the test database lives in one transaction, which the end
    # of a request must not close.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
        REAL.clear()


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
def test_every_answer_is_no_server_error_and_conforms_to_the_description(
    case: Any, real_parameters: None
) -> None:
    case.call_and_validate()
