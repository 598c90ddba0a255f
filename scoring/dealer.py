"""Random but plausible rounds and whole games, valid under any `rules.Ruleset`: pure Python.

The demo tournament (`build_demo`), the benchmarks (`bench/`) and the tests deal their
rounds here. Everything comes from the `random.Random` passed in, so a seed gives the same
rounds again. The entries are what a referee types in: each player's hand total, who called
Yaniv or emptied their hand, who went along. They are valid under the ruleset they are dealt
for: nobody goes along under automatic Assaf, nobody calls above the limit where a false Yaniv
is not scored, hands stay within `max_hand`, and `deal_game` deals no hand to a player who is
out (elimination). The engine (`rules.score_round`) says who is still in and when it is over.

What a round looks like, seat order and one random draw after the other:

- with `empty_hand_rate`, a player empties their hand; the others hold 2 to 40 points
  (most often about 14);
- otherwise a player calls Yaniv: with `false_yaniv_rate` (where a false Yaniv is scored)
  above the limit by 1 to 4, else at or below it, mostly close to it; the others hold 0 to 38
  (most often about 9). Where players go along, they declare clockwise from the caller: a
  hand at most 2 above the limit goes along with `along_rate`.

The others' hands are scaled to `max_hand` (fewer cards dealt) and by `hand_scale`: below 1,
lower hands and so longer games (a Belgian game of 4 lasts about 9 rounds by default, about
20 with `hand_scale=0.4, along_rate=0.1`).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence

from scoring import rules

EMPTY_HAND_RATE = 0.08
FALSE_YANIV_RATE = 0.03
ALONG_RATE = 0.45
# A game that has not ended after this many rounds is a bug of the dealer or of the rules.
MAX_ROUNDS = 2000


def deal_round(
    players: Sequence[str],
    ruleset: rules.Ruleset,
    rng: random.Random,
    *,
    empty_hand_rate: float = EMPTY_HAND_RATE,
    false_yaniv_rate: float = FALSE_YANIV_RATE,
    along_rate: float = ALONG_RATE,
    hand_scale: float = 1.0,
    false_yaniv: bool = False,
) -> rules.Round:
    """One round's entries for `players`, the players still in, seat order.

    `false_yaniv=True` makes it a false Yaniv call (a ruleset that scores one only).
    """
    if len(players) < 2:
        raise ValueError("a round needs two players still in")
    if hand_scale <= 0:
        raise ValueError("hand_scale must be above 0")
    if false_yaniv and not can_call_false_yaniv(ruleset):
        raise ValueError(f"{ruleset.name} does not score a false Yaniv")
    ending = rng.random()
    if not false_yaniv and ending < empty_hand_rate:
        emptier = rng.choice(players)
        hands = {
            player: 0 if player == emptier else _hand(rng, ruleset, hand_scale, 2, 40, 14)
            for player in players
        }
        return rules.Round(hands=hands, empty_hand=emptier)
    caller = rng.choice(players)
    if false_yaniv or (can_call_false_yaniv(ruleset) and ending >= 1 - false_yaniv_rate):
        limit = ruleset.yaniv_limit
        called = rng.randint(limit + 1, min(limit + 4, ruleset.max_hand))
    else:
        called = rng.choice(_calls(ruleset.yaniv_limit))
    hands = {
        player: called if player == caller else _hand(rng, ruleset, hand_scale, 0, 38, 9)
        for player in players
    }
    along: tuple[str, ...] = ()
    if not ruleset.automatic_assaf:
        start = players.index(caller)
        clockwise = [*players[start + 1 :], *players[:start]]
        low = ruleset.yaniv_limit + 2
        along = tuple(
            player for player in clockwise if hands[player] <= low and rng.random() < along_rate
        )
    return rules.Round(hands=hands, yaniv=caller, along=along)


def deal_game(
    players: Sequence[str],
    ruleset: rules.Ruleset,
    rng: random.Random,
    *,
    empty_hand_rate: float = EMPTY_HAND_RATE,
    false_yaniv_rate: float = FALSE_YANIV_RATE,
    along_rate: float = ALONG_RATE,
    hand_scale: float = 1.0,
) -> list[rules.Round]:
    """Rounds from the first until the engine says the game is over (its last round ends it)."""
    # Every ruleset seats 2 to 8, the default's bounds: a check without it is the same check.
    rules.check_players(players, ruleset)  # pragma: no mutate
    totals: dict[str, int] = dict.fromkeys(players, 0)
    out: list[str] = []
    rounds: list[rules.Round] = []
    while len(rounds) < MAX_ROUNDS:
        entries = deal_round(
            rules.still_in(players, out),
            ruleset,
            rng,
            empty_hand_rate=empty_hand_rate,
            false_yaniv_rate=false_yaniv_rate,
            along_rate=along_rate,
            hand_scale=hand_scale,
        )
        result = rules.score_round(players, totals, entries, len(rounds) + 1, ruleset, out=out)
        rounds.append(entries)
        if result.ends_game:
            return rounds
        totals = dict(result.totals)
        out.extend(result.eliminated)
    raise RuntimeError(f"no end after {MAX_ROUNDS} rounds under {ruleset.name}")


def can_call_false_yaniv(ruleset: rules.Ruleset) -> bool:
    """A call above the limit is scored (not refused), and a hand can be above the limit."""
    return ruleset.scores_false_yaniv and ruleset.yaniv_limit < ruleset.max_hand


@functools.cache
def _calls(limit: int) -> tuple[int, ...]:
    """Hand totals at a valid call, weighted towards the limit (5: 0 1 2 2 3 3 3 4 4 4 4 5…)."""
    return tuple(total for total in range(limit + 1) for _ in range(max(total, 1)))


def _hand(
    rng: random.Random, ruleset: rules.Ruleset, hand_scale: float, low: int, high: int, mode: int
) -> int:
    """A hand total of a player who did not end the round (out of 50, scaled)."""
    scale = ruleset.max_hand / 50 * hand_scale
    drawn = rng.triangular(low * scale, high * scale, mode * scale)
    return max(0, min(ruleset.max_hand, round(drawn)))
