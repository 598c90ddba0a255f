from __future__ import annotations

import pytest
from django.core.management import call_command

from scoring.models import Game
from tournaments.models import Player, Session, Table


@pytest.mark.django_db
def test_demo_fixture_loads_a_consistent_tournament():
    call_command("loaddata", "demo", verbosity=0)

    assert Player.objects.count() == 16
    assert Session.objects.count() == 2
    assert Table.objects.count() == 8
    # loaddata bypasses Table.save(): one game a table, none created twice.
    assert Game.objects.count() == 8

    games = Game.objects.select_related("table__session__tournament")
    for game in games:
        result = game.score()
        cached = {
            seat.player.name: seat.total for seat in game.table.seats.select_related("player")
        }
        assert dict(result.totals) == cached, game
        rounds = game.rounds.count()
        if game.table.session.number == 1:
            assert game.finished and result.finished, game
            assert result.winners, game
        else:
            assert not game.finished and not result.finished, game
            assert 3 <= rounds <= 6, game
