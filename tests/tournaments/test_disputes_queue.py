"""The director's queue of disputes (/manage/<slug>/disputes/): open ones first, answered by a
correction of the round (its reason is the answer) or dismissed with a word; the table page
shows the answer; the dashboard counts the open ones, live."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.factories import HTMX, make_table, make_tournament, make_user, record
from tournaments.models import Dispute, GameChange, TableCode, Tournament

pytestmark = pytest.mark.django_db

ROUND = {"hands": {"Ann": 3, "Bart": 12, "Chris": 7, "Dirk": 20}, "yaniv": "Ann"}
# Dirk 45 a round: the game ends above 150 in round 4 (Ann 0, Bart 4, Chris 36, Dirk 180).
DIRK_45 = {"hands": {"Ann": 0, "Bart": 1, "Chris": 9, "Dirk": 45}, "yaniv": "Ann"}


@pytest.fixture
def club_table(tournament):
    """Table 1 of a club night: table codes, every player agrees."""
    tournament.entry = Tournament.Entry.TABLE_CODES
    tournament.save(update_fields=["entry"])
    return make_table(tournament=tournament)


@pytest.fixture
def code(club_table) -> TableCode:
    return TableCode.issue(club_table)


def queue(client, tournament, **params):
    return client.get(reverse("manage:disputes", args=[tournament.slug]), params)


def test_open_disputes_come_first_with_table_round_text_time_and_who(
    director_client, tournament, club_table, code, referee
):
    record(club_table.game, code, ROUND, ROUND)
    referee_table = make_table(tournament=tournament, referee=referee, players=("Eva", "Finn"))
    record(referee_table.game, referee, {"hands": {"Eva": 2, "Finn": 9}, "yaniv": "Eva"})
    answered = club_table.game.raise_dispute(1, "old question", by=code)
    club_table.game.dismiss_dispute(answered, "the sheet is right", by=referee)
    by_code = club_table.game.raise_dispute(2, "Bart had 2, not 12", by=code)
    by_account = referee_table.game.raise_dispute(None, "Finn left early", by=referee)

    html = queue(director_client, tournament).content.decode()
    assert "2 open disputes" in html
    positions = [html.index(text) for text in ("Bart had 2", "Finn left early", "old question")]
    assert positions == sorted(positions)  # open ones first, oldest first, then answered
    line = html[html.index(f'id="dispute-{by_code.pk}"') :]
    line = line[: line.index("</li>")]
    assert "Session 1 · table 1" in line and "round 2" in line and "by table code" in line
    assert re.search(r"<time datetime=\"[^\"]+\">\d\d:\d\d</time>", line)
    correct = reverse("tables:correct", args=[club_table.pk, 2]) + f"?dispute={by_code.pk}"
    assert f'href="{correct}"' in line
    line = html[html.index(f'id="dispute-{by_account.pk}"') :]
    line = line[: line.index("</li>")]
    assert "table 2" in line and "the whole sheet" in line and f"by {referee.username}" in line
    assert "Correct round" not in line  # about the whole sheet: the table page, or a word
    assert "Dismissed: “the sheet is right”" in html


def test_a_dispute_dismissed_with_a_word_is_answered_on_the_table_page(
    director_client, director, tournament, club_table, code, client
):
    record(club_table.game, code, ROUND)
    dispute = club_table.game.raise_dispute(1, "Chris had 17", by=code)
    url = reverse("manage:dismiss_dispute", args=[tournament.slug, dispute.pk])
    response = director_client.post(url, {"answer": "Checked: Chris had 7"}, follow=True)
    assert "Dismissed: the table sees your answer." in response.content.decode()
    dispute.refresh_from_db()
    assert (dispute.status, dispute.answer, dispute.answered_by) == (
        "dismissed",
        "Checked: Chris had 7",
        director,
    )
    assert GameChange.objects.filter(action="dismiss", reason="Checked: Chris had 7").exists()
    page = client.get(reverse("codes:detail", args=[code.code])).content.decode()
    assert "Dismissed: “Checked: Chris had 7”" in page


def test_an_htmx_dismissal_answers_with_the_disputes_line(
    director_client, tournament, club_table, code
):
    record(club_table.game, code, ROUND)
    dispute = club_table.game.raise_dispute(1, "Chris had 17", by=code)
    url = reverse("manage:dismiss_dispute", args=[tournament.slug, dispute.pk])
    html = director_client.post(url, {"answer": "It was 7"}, headers=HTMX).content.decode()
    assert html.lstrip().startswith(f'<li id="dispute-{dispute.pk}"')
    assert "Dismissed: “It was 7”" in html and "<form" not in html


def test_a_dismissal_without_a_word_or_a_second_answer_changes_nothing(
    director_client, tournament, club_table, code
):
    record(club_table.game, code, ROUND)
    dispute = club_table.game.raise_dispute(1, "Chris had 17", by=code)
    url = reverse("manage:dismiss_dispute", args=[tournament.slug, dispute.pk])
    empty = director_client.post(url, {"answer": "  "}, follow=True)
    assert "Give the table a word of answer." in empty.content.decode()
    dispute.refresh_from_db()
    assert dispute.status == "open"
    director_client.post(url, {"answer": "first"})
    second = director_client.post(url, {"answer": "second"}, headers=HTMX).content.decode()
    assert "This dispute was answered already." in second
    dispute.refresh_from_db()
    assert (dispute.status, dispute.answer) == ("dismissed", "first")


def test_a_dispute_of_another_tournament_is_not_found(director_client, tournament):
    other = make_tournament(directors=[make_user("other-dir")])
    table = make_table(tournament=other)
    record(table.game, None, ROUND)
    # A reason no random token of the page can spell (the CSP nonce once held "hm").
    dispute = table.game.raise_dispute(1, "Bart had nineteen", by=None)
    url = reverse("manage:dismiss_dispute", args=[tournament.slug, dispute.pk])
    assert director_client.post(url, {"answer": "no"}).status_code == 404
    assert "Bart had nineteen" not in queue(director_client, tournament).content.decode()
    dispute.refresh_from_db()
    assert dispute.status == "open"


def test_a_correction_from_the_queue_resolves_the_dispute_and_the_game_counts(
    director_client, tournament, club_table, code, client
):
    record(club_table.game, code, ROUND, *[DIRK_45] * 3)
    dispute = club_table.game.raise_dispute(1, "Bart had 2, not 12", by=code)
    link = reverse("tables:correct", args=[club_table.pk, 1]) + f"?dispute={dispute.pk}"
    form = director_client.get(link).content.decode()
    assert "This correction answers the dispute: “Bart had 2, not 12”." in form
    data = {
        "number": 1,
        "hand_1": 3,
        "hand_2": 2,
        "hand_3": 7,
        "hand_4": 20,
        "ending": "yaniv:1",
        "reason": "Bart's hand was 2",
        "version": club_table.game.version,
        "dispute": dispute.pk,
    }
    director_client.post(reverse("tables:correct", args=[club_table.pk, 1]), data)
    dispute.refresh_from_db()
    assert (dispute.status, dispute.answer) == ("resolved", "Bart's hand was 2")
    page = client.get(reverse("codes:detail", args=[code.code])).content.decode()
    assert "Resolved by a correction: “Bart&#x27;s hand was 2”" in page
    assert "0 open disputes" in queue(director_client, tournament).content.decode()
    # The players agree (every one of them): the game counts, not provisional.
    for seat in range(1, 5):
        game = club_table.game
        game.refresh_from_db()
        client.post(
            reverse("codes:confirm", args=[code.code]), {"seat": seat, "version": game.version}
        )
    (standing, _), *_ = [row for row in tournament.standings() if row[1].name == "Ann"]
    assert standing.games == 1 and not standing.provisional


def test_the_dashboard_counts_open_disputes_live(director_client, tournament, club_table, code):
    record(club_table.game, code, ROUND)
    club_table.game.raise_dispute(1, "one", by=code)
    dashboard = reverse("manage:tournament", args=[tournament.slug])
    html = director_client.get(dashboard).content.decode()
    assert "1 open dispute<" in html
    poll = re.search(r'data-hx-get="([^"]*/disputes/open/\?since=[^"]+)"', html)
    assert poll is not None
    url = poll.group(1).replace("&amp;", "&")
    # Nothing new: 204, htmx swaps nothing.
    assert director_client.get(url, headers=HTMX).status_code == 204
    club_table.game.raise_dispute(None, "two", by=code)
    fresh = director_client.get(url, headers=HTMX)
    assert fresh.status_code == 200 and "2 open disputes" in fresh.content.decode()
    # The queue itself polls the same way.
    page = queue(director_client, tournament).content.decode()
    since = re.search(r'/disputes/\?since=([^"]+)"', page)
    assert since is not None
    assert queue(director_client, tournament, since=since.group(1)).status_code == 200
    polled = director_client.get(
        reverse("manage:disputes", args=[tournament.slug]),
        {"since": since.group(1)},
        headers=HTMX,
    )
    assert polled.status_code == 204


def test_a_referee_of_the_tournament_cannot_see_the_queue(referee_client, tournament, table):
    for url in (
        reverse("manage:disputes", args=[tournament.slug]),
        reverse("manage:open_disputes", args=[tournament.slug]),
    ):
        assert referee_client.get(url).status_code == 403
    assert Dispute.objects.count() == 0
