"""The dealer at its edges (issue 36, mutation testing): a game with a limit on deals ends
after them, one that never ends is refused by name, the rates asked for reach every round,
and the hands are at their natural scale unless asked."""

from __future__ import annotations

import random

import pytest

from scoring import dealer
from scoring.rules import BELGIAN

PLAYERS = ("Ann", "Bart", "Chris")


def test_a_game_limited_to_one_deal_a_player_ends_after_as_many_rounds_as_players():
    # A limit no total reaches: only the deals end the game.
    one_deal_each = BELGIAN.with_options({"deals_per_player": 1, "end_above": 10_000})
    assert len(dealer.deal_game(PLAYERS, one_deal_each, random.Random(1))) == 3


def test_a_game_that_does_not_end_within_the_dealer_s_rounds_is_refused_by_name(monkeypatch):
    monkeypatch.setattr(dealer, "MAX_ROUNDS", 1)
    with pytest.raises(RuntimeError, match="^no end after 1 rounds under belgian$"):
        dealer.deal_game(PLAYERS, BELGIAN, random.Random(1))


def test_a_false_yaniv_rate_of_one_makes_every_call_of_a_game_false():
    rounds = dealer.deal_game(
        PLAYERS, BELGIAN, random.Random(2), false_yaniv_rate=1, empty_hand_rate=0
    )
    assert all(
        entries.yaniv is not None and entries.hands[entries.yaniv] > BELGIAN.yaniv_limit
        for entries in rounds
    )


def test_hands_are_dealt_at_their_natural_scale_unless_asked():
    natural = dealer.deal_game(PLAYERS, BELGIAN, random.Random(4), hand_scale=1.0)
    assert dealer.deal_game(PLAYERS, BELGIAN, random.Random(4)) == natural


def test_a_round_is_refused_with_its_reason():
    with pytest.raises(ValueError) as refused:
        dealer.deal_round(["Ann"], BELGIAN, random.Random(1))
    assert str(refused.value) == "a round needs two players still in"
    with pytest.raises(ValueError) as refused:
        dealer.deal_round(PLAYERS, BELGIAN, random.Random(1), hand_scale=0)
    assert str(refused.value) == "hand_scale must be above 0"


def test_a_seed_deals_the_same_smaller_hands_in_every_version():
    # The demo and the benchmarks deal their games from seeds: a game must stay the same.
    rounds = dealer.deal_game(
        PLAYERS, BELGIAN, random.Random(3), empty_hand_rate=1, hand_scale=0.5
    )
    assert len(rounds) == 20
    assert [dict(entries.hands) for entries in rounds[:2]] == [
        {"Ann": 5, "Bart": 15, "Chris": 0},
        {"Ann": 4, "Bart": 2, "Chris": 0},
    ]
