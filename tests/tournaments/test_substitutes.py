"""Substitutes: a seat changing hands mid-game keeps its total and the game goes on; the
standings credit it by the tournament's rule; two seats typed the wrong way round swapped
with their hands."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from tests.factories import make_table, record
from tournaments.errors import Refused
from tournaments.models import Adjustment, GameChange, Player, Registration, Seat, Substitution
from tournaments.models.substitutions import played_rounds, swap_seats

pytestmark = pytest.mark.django_db

ROUND = {"hands": {"Ann": 0, "Bart": 1, "Chris": 9, "Dirk": 45}, "yaniv": "Ann"}


def with_fien(entry):
    """A round with Fien in Bart's seat."""
    hands = dict(entry["hands"])
    hands["Fien"] = hands.pop("Bart")
    return {**entry, "hands": hands}


@pytest.fixture
def seated(tournament, referee):
    """Ann, Bart, Chris, Dirk playing (round 1 recorded), all registered; Fien registered."""
    table = make_table(tournament=tournament, referee=referee)
    for player in table.seats.values_list("player", flat=True):
        Registration.objects.create(tournament=tournament, player_id=player, checked_in=True)
    fien = Player.objects.create(name="Fien")
    Registration.objects.create(tournament=tournament, player=fien)
    record(table.game, referee, ROUND)
    return table, fien


def bart_seat(table) -> Seat:
    return Seat.objects.get(table=table, position=2)


def test_a_substitute_takes_the_seat_with_its_total_and_the_game_goes_on(
    seated, director, referee
):
    table, fien = seated
    substitution = Substitution.bring_in(bart_seat(table), fien, by=director, reason="ill")
    seat = bart_seat(table)
    assert (seat.player, seat.total, substitution.from_round) == (fien, 1, 2)
    assert substitution.player_out.name == "Bart"
    # Fien was registered but not checked in: she is now.
    assert Registration.objects.get(player=fien).checked_in
    record(table.game, referee, *[with_fien(ROUND)] * 3)
    seat.refresh_from_db()
    table.game.refresh_from_db()
    assert (seat.total, seat.rank, table.game.finished) == (4, 2, True)
    assert (
        "Fien takes Bart's seat 2 from round 2: ill"
        in table.game.changes.get(action=GameChange.Action.SUBSTITUTE).reason
    )
    (turns,) = played_rounds([seat]).values()
    assert [(p.name, first, last) for p, first, last in turns] == [
        ("Bart", 1, 1),
        ("Fien", 2, None),
    ]


@pytest.mark.parametrize(
    ("credit", "expected"),
    [
        ("original", {"Bart": (2, 4)}),
        ("substitute", {"Fien": (2, 4)}),
        ("split", {"Bart": (Fraction(1, 2), 1), "Fien": (Fraction(3, 2), 3)}),
    ],
)
def test_the_standings_credit_the_seat_by_the_tournaments_rule(
    seated, director, referee, tournament, credit, expected
):
    table, fien = seated
    tournament.substitute_credit = credit
    tournament.save()
    Substitution.bring_in(bart_seat(table), fien, by=director)
    record(table.game, referee, *[with_fien(ROUND)] * 3)
    tournament.refresh_from_db()
    rows = {p.name: (s.points, s.total_sum) for s, p in tournament.standings()}
    for name, figures in expected.items():
        assert rows[name] == figures
    assert {"Bart", "Fien"} - set(expected) <= {"Bart", "Fien"} - set(rows)


def test_game_points_follow_the_player_they_were_given_to_in_a_split(
    seated, director, referee, tournament
):
    table, fien = seated
    tournament.substitute_credit = "split"
    tournament.save()
    Adjustment.give(
        tournament,
        Player.objects.get(name="Bart"),
        seat=bart_seat(table),
        by=director,
        kind="penalty",
        unit="game",
        points=Decimal(5),
        reason="late",
    )
    Substitution.bring_in(bart_seat(table), fien, by=director)
    record(table.game, referee, *[with_fien(ROUND)] * 3)
    tournament.refresh_from_db()
    rows = {p.name: s.total_sum for s, p in tournament.standings()}
    assert (rows["Bart"], rows["Fien"]) == (6, 3)


def test_no_substitute_before_a_round_nor_after_the_game(tournament, referee, director):
    table = make_table(tournament=tournament, referee=referee)
    fien = Player.objects.create(name="Fien")
    with pytest.raises(Refused) as refused:
        Substitution.bring_in(bart_seat(table), fien, by=director)
    assert refused.value.code == "substitute_before_play"
    record(table.game, referee, *[ROUND] * 4)
    with pytest.raises(Refused) as refused:
        Substitution.bring_in(bart_seat(table), fien, by=director)
    assert refused.value.code == "substitute_game_over"
    assert not Substitution.objects.exists()


def test_a_player_of_the_table_or_playing_elsewhere_is_no_substitute(seated, director, tournament):
    table, fien = seated
    chris = Player.objects.get(name="Chris")
    with pytest.raises(Refused) as refused:
        Substitution.bring_in(bart_seat(table), chris, by=director)
    assert refused.value.code == "substitute_at_table"
    other = make_table(("Gert", "Hanne", "Ivo"), tournament=tournament)
    record(other.game, director, {"hands": {"Gert": 1, "Hanne": 5, "Ivo": 7}, "yaniv": "Gert"})
    with pytest.raises(Refused) as refused:
        Substitution.bring_in(bart_seat(table), Player.objects.get(name="Gert"), by=director)
    assert refused.value.code == "substitute_elsewhere"
    Substitution.bring_in(bart_seat(table), fien, by=director)
    # Bart left: he may not come back to the table in another's seat.
    with pytest.raises(Refused) as refused:
        Substitution.bring_in(
            Seat.objects.get(table=table, position=3), Player.objects.get(name="Bart"), by=director
        )
    assert refused.value.code == "substitute_at_table"
    assert Substitution.objects.count() == 1


def test_two_seats_swapped_keep_each_players_hands(tournament, referee, director):
    """A false Yaniv's penalty takes the left neighbour's hand: with Bart and Chris typed the
    wrong way round, Ann's neighbour was another player."""
    table = make_table(tournament=tournament, referee=referee)
    record(
        table.game,
        referee,
        {"hands": {"Ann": 9, "Bart": 3, "Chris": 12, "Dirk": 20}, "yaniv": "Ann"},
    )
    ann = Seat.objects.get(table=table, player__name="Ann")
    before = ann.total
    bart, chris = (Seat.objects.get(table=table, player__name=n) for n in ("Bart", "Chris"))
    version = table.game.version
    swap_seats(table.game, bart, chris, by=director, reason="typed the wrong way round")
    bart.refresh_from_db()
    chris.refresh_from_db()
    ann.refresh_from_db()
    assert (bart.position, chris.position) == (3, 2)
    # Each keeps their own hand.
    assert bart.hands.get().hand_total == 3 and chris.hands.get().hand_total == 12
    # Ann's false Yaniv: 32 + her left neighbour's hand, now Chris's 12 (was Bart's 3).
    assert (before, ann.total) == (35, 44)
    table.game.refresh_from_db()
    assert table.game.version > version
    assert table.game.changes.filter(action=GameChange.Action.RESEAT).exists()


def test_the_same_seat_twice_is_no_swap(tournament, referee, director):
    table = make_table(tournament=tournament, referee=referee)
    with pytest.raises(Refused) as refused:
        swap_seats(table.game, bart_seat(table), bart_seat(table), by=director, reason="x")
    assert refused.value.code == "reseat_same_seat"


def test_a_full_table_has_no_seat_to_swap_through(tournament, referee, director):
    names = ("A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8")
    table = make_table(names, tournament=tournament, referee=referee)
    seats = list(table.seats.order_by("position"))
    with pytest.raises(Refused) as refused:
        swap_seats(table.game, seats[0], seats[1], by=director, reason="x")
    assert refused.value.code == "reseat_full_table"
    assert list(table.seats.order_by("position").values_list("player__name", flat=True)) == list(
        names
    )
