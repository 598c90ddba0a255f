from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from tournaments.models import Game, Hand, Player, Round, Session, Table


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


@pytest.mark.django_db
def test_load_demo_loads_into_an_empty_site_only(settings):
    settings.DEBUG = True  # a development site (with DEBUG off it needs --force)
    out = io.StringIO()
    call_command("load_demo", stdout=out)
    assert Player.objects.count() == 16
    rounds = Round.objects.count()
    Round.objects.filter(number=1)[0].hands.update(hand_total=9)
    call_command("load_demo", stdout=out)
    assert "already has tournaments" in out.getvalue()
    assert Round.objects.count() == rounds
    assert Hand.objects.filter(hand_total=9, round__number=1).exists()
