"""The Yaniv rules engine: pure Python, no Django.

It scores the referee's raw entries (every player's hand total, who called
Yaniv or emptied their hand, who went along) under a `Ruleset`, following
shared/RULES.md. Players are identified by unique names given in seat order,
clockwise. Everything going in and out is immutable; bad input raises
`GameError` naming the round and the field, and nothing partial is returned.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType


class FalseYaniv(enum.StrEnum):
    """Who scores what besides the caller when a Yaniv is false."""

    # RULES.md [interpretation], the default: only the caller is penalised.
    OTHERS_SCORE_ZERO = "others_score_zero"
    # Everyone else scores their hand, as if the round had ended normally.
    OTHERS_SCORE_HAND = "others_score_hand"


class RoundKind(enum.StrEnum):
    YANIV = "yaniv"
    FALSE_YANIV = "false_yaniv"
    EMPTY_HAND = "empty_hand"


@dataclass(frozen=True)
class Ruleset:
    """Every number of the rules. `BELGIAN` is the championship standard."""

    name: str = "belgian"
    min_players: int = 2
    max_players: int = 8
    max_hand: int = 50
    yaniv_limit: int = 5
    along_penalty: int = 32
    false_yaniv_penalty: int = 32
    false_yaniv: FalseYaniv = FalseYaniv.OTHERS_SCORE_ZERO
    reduction_totals: tuple[int, ...] = (50, 100, 150)
    reduction: int = 50
    end_above: int = 150
    # RULES.md [interpretation]: a player who stays on 50 with 0 points is
    # not reduced again; a reduction needs an arrival.
    reduction_needs_points: bool = True
    # Players with one deck at most; more players play with two.
    one_deck_up_to: int = 4

    def decks(self, player_count: int) -> int:
        return 1 if player_count <= self.one_deck_up_to else 2

    def with_options(self, options: Mapping[str, object]) -> Ruleset:
        """This ruleset with the options of a game record applied."""
        if not isinstance(options, Mapping):
            raise GameError("options", "options must be an object")
        changes: dict[str, object] = {}
        for option, value in options.items():
            if option != "false_yaniv":
                raise GameError("options", f"unknown option {option!r}")
            try:
                changes[option] = FalseYaniv(value)
            except ValueError:
                choices = ", ".join(FalseYaniv)
                raise GameError("options", f"false_yaniv must be one of {choices}") from None
        return dataclasses.replace(self, **changes)


BELGIAN = Ruleset()
RULESETS: Mapping[str, Ruleset] = MappingProxyType({BELGIAN.name: BELGIAN})


class GameError(ValueError):
    """Bad input. `round_number` is None for an error about the whole game."""

    def __init__(
        self,
        field: str,
        message: str,
        *,
        round_number: int | None = None,
        player: str | None = None,
    ) -> None:
        self.field = field
        self.round_number = round_number
        self.player = player
        self.message = message
        where = field if round_number is None else f"round {round_number}"
        super().__init__(f"{where}: {message}")


def _frozen(mapping: Mapping[str, int]) -> Mapping[str, int]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class Round:
    """The referee's raw entries for one round.

    Exactly one of `yaniv` (the caller) and `empty_hand` (the player who got
    rid of all cards) is set; `along` lists who went along with a Yaniv.
    """

    hands: Mapping[str, int]
    yaniv: str | None = None
    along: tuple[str, ...] = ()
    empty_hand: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "hands", _frozen(self.hands))
        object.__setattr__(self, "along", tuple(self.along))


@dataclass(frozen=True)
class RoundResult:
    number: int
    kind: RoundKind
    points: Mapping[str, int]
    reductions: Mapping[str, int]
    totals: Mapping[str, int]
    # The player whose hand is added to a false Yaniv's penalty.
    neighbour: str | None = None
    # Totals above the limit end the game after this round.
    ends_game: bool = False


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
        raise GameError("players", f"{ruleset.min_players} to {ruleset.max_players} names")
    for player in players:
        if not isinstance(player, str) or not player.strip():
            raise GameError("players", "every name must be a non-empty text")
    if len(set(players)) != len(players):
        raise GameError("players", "duplicate name")


def is_valid_hand(hand: object, ruleset: Ruleset = BELGIAN) -> bool:
    # bool is an int subclass, but True is not a hand total.
    return type(hand) is int and 0 <= hand <= ruleset.max_hand


def check_round(
    players: Sequence[str], entries: Round, number: int, ruleset: Ruleset = BELGIAN
) -> None:
    """Raise GameError for the first thing wrong with one round's entries."""

    def error(field: str, message: str, player: str | None = None) -> GameError:
        return GameError(field, message, round_number=number, player=player)

    if set(entries.hands) != set(players) or len(entries.hands) != len(players):
        raise error("hands", "hands must name every player still in the game exactly once")
    for player in players:
        if not is_valid_hand(entries.hands[player], ruleset):
            raise error(
                "hands",
                f"hand of {player} must be an integer 0-{ruleset.max_hand}",
                player,
            )
    if (entries.yaniv is None) == (entries.empty_hand is None):
        raise error("ending", "exactly one of yaniv / empty_hand")
    if entries.empty_hand is not None:
        if entries.empty_hand not in entries.hands:
            raise error("empty_hand", "empty_hand must name a player in the game")
        if entries.hands[entries.empty_hand] != 0:
            raise error("empty_hand", "an emptied hand is 0", entries.empty_hand)
        if entries.along:
            raise error("along", "nobody can go along when a hand was emptied")
        return
    if entries.yaniv not in entries.hands:
        raise error("yaniv", "yaniv must name a player in the game")
    if entries.yaniv in entries.along:
        raise error("along", "the caller cannot go along", entries.yaniv)
    if len(set(entries.along)) != len(entries.along) or not set(entries.along) <= set(players):
        raise error("along", "along must list players in the game once")


# --- the rules, one function each --------------------------------------------


def left_neighbour(players: Sequence[str], player: str) -> str:
    """The next seat clockwise; the last seat's neighbour is seat 1."""
    return players[(players.index(player) + 1) % len(players)]


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


def reduction_for(previous: int, points: int, ruleset: Ruleset) -> int:
    """Exactly 50, 100 or 150 after a positive round: take 50 off, once."""
    if ruleset.reduction_needs_points and points <= 0:
        return 0
    if previous + points in ruleset.reduction_totals:
        return ruleset.reduction
    return 0


def round_kind(entries: Round, ruleset: Ruleset) -> RoundKind:
    if entries.empty_hand is not None:
        return RoundKind.EMPTY_HAND
    assert entries.yaniv is not None
    if entries.hands[entries.yaniv] > ruleset.yaniv_limit:
        return RoundKind.FALSE_YANIV
    return RoundKind.YANIV


def is_over(totals: Mapping[str, int], ruleset: Ruleset) -> bool:
    return any(total > ruleset.end_above for total in totals.values())


# --- scoring ------------------------------------------------------------------


def score_round(
    players: Sequence[str],
    previous_totals: Mapping[str, int],
    entries: Round,
    number: int,
    ruleset: Ruleset = BELGIAN,
) -> RoundResult:
    """Score one round on top of the totals before it."""
    if is_over(previous_totals, ruleset):
        raise GameError("rounds", "the game is already over", round_number=number)
    check_round(players, entries, number, ruleset)
    kind = round_kind(entries, ruleset)
    neighbour = None
    if kind is RoundKind.YANIV:
        points = yaniv_points(entries, ruleset)
    elif kind is RoundKind.FALSE_YANIV:
        points = false_yaniv_points(players, entries, ruleset)
        neighbour = left_neighbour(players, entries.yaniv or "")
    else:
        points = empty_hand_points(entries)
    reductions = {}
    totals = {}
    for player in players:
        previous = previous_totals.get(player, 0)
        reduction = reduction_for(previous, points[player], ruleset)
        if reduction:
            reductions[player] = reduction
        totals[player] = previous + points[player] - reduction
    return RoundResult(
        number=number,
        kind=kind,
        points=_frozen({player: points[player] for player in players}),
        reductions=_frozen(reductions),
        totals=_frozen(totals),
        neighbour=neighbour,
        ends_game=is_over(totals, ruleset),
    )


def rank(players: Sequence[str], totals: Mapping[str, int]) -> tuple[Placing, ...]:
    """Lowest total first; equal totals share a rank (1, 1, 3), seat order within."""
    ordered = sorted(players, key=lambda player: (totals[player], players.index(player)))
    return tuple(
        Placing(
            player=player,
            rank=1 + sum(1 for other in players if totals[other] < totals[player]),
            total=totals[player],
        )
        for player in ordered
    )


def score_game(game: Game) -> GameResult:
    """Score a whole game from its raw entries."""
    players, ruleset = game.players, game.ruleset
    check_players(players, ruleset)
    totals: Mapping[str, int] = dict.fromkeys(players, 0)
    results = []
    for number, entries in enumerate(game.rounds, start=1):
        result = score_round(players, totals, entries, number, ruleset)
        results.append(result)
        totals = result.totals
    finished = is_over(totals, ruleset)
    ranking = rank(players, totals)
    winners = tuple(p.player for p in ranking if p.rank == 1) if finished else ()
    return GameResult(
        players=players,
        rounds=tuple(results),
        totals=_frozen(totals),
        finished=finished,
        ranking=ranking,
        winners=winners,
    )
