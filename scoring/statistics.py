"""Every player's Yaniv statistics, and a tournament's facts, from the hands as stored: pure
Python, no Django.

The site reads one line per hand (`HandLine`: the round's kind, who called or emptied their
hand, this hand's seat and entries and the engine's points) and folds them here; nothing is
entered for the statistics. The lines come game by game, each game's rounds in order.

What the figures mean (`YanivStats`):

- a **call** is a round the player ended by calling Yaniv: **held** when nobody caught it
  (a valid call scoring the caller nothing), **caught** when a player going along had the same
  or fewer points (the caller scored the along penalty), an **Assaf** when another hand was as
  low under automatic Assaf, or a **false Yaniv** (a call above the limit);
- **going along** (valid calls only: a false call's declarations are void) is **won** when
  the player had the same or fewer points than the caller (they scored nothing and caught the
  caller), **lost** otherwise;
- the **average hand when not calling** is over the rounds another player ended (a call or an
  emptied hand); `hand_bins` counts those hands by fives (0–4, 5–9, … 45 and above);
- a **reduction** is a total landing on 50, 100 or 150 (the rule set's totals) and reduced;
- the **longest run without points** is the most rounds in a row, within one game, in which
  the player scored nothing.

Figures add up (`+`): a season's are its tournaments', a career's every tournament's.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, fields
from fractions import Fraction
from itertools import groupby
from operator import itemgetter
from typing import NamedTuple

from scoring.rules import RoundKind

# Hands when not calling, counted by fives: 0–4, 5–9, …, 40–44, and 45 and above.
HAND_BIN = 5
HAND_BINS = 10
# The lowest average hand is a fact only over this many rounds another player ended.
FACT_MIN_ROUNDS = 10

YANIV = RoundKind.YANIV.value
ASSAF = RoundKind.ASSAF.value


class HandLine(NamedTuple):
    """One player's hand in one round, as the site stores it: a plain tuple, made straight
    from a database row in this order."""

    # What the figures are gathered by (the site: the tournament).
    group: Hashable
    game: Hashable
    round: int
    kind: str
    # The seats that called Yaniv and that emptied their hand (one of them is None).
    caller: Hashable | None
    emptier: Hashable | None
    seat: Hashable
    player: Hashable
    hand: int
    along: bool
    points: int
    reduction: int
    total: int


@dataclass(frozen=True)
class YanivStats:
    """A player's figures over some games (see the module)."""

    games: int = 0
    rounds: int = 0
    calls: int = 0
    held: int = 0
    caught: int = 0
    assafs: int = 0
    false_yanivs: int = 0
    # The hands at the calls, added up.
    call_hands: int = 0
    along: int = 0
    along_won: int = 0
    along_lost: int = 0
    empty_hands: int = 0
    # The rounds another player ended, and the player's hands in them added up.
    waiting_rounds: int = 0
    waiting_hands: int = 0
    hand_bins: tuple[int, ...] = (0,) * HAND_BINS
    reductions: int = 0
    # The points the reductions took off.
    reduced: int = 0
    longest_run: int = 0

    def __add__(self, other: YanivStats) -> YanivStats:
        added = {
            each.name: getattr(self, each.name) + getattr(other, each.name)
            for each in fields(self)
            if each.name not in ("hand_bins", "longest_run")
        }
        # Every YanivStats has HAND_BINS bins: strict or not, the same pairs.
        bins = zip(self.hand_bins, other.hand_bins, strict=True)  # pragma: no mutate
        return YanivStats(
            **added,
            hand_bins=tuple(a + b for a, b in bins),
            longest_run=max(self.longest_run, other.longest_run),
        )

    @property
    def valid_calls(self) -> int:
        return self.calls - self.false_yanivs

    @property
    def held_share(self) -> Fraction | None:
        """The share of the valid calls that held."""
        return Fraction(self.held, self.valid_calls) if self.valid_calls else None

    @property
    def along_won_share(self) -> Fraction | None:
        return Fraction(self.along_won, self.along) if self.along else None

    @property
    def average_hand(self) -> Fraction | None:
        """The average hand when not calling."""
        return Fraction(self.waiting_hands, self.waiting_rounds) if self.waiting_rounds else None

    @property
    def average_call(self) -> Fraction | None:
        """The average hand at a call (false ones included)."""
        return Fraction(self.call_hands, self.calls) if self.calls else None


def total(figures: Iterable[YanivStats]) -> YanivStats:
    """The figures added up (none: all zero)."""
    summed = YanivStats()
    for each in figures:
        summed = summed + each
    return summed


# The figures counted one by one (the others: the hands by fives, the longest run).
COUNTED = tuple(
    each.name for each in fields(YanivStats) if each.name not in ("hand_bins", "longest_run")
)


class _Tally:
    """One key's figures while the lines are folded: the counts by `YanivStats`' names, the
    hands by fives, and the game being read with its run of rounds without points."""

    __slots__ = ("counts", "bins", "longest_run", "game", "run")

    def __init__(self) -> None:
        self.counts = dict.fromkeys(COUNTED, 0)
        self.bins = [0] * HAND_BINS
        self.longest_run = 0
        # The first line's game always differs from `game` and sets both: their starting
        # values are never read.
        self.game: Hashable = None  # pragma: no mutate
        self.run = 0  # pragma: no mutate

    def frozen(self) -> YanivStats:
        return YanivStats(**self.counts, hand_bins=tuple(self.bins), longest_run=self.longest_run)


GROUP = 0
PLAYER = 7


def gather(lines: Iterable[Sequence], by: int = GROUP) -> dict[Hashable, YanivStats]:
    """The figures of the lines (`HandLine`s or tuples in its order), gathered by one of
    their columns: `GROUP` (one player's hands, by tournament) or `PLAYER` (a tournament's
    hands, by player)."""
    tallies: dict[Hashable, _Tally] = {}
    for line in lines:
        key = line[by]
        tally = tallies.get(key)
        if tally is None:
            tally = tallies[key] = _Tally()
        _count(tally, line)
    return {key: tally.frozen() for key, tally in tallies.items()}


def _count(tally: _Tally, line: Sequence) -> None:
    """One hand into its key's tally."""
    _, game, _, kind, caller, emptier, seat, _, hand, along, points, reduction, _ = line
    counts = tally.counts
    if game != tally.game:
        tally.game, tally.run = game, 0
        counts["games"] += 1
    counts["rounds"] += 1
    if points <= 0:
        tally.run += 1
        tally.longest_run = max(tally.longest_run, tally.run)
    else:
        tally.run = 0
    if reduction:
        counts["reductions"] += 1
        counts["reduced"] += reduction
    if seat == caller:
        counts["calls"] += 1
        counts["call_hands"] += hand
        if kind == YANIV:
            counts["held" if points <= 0 else "caught"] += 1
        else:
            counts["assafs" if kind == ASSAF else "false_yanivs"] += 1
    elif seat == emptier:
        counts["empty_hands"] += 1
    else:
        counts["waiting_rounds"] += 1
        counts["waiting_hands"] += hand
        tally.bins[min(hand // HAND_BIN, HAND_BINS - 1)] += 1
        if along and kind == YANIV:
            counts["along"] += 1
            counts["along_won" if points <= 0 else "along_lost"] += 1


# --- a tournament's facts -------------------------------------------------------------------


@dataclass(frozen=True)
class Fact:
    """One of a tournament's facts: what (`code`), its figure, who (players tied for it, in
    the order they first played) and, for a fact of one game, which game and round."""

    code: str
    value: int | Fraction
    players: tuple[Hashable, ...] = ()
    game: Hashable | None = None
    round: int | None = None


# The facts, in the order they are told: (code, the figure of a player's statistics).
PLAYER_FACTS = (
    ("most_yanivs", "held"),
    ("best_catcher", "along_won"),
    ("most_reductions", "reductions"),
    ("longest_run", "longest_run"),
)


def facts(lines: Sequence[Sequence]) -> tuple[Fact, ...]:
    """A tournament's facts from the hands of its finished games (`HandLine`s, game by
    game): the most Yaniv calls held, the best catcher going along, the most reductions, the
    longest run without points, the best comeback, the lowest average hand when not calling
    and the longest game. A fact nobody earned (nobody held a call) is left out."""
    by_player = gather(lines, by=PLAYER)
    told = [fact for code, name in PLAYER_FACTS if (fact := _most(by_player, code, name))]
    comeback = best_comeback(lines)
    if comeback is not None:
        told.append(comeback)
    lowest = _lowest_hand(by_player)
    if lowest is not None:
        told.append(lowest)
    longest = longest_game(lines)
    if longest is not None:
        told.append(longest)
    return tuple(told)


def _most(by_player: dict[Hashable, YanivStats], code: str, name: str) -> Fact | None:
    best = max((getattr(stats, name) for stats in by_player.values()), default=0)
    if best <= 0:
        return None
    tied = tuple(player for player, stats in by_player.items() if getattr(stats, name) == best)
    return Fact(code, best, tied)


def _lowest_hand(by_player: dict[Hashable, YanivStats]) -> Fact | None:
    averages = {
        player: stats.average_hand
        for player, stats in by_player.items()
        if stats.waiting_rounds >= FACT_MIN_ROUNDS and stats.average_hand is not None
    }
    if not averages:
        return None
    lowest = min(averages.values())
    return Fact("lowest_hand", lowest, tuple(p for p, a in averages.items() if a == lowest))


def best_comeback(lines: Sequence[Sequence]) -> Fact | None:
    """The biggest deficit a winner came back from: after some round of a game, their total
    above the lowest at the table by this many points, and they won it (the lowest final
    total, shared or not). The earliest such game and round on a tie."""
    best: Fact | None = None
    for game, game_lines in groupby(lines, key=itemgetter(1)):
        totals: dict[Hashable, int] = {}
        # Each player's deepest deficit in the game, and the round it came after.
        deepest: dict[Hashable, tuple[int, int]] = {}
        for number, round_lines in groupby(game_lines, key=itemgetter(2)):
            totals.update((line[PLAYER], line[-1]) for line in round_lines)
            low = min(totals.values())
            for player, score in totals.items():
                # Not behind before: a deficit of 0, after this round.
                if score - low > deepest.get(player, (0, number))[0]:
                    deepest[player] = (score - low, number)
        # A game has lines: totals is never empty.
        final = min(totals.values())
        # Only a player once behind has a deepest deficit (above 0).
        for player in (p for p, score in totals.items() if score == final and p in deepest):
            deficit, number = deepest[player]
            if best is None or deficit > best.value:
                best = Fact("best_comeback", deficit, (player,), game, number)
    return best


def longest_game(lines: Sequence[Sequence]) -> Fact | None:
    """The game with the most rounds (the first on a tie)."""
    best: Fact | None = None
    for game, game_lines in groupby(lines, key=itemgetter(1)):
        rounds = len({line[2] for line in game_lines})
        if best is None or rounds > best.value:
            best = Fact("longest_game", rounds, (), game)
    return best
