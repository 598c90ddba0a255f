"""The table page drawn once per version and viewer (tournaments/views/tables.py).

A plain GET of the page, or of its live part or sheet, is kept by the game's version, the
clock, the tournament's settings and what the viewer may see and do there; the session clock
is drawn fresh for each request, and each reader's forms carry their own CSRF token. A kept
part is never served to a viewer of another kind: a follower never gets a referee's entry
controls or account names, a referee never the follower's sheet without them.
"""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

from tests.factories import HTMX, make_table, make_tournament, make_user, record
from tests.tournaments.test_caching import Calls
from tournaments import table_page
from tournaments.clock import AtTimeLimit
from tournaments.forms import DisputeForm
from tournaments.models import Round, TableCode, Tournament
from tournaments.sheets import ROUND_STAND_IN, GameSheet
from tournaments.views import tables

pytestmark = pytest.mark.django_db

ANN_WINS = {"hands": {"Ann": 0, "Bart": 1, "Chris": 1, "Dirk": 1}, "yaniv": "Ann"}
FALSE_YANIV = {"hands": {"Ann": 9, "Bart": 2, "Chris": 8, "Dirk": 5}, "yaniv": "Ann"}
EMPTIED = {"hands": {"Ann": 4, "Bart": 6, "Chris": 8, "Dirk": 0}, "empty_hand": "Dirk"}
# What only the people entering rounds get on the page.
ENTRY_CONTROLS = ('id="round-form"', 'name="hand_1"', "data-sync=", 'id="game-state"', "✎")


@pytest.fixture
def built(monkeypatch) -> Calls:
    """How often the page's values (sheet, forms, history) were built: a part served as
    kept builds none."""
    calls = Calls(table_page.page_values)
    monkeypatch.setattr(table_page, "page_values", calls)
    return calls


@pytest.fixture
def played(table, referee):
    record(table.game, referee, ANN_WINS, FALSE_YANIV)
    table.game.refresh_from_db()
    return table


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def page(client: Client, table, **params: Any) -> str:
    response = client.get(table.get_absolute_url(), params)
    assert response.status_code == 200
    return response.content.decode()


def live(client: Client, table) -> str:
    response = client.get(table.get_absolute_url(), headers=HTMX)
    assert response.status_code == 200
    return response.content.decode()


def sheet_poll(client: Client, table, since="old") -> str:
    url = table.get_absolute_url()
    response = client.get(url, {"part": "sheet", "since": since}, headers=HTMX)
    assert response.status_code == 200
    return response.content.decode()


def found(pattern: str, html: str) -> str:
    """The first group of `pattern`'s first match in `html`."""
    match = re.search(pattern, html)
    assert match is not None, pattern
    return match[1]


# --- one part per version and viewer ------------------------------------------------------


def test_followers_share_one_drawing_of_the_page(client, played, built):
    first = page(client, played)
    assert built.count == 1
    stranger = logged_in(make_user("a-follower"))
    assert page(stranger, played).count("Round 2") == first.count("Round 2")
    page(client, played)
    assert built.count == 1


def test_a_follower_never_gets_the_referees_kept_page(client, played, referee, built):
    mine = page(logged_in(referee), played)
    for control in ENTRY_CONTROLS:
        assert control in mine
    assert referee.username in mine
    theirs = page(client, played)
    assert built.count == 2
    for control in ENTRY_CONTROLS:
        assert control not in theirs
    assert referee.username not in theirs
    assert "the referee recorded round 2" in theirs


def test_a_referee_never_gets_the_followers_kept_page(client, played, referee, built):
    page(client, played)
    mine = page(logged_in(referee), played)
    assert built.count == 2
    assert 'id="round-form"' in mine and "Record round 3" in mine
    assert f"{referee.username} recorded round 2" in mine


def test_a_referee_of_another_table_is_a_follower_here(played, referee, built):
    other = make_user("ref-other")
    make_table(referee=other, tournament=played.session.tournament, players=("Eva", "Finn"))
    theirs = page(logged_in(other), played)
    for control in ENTRY_CONTROLS:
        assert control not in theirs
    assert referee.username not in theirs


def test_the_director_and_the_referee_each_have_their_own_page(played, referee, director, built):
    directors = page(logged_in(director), played)
    assert "End the game at the time limit" in directors
    referees = page(logged_in(referee), played)
    assert built.count == 2
    assert "End the game at the time limit" not in referees
    assert 'id="round-form"' in referees and 'id="round-form"' in directors


def test_a_table_codes_page_is_kept_for_that_code_alone(client, tournament, built):
    tournament.entry = Tournament.Entry.TABLE_CODES
    tournament.save(update_fields=["entry"])
    table = make_table(tournament=tournament)
    code = TableCode.issue(table).code
    url = reverse("codes:detail", args=[code])
    by_code = client.get(url).content.decode()
    assert f"/c/{code}/sync/" in by_code and 'id="round-form"' in by_code
    assert client.get(url).content.decode().count(code) == by_code.count(code)
    assert built.count == 1
    follower = page(Client(), table)
    assert built.count == 2
    assert code not in follower and 'id="round-form"' not in follower


def test_two_phones_of_the_referee_share_the_page_each_with_its_own_token(played, referee, built):
    phones = []
    for _ in range(2):
        phone = Client(enforce_csrf_checks=True)
        phone.force_login(referee)
        phones.append(phone)
    pages = [page(phone, played) for phone in phones]
    assert built.count == 1
    # The round form's token, in the part kept from the first phone's page: the second's own.
    forms = [html[html.index('id="round-form"') :] for html in pages]
    first, second = (found(r'csrfmiddlewaretoken" value="([^"]+)"', form) for form in forms)
    assert first != second and tables.caching.CSRF_PLACEHOLDER not in pages[1]
    url = reverse("tables:record", args=[played.pk])
    post = {"number": 3, "ending": "yaniv:1", "hand_1": 0, "hand_2": 5, "hand_3": 5}
    post |= {"hand_4": 5, "csrfmiddlewaretoken": second}
    assert phones[0].post(url, post).status_code == 403  # not the first phone's token
    assert phones[1].post(url, post).status_code == 302
    assert Round.objects.filter(game=played.game, number=3).exists()


# --- what changes shows at once ------------------------------------------------------------


def test_a_new_round_shows_at_once(client, played, referee, built):
    page(client, played)
    record(played.game, referee, ANN_WINS)
    html = page(client, played)
    assert built.count == 2
    assert 'data-round="3"' in html


def test_a_new_clock_shows_at_once(client, played, built):
    before = page(client, played)
    assert 'class="session-clock none"' in before
    session = played.session
    session.time_limit = 60
    session.save(update_fields=["time_limit", "changed_at"])
    after = page(client, played)
    assert built.count == 2
    assert 'data-phase="waiting"' in after and "&amp;clock=w60" in after


def test_the_clock_is_drawn_fresh_on_a_kept_page(client, played, monkeypatch, built):
    session = played.session
    started = timezone.now()
    session.time_limit, session.clock_started_at = 60, started
    session.save(update_fields=["time_limit", "clock_started_at"])
    shown = []
    for minutes in (1, 11):
        moment = started + datetime.timedelta(minutes=minutes)
        monkeypatch.setattr(timezone, "now", lambda moment=moment: moment)
        html = page(client, played)
        shown.append(found(r'data-now="(\d+)"', html))
        assert '<span class="clock-time" role="timer"' in html
    assert built.count == 1
    assert int(shown[1]) - int(shown[0]) == 10 * 60 * 1000


def test_after_the_limit_a_kept_page_counts_the_rounds_played_since(client, played, built):
    tournament = played.session.tournament
    tournament.at_time_limit = AtTimeLimit.LAST_ROUND
    tournament.save(update_fields=["at_time_limit"])
    session = played.session
    started = timezone.now() - datetime.timedelta(minutes=10)
    session.time_limit, session.clock_started_at = 1, started
    session.save(update_fields=["time_limit", "clock_started_at"])
    finish = "Time is up: finish the round being played, then play one last round."
    for _ in range(2):
        assert finish in page(client, played)
    assert built.count == 1
    # Round 2 entered after the limit, the version unchanged: the kept page's clock reads
    # the rounds' times afresh, without building the page's values.
    played.game.rounds.filter(number=2).update(entered_at=timezone.now())
    assert "Last round: the game ends at the time limit" in page(client, played)
    assert built.count == 1


def test_an_answer_with_a_message_or_a_refused_form_is_never_kept(referee_client, played, built):
    url = reverse("tables:record", args=[played.pk])
    refused = referee_client.post(url, {"number": 3, "ending": "yaniv:1"}, headers=HTMX)
    assert "Enter Ann&#x27;s hand total." in refused.content.decode()
    html = live(referee_client, played)
    assert "Enter Ann&#x27;s hand total." not in html and "has-error" not in html
    assert built.count == 2


def test_languages_are_kept_apart(client, played):
    english = page(client, played)
    dutch = client.get(played.get_absolute_url(), headers={"Accept-Language": "nl"})
    assert "Score sheet" in english
    assert "Score sheet" not in dutch.content.decode()


# --- htmx, anonymous, wrong role -----------------------------------------------------------


def test_the_live_part_alone_for_htmx(client, referee_client, played, built):
    theirs = live(client, played)
    assert theirs.lstrip().startswith('<div id="live"') and "<html" not in theirs
    assert 'data-hx-swap-oob="true"' in theirs  # the clock, drawn for the swap
    mine = live(referee_client, played)
    assert 'id="round-form"' in mine and 'id="round-form"' not in theirs
    live(client, played)
    assert built.count == 2


def test_a_referees_sheet_poll_is_kept_for_the_referees_view(
    client, referee_client, played, built
):
    mine = sheet_poll(referee_client, played)
    sheet_poll(referee_client, played)
    assert 'id="game-state"' in mine and built.count == 1
    theirs = sheet_poll(client, played)
    assert 'id="game-state"' not in theirs and built.count == 2


def test_a_private_tables_page_is_not_found_for_a_follower_even_once_kept(client, director, built):
    hidden = make_table(tournament=make_tournament(is_public=False, directors=[director]))
    assert page(logged_in(director), hidden)
    assert client.get(hidden.get_absolute_url()).status_code == 404
    stranger = logged_in(make_user("stranger"))
    assert stranger.get(hidden.get_absolute_url(), headers=HTMX).status_code == 404


# --- the cost ---------------------------------------------------------------------------------


def test_a_kept_page_costs_a_follower_one_query(client, played, django_assert_num_queries):
    page(client, played)
    with django_assert_num_queries(1):
        page(client, played)


def test_a_kept_page_costs_the_referee_no_query_of_the_sheet(
    played, referee, django_assert_num_queries
):
    phone = logged_in(referee)
    page(phone, played)
    # The table, the login's user, whether they direct (for the page, for the header).
    with django_assert_num_queries(4):
        page(phone, played)


def test_a_fresh_page_costs_the_same_queries_after_two_rounds_or_twelve(
    client, referee_client, played, referee
):
    def fresh(who: Client) -> int:
        tables.caching.cache.clear()
        who.get(played.get_absolute_url())  # the login's session back in the cache
        played.game.refresh_from_db()
        record(played.game, referee, ANN_WINS)
        with CaptureQueriesContext(connection) as queries:
            page(who, played)
        return len(queries)

    short = fresh(client), fresh(referee_client)
    record(played.game, referee, *[ANN_WINS] * 9)
    assert (fresh(client), fresh(referee_client)) == short


# --- the parts drawn in Python match what Django draws ----------------------------------


@pytest.mark.parametrize("language", ["en", "nl", "fr"])
def test_the_dispute_rounds_choice_is_djangos_own(played, language):
    with translation.override(language):
        for table in (played, make_table(("Eva", "Finn"))):
            sheet = GameSheet.load(table.game)
            assert table_page.dispute_round(sheet) == str(DisputeForm(sheet)["round"])


def test_the_rows_link_to_their_correction_for_the_referee_only(played, referee, client):
    url = reverse("tables:correct", args=[played.pk, 2])
    mine = page(logged_in(referee), played)
    link = (
        f'<a href="{url}" data-hx-get="{url}" data-hx-target="#correction-panel"'
        ' title="Correct round 2" aria-label="Correct round 2">2&nbsp;✎</a>'
    )
    assert link in mine
    theirs = page(client, played)
    assert url not in theirs
    assert '<th scope="row" class="round-no">1</th>' in theirs


def test_the_referees_page_sends_its_script_the_sheets_own_row_to_fill(played, referee, client):
    """The row the script clones for a round it scored (table.js): drawn by the sheet's row
    template, with a stand-in round number, a flag, "not sent yet" and one cell of each kind."""
    html = page(logged_in(referee), played)
    specimen = re.search(r'<template id="sheet-row">(.*?)</template>', html, re.S)
    assert specimen is not None
    row = specimen.group(1)
    stand_in = ROUND_STAND_IN
    url = reverse("tables:correct", args=[played.pk, stand_in])
    assert f'<tr class="false_yaniv" data-round="{stand_in}" aria-label="not sent yet">' in row
    assert (
        f'<a href="{url}" data-hx-get="{url}" data-hx-target="#correction-panel"'
        f' title="Correct round {stand_in}" aria-label="Correct round {stand_in}">'
        f'{stand_in}&nbsp;✎</a><span class="flag" title="false Yaniv">F</span>'
        ' <span class="pending-mark" title="not sent yet">⏳</span></th>'
    ) in row
    assert '<td class="not-seated"></td>' in row
    assert '<td class="out" title="out of the game"></td>' in row
    assert (
        '<td class="caller"><span class="points">Y +0</span> <span class="running">1 → 0</span>'
        ' <span class="went-out">out</span>'
        ' <span class="cell-note">back to 0 (Assaf streak)</span></td>'
    ) in row
    # The stored rows are drawn by the same template, without the script's marks.
    assert html.count('class="pending-mark"') == 1
    # Followers have no script to fill it.
    assert 'id="sheet-row"' not in page(client, played)


def test_the_sheets_cells_as_a_person_sees_them(played, client):
    html = page(client, played)
    # Ann calls with 0, then a false Yaniv: 9 + 30 penalty (Belgian rules).
    rows = re.findall(r'<tr class="\w+" data-round="\d">.*?</tr>', html, re.S)
    assert len(rows) == 2
    assert (
        '<td class="caller"><span class="points">Y +0</span> <span class="running">0</span></td>'
        in rows[0]
    )
    assert '<td><span class="points">+1</span> <span class="running">1</span></td>' in rows[0]
    assert '<td class="false"><span class="points">F +' in rows[1]


def test_the_rows_flag_a_false_yaniv_and_an_emptied_hand(client, played, referee):
    record(played.game, referee, EMPTIED)
    html = page(client, played)
    assert '<tr class="false_yaniv" data-round="2">' in html
    assert '2<span class="flag" title="false Yaniv">F</span></th>' in html
    assert '3<span class="flag" title="emptied hand">E</span></th>' in html


def test_the_history_escapes_and_times_its_lines(client, played, referee):
    game = played.game
    game.undo_last_round(by=referee, reason="<b>wrong</b> table", version=game.version)
    html = page(client, played)
    assert "the referee undone round 2: “&lt;b&gt;wrong&lt;/b&gt; table”" in html
    assert "<b>wrong</b>" not in html
    change = game.changes.first()
    at = timezone.localtime(change.at)
    assert f'<time datetime="{at:%Y-%m-%dT%H:%M:%S%z}">{at:%H:%M:%S}</time>' in html
    # (PostgreSQL's jsonb keeps the hands in an order of its own.)
    before = found(r'<div class="entries">before: ([^<]*)</div>', html)
    assert sorted(before.split(", ")) == ["Ann 9 (Yaniv)", "Bart 2", "Chris 8", "Dirk 5"]


def test_a_player_renamed_shows_at_once_on_the_kept_page_and_the_standings(
    client, table, referee, tournament
):
    """No game counts a name: correcting one moves the versions of the sessions the player
    sits in, so the kept page and the standings' kept table are drawn anew."""
    dirk_45 = {"hands": {"Ann": 0, "Bart": 1, "Chris": 9, "Dirk": 45}, "yaniv": "Ann"}
    record(table.game, referee, *[dirk_45] * 4)  # Dirk above 150: the game is over
    standings_url = reverse("public:standings", args=[tournament.slug])
    assert "Ann" in page(client, table)
    assert "Ann" in client.get(standings_url).content.decode()
    ann = table.seats.get(position=1).player
    ann.name = "Anneke"
    ann.save()
    assert "Anneke" in page(client, table)
    assert "Anneke" in client.get(standings_url).content.decode()
