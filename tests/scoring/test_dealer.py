"""The dealer: every dealt game is valid and finished under every rule set, and a seed deals it
again."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import dealer
from scoring.rules import (
    BELGIAN,
    ISRAELI,
    RULESETS,
    Game,
    Round,
    RoundKind,
    Ruleset,
    score_game,
    still_in,
)
from tests.profiles import sized

NAMES = ("Ann", "Bart", "Chris", "Dirk", "Eva", "Frank", "Greet", "Hélène")
FOUR = NAMES[:4]


def check_dealt_game(players: tuple[str, ...], ruleset: Ruleset, rounds: list[Round]) -> None:
    """Valid entries all the way (the engine accepts them) and the last round ends the game."""
    result = score_game(Game(players, tuple(rounds), ruleset))
    assert result.finished and result.winners
    assert result.rounds[-1].ends_game
    assert not any(scored.ends_game for scored in result.rounds[:-1])
    out: set[str] = set()
    for entries, scored in zip(rounds, result.rounds, strict=True):
        # Only the players still in hold a hand; every hand fits the cards dealt.
        assert tuple(entries.hands) == still_in(players, out)
        assert all(0 <= hand <= ruleset.max_hand for hand in entries.hands.values())
        if ruleset.automatic_assaf:
            assert entries.along == ()
        if entries.yaniv is not None and not ruleset.scores_false_yaniv:
            assert entries.hands[entries.yaniv] <= ruleset.yaniv_limit
        if entries.empty_hand is not None:
            assert entries.hands[entries.empty_hand] == 0 and entries.along == ()
        out.update(scored.eliminated)


@pytest.mark.parametrize("name", RULESETS)
def test_every_dealt_game_is_valid_and_finished(name):
    ruleset = RULESETS[name]
    for seed in range(40):
        players = NAMES[: 2 + seed % 7]
        check_dealt_game(players, ruleset, dealer.deal_game(players, ruleset, random.Random(seed)))


@pytest.mark.parametrize("name", RULESETS)
def test_a_seed_deals_the_same_game_again(name):
    ruleset = RULESETS[name]
    first = dealer.deal_game(FOUR, ruleset, random.Random(2026))
    assert dealer.deal_game(FOUR, ruleset, random.Random(2026)) == first
    assert dealer.deal_game(FOUR, ruleset, random.Random(2027)) != first


def test_belgian_games_show_every_kind_of_round():
    kinds: Counter[str] = Counter()
    for seed in range(30):
        rounds = dealer.deal_game(FOUR, BELGIAN, random.Random(seed))
        result = score_game(Game(FOUR, tuple(rounds), BELGIAN))
        for entries, scored in zip(rounds, result.rounds, strict=True):
            kinds[scored.kind] += 1
            kinds["reduction"] += bool(scored.reductions)
            if scored.kind is RoundKind.YANIV:
                for player in entries.along:
                    kinds["along beat" if scored.points[player] == 0 else "along lost"] += 1
    for kind in ("yaniv", "false_yaniv", "empty_hand", "reduction", "along beat", "along lost"):
        assert kinds[kind], kind


def test_israeli_games_show_assafs_and_eliminations():
    kinds: Counter[str] = Counter()
    for seed in range(20):
        rounds = dealer.deal_game(FOUR, ISRAELI, random.Random(seed))
        result = score_game(Game(FOUR, tuple(rounds), ISRAELI))
        kinds.update(scored.kind for scored in result.rounds)
        kinds["eliminated"] += len(result.out_in_round)
    assert kinds[RoundKind.ASSAF] and kinds["eliminated"]
    assert not kinds[RoundKind.FALSE_YANIV]


def test_lower_hands_make_longer_games():
    def mean_length(**style: float) -> float:
        games = [dealer.deal_game(FOUR, BELGIAN, random.Random(s), **style) for s in range(60)]
        return sum(map(len, games)) / len(games)

    assert mean_length(hand_scale=0.4, along_rate=0.1) > 1.5 * mean_length()


def test_a_false_yaniv_is_dealt_on_demand_where_it_is_scored():
    entries = dealer.deal_round(FOUR, BELGIAN, random.Random(1), false_yaniv=True)
    assert entries.yaniv is not None
    assert BELGIAN.yaniv_limit < entries.hands[entries.yaniv] <= BELGIAN.yaniv_limit + 4
    with pytest.raises(ValueError, match="israeli"):
        dealer.deal_round(FOUR, ISRAELI, random.Random(1), false_yaniv=True)
    # The limit at the highest hand leaves no call above it.
    whole_hand = BELGIAN.with_options({"yaniv_limit": BELGIAN.max_hand})
    assert not dealer.can_call_false_yaniv(whole_hand)


def test_rates_of_one_and_zero():
    always_empty = dealer.deal_game(FOUR, BELGIAN, random.Random(3), empty_hand_rate=1)
    assert all(entries.empty_hand for entries in always_empty)
    always_false = [
        dealer.deal_round(
            FOUR, BELGIAN, random.Random(seed), false_yaniv_rate=1, empty_hand_rate=0
        )
        for seed in range(20)
    ]
    assert all(e.yaniv and e.hands[e.yaniv] > BELGIAN.yaniv_limit for e in always_false)
    never_along = dealer.deal_game(FOUR, BELGIAN, random.Random(3), along_rate=0)
    assert not any(entries.along for entries in never_along)


def test_bad_requests_are_refused():
    with pytest.raises(ValueError):
        dealer.deal_round(("Ann",), BELGIAN, random.Random(1))
    with pytest.raises(ValueError):
        dealer.deal_round(FOUR, BELGIAN, random.Random(1), hand_scale=0)


# --- the demo fixture was dealt from this stream -----------------------------------------


def demo_deal_as_built(players: tuple[str, ...], rng: random.Random, false_yaniv: bool) -> Round:
    """build_demo's own generator, from before the dealer: fixtures/demo.json was dealt by it."""

    def hand(low: int, high: int, mode: int) -> int:
        return max(0, min(50, round(rng.triangular(low, high, mode))))

    ending = rng.random()
    if not false_yaniv and ending < 0.08:
        emptier = rng.choice(players)
        return Round(
            {p: 0 if p == emptier else hand(2, 40, 14) for p in players}, empty_hand=emptier
        )
    caller = rng.choice(players)
    called = (
        rng.randint(6, 9)
        if false_yaniv
        else rng.choice((0, 1, *[2] * 2, *[3] * 3, *[4] * 4, *[5] * 5))
    )
    hands = {p: called if p == caller else hand(0, 38, 9) for p in players}
    start = players.index(caller)
    clockwise = players[start + 1 :] + players[:start]
    along = tuple(p for p in clockwise if hands[p] <= 7 and rng.random() < 0.45)
    return Round(hands, yaniv=caller, along=along)


@pytest.mark.parametrize("false_yaniv", [False, True])
def test_the_demo_deals_the_rounds_of_its_fixture(false_yaniv):
    """build_demo deals with these arguments: the same seed must give the committed demo."""
    for seed in range(300):
        ours, theirs = random.Random(seed), random.Random(seed)
        for _ in range(5):
            assert dealer.deal_round(
                FOUR, BELGIAN, ours, false_yaniv=false_yaniv, false_yaniv_rate=0
            ) == demo_deal_as_built(FOUR, theirs, false_yaniv)


# --- any rule set the options make ----------------------------------------------------------


@st.composite
def rulesets(draw) -> Ruleset:
    base = draw(st.sampled_from(list(RULESETS.values())))
    cards = draw(st.integers(1, 5))
    options: dict[str, object] = {
        "cards_dealt": cards,
        "yaniv_limit": draw(st.integers(0, 10 * cards)),
        "end_above": draw(st.integers(1, 250)),
        "end": draw(st.sampled_from(["game_over", "elimination"])),
    }
    if base.scores_false_yaniv:
        options["false_yaniv"] = draw(st.sampled_from(["others_score_zero", "others_score_hand"]))
    return base.with_options(options)


rates = st.floats(0, 1)


@settings(deadline=None, max_examples=sized(150))
@given(
    ruleset=rulesets(),
    count=st.integers(2, 8),
    seed=st.integers(0, 2**32),
    empty_hand_rate=rates,
    false_yaniv_rate=rates,
    along_rate=rates,
    hand_scale=st.floats(0.3, 2),
)
def test_any_ruleset_any_style_deals_a_valid_finished_game(
    ruleset, count, seed, empty_hand_rate, false_yaniv_rate, along_rate, hand_scale
):
    players = NAMES[:count]
    style = {
        "empty_hand_rate": empty_hand_rate,
        "false_yaniv_rate": false_yaniv_rate,
        "along_rate": along_rate,
        "hand_scale": hand_scale,
    }
    rounds = dealer.deal_game(players, ruleset, random.Random(seed), **style)
    check_dealt_game(players, ruleset, rounds)
    assert dealer.deal_game(players, ruleset, random.Random(seed), **style) == rounds
