"""Table codes: a table's entry page on any phone, for one table and one running session."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse

from tests.factories import make_table, make_user, record
from tournaments.models import GameChange, Round, Session, TableCode, Tournament

pytestmark = pytest.mark.django_db

ROUND_1 = {"hands": {"Ann": 3, "Bart": 12, "Chris": 7, "Dirk": 20}, "yaniv": "Ann"}


@pytest.fixture
def club_table(tournament):
    tournament.entry = Tournament.Entry.TABLE_CODES
    tournament.save(update_fields=["entry"])
    return make_table(tournament=tournament)


@pytest.fixture
def code(club_table) -> str:
    return TableCode.issue(club_table).code


def entries(number=1, hands=(3, 12, 7, 20), ending="yaniv:1", **extra):
    data = {"number": number, "ending": ending, **extra}
    data.update({f"hand_{seat}": hand for seat, hand in enumerate(hands, start=1)})
    return data


def test_a_code_carries_160_bits_and_is_not_stored(code, club_table):
    number, _, mac = code.partition("-")
    assert len(mac) == 40 and int(mac, 16) >= 0  # 40 hex digits: 160 bits
    stored = TableCode.objects.get(pk=int(number))
    assert mac not in {stored.salt, str(stored.pk)}
    assert TableCode.find(code) == stored


def test_the_code_opens_the_tables_entry_page_without_an_account(client, code, club_table):
    page = client.get(reverse("codes:detail", args=[code])).content.decode()
    assert 'id="round-form"' in page
    assert f'data-sync="{reverse("codes:sync", args=[code])}"' in page
    assert "Opened with the table&#x27;s code" in page or "Opened with the table's code" in page


def test_a_round_through_the_code_is_stored_without_an_account(client, code, club_table):
    response = client.post(reverse("codes:record", args=[code]), entries())
    assert response.status_code == 302 and response["Location"] == reverse(
        "codes:detail", args=[code]
    )
    stored = Round.objects.get()
    assert stored.entered_by is None
    change = GameChange.objects.get(action="record")
    assert change.user is None and change.code is not None and change.code.table == club_table


def test_a_round_saved_through_the_code_looks_the_code_up_once(client, code, club_table):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        response = client.post(
            reverse("codes:record", args=[code]), entries(), headers={"HX-Request": "true"}
        )
    assert response.status_code == 200 and 'id="live"' in response.content.decode()
    code_table = TableCode._meta.db_table
    lookups = [
        query["sql"]
        for query in queries.captured_queries
        if query["sql"].startswith("SELECT") and f'FROM "{code_table}"' in query["sql"]
    ]
    # The access check's; the answer asks the entrant, not the code again.
    assert len(lookups) == 1


def test_the_outbox_of_a_code_page_syncs_once(client, code):
    data = {**entries(), "action": "record", "client_id": str(uuid.uuid4())}
    first = client.post(reverse("codes:sync", args=[code]), data)
    again = client.post(reverse("codes:sync", args=[code]), data)
    assert first.json()["status"] == "stored" and again.json()["status"] == "replayed"
    assert Round.objects.count() == 1


def test_a_code_opens_its_own_table_only(client, code, tournament):
    other = make_table(tournament=tournament, players=("Eva", "Finn"))
    assert client.get(reverse("tables:detail", args=[other.pk])).status_code == 200  # public
    response = client.post(reverse("tables:record", args=[other.pk]), entries(hands=(3, 9)))
    assert response.status_code == 403
    assert Round.objects.count() == 0


# Why each spoilt code opens nothing, as its page and the phone's outbox say it (None: a code
# nobody was given, which stays a plain "not found").
WHY = {
    "wrong": None,
    "other": None,
    "revoked": "the director gave this table a new code",
    "finished": "session 1 is finished",
    "planned": "session 1 has not started yet: this page works once the director starts it",
    "championship": "this session's tables are kept by their referees",
}


@pytest.mark.parametrize("spoil", list(WHY))
def test_a_code_that_does_not_work_changes_nothing_and_says_why_in_words(
    client, code, club_table, spoil
):
    found = TableCode.find(code)
    assert found is not None
    if spoil == "wrong":
        code = code[:-1] + ("0" if code[-1] != "0" else "1")
    elif spoil == "revoked":
        TableCode.issue(club_table)  # a new code: the old one stops working
    elif spoil in ("finished", "planned"):
        status = Session.Status.FINISHED if spoil == "finished" else Session.Status.PLANNED
        Session.objects.filter(pk=club_table.session_id).update(status=status)
    elif spoil == "championship":
        Tournament.objects.filter(pk=club_table.session.tournament_id).update(
            entry=Tournament.Entry.REFEREES
        )
    elif spoil == "other":
        code = f"{found.pk + 1}-{code.partition('-')[2]}"
    for url in ("codes:record", "codes:dispute", "codes:confirm"):
        response = client.post(reverse(url, args=[code]), entries())
        assert response.status_code == 404, (url, response.status_code)
    page = client.get(reverse("codes:detail", args=[code]))
    answer = client.post(reverse("codes:sync", args=[code]), {**entries(), "action": "record"})
    assert answer.status_code == 403 and answer.json()["status"] == "closed"
    why = WHY[spoil]
    if why is None:
        assert page.status_code == 404
        assert answer.json()["message"] == "this table's code is not known"
    else:
        # The page stays a page: the table, why in words, and the phone's own rounds (script).
        assert page.status_code == 410
        text = page.content.decode()
        assert "Table 1" in text and f"Why: {why}." in text.replace("&#x27;", "'")
        assert 'id="round-form"' not in text and f'data-table="{club_table.pk}"' in text
        assert answer.json()["message"] == why
    assert Round.objects.count() == 0


def test_a_poll_of_a_closed_code_swaps_nothing(client, code, club_table):
    TableCode.issue(club_table)
    response = client.get(
        reverse("codes:detail", args=[code]) + "?part=sheet&since=0", HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 410 and response.content == b""


def test_a_session_can_take_codes_in_a_championship(client, tournament):
    table = make_table(tournament=tournament)
    Session.objects.filter(pk=table.session_id).update(entry=Tournament.Entry.TABLE_CODES)
    code = TableCode.issue(table).code
    assert client.post(reverse("codes:record", args=[code]), entries()).status_code == 302
    assert Round.objects.count() == 1


def test_guessing_codes_is_rate_limited_by_address_and_the_right_code_still_opens(
    client, code, settings
):
    settings.CODE_GUESSES = 3
    number = code.partition("-")[0]
    for guess in range(3):
        response = client.get(reverse("codes:detail", args=[f"{number}-{guess:040x}"]))
        assert response.status_code == 404
    # A fourth wrong guess waits, and is told how long.
    response = client.get(reverse("codes:detail", args=[f"{number}-{9:040x}"]))
    assert response.status_code == 429
    assert 0 < int(response["Retry-After"]) <= settings.CODE_GUESS_WINDOW
    assert "too many wrong table links" in response.content.decode()
    # The right code opens at once from the same address (a venue shares one), and records.
    assert client.get(reverse("codes:detail", args=[code])).status_code == 200
    posted = client.post(reverse("codes:record", args=[code]), entries())
    assert posted.status_code == 302 and Round.objects.count() == 1
    elsewhere = reverse("codes:detail", args=[f"{number}-{8:040x}"])
    assert client.get(elsewhere, REMOTE_ADDR="10.0.0.9").status_code == 404


def test_many_addresses_guessing_together_meet_the_sites_limit(client, code, settings):
    settings.CODE_GUESSES, settings.CODE_GUESSES_ALL = 100, 5
    number = code.partition("-")[0]
    answers = [
        client.get(
            reverse("codes:detail", args=[f"{number}-{guess:040x}"]), REMOTE_ADDR=f"10.0.1.{guess}"
        ).status_code
        for guess in range(7)
    ]
    assert answers == [404] * 5 + [429] * 2
    right = client.get(reverse("codes:detail", args=[code]), REMOTE_ADDR="10.0.2.1")
    assert right.status_code == 200


def test_behind_a_trusted_proxy_the_forwarded_address_is_limited(client, code, settings):
    settings.CODE_GUESSES = 2
    settings.TRUSTED_PROXY_COUNT = 1
    number = code.partition("-")[0]
    wrong = reverse("codes:detail", args=[f"{number}-{0:040x}"])
    for _ in range(2):
        assert client.get(wrong, HTTP_X_FORWARDED_FOR="203.0.113.7").status_code == 404
    assert client.get(wrong, HTTP_X_FORWARDED_FOR="203.0.113.7").status_code == 429
    # Another player in the same hall, behind the same proxy, is not limited.
    assert client.get(wrong, HTTP_X_FORWARDED_FOR="203.0.113.8").status_code == 404
    right = client.get(reverse("codes:detail", args=[code]), HTTP_X_FORWARDED_FOR="203.0.113.7")
    assert right.status_code == 200


def test_without_a_trusted_proxy_a_forged_forwarded_address_changes_nothing(
    client, code, settings
):
    settings.CODE_GUESSES = 2
    number = code.partition("-")[0]
    wrong = reverse("codes:detail", args=[f"{number}-{0:040x}"])
    answers = [
        client.get(wrong, HTTP_X_FORWARDED_FOR=f"198.51.100.{n}").status_code for n in range(4)
    ]
    assert answers == [404, 404, 429, 429]


def test_a_signed_off_sheet_closes_the_code_page(client, code, club_table, director):
    dirk_45 = {"hands": {"Ann": 0, "Bart": 1, "Chris": 1, "Dirk": 45}, "yaniv": "Ann"}
    record(club_table.game, director, *[dirk_45] * 4)
    game = club_table.game
    game.refresh_from_db()
    game.sign_off(by=director, version=game.version)
    page = client.get(reverse("codes:detail", args=[code])).content.decode()
    assert 'id="round-form"' not in page and 'id="game-state"' not in page
    response = client.post(reverse("codes:undo", args=[code]), {"reason": "x", "version": 9})
    assert response.status_code == 403
    assert Round.objects.count() == 4


def test_code_pages_name_no_accounts(client, code, club_table, referee):
    record(club_table.game, make_user("someone-with-an-account"), ROUND_1)
    page = client.get(reverse("codes:detail", args=[code])).content.decode()
    assert "someone-with-an-account" not in page


def test_wrong_table_links_from_one_ipv6_64_count_together(client, code, settings):
    settings.CODE_GUESSES, settings.CODE_GUESSES_ALL = 2, 100
    number = code.partition("-")[0]
    answers = [
        client.get(
            reverse("codes:detail", args=[f"{number}-{guess:040x}"]),
            REMOTE_ADDR=f"2001:db8:7:7::{guess + 1:x}",
        ).status_code
        for guess in range(3)
    ]
    assert answers == [404, 404, 429]


@pytest.mark.django_db(transaction=True)
def test_a_round_sent_by_table_code_costs_ten_queries_at_most(client, code):
    """As a round by account (tests/tournaments/test_sync.py), BEGIN and COMMIT included: the
    code with its table, the seats the entry form is checked against, the locked write."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    data = {**entries(), "action": "record", "client_id": str(uuid.uuid4())}
    with CaptureQueriesContext(connection) as queries:
        answer = client.post(reverse("codes:sync", args=[code]), data)
    assert answer.json()["status"] == "stored"
    assert len(queries) <= 10, [query["sql"][:80] for query in queries.captured_queries]
