"""A game's sheet as the site reads it (tournaments/sheets.py): its rounds with their hands."""

from __future__ import annotations

import threading

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import make_table, make_user, record
from tournaments.models import Game, Hand
from tournaments.sheets import GameSheet, stored_rounds

ROUNDS = [
    {"hands": {"Ann": 3, "Bart": 12, "Chris": 7, "Dirk": 20}, "yaniv": "Ann"},
    {"hands": {"Ann": 8, "Bart": 2, "Chris": 11, "Dirk": 6}, "yaniv": "Bart", "along": ["Dirk"]},
]


@pytest.mark.django_db
def test_a_sheet_reads_its_rounds_with_their_hands_in_one_statement():
    referee = make_user("ref")
    game = make_table(referee=referee).game
    record(game, referee, *ROUNDS)
    with CaptureQueriesContext(connection) as queries:
        rounds = stored_rounds([game])[game.pk]
    assert len(queries) == 1
    assert [stored.number for stored in rounds] == [1, 2]
    assert [stored.entered_by for stored in rounds] == ["ref", "ref"]
    assert [[hand.hand_total for hand in stored.hands] for stored in rounds] == [
        [3, 12, 7, 20],
        [8, 2, 11, 6],
    ]
    assert [hand.along for hand in rounds[1].hands] == [False, False, False, True]
    # Each hand's total as stored: Dirk, going along Bart's Yaniv, paid 32, not his 6.
    assert [hand.total for hand in rounds[1].hands] == [8, 12, 18, 52]


@pytest.mark.skipif(
    "postgresql" not in settings.DATABASES["default"]["ENGINE"],
    reason="a second connection writing while the first reads: PostgreSQL's",
)
@pytest.mark.django_db(transaction=True)
def test_a_round_saved_while_a_follower_reads_the_sheet_is_in_it_whole_or_not_at_all():
    referee = make_user("ref")
    game = make_table(referee=referee).game
    record(game, referee, ROUNDS[0])

    def the_referee_saves_round_2() -> None:
        try:
            record(Game.objects.get(pk=game.pk), referee, ROUNDS[1])
        finally:
            connection.close()

    saved: list[bool] = []
    hands = f'FROM "{Hand._meta.db_table}"'

    def save_after_the_hands_are_read(execute, sql, params, many, context):
        # Right after the sheet's statement that reads hands, round 2 is committed.
        result = execute(sql, params, many, context)
        if hands in sql and not saved:
            saved.append(True)
            writer = threading.Thread(target=the_referee_saves_round_2)
            writer.start()
            writer.join()
        return result

    follower = Game.objects.select_related("table__session__tournament").get(pk=game.pk)
    with connection.execute_wrapper(save_after_the_hands_are_read):
        sheet = GameSheet.load(follower)
    # Round 2 came after the rounds were read, or with them, whole: the sheet draws.
    assert [len(row.entries.hands) for row in sheet.rows] in ([4], [4, 4])
    assert saved and game.rounds.count() == 2
