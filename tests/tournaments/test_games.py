"""A table's game in the database: recording, correcting, undoing, ending, the log.

The engine's numbers are cached on Hand (points, reduction, total) and Seat
(total, rank) rows; these tests read those rows back and compare them with the
scored vectors of tests/vectors and with hand-worked cases.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.db import IntegrityError, transaction

from scoring import rules
from tests.factories import entries, make_table, make_tournament, record
from tournaments.models import Game, GameChange, Hand, Player, Round, Seat, SheetChanged

pytestmark = pytest.mark.django_db

BELGIAN_VECTORS = Path(__file__).resolve().parents[1] / "vectors" / "belgian"
PLAYERS = ("Ann", "Bart", "Chris", "Dirk")


def load(path: Path) -> dict:
    return json.loads(path.read_text("utf-8"))


def small_vectors() -> list[Path]:
    files = [
        path
        for path in sorted(BELGIAN_VECTORS.glob("*.json"))
        if len(load(path)["game"]["players"]) <= 4
    ]
    # A missing or thinned folder must fail loudly, not run zero cases.
    assert len(files) >= 10, f"expected the Belgian vectors in {BELGIAN_VECTORS}"
    return files


def table_for(game_record: dict, referee):
    options = game_record.get("options", {})
    tournament = make_tournament(**options)
    return make_table(game_record["players"], referee=referee, tournament=tournament)


def ranks_of(totals: dict[str, int]) -> dict[str, int]:
    """RULES.md: lowest total first, equal totals share a rank (1, 1, 3)."""
    return {
        player: 1 + sum(other < total for other in totals.values())
        for player, total in totals.items()
    }


def seat_totals(game: Game) -> dict[str, int]:
    return {seat.player.name: seat.total for seat in _seats(game)}


def seat_ranks(game: Game) -> dict[str, int | None]:
    return {seat.player.name: seat.rank for seat in _seats(game)}


def _seats(game: Game) -> list[Seat]:
    return list(game.table.seats.select_related("player").order_by("position"))


def hand_numbers(game: Game, number: int) -> dict[str, tuple[int, int, int]]:
    """Round `number`'s cached (points, reduction, total) per player."""
    return {
        hand.seat.player.name: (hand.points, hand.reduction, hand.total)
        for hand in Hand.objects.filter(round__game=game, round__number=number)
        .select_related("seat__player")
        .order_by("seat__position")
    }


def snapshot(game: Game) -> dict[str, list]:
    """Every stored row of a game, to show that a refused change changed nothing."""
    return {
        "game": list(Game.objects.filter(pk=game.pk).values()),
        "rounds": list(Round.objects.filter(game=game).order_by("number").values()),
        "hands": list(Hand.objects.filter(round__game=game).order_by("pk").values()),
        "seats": list(Seat.objects.filter(table=game.table).order_by("pk").values()),
        "changes": list(GameChange.objects.filter(game=game).order_by("pk").values()),
    }


def yaniv(caller: str, hands: dict[str, int], along: tuple[str, ...] = ()) -> dict:
    return {"hands": dict(hands), "yaniv": caller, "along": list(along)}


# Dirk climbs to 145, then lands on 150 and is reduced to 100 in round 5.
DIRK_CLIMBS = [
    yaniv("Ann", {"Ann": 0, "Bart": 1, "Chris": 2, "Dirk": 45}),
    yaniv("Ann", {"Ann": 0, "Bart": 1, "Chris": 2, "Dirk": 45}),
    yaniv("Ann", {"Ann": 0, "Bart": 1, "Chris": 2, "Dirk": 45}),
    yaniv("Ann", {"Ann": 0, "Bart": 1, "Chris": 2, "Dirk": 10}),
    yaniv("Ann", {"Ann": 0, "Bart": 1, "Chris": 2, "Dirk": 5}),
]


# --- recording ----------------------------------------------------------------


def test_recording_the_worked_examples_caches_each_rounds_numbers_and_the_seats(game, referee):
    vector = load(BELGIAN_VECTORS / "worked_examples.json")
    assert vector["game"]["players"] == list(PLAYERS)
    for entry, expected in zip(
        vector["game"]["rounds"], vector["expected"]["rounds"], strict=True
    ):
        stored = record(game, referee, entry)[0]
        number = expected["number"]
        assert stored.number == number
        assert Round.objects.get(pk=stored.pk).kind == expected["kind"]
        assert hand_numbers(game, number) == {
            player: (
                expected["points"][player],
                expected["reductions"].get(player, 0),
                expected["totals"][player],
            )
            for player in PLAYERS
        }
        assert seat_totals(game) == expected["totals"]
        assert seat_ranks(game) == ranks_of(expected["totals"])
    assert seat_totals(game) == {"Ann": 105, "Bart": 27, "Chris": 53, "Dirk": 66}
    assert seat_ranks(game) == {
        placing["player"]: placing["rank"] for placing in vector["expected"]["ranking"]
    }
    assert game.finished is False


@pytest.mark.parametrize("path", small_vectors(), ids=lambda path: path.stem)
def test_every_small_vector_recorded_round_by_round_gives_its_final_result(path, referee):
    vector = load(path)
    game = table_for(vector["game"], referee).game
    record(game, referee, *vector["game"]["rounds"])
    expected = vector["expected"]
    assert game.rounds.count() == len(expected["rounds"])
    assert seat_totals(game) == expected["totals"]
    assert seat_ranks(game) == {
        placing["player"]: placing["rank"] for placing in expected["ranking"]
    }
    game = Game.objects.get(pk=game.pk)
    assert game.finished is expected["finished"]
    assert (game.finished_at is not None) is expected["finished"]
    assert game.score().finished is expected["finished"]
    assert game.version == len(expected["rounds"])


def test_a_round_must_be_the_next_one(game, referee):
    record(game, referee, DIRK_CLIMBS[0])
    with pytest.raises(rules.GameError) as caught:
        game.record_round(entries(DIRK_CLIMBS[1]), by=referee, number=3)
    assert caught.value.round_number == 3
    assert game.rounds.count() == 1


@pytest.mark.parametrize("recorded", [0, 1], ids=["no rounds yet", "one round"])
@pytest.mark.parametrize("number", [0, -1])
def test_a_round_number_below_1_is_refused_as_bad_input(number, recorded, game, referee):
    record(game, referee, *DIRK_CLIMBS[:recorded])
    before = snapshot(game)
    with pytest.raises(rules.GameError) as caught:
        game.record_round(entries(DIRK_CLIMBS[1]), by=referee, number=number)
    assert caught.value.round_number == number
    assert snapshot(game) == before


def test_no_round_can_be_recorded_after_the_game_ended(referee):
    vector = load(BELGIAN_VECTORS / "game_end.json")
    game = table_for(vector["game"], referee).game
    record(game, referee, *vector["game"]["rounds"])
    before = snapshot(game)
    with pytest.raises(rules.GameError) as caught:
        game.record_round(entries(DIRK_CLIMBS[0]), by=referee, number=6)
    assert caught.value.round_number == 6
    assert snapshot(game) == before


# --- corrections ----------------------------------------------------------------


def test_correcting_an_early_round_moves_a_later_reduction(game, referee):
    record(
        game,
        referee,
        yaniv("Bart", {"Ann": 10, "Bart": 1, "Chris": 3, "Dirk": 4}),
        # Ann arrives on 10 + 40 = 50 and is reduced to 0.
        yaniv("Bart", {"Ann": 40, "Bart": 2, "Chris": 3, "Dirk": 4}),
        yaniv("Bart", {"Ann": 10, "Bart": 0, "Chris": 3, "Dirk": 4}),
    )
    assert hand_numbers(game, 2)["Ann"] == (40, 50, 0)
    assert hand_numbers(game, 3)["Ann"] == (10, 0, 10)

    game.correct_round(
        1,
        entries(yaniv("Bart", {"Ann": 0, "Bart": 1, "Chris": 3, "Dirk": 4})),
        by=referee,
        reason="Ann held two jokers",
        version=game.version,
    )

    # Now 0 + 40 = 40 is not reduced, and 40 + 10 = 50 is, a round later.
    assert hand_numbers(game, 1)["Ann"] == (0, 0, 0)
    assert hand_numbers(game, 2)["Ann"] == (40, 0, 40)
    assert hand_numbers(game, 3)["Ann"] == (10, 50, 0)
    assert hand_numbers(game, 3) == {
        "Ann": (10, 50, 0),
        "Bart": (0, 0, 0),
        "Chris": (3, 0, 9),
        "Dirk": (4, 0, 12),
    }
    assert seat_totals(game) == {"Ann": 0, "Bart": 0, "Chris": 9, "Dirk": 12}
    assert seat_ranks(game) == {"Ann": 1, "Bart": 1, "Chris": 3, "Dirk": 4}
    assert game.version == 4


def test_correcting_a_round_can_change_its_kind_and_ending(game, referee):
    record(game, referee, *DIRK_CLIMBS[:2])
    game.correct_round(
        1,
        entries({"hands": {"Ann": 9, "Bart": 0, "Chris": 2, "Dirk": 45}, "empty_hand": "Bart"}),
        by=referee,
        reason="Bart emptied his hand, nobody called",
        version=game.version,
    )
    first = Round.objects.get(game=game, number=1)
    assert first.kind == "empty_hand"
    assert first.caller is None
    assert first.empty_hand is not None
    assert first.empty_hand.player.name == "Bart"
    assert hand_numbers(game, 2) == {
        "Ann": (0, 0, 9),
        "Bart": (1, 0, 1),
        "Chris": (2, 0, 4),
        "Dirk": (45, 0, 90),
    }


def test_a_correction_that_would_end_the_game_before_later_rounds_changes_nothing(game, referee):
    record(game, referee, *DIRK_CLIMBS)
    assert seat_totals(game)["Dirk"] == 100
    before = snapshot(game)
    version = game.version

    # Dirk 135 + 20 = 155 would end the game at round 4, but round 5 was played.
    with pytest.raises(rules.GameError) as caught:
        game.correct_round(
            4,
            entries(yaniv("Ann", {"Ann": 0, "Bart": 1, "Chris": 2, "Dirk": 20})),
            by=referee,
            reason="Dirk held 20",
            version=version,
        )

    assert caught.value.round_number == 4
    assert "round 4" in str(caught.value)
    assert snapshot(game) == before
    assert Game.objects.get(pk=game.pk).version == version


def test_correcting_the_last_round_can_end_the_game(game, referee):
    record(game, referee, *DIRK_CLIMBS)
    game.correct_round(
        5,
        entries(yaniv("Ann", {"Ann": 0, "Bart": 1, "Chris": 2, "Dirk": 20})),
        by=referee,
        reason="Dirk held 20",
        version=game.version,
    )
    assert hand_numbers(game, 5)["Dirk"] == (20, 0, 165)
    assert game.finished is True
    assert seat_ranks(game) == {"Ann": 1, "Bart": 2, "Chris": 3, "Dirk": 4}


# --- stale versions -------------------------------------------------------------


def _correct(game: Game, referee, version: int) -> None:
    game.correct_round(
        1,
        entries(yaniv("Ann", {"Ann": 0, "Bart": 9, "Chris": 9, "Dirk": 9})),
        by=referee,
        reason="late correction",
        version=version,
    )


def _undo(game: Game, referee, version: int) -> None:
    game.undo_last_round(by=referee, reason="late undo", version=version)


def _end(game: Game, referee, version: int) -> None:
    game.end_at_time_limit(by=referee, reason="late end", version=version)


@pytest.mark.parametrize("change", [_correct, _undo, _end], ids=["correct", "undo", "end"])
def test_a_change_on_a_stale_version_raises_sheet_changed_and_changes_nothing(
    change, game, referee
):
    record(game, referee, DIRK_CLIMBS[0])
    seen = game.version
    record(game, referee, DIRK_CLIMBS[1])
    before = snapshot(game)

    with pytest.raises(SheetChanged):
        change(game, referee, seen)

    assert snapshot(game) == before


# --- undo -----------------------------------------------------------------------


def test_undo_removes_the_last_round_and_restores_the_totals_before_it(game, referee):
    record(game, referee, *DIRK_CLIMBS)
    game.undo_last_round(by=referee, reason="entered twice", version=game.version)
    assert list(game.rounds.values_list("number", flat=True)) == [1, 2, 3, 4]
    assert not Hand.objects.filter(round__game=game, round__number=5).exists()
    assert seat_totals(game) == {"Ann": 0, "Bart": 4, "Chris": 8, "Dirk": 145}
    assert seat_ranks(game) == {"Ann": 1, "Bart": 2, "Chris": 3, "Dirk": 4}
    assert game.version == 6


def test_undoing_the_round_that_ended_the_game_unfinishes_it(referee):
    vector = load(BELGIAN_VECTORS / "game_end.json")
    game = table_for(vector["game"], referee).game
    record(game, referee, *vector["game"]["rounds"])
    assert game.finished is True

    game.undo_last_round(by=referee, reason="wrong table", version=game.version)

    assert game.finished is False
    assert game.finished_at is None
    assert game.rounds.count() == 4
    assert seat_totals(game) == vector["expected"]["rounds"][3]["totals"]
    # The game goes on: the round can be recorded again.
    record(game, referee, vector["game"]["rounds"][4])
    assert game.finished is True
    assert seat_totals(game) == vector["expected"]["totals"]


def test_undo_without_rounds_is_refused(game, referee):
    with pytest.raises(rules.GameError):
        game.undo_last_round(by=referee, reason="oops", version=game.version)
    assert game.version == 0
    assert not GameChange.objects.filter(game=game).exists()


# --- the time limit -------------------------------------------------------------


def test_ending_at_the_time_limit_finishes_the_game_ranked_by_the_current_totals(game, referee):
    record(
        game,
        referee,
        yaniv("Ann", {"Ann": 3, "Bart": 12, "Chris": 7, "Dirk": 20}),
        yaniv("Dirk", {"Ann": 9, "Bart": 8, "Chris": 12, "Dirk": 1}),
    )
    game.end_at_time_limit(by=referee, reason="time is up", version=game.version)

    game = Game.objects.get(pk=game.pk)
    assert game.finished is True
    assert game.ended_at_time_limit is True
    assert game.finished_at is not None
    assert seat_totals(game) == {"Ann": 9, "Bart": 20, "Chris": 19, "Dirk": 20}
    assert seat_ranks(game) == {"Ann": 1, "Bart": 3, "Chris": 2, "Dirk": 3}


def test_no_round_can_be_recorded_after_the_time_limit(game, referee):
    record(game, referee, DIRK_CLIMBS[0])
    game.end_at_time_limit(by=referee, reason="time is up", version=game.version)
    before = snapshot(game)
    with pytest.raises(rules.GameError) as caught:
        game.record_round(entries(DIRK_CLIMBS[1]), by=referee, number=2)
    assert caught.value.round_number == 2
    assert snapshot(game) == before


# --- the audit log --------------------------------------------------------------


def _only_new_change(game: Game, known: set[int]) -> GameChange:
    new = list(GameChange.objects.filter(game=game).exclude(pk__in=known))
    assert len(new) == 1
    return new[0]


def test_recording_a_round_logs_who_recorded_what(game, referee):
    entry = yaniv("Ann", {"Ann": 4, "Bart": 15, "Chris": 4, "Dirk": 9}, ("Chris", "Dirk"))
    record(game, referee, entry)
    change = GameChange.objects.get(game=game)
    assert change.action == GameChange.Action.RECORD
    assert change.user == referee
    assert change.round_number == 1
    assert change.before is None
    assert change.after == entry
    assert change.reason == ""
    assert change.version == 1


def test_a_correction_logs_the_entries_before_and_after_and_the_reason(game, referee, director):
    old = yaniv("Ann", {"Ann": 4, "Bart": 15, "Chris": 4, "Dirk": 9}, ("Chris", "Dirk"))
    new = {"hands": {"Ann": 9, "Bart": 0, "Chris": 0, "Dirk": 3}, "empty_hand": "Bart"}
    record(game, referee, old, DIRK_CLIMBS[1])
    known = set(GameChange.objects.values_list("pk", flat=True))

    game.correct_round(
        1, entries(new), by=director, reason="Bart had emptied", version=game.version
    )

    change = _only_new_change(game, known)
    assert change.action == GameChange.Action.CORRECT
    assert change.user == director
    assert change.round_number == 1
    assert change.before == old
    assert change.after == new
    assert change.reason == "Bart had emptied"
    assert change.version == 3


def test_an_undo_logs_the_removed_round_and_the_reason(game, referee):
    last = {"hands": {"Ann": 9, "Bart": 0, "Chris": 0, "Dirk": 3}, "empty_hand": "Bart"}
    record(game, referee, DIRK_CLIMBS[0], last)
    known = set(GameChange.objects.values_list("pk", flat=True))

    game.undo_last_round(by=referee, reason="entered twice", version=game.version)

    change = _only_new_change(game, known)
    assert change.action == GameChange.Action.UNDO
    assert change.user == referee
    assert change.round_number == 2
    assert change.before == last
    assert change.after is None
    assert change.reason == "entered twice"
    assert change.version == 3


def test_ending_at_the_time_limit_logs_who_ended_it_and_why(game, referee):
    record(game, referee, DIRK_CLIMBS[0])
    known = set(GameChange.objects.values_list("pk", flat=True))

    game.end_at_time_limit(by=referee, reason="90 minutes", version=game.version)

    change = _only_new_change(game, known)
    assert change.action == GameChange.Action.END
    assert change.user == referee
    assert change.round_number is None
    assert change.before is None
    assert change.after is None
    assert change.reason == "90 minutes"
    assert change.version == 2


def test_every_change_of_a_game_writes_exactly_one_log_entry(game, referee):
    record(game, referee, DIRK_CLIMBS[0], DIRK_CLIMBS[1])
    game.correct_round(1, entries(DIRK_CLIMBS[2]), by=referee, reason="typo", version=game.version)
    game.undo_last_round(by=referee, reason="twice", version=game.version)
    game.end_at_time_limit(by=referee, reason="time", version=game.version)
    actions = list(
        GameChange.objects.filter(game=game).order_by("pk").values_list("action", "version")
    )
    assert actions == [
        ("record", 1),
        ("record", 2),
        ("correct", 3),
        ("undo", 4),
        ("end", 5),
    ]


# --- database constraints -------------------------------------------------------


def _first_round(game: Game, referee) -> Round:
    return record(game, referee, DIRK_CLIMBS[0])[0]


# The largest hand of any rule options is 91 (7 cards of 13, issue 37); the engine checks a hand
# against the tournament's own rules (50 under belgian) before it is stored.
def test_the_database_refuses_a_hand_total_of_92(game, referee):
    hand = _first_round(game, referee).hands.get(seat__position=4)
    with pytest.raises(IntegrityError), transaction.atomic():
        Hand.objects.filter(pk=hand.pk).update(hand_total=92)
    assert Hand.objects.get(pk=hand.pk).hand_total == 45


def test_the_database_refuses_a_new_hand_of_92(game):
    seat = game.table.seats.get(position=1)
    stored = Round.objects.create(game=game, number=1, kind="yaniv", caller=seat)
    with pytest.raises(IntegrityError), transaction.atomic():
        Hand.objects.create(round=stored, seat=seat, hand_total=92)
    Hand.objects.create(round=stored, seat=seat, hand_total=91)


def test_the_database_refuses_a_duplicate_round_number(game, referee):
    _first_round(game, referee)
    seat = game.table.seats.get(position=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Round.objects.create(game=game, number=1, kind="yaniv", caller=seat)
    assert game.rounds.count() == 1


def test_the_database_refuses_a_duplicate_seat_position(game):
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(table=game.table, position=1, player=Player.objects.create(name="Els"))
    assert game.table.seats.count() == 4


def test_the_database_refuses_the_same_player_twice_at_a_table(game):
    ann = game.table.seats.get(position=1).player
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(table=game.table, position=5, player=ann)
    assert game.table.seats.count() == 4


@pytest.mark.parametrize("kind", ["yaniv", "false_yaniv", "empty_hand"])
def test_the_database_refuses_a_round_with_both_a_caller_and_an_emptied_hand(kind, game):
    ann, bart = game.table.seats.order_by("position")[:2]
    with pytest.raises(IntegrityError), transaction.atomic():
        Round.objects.create(game=game, number=1, kind=kind, caller=ann, empty_hand=bart)
    assert not game.rounds.exists()


# --- cost -----------------------------------------------------------------------

# Queries of one record_round, whatever the number of earlier rounds: the
# savepoint and its release (a test runs inside a transaction), the game row
# lock, seats, rounds, their hands, the insert of the round, the insert of the
# hands, the new hands read back, their cached numbers, the seats' totals, the
# game row and the log entry.
QUERIES_PER_ROUND = 13


def long_game_round(number: int) -> dict:
    """Small hands, a different caller each round: no game end in 12 rounds."""
    caller = PLAYERS[number % len(PLAYERS)]
    hands = {player: (number + position) % 9 + 1 for position, player in enumerate(PLAYERS)}
    hands[caller] = number % 6
    return yaniv(caller, hands)


def test_recording_a_round_costs_the_same_queries_whatever_came_before(
    game, referee, django_assert_max_num_queries
):
    record(game, referee, long_game_round(1))
    with django_assert_max_num_queries(QUERIES_PER_ROUND):
        game.record_round(entries(long_game_round(2)), by=referee, number=2)

    record(game, referee, *(long_game_round(number) for number in range(3, 12)))
    with django_assert_max_num_queries(QUERIES_PER_ROUND):
        game.record_round(entries(long_game_round(12)), by=referee, number=12)

    assert game.rounds.count() == 12
    assert game.finished is False
