"""The Yaniv rules engine: pure Python, no Django.

It scores the referee's raw entries (every player's hand total, who called
Yaniv or emptied their hand, who went along) under a `Ruleset`, following
shared/RULES.md. Players are identified by unique names given in seat order,
clockwise. Everything going in and out is immutable; bad input raises
`GameError` naming the round and the field, and nothing partial is returned.

`BELGIAN` is the championship standard; `RULESETS` names it and the other
published rule sets (RULES.md, "Other rule sets (presets)").
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from scoring.errors import GameError, GameWarning

# The rule sets and their options live in scoring.ruleset: every name is re-exported here,
# so `rules.Ruleset`, `rules.OPTIONS` and `rules.BELGIAN` are what they always were.
from scoring.ruleset import (  # noqa: F401
    BELGIAN,
    ISRAELI,
    MAX_ASSAF_PENALTY,
    MAX_CARDS_DEALT,
    MAX_DEALS_PER_PLAYER,
    MAX_HAND,
    MAX_JOKER_POINTS,
    MAX_REDUCTION_PAIRS,
    MAX_ROUND_POINTS,
    MAX_STREAK,
    MAX_STREAK_POINTS,
    MAX_STREAK_RULES,
    MAX_TOTAL,
    MIN_EVERY,
    OPTIONS,
    RULESETS,
    WIKIPEDIA_EN,
    WIKIPEDIA_FR,
    Assaf,
    AssafReset,
    AssafZero,
    Challenge,
    End,
    FaceValues,
    FalseYaniv,
    JoinStart,
    RoundKind,
    Ruleset,
    StreakRule,
    WinStreak,
    check_ruleset,
)


def _frozen(mapping: Mapping[str, int]) -> Mapping[str, int]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class Join:
    """A player joining the game before a round, seated at the end (clockwise)."""

    name: str
    # JoinStart, or the total itself.
    start: JoinStart | int


@dataclass(frozen=True)
class Round:
    """The referee's raw entries for one round.

    Exactly one of `yaniv` (the caller) and `empty_hand` (the player who got
    rid of all cards) is set; `along` lists who went along with a Yaniv.
    Under elimination `hands` names only the players still in. `jokers`: the jokers each
    player still held (their hand is entered without them); `joins`: who joins the game
    before this round (and has a hand in it).
    """

    hands: Mapping[str, int]
    yaniv: str | None = None
    along: tuple[str, ...] = ()
    empty_hand: str | None = None
    jokers: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    joins: Join | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "hands", _frozen(self.hands))
        object.__setattr__(self, "along", tuple(self.along))
        object.__setattr__(self, "jokers", _frozen(self.jokers))


@dataclass(frozen=True)
class RoundResult:
    number: int
    kind: RoundKind
    # Points and reductions of the players who played the round (still in).
    points: Mapping[str, int]
    reductions: Mapping[str, int]
    # Every player's total, seat order; an eliminated player keeps their last one.
    totals: Mapping[str, int]
    # The player whose hand is added to a false Yaniv's penalty.
    neighbour: str | None = None
    # This round ends the game (a total above the limit, one player left, or the last deal).
    ends_game: bool = False
    # Under elimination: who went out after this round, seat order.
    eliminated: tuple[str, ...] = ()
    # Who joined before this round, and the total they started on.
    joined: tuple[str, int] | None = None
    # Streak rules: the points a win streak added (after the reductions), who was reset to 0.
    bonuses: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    resets: tuple[str, ...] = ()
    # Every player's wins in a row and Assafs so far, after this round (the next round's
    # streak rules start from them).
    streaks: Mapping[str, Streak] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True)
class Streak:
    """A player's rounds won in a row and Assafs made so far."""

    wins: int = 0
    assafs: int = 0


@dataclass(frozen=True)
class Placing:
    player: str
    rank: int
    total: int


@dataclass(frozen=True)
class GameResult:
    players: tuple[str, ...]
    rounds: tuple[RoundResult, ...]
    totals: Mapping[str, int]
    finished: bool
    ranking: tuple[Placing, ...]
    winners: tuple[str, ...]
    # The ruleset eliminates players (each round's result then lists `eliminated`).
    elimination: bool = False
    # Under elimination: player -> the round after which they went out.
    out_in_round: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    # The ruleset has streak rules (each round's result then lists `bonuses` and `resets`).
    streak_rules: bool = False


@dataclass(frozen=True)
class Game:
    """A game as recorded: the seating, the raw rounds and the rules."""

    players: tuple[str, ...]
    rounds: tuple[Round, ...] = ()
    ruleset: Ruleset = field(default=BELGIAN)

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "rounds", tuple(self.rounds))


# --- validation ------------------------------------------------------------


def check_players(players: Sequence[str], ruleset: Ruleset = BELGIAN) -> None:
    if not ruleset.min_players <= len(players) <= ruleset.max_players:
        raise GameError(
            "player_count", "players", low=ruleset.min_players, high=ruleset.max_players
        )
    for player in players:
        if not isinstance(player, str) or not player.strip():
            raise GameError("player_name_empty", "players")
    if len(set(players)) != len(players):
        raise GameError("player_name_twice", "players")


def is_valid_hand(hand: object, ruleset: Ruleset = BELGIAN) -> bool:
    # bool is an int subclass, but True is not a hand total.
    return type(hand) is int and 0 <= hand <= ruleset.max_hand


def check_round(
    players: Sequence[str], entries: Round, number: int, ruleset: Ruleset = BELGIAN
) -> None:
    """Raise GameError for the first thing wrong with one round's entries.

    `players` are the players who play the round: under elimination, those still in.
    """

    def error(code: str, field: str, player: str | None = None, **params: Any) -> GameError:
        return GameError(code, field, round_number=number, player=player, **params)

    if set(entries.hands) != set(players) or len(entries.hands) != len(players):
        raise error("hands_name_players", "hands")
    for player in players:
        if not is_valid_hand(entries.hands[player], ruleset):
            raise error("hand_range", "hands", player, max=ruleset.max_hand)
    check_jokers(players, entries, number, ruleset)
    if (entries.yaniv is None) == (entries.empty_hand is None):
        raise error("one_ending", "ending")
    if ruleset.automatic_assaf and entries.along:
        raise error("no_along_under_assaf", "along", ruleset=ruleset.name)
    if entries.empty_hand is not None:
        if entries.empty_hand not in entries.hands:
            raise error("empty_hand_unknown", "empty_hand")
        if entries.hands[entries.empty_hand] != 0 or entries.jokers.get(entries.empty_hand):
            raise error("empty_hand_not_zero", "empty_hand", entries.empty_hand)
        if entries.along:
            raise error("no_along_after_empty_hand", "along")
        return
    if entries.yaniv is None or entries.yaniv not in entries.hands:
        raise error("caller_unknown", "yaniv")
    if entries.yaniv in entries.along:
        raise error("caller_along", "along", entries.yaniv)
    along = set(entries.along)
    if len(along) != len(entries.along) or not along.issubset(players):
        raise error("along_players", "along")
    caller_hand = counted_hands(entries, ruleset)[entries.yaniv]
    if ruleset.refuses_above_limit and caller_hand > ruleset.yaniv_limit:
        raise error("above_yaniv_limit", "yaniv", entries.yaniv, limit=ruleset.yaniv_limit)


def check_jokers(players: Sequence[str], entries: Round, number: int, ruleset: Ruleset) -> None:
    """The jokers held: by players of the round, 2 a deck at most, and room for them in the
    hand (a hand with 2 jokers of 5 cards is at most 3 x the highest card)."""
    for player, jokers in entries.jokers.items():
        if (
            player not in players
            or type(jokers) is not int
            or not 0 <= jokers <= ruleset.max_jokers
        ):
            raise GameError(
                "jokers_players",
                "jokers",
                round_number=number,
                player=None,
                max=ruleset.max_jokers,
            )
        most = ruleset.highest_card * (ruleset.cards_dealt - jokers)
        if entries.hands[player] > most:
            raise GameError(
                "hand_with_jokers",
                "hands",
                round_number=number,
                player=player,
                max=most,
                jokers=jokers,
            )
    most = 2 * ruleset.decks(len(players))
    if sum(entries.jokers.values()) > most:
        raise GameError("jokers_count", "jokers", round_number=number, most=most)


def check_join(
    players: Sequence[str], totals: Mapping[str, int], join: Join, number: int, ruleset: Ruleset
) -> None:
    """A player joins with a new name, while a seat is free, on a start the rules know."""

    def error(code: str, **params: Any) -> GameError:
        return GameError(code, "joins", round_number=number, **params)

    if len(players) >= ruleset.max_players:
        raise error("join_full", high=ruleset.max_players)
    if not isinstance(join.name, str) or not join.name.strip() or join.name in totals:
        raise error("join_name")
    start = join.start
    if not isinstance(start, JoinStart) and (
        type(start) is not int or not 0 <= start <= ruleset.end_above
    ):
        raise error("join_start", high=ruleset.end_above)


def round_warnings(entries: Round, ruleset: Ruleset = BELGIAN) -> tuple[GameWarning, ...]:
    """What a referee is warned of in a valid round: a call above a limit that only warns."""
    caller = entries.yaniv
    if ruleset.yaniv_limit_warns and caller is not None:
        hand = counted_hands(entries, ruleset)[caller]
        if hand > ruleset.yaniv_limit:
            return (
                GameWarning(
                    "call_above_limit", player=caller, hand=hand, limit=ruleset.yaniv_limit
                ),
            )
    return ()


# --- the rules, one function each --------------------------------------------


def left_neighbour(players: Sequence[str], player: str) -> str:
    """The next seat clockwise; the last seat's neighbour is seat 1."""
    return players[(players.index(player) + 1) % len(players)]


def counted_hands(entries: Round, ruleset: Ruleset) -> dict[str, int]:
    """Each hand as it counts: the entered cards plus `joker_value` a joker held."""
    return {
        player: hand + ruleset.joker_value * entries.jokers.get(player, 0)
        for player, hand in entries.hands.items()
    }


def counted_round(entries: Round, ruleset: Ruleset) -> Round:
    """The round with its hands as they count (the same round without jokers; an equal one
    when they are worth 0)."""
    if not entries.jokers:
        return entries
    return dataclasses.replace(entries, hands=counted_hands(entries, ruleset))


def join_start(playing: Sequence[str], totals: Mapping[str, int], start: JoinStart | int) -> int:
    """The total a joining player starts on: the highest or the average of the players still
    in (rounded to the nearest whole number, halves up), 0, or the number given."""
    if start is JoinStart.HIGHEST:
        return max(totals[player] for player in playing)
    if start is JoinStart.AVERAGE:
        count = len(playing)
        return (2 * sum(totals[player] for player in playing) + count) // (2 * count)
    if start is JoinStart.ZERO:
        return 0
    assert isinstance(start, int)
    return start


def yaniv_points(entries: Round, ruleset: Ruleset) -> dict[str, int]:
    """A valid Yaniv: along players are compared with the caller."""
    caller = entries.yaniv
    assert caller is not None
    caller_hand = entries.hands[caller]
    points = dict(entries.hands)
    points[caller] = 0
    for player in entries.along:
        if entries.hands[player] <= caller_hand:
            points[player] = 0
            points[caller] += ruleset.along_penalty
        else:
            points[player] = ruleset.along_penalty
    return points


def someone_has_same_or_fewer(entries: Round) -> bool:
    """Automatic Assaf: the caller's hand is not lower than every other hand."""
    caller = entries.yaniv
    assert caller is not None
    caller_hand = entries.hands[caller]
    return any(hand <= caller_hand for player, hand in entries.hands.items() if player != caller)


def assaf_points(entries: Round, ruleset: Ruleset) -> dict[str, int]:
    """An Assaf: the caller scores own hand + 30 (once), everyone else their hand.

    With `assaf: flat` the caller scores the penalty alone. Who else scores 0 is
    `assaf_zero`: nobody, the challenger(s) with the lowest hand (wikipedia_en), or every
    player at or below the caller's hand.
    """
    caller = entries.yaniv
    assert caller is not None
    caller_hand = entries.hands[caller]
    points = dict(entries.hands)
    points[caller] = assaf_caller_points(entries, ruleset)
    if ruleset.assaf_zero is AssafZero.NOBODY:
        return points
    if ruleset.assaf_zero is AssafZero.LOWEST:
        below = min(hand for player, hand in entries.hands.items() if player != caller)
    else:
        below = caller_hand
    for player, hand in entries.hands.items():
        if player != caller and hand <= below:
            points[player] = 0
    return points


def catchers(entries: Round) -> tuple[str, ...]:
    """The players at or below the caller's hand (in an Assaf: who caught the caller)."""
    caller = entries.yaniv
    assert caller is not None
    return tuple(
        player
        for player, hand in entries.hands.items()
        if player != caller and hand <= entries.hands[caller]
    )


def assaf_caller_points(entries: Round, ruleset: Ruleset) -> int:
    """What the caller caught by an Assaf scores, by the `assaf` option."""
    caller = entries.yaniv
    assert caller is not None
    hand = entries.hands[caller]
    if ruleset.assaf is Assaf.FLAT:
        return ruleset.assaf_penalty
    if ruleset.assaf is Assaf.PER_CHALLENGER:
        extra = len(catchers(entries)) - 1
        return hand + ruleset.assaf_penalty + ruleset.assaf_extra_penalty * extra
    if ruleset.assaf is Assaf.OTHERS_CARDS:
        return sum(other for player, other in entries.hands.items() if player != caller)
    return hand + ruleset.assaf_penalty


def joker_penalties(entries: Round, ruleset: Ruleset) -> dict[str, int]:
    """`joker_held` a joker still held by a player who did not call."""
    return {
        player: ruleset.joker_held * jokers
        for player, jokers in entries.jokers.items()
        if player != entries.yaniv and ruleset.joker_held * jokers
    }


def round_winner(entries: Round, kind: RoundKind) -> str | None:
    """Who won the round for a win streak: the caller of a Yaniv nobody caught, or the player
    who emptied their hand."""
    if kind is RoundKind.EMPTY_HAND:
        return entries.empty_hand
    if kind is RoundKind.YANIV and not set(entries.along) & set(catchers(entries)):
        return entries.yaniv
    return None


def round_assafs(entries: Round, kind: RoundKind) -> tuple[str, ...]:
    """Who made an Assaf: in an Assaf every player at or below the caller, in a Belgian Yaniv
    every player along at or below the caller."""
    if kind is RoundKind.ASSAF:
        return catchers(entries)
    if kind is RoundKind.YANIV:
        return tuple(player for player in catchers(entries) if player in entries.along)
    return ()


def next_streaks(
    playing: Sequence[str], streaks: Mapping[str, Streak], entries: Round, kind: RoundKind
) -> dict[str, Streak]:
    """Every player's wins in a row and Assafs after this round."""
    winner, assafs = round_winner(entries, kind), round_assafs(entries, kind)
    after = dict(streaks)
    for player in playing:
        before = streaks.get(player, Streak())
        after[player] = Streak(
            wins=before.wins + 1 if player == winner else 0,
            assafs=before.assafs + (player in assafs),
        )
    return after


def streak_bonus(total: int, before: Streak, after: Streak, ruleset: Ruleset) -> int:
    """What the win-streak rules add as a player reaches n wins in a row. A negative bonus
    takes a total down to 0 at most."""
    points = sum(
        rule.points
        for rule in ruleset.streak_bonus
        # `<=` alike: a streak moves up by one or back to 0, and a rule's wins are 1 or more.
        if isinstance(rule, WinStreak)
        and before.wins < rule.wins == after.wins  # pragma: no mutate (`<=`: see above)
    )
    # A bonus (>= 0) is always above minus the total; a negative one stops at minus it.
    return max(points, -max(total, 0))


def streak_resets(before: Streak, after: Streak, ruleset: Ruleset) -> bool:
    """A player's n-th Assaf puts their total back to 0."""
    return any(
        isinstance(rule, AssafReset) and before.assafs < rule.assafs == after.assafs
        for rule in ruleset.streak_bonus
    )


def false_yaniv_points(players: Sequence[str], entries: Round, ruleset: Ruleset) -> dict[str, int]:
    """A call above the limit: 32 plus the left neighbour's hand for the caller."""
    caller = entries.yaniv
    assert caller is not None
    if ruleset.false_yaniv is FalseYaniv.OTHERS_SCORE_HAND:
        points = dict(entries.hands)
    else:
        points = dict.fromkeys(entries.hands, 0)
    neighbour = left_neighbour(players, caller)
    points[caller] = ruleset.false_yaniv_penalty + entries.hands[neighbour]
    return points


def empty_hand_points(entries: Round) -> dict[str, int]:
    """An emptied hand: everyone scores their hand, the emptier's being 0."""
    return dict(entries.hands)


def reduction_at(total: int, ruleset: Ruleset) -> int:
    """What the reduction table takes off a total reached exactly (0: not reduced).

    The table's own totals come first; then any positive multiple of the
    `reduce_multiples` rule.
    """
    for reduced, becomes in ruleset.reduction_table:
        if total == reduced:
            return reduced - becomes
    if ruleset.reduce_multiples is not None:
        every, minus = ruleset.reduce_multiples
        if total > 0 and total % every == 0:  # pragma: no mutate (`> 1`: every >= MIN_EVERY)
            return minus
    return 0


def reduction_for(previous: int, points: int, ruleset: Ruleset) -> int:
    """Landing exactly on a total of the table after a positive round: reduce it, once."""
    if ruleset.reduction_needs_points and points <= 0:
        return 0
    return reduction_at(previous + points, ruleset)


def round_kind(entries: Round, ruleset: Ruleset) -> RoundKind:
    if entries.empty_hand is not None:
        return RoundKind.EMPTY_HAND
    assert entries.yaniv is not None
    # A limit that only warns makes no false Yaniv: the call is compared as any other.
    if entries.hands[entries.yaniv] > ruleset.yaniv_limit and not ruleset.yaniv_limit_warns:
        return RoundKind.FALSE_YANIV
    if ruleset.automatic_assaf and someone_has_same_or_fewer(entries):
        return RoundKind.ASSAF
    return RoundKind.YANIV


def is_over(totals: Mapping[str, int], ruleset: Ruleset) -> bool:
    """Game over (not under elimination): any total above the limit."""
    return any(total > ruleset.end_above for total in totals.values())


def still_in(players: Sequence[str], out: Collection[str]) -> tuple[str, ...]:
    """The players who have not been eliminated, seat order."""
    return tuple(player for player in players if player not in out)


def players_going_out(
    playing: Sequence[str], totals: Mapping[str, int], ruleset: Ruleset
) -> tuple[str, ...]:
    """Elimination: every player above the limit is out, seat order.

    If that is every player still in, the lowest total stays in (and wins when
    alone); RULES.md [interpretation]: players tied for it all stay in and play on.
    """
    above = [player for player in playing if totals[player] > ruleset.end_above]
    if len(above) < len(playing):
        return tuple(above)
    lowest = min(totals[player] for player in playing)
    return tuple(player for player in above if totals[player] != lowest)


def is_game_over(totals: Mapping[str, int], playing: Sequence[str], ruleset: Ruleset) -> bool:
    """Elimination: one player left; otherwise a total above the limit."""
    if ruleset.eliminates:
        return len(playing) <= 1
    return is_over(totals, ruleset)


def is_dealt_out(played: int, players: Sequence[str], ruleset: Ruleset) -> bool:
    """After `played` rounds every player has dealt `deals_per_player` times: the game is
    over, whatever the totals. The seated players count, also those out under elimination."""
    limit = ruleset.deal_limit(len(players))
    return limit is not None and played >= limit


# --- scoring ------------------------------------------------------------------


def round_points(
    kind: RoundKind, playing: Sequence[str], entries: Round, ruleset: Ruleset
) -> dict[str, int]:
    if kind is RoundKind.YANIV:
        return yaniv_points(entries, ruleset)
    if kind is RoundKind.ASSAF:
        return assaf_points(entries, ruleset)
    if kind is RoundKind.FALSE_YANIV:
        return false_yaniv_points(playing, entries, ruleset)
    return empty_hand_points(entries)


def score_round(
    players: Sequence[str],
    previous_totals: Mapping[str, int],
    entries: Round,
    number: int,
    ruleset: Ruleset = BELGIAN,
    out: Collection[str] = (),
    streaks: Mapping[str, Streak] | None = None,
) -> RoundResult:
    """Score one round on top of the totals before it.

    `out`: the players eliminated in earlier rounds (elimination only); they
    have no hand and keep their total. `streaks`: every player's wins in a row and Assafs
    before the round (the previous round's `streaks`; none before the first round).
    A player joining before the round is seated at the end: the result's totals name them.
    """
    playing = still_in(players, out)
    if is_game_over(previous_totals, playing, ruleset) or is_dealt_out(
        number - 1, players, ruleset
    ):
        raise GameError("game_over", "rounds", round_number=number)
    totals = {player: previous_totals.get(player, 0) for player in players}
    joined = seat_joiner(players, playing, totals, entries, number, ruleset)
    if joined is not None:
        playing = (*playing, joined[0])
        players = (*players, joined[0])  # pragma: no mutate (only counted from here on)
    check_round(playing, entries, number, ruleset)
    counted = counted_round(entries, ruleset)
    kind = round_kind(counted, ruleset)
    points = round_points(kind, playing, counted, ruleset)
    for player, penalty in joker_penalties(entries, ruleset).items():
        points[player] += penalty
    reductions = {}
    for player in playing:
        reduction = reduction_for(totals[player], points[player], ruleset)
        if reduction:
            reductions[player] = reduction
        totals[player] += points[player] - reduction
    before = streaks or {}
    # Only streak rules need the streaks: without them a result is as it always was.
    after = next_streaks(playing, before, counted, kind) if ruleset.streak_bonus else {}
    bonuses, resets = apply_streak_rules(playing, totals, before, after, ruleset)
    eliminated = players_going_out(playing, totals, ruleset) if ruleset.eliminates else ()
    return RoundResult(
        number=number,
        kind=kind,
        points=_frozen({player: points[player] for player in playing}),
        reductions=_frozen(reductions),
        totals=_frozen(totals),
        # A false Yaniv always has a caller: the `or ""` (for the type) is never read.
        neighbour=left_neighbour(playing, entries.yaniv or "")  # pragma: no mutate
        if kind is RoundKind.FALSE_YANIV
        else None,
        ends_game=is_game_over(totals, still_in(playing, eliminated), ruleset)
        or is_dealt_out(number, players, ruleset),
        eliminated=eliminated,
        joined=joined,
        bonuses=_frozen(bonuses),
        resets=resets,
        streaks=MappingProxyType(after),
    )


def seat_joiner(
    players: Sequence[str],
    playing: Sequence[str],
    totals: dict[str, int],
    entries: Round,
    number: int,
    ruleset: Ruleset,
) -> tuple[str, int] | None:
    """The player joining before the round and their start (added to `totals`), or None."""
    if entries.joins is None:
        return None
    check_join(players, totals, entries.joins, number, ruleset)
    start = join_start(playing, totals, entries.joins.start)
    totals[entries.joins.name] = start
    return (entries.joins.name, start)


def apply_streak_rules(
    playing: Sequence[str],
    totals: dict[str, int],
    before: Mapping[str, Streak],
    after: Mapping[str, Streak],
    ruleset: Ruleset,
) -> tuple[dict[str, int], tuple[str, ...]]:
    """After the reductions: add each win-streak bonus, then reset whoever made their n-th
    Assaf to 0 (in `totals`). Returns the bonuses added and who was reset, seat order."""
    bonuses: dict[str, int] = {}
    resets: list[str] = []
    if not ruleset.streak_bonus:
        return bonuses, ()
    for player in playing:
        old, new = before.get(player, Streak()), after[player]
        bonus = streak_bonus(totals[player], old, new, ruleset)
        if bonus:
            bonuses[player] = bonus
            totals[player] += bonus
        if streak_resets(old, new, ruleset):
            resets.append(player)
            totals[player] = 0
    return bonuses, tuple(resets)


def rank(
    players: Sequence[str],
    totals: Mapping[str, int],
    out_in_round: Mapping[str, int] | None = None,
) -> tuple[Placing, ...]:
    """Lowest total first; equal totals share a rank (1, 1, 3), seat order within.

    Under elimination (`out_in_round`: player -> the round they went out) the
    players still in come first, then the later a player went out the better,
    then by total.
    """
    went_out = out_in_round or {}

    def standing(player: str) -> tuple[float, int]:
        return (-went_out.get(player, math.inf), totals[player])

    ordered = sorted(players, key=lambda player: (standing(player), players.index(player)))
    return tuple(
        Placing(
            player=player,
            rank=1 + sum(1 for other in players if standing(other) < standing(player)),
            total=totals[player],
        )
        for player in ordered
    )


def score_game(game: Game) -> GameResult:
    """Score a whole game from its raw entries."""
    players, ruleset = game.players, game.ruleset
    check_players(players, ruleset)
    totals: Mapping[str, int] = dict.fromkeys(players, 0)
    out_in_round: dict[str, int] = {}
    streaks: Mapping[str, Streak] = {}  # pragma: no mutate (score_round reads None as none)
    results = []
    for number, entries in enumerate(game.rounds, start=1):
        result = score_round(
            players, totals, entries, number, ruleset, out=tuple(out_in_round), streaks=streaks
        )
        results.append(result)
        totals, streaks = result.totals, result.streaks
        if result.joined is not None:
            players = (*players, result.joined[0])
        out_in_round.update(dict.fromkeys(result.eliminated, number))
    finished = is_game_over(totals, still_in(players, out_in_round), ruleset) or is_dealt_out(
        len(results), players, ruleset
    )
    # Nobody goes out but under elimination: `out_in_round` is empty otherwise.
    ranking = rank(players, totals, out_in_round)
    winners = tuple(p.player for p in ranking if p.rank == 1) if finished else ()
    return GameResult(
        players=players,
        rounds=tuple(results),
        totals=_frozen(totals),
        finished=finished,
        ranking=ranking,
        winners=winners,
        elimination=ruleset.eliminates,
        out_in_round=_frozen(out_in_round),
        streak_rules=bool(ruleset.streak_bonus),
    )
