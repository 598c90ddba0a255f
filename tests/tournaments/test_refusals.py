"""A refused change: a code and its parameters in the model, words in the reader's language at
the edge, and the answer the request expects (JSON for the script, the place the user acted
for htmx, a page otherwise)."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.contrib.messages.storage.fallback import FallbackStorage
from django.contrib.sessions.backends.signed_cookies import SessionStore
from django.http import HttpResponse
from django.test import RequestFactory
from django.urls import reverse
from django.utils import translation
from django_htmx.middleware import HtmxDetails

from scoring.errors import GameError, SeatingError
from scoring.seasons import SeasonError
from tournaments.errors import REFUSALS, Refused, sentence
from tournaments.models import Player, Registration, Session
from tournaments.views.refusals import answers_refusals

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db


# --- the family: a code, its parameters, words by the code ------------------------------------


def test_a_refusal_is_worded_by_its_code_in_the_active_language():
    refused = Refused("time_limit_range", low=1, high=720)
    assert sentence(refused) == "A time limit is 1 to 720 minutes."
    with translation.override("nl"):
        assert sentence(refused) == "Een tijdslimiet is 1 tot 720 minuten."
    with translation.override("fr"):
        assert sentence(refused) == "Une limite de temps va de 1 à 720 minutes."
    assert refused.code == "time_limit_range"
    assert dict(refused.params) == {"low": 1, "high": 720}


def test_a_refusal_raised_in_one_language_is_read_in_the_readers():
    with translation.override("fr"):
        refused = Refused("clock_started")
    assert str(refused) == "the clock has already started"
    with translation.override("nl"):
        assert str(refused) == "de klok is al gestart"


def test_an_engine_error_and_a_refusal_are_worded_by_the_same_function():
    with translation.override("fr"):
        assert sentence(GameError("game_over", "round")) == "La partie est déjà terminée."
        assert sentence(SeatingError("swap_same_player", player="Ann")) == (
            "Un échange se fait entre deux joueurs différents, pas deux fois Ann."
        )
        assert sentence(SeasonError("coefficient_range", low="0.01", high="100")).startswith(
            "Un coefficient"
        )
        assert sentence(Refused("clock_started")) == "L'horloge a déjà démarré."


def test_a_message_ending_with_a_full_stop_gets_no_second_one():
    refused = Refused("seated_stays", name="Ann", number=2)
    assert sentence(refused) == "Ann is seated in session 2: a seated player stays registered."


def test_a_code_without_a_message_cannot_be_raised():
    with pytest.raises(KeyError, match="no refusal is coded 'clock_broke'"):
        Refused("clock_broke")


@pytest.mark.parametrize("language", ["nl", "fr"])
def test_every_refusal_has_its_translation_with_the_same_parameters(language):
    placeholders = re.compile(r"%\((\w+)\)s")
    for code, message in REFUSALS.items():
        english = str(message)
        with translation.override(language):
            translated = str(message)
        assert translated != english, code
        assert set(placeholders.findall(translated)) == set(placeholders.findall(english)), code


def test_the_models_refuse_with_a_code(table, director):
    session = table.session
    with pytest.raises(Refused) as refused:
        session.set_time_limit(0, by=director)
    assert (refused.value.code, dict(refused.value.params)) == (
        "time_limit_range",
        {"low": 1, "high": 720},
    )


# --- the decorator's answers -------------------------------------------------------------------


@answers_refusals(back="manage:people")
def refusing(request, slug):
    raise Refused("remove_yourself")


@answers_refusals()
def refusing_without_a_page(request, slug):
    raise SeatingError("swap_same_player", player="Ann")


def _request(**headers):
    """A post as the middleware leaves it: a session, messages, htmx's details."""
    request: Any = RequestFactory().post("/refusing/", **headers)
    request.session = SessionStore()
    request._messages = FallbackStorage(request)
    request.htmx = HtmxDetails(request)
    return request


def test_the_pages_script_gets_the_refusal_as_json_with_its_code():
    response = refusing(_request(HTTP_ACCEPT="application/json"), slug="bk")
    assert response.status_code == 400
    assert json.loads(response.content) == {
        "status": "refused",
        "code": "remove_yourself",
        "message": "You cannot remove yourself: ask another director.",
    }


def test_an_htmx_post_keeps_its_target_and_gets_the_message_above_the_page():
    response = refusing(_request(HTTP_HX_REQUEST="true"), slug="bk")
    assert response.status_code == 200
    assert response["HX-Reswap"] == "none"
    html = response.content.decode()
    assert 'data-hx-swap-oob="afterend:#behind-notice"' in html
    assert "You cannot remove yourself: ask another director." in html


def test_a_plain_post_flashes_the_message_and_returns_to_the_page_it_came_from():
    request = _request()
    response = refusing(request, slug="bk")
    assert (response.status_code, response["Location"]) == (302, "/manage/bk/people/")
    assert [str(message) for message in get_messages(request)] == [
        "You cannot remove yourself: ask another director."
    ]


def test_a_plain_post_without_a_page_to_return_to_gets_a_page_saying_why():
    response = refusing_without_a_page(_request(), slug="bk")
    assert response.status_code == 400
    assert "Swapping needs two different players, got Ann twice." in response.content.decode()


def test_a_view_that_does_not_refuse_answers_as_it_would():
    @answers_refusals(back="manage:people")
    def agreeing(request, slug):
        return HttpResponse("done")

    assert agreeing(_request(), slug="bk").content == b"done"


# --- through the site: the place the user acted ------------------------------------------------


def test_a_clock_refused_over_htmx_is_said_in_the_clocks_section(director_client, table):
    session = table.session
    url = reverse("manage:session_clock", args=[session.tournament.slug, session.number])
    response = director_client.post(url, {"action": "start"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "Set a time limit before starting the clock." in response.content.decode()
    assert not session.clock_events.exists()


def test_a_clock_refused_on_a_plain_post_is_the_session_page_at_status_400(director_client, table):
    session = table.session
    url = reverse("manage:session_clock", args=[session.tournament.slug, session.number])
    response = director_client.post(url, {"action": "start"}, HTTP_ACCEPT_LANGUAGE="nl")
    assert response.status_code == 400
    assert "Stel een tijdslimiet in" in response.content.decode()


def test_a_refusal_in_french_is_flashed_in_french(director_client, tournament, director):
    url = reverse("manage:remove_account", args=[tournament.slug, director.pk])
    response = director_client.post(url, HTTP_ACCEPT_LANGUAGE="fr", follow=True)
    texts = [str(message) for message in response.context["messages"]]
    assert texts == [
        "Vous ne pouvez pas vous retirer vous-même\xa0: demandez à un autre directeur."
    ]


def test_a_withdrawal_refused_over_htmx_is_said_in_the_players_row(
    director_client, tournament, director
):
    ann = Player.objects.create(name="Ann Peeters")
    registration = Registration.objects.create(tournament=tournament, player=ann)
    registration.withdraw("ill", by=director)
    url = reverse("manage:withdraw", args=[tournament.slug, registration.pk])
    response = director_client.post(url, {"reason": "again"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "Ann Peeters has already withdrawn." in response.content.decode()


# --- no view meets a bare ValueError -----------------------------------------------------------


def _view_modules() -> list[Path]:
    return [
        *sorted((ROOT / "tournaments" / "views").glob("*.py")),
        *sorted((ROOT / "notifications").glob("views*.py")),
        # The API's endpoints; api/http.py is its plumbing (a cache counter's ValueError).
        *sorted(path for path in (ROOT / "api").glob("*.py") if path.name != "http.py"),
    ]


def _catches_value_error(handler: ast.ExceptHandler) -> bool:
    caught = handler.type
    if caught is None:  # a bare `except:` names nothing
        return False
    names = caught.elts if isinstance(caught, ast.Tuple) else [caught]
    return any(isinstance(name, ast.Name) and name.id == "ValueError" for name in names)


def test_no_view_module_catches_a_bare_value_error():
    modules = _view_modules()
    assert ROOT / "tournaments" / "views" / "sessions.py" in modules
    catching = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in modules
        for node in ast.walk(ast.parse(path.read_text("utf-8")))
        if isinstance(node, ast.ExceptHandler) and _catches_value_error(node)
    ]
    assert catching == []


def test_no_model_raises_a_value_error():
    raising = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in sorted((ROOT / "tournaments" / "models").glob("*.py"))
        for node in ast.walk(ast.parse(path.read_text("utf-8")))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "ValueError"
    ]
    assert raising == []


def test_a_session_that_refuses_is_left_as_it_was(table, director):
    session = table.session
    before = Session.objects.values().get(pk=session.pk)
    with pytest.raises(Refused):
        session.start_clock(by=director)
    assert Session.objects.values().get(pk=session.pk) == before
