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
import enum
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any

from scoring.errors import GameError, GameWarning


class FalseYaniv(enum.StrEnum):
    """Who scores what besides the caller when a Yaniv is false."""

    # RULES.md [interpretation], the default: only the caller is penalised.
    OTHERS_SCORE_ZERO = "others_score_zero"
    # Everyone else scores their hand, as if the round had ended normally.
    OTHERS_SCORE_HAND = "others_score_hand"


class Challenge(enum.StrEnum):
    """How the other players challenge a Yaniv call."""

    # Belgian: each player declares whether they go along with the call.
    ALONG = "along"
    # Every other preset: every hand is compared with the caller's, nobody declares.
    ASSAF = "assaf"


class Assaf(enum.StrEnum):
    """What the caller caught by an Assaf scores."""

    # Their own hand plus `Ruleset.assaf_penalty` (pagat, both Wikipedias).
    HAND_PLUS = "hand_plus"
    # Exactly `Ruleset.assaf_penalty`, whatever their hand (a house rule: 25 or 30).
    FLAT = "flat"
    # Their hand plus the penalty once per player at or below their hand: `assaf_penalty`
    # for the first, `assaf_extra` for each other one (English Wikipedia: +30 each, or +20).
    PER_CHALLENGER = "per_challenger"
    # The sum of every other player's hand ("everyone's cards", English Wikipedia).
    OTHERS_CARDS = "others_cards"


class FaceValues(enum.StrEnum):
    """What a jack, queen and king are worth."""

    # Every picture card is 10 (every preset).
    TEN = "10"
    # Jack 11, queen 12, king 13 (the Dhumbal/Jhyap family, older English Wikipedia).
    ELEVEN_TWELVE_THIRTEEN = "11-12-13"


class JoinStart(enum.StrEnum):
    """The total a player joining a game in progress starts on (or a number)."""

    # The highest total of the players still in.
    HIGHEST = "highest"
    # Their average, rounded to the nearest whole number (halves up).
    AVERAGE = "average"
    ZERO = "zero"


@dataclass(frozen=True)
class WinStreak:
    """`{"wins": n, "points": p}`: a player who wins n rounds in a row scores p (-10: a bonus)."""

    wins: int
    points: int


@dataclass(frozen=True)
class AssafReset:
    """`{"assafs": n, "reset": true}`: a player's n-th Assaf puts their total back to 0."""

    assafs: int


StreakRule = WinStreak | AssafReset


class AssafZero(enum.StrEnum):
    """Who scores 0 in an Assaf besides nobody (the caller never does)."""

    # Every other player scores their hand (israeli, wikipedia_fr).
    NOBODY = "nobody"
    # The challenger(s) with the lowest hand (wikipedia_en).
    LOWEST = "lowest"
    # Every player whose hand is at or below the caller's: all who caught the caller.
    AT_OR_BELOW_CALLER = "at_or_below_caller"


class End(enum.StrEnum):
    """What going above `Ruleset.end_above` does."""

    # The game is over after the round; the lowest total wins.
    GAME_OVER = "game_over"
    # The player is out; the last player left wins (israeli).
    ELIMINATION = "elimination"


class RoundKind(enum.StrEnum):
    YANIV = "yaniv"
    FALSE_YANIV = "false_yaniv"
    EMPTY_HAND = "empty_hand"
    # Automatic Assaf: someone else held the same or fewer points than the caller.
    ASSAF = "assaf"


@dataclass(frozen=True)
class Ruleset:
    """Every number of the rules. `BELGIAN` is the championship standard."""

    name: str = "belgian"
    min_players: int = 2
    max_players: int = 8
    # Cards dealt, and so held at most (Board Game Arena deals 3 to 5, others 7).
    cards_dealt: int = 5
    # A picture card is worth 10, or 11-12-13: a hand is at most the highest card x cards dealt.
    face_values: FaceValues = FaceValues.TEN
    yaniv_limit: int = 5
    challenge: Challenge = Challenge.ALONG
    along_penalty: int = 32
    # Automatic Assaf: the caller scores their hand plus the penalty, once
    # (RULES.md [interpretation]), or exactly the penalty (`Assaf.FLAT`).
    assaf: Assaf = Assaf.HAND_PLUS
    assaf_penalty: int = 30
    # `Assaf.PER_CHALLENGER`: the penalty for the second and later players at or below the
    # caller (None: `assaf_penalty` again).
    assaf_extra: int | None = None
    # Who scores 0 in an Assaf (wikipedia_en: the lowest challenger(s)).
    assaf_zero: AssafZero = AssafZero.NOBODY
    # The preset's rule for a call above the limit: a false Yaniv (Belgian), else refused as
    # bad input. `yaniv_limit_warns` overrides both: see `scores_false_yaniv`.
    false_yaniv_above_limit: bool = True
    # A house rule: the limit only warns; a call above it is scored as any other call.
    yaniv_limit_warns: bool = False
    false_yaniv_penalty: int = 32
    false_yaniv: FalseYaniv = FalseYaniv.OTHERS_SCORE_ZERO
    # (total, becomes): a positive round landing exactly on `total` leaves the player on `becomes`.
    reduction_table: tuple[tuple[int, int], ...] = ((50, 0), (100, 50), (150, 100))
    # (every, minus): any other positive multiple of `every` loses `minus` (wikipedia_en: 50, 50).
    reduce_multiples: tuple[int, int] | None = None
    # RULES.md [interpretation]: a player who stays on 50 with 0 points is
    # not reduced again; a reduction needs an arrival.
    reduction_needs_points: bool = True
    end: End = End.GAME_OVER
    end_above: int = 150
    # "Each player deals N times": the game is over after N × the players' count rounds, or
    # above `end_above` if that comes first (0: no such limit). Ranked by totals, as at the end.
    deals_per_player: int = 0
    # Players with one deck at most; more players play with two.
    one_deck_up_to: int = 4
    # Points added per joker still held by a player who did not call (a house rule: 10 or 25).
    joker_held: int = 0
    # What a joker held counts in a hand (0, or a negative number: -5). Hands are entered
    # without their jokers; a round's `jokers` says who held how many.
    joker_value: int = 0
    # Win streaks and Assaf resets, applied after a round's reductions.
    streak_bonus: tuple[StreakRule, ...] = ()

    @property
    def highest_card(self) -> int:
        return 13 if self.face_values is FaceValues.ELEVEN_TWELVE_THIRTEEN else 10

    @property
    def max_hand(self) -> int:
        return self.highest_card * self.cards_dealt

    @property
    def max_jokers(self) -> int:
        """The jokers one player can hold: as many as the cards dealt, 2 a deck (two decks)."""
        return min(self.cards_dealt, 4)

    @property
    def assaf_extra_penalty(self) -> int:
        return self.assaf_penalty if self.assaf_extra is None else self.assaf_extra

    @property
    def may_go_negative(self) -> bool:
        """A total can go below 0 only with a negative joker."""
        return self.joker_value < 0

    @property
    def automatic_assaf(self) -> bool:
        return self.challenge is Challenge.ASSAF

    @property
    def eliminates(self) -> bool:
        return self.end is End.ELIMINATION

    @property
    def scores_false_yaniv(self) -> bool:
        """A call above the limit is scored as a false Yaniv (Belgian, unless the limit warns)."""
        return self.false_yaniv_above_limit and not self.yaniv_limit_warns

    @property
    def refuses_above_limit(self) -> bool:
        """A call above the limit is refused as bad input (the other presets)."""
        return not self.false_yaniv_above_limit and not self.yaniv_limit_warns

    @property
    def assaf_lowest_scores_zero(self) -> bool:
        """The lowest challenger(s) score 0 in an Assaf (wikipedia_en)."""
        return self.assaf_zero is AssafZero.LOWEST

    @property
    def max_round_points(self) -> int:
        """The most points one player can score in one round (an upper bound).

        A hand; a Belgian caller whom 7 players went along with, each as low or lower
        (7 x 32 = 224); a false Yaniv (32 + a hand); an Assaf's caller (their hand, at most the
        limit unless the limit only warns, + the penalty; or the flat penalty).
        """
        most = self.max_hand
        others = self.max_players - 1
        if self.challenge is Challenge.ALONG:
            most = max(most, self.along_penalty * others)
        elif self.assaf is Assaf.FLAT:
            most = max(most, self.assaf_penalty)
        elif self.assaf is Assaf.OTHERS_CARDS:
            most = max(most, self.max_hand * others)
        else:
            caller = self.max_hand if self.yaniv_limit_warns else self.yaniv_limit
            most = max(most, caller + self.most_assaf_penalty)
        if self.scores_false_yaniv:
            most = max(most, self.false_yaniv_penalty + self.max_hand)
        return most + self.joker_held * self.max_jokers + self.most_streak_points

    @property
    def most_assaf_penalty(self) -> int:
        """The penalty added to a caught caller's hand: once, or once per challenger."""
        if self.assaf is Assaf.PER_CHALLENGER:
            return self.assaf_penalty + self.assaf_extra_penalty * (self.max_players - 2)
        return self.assaf_penalty

    @property
    def most_streak_points(self) -> int:
        """The most a round's streak rules add to a total."""
        return sum(
            rule.points
            for rule in self.streak_bonus
            if isinstance(rule, WinStreak) and rule.points > 0
        )

    @cached_property
    def reduction_steps(self) -> tuple[tuple[int, int], ...]:
        """(total, becomes) for every total a positive round can land on and be reduced.

        The table's totals, and the multiples of `reduce_multiples` up to the highest total a
        round can reach from a total at the end limit (`end_above + max_round_points`): a
        total above the limit can come back under it (under `wikipedia_en` 250 -> 200). Only
        players tied under elimination play on above the limit; the multiple rule goes on for
        them (RULES.md [interpretation]). At most MAX_REDUCTION_PAIRS + (MAX_TOTAL +
        `max_round_points`) / MIN_EVERY steps; computed once per ruleset.
        """
        steps = dict(self.reduction_table)
        if self.reduce_multiples is not None:
            every, minus = self.reduce_multiples
            for total in range(every, self.end_above + self.max_round_points + 1, every):
                # A total of the table keeps its own entry (the table comes first).
                steps.setdefault(total, total - minus)
        return tuple(sorted(steps.items()))

    @cached_property
    def reduction_totals(self) -> tuple[int, ...]:
        """The totals that are reduced (50, 100, 150 under belgian)."""
        return tuple(total for total, _ in self.reduction_steps)

    @cached_property
    def reduction(self) -> int | None:
        """What every reduction takes off when that is one amount (50 under belgian), else None."""
        amounts = {total - becomes for total, becomes in self.reduction_steps}
        return amounts.pop() if len(amounts) == 1 else None

    def decks(self, player_count: int) -> int:
        return 1 if player_count <= self.one_deck_up_to else 2

    def deal_limit(self, player_count: int) -> int | None:
        """The most rounds a game of `player_count` players lasts (`deals_per_player`), or
        None without that limit."""
        return self.deals_per_player * player_count if self.deals_per_player else None

    def with_options(self, options: Mapping[str, object]) -> Ruleset:
        """This ruleset with the options of a game record applied."""
        if not isinstance(options, Mapping):
            raise GameError("options_object", "options")
        changes: dict[str, Any] = {}
        for option, value in options.items():
            if option not in OPTIONS:
                raise GameError("option_unknown", "options", option=repr(option))
            attribute, parse, _ = OPTIONS[option]
            changes[attribute] = parse(value)
        changed = dataclasses.replace(self, **changes)
        check_ruleset(changed)
        return changed

    def options_from(self, base: Ruleset) -> dict[str, object]:
        """The options that turn `base` into this ruleset, as a game record holds them."""
        return {
            option: dump(getattr(self, attribute))
            for option, (attribute, _, dump) in OPTIONS.items()
            if getattr(self, attribute) != getattr(base, attribute)
        }


# --- options of a game record (and of a tournament) ---------------------------

# The bounds of the options (RULES.md, "Rule options"). They keep every ruleset small to work
# with: `reduction_steps` has at most MAX_REDUCTION_PAIRS + (MAX_TOTAL + MAX_ROUND_POINTS) /
# MIN_EVERY entries (1,219), whatever a record or a tournament's house rules say.
MAX_TOTAL = 10_000  # end_above, and the totals of `reductions` and `reduce_multiples`
MAX_REDUCTION_PAIRS = 20
MIN_EVERY = 10  # reduce_multiples: the smallest multiple
MAX_ASSAF_PENALTY = 100
# deals_per_player: 50 × 8 players = 400 rounds at most, far beyond a session.
MAX_DEALS_PER_PLAYER = 50
MAX_CARDS_DEALT = 7
# The largest hand of any option set: 7 cards of 13 (a king).
MAX_HAND = 13 * MAX_CARDS_DEALT
# joker_held at most, and joker_value at least its negative.
MAX_JOKER_POINTS = 50
MAX_STREAK_RULES = 10
# A streak rule's n (wins in a row, Assafs) and a win streak's points (either sign).
MAX_STREAK = 50
MAX_STREAK_POINTS = 100
# The most a round can add to a total under any options: a caller caught by 7 players at 100
# each with a hand of 91 (791), 4 jokers held at 50 (200), ten win-streak rules of 100 (1,000).
MAX_ROUND_POINTS = 1_991


def _option_error(code: str, **params: Any) -> GameError:
    return GameError(code, "options", **params)


@dataclass(frozen=True)
class _WholeNumber:
    """An option that is a whole number from `low` to `high`."""

    option: str
    low: int
    high: int

    def __call__(self, value: object) -> int:
        if type(value) is not int or not self.low <= value <= self.high:
            raise _option_error(
                "option_whole_number", option=self.option, low=self.low, high=self.high
            )
        return value

    def data(self) -> dict[str, object]:
        return {"kind": "whole_number", "low": self.low, "high": self.high}


@dataclass(frozen=True)
class _Choice:
    """An option that is one of the values of an enumeration."""

    option: str
    choices: type[enum.StrEnum]

    def __call__(self, value: object) -> enum.StrEnum:
        if isinstance(value, str) and value in set(self.choices):
            return self.choices(value)
        raise _option_error("option_choice", option=self.option, choices=", ".join(self.choices))

    def data(self) -> dict[str, object]:
        return {"kind": "choice", "choices": [str(choice) for choice in self.choices]}


@dataclass(frozen=True)
class _TrueFalse:
    """An option that is true or false."""

    option: str

    def __call__(self, value: object) -> bool:
        if type(value) is not bool:
            raise _option_error("option_true_false", option=self.option)
        return value

    def data(self) -> dict[str, object]:
        return {"kind": "true_false"}


_whole_number, _choice, _true_false = _WholeNumber, _Choice, _TrueFalse


def _reduction_pair(option: str, value: object) -> tuple[int, int]:
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(type(number) is int for number in value)
    ):
        raise _option_error("option_pairs", option=option)
    return (value[0], value[1])


def _parse_reductions(value: object) -> tuple[tuple[int, int], ...]:
    """[[total, becomes], ...]: e.g. [[100, 50], [200, 100]] (israeli)."""
    if not isinstance(value, list | tuple):
        raise _option_error("reductions_list")
    if len(value) > MAX_REDUCTION_PAIRS:
        raise _option_error("reductions_count", most=MAX_REDUCTION_PAIRS)
    pairs = tuple(_reduction_pair("reductions", pair) for pair in value)
    for total, becomes in pairs:
        if not 1 <= total <= MAX_TOTAL:
            raise _option_error("reductions_total", low=1, high=MAX_TOTAL)
        if not 0 <= becomes < total:
            raise _option_error("reductions_smaller")
    if len({total for total, _ in pairs}) != len(pairs):
        raise _option_error("reductions_once")
    return tuple(sorted(pairs))


def _parse_reduce_multiples(value: object) -> tuple[int, int] | None:
    """[every, minus] or null: e.g. [50, 50] (wikipedia_en)."""
    if value is None:
        return None
    every, minus = _reduction_pair("reduce_multiples", value)
    if not MIN_EVERY <= every <= MAX_TOTAL:
        raise _option_error("reduce_multiples_every", low=MIN_EVERY, high=MAX_TOTAL)
    if not 0 < minus <= every:
        raise _option_error("reduce_multiples_range")
    return (every, minus)


def _parse_assaf_extra(value: object) -> int | None:
    """A whole number 0-100, or null: `assaf_penalty` again."""
    if value is None:
        return None
    return _whole_number("assaf_extra", 0, MAX_ASSAF_PENALTY)(value)


def _streak_rule(value: object) -> StreakRule:
    """`{"wins": n, "points": p}` or `{"assafs": n, "reset": true}`."""
    if isinstance(value, Mapping) and set(value) == {"wins", "points"}:
        wins, points = value["wins"], value["points"]
        if type(wins) is int and type(points) is int:
            if 1 <= wins <= MAX_STREAK and -MAX_STREAK_POINTS <= points <= MAX_STREAK_POINTS:
                return WinStreak(wins=wins, points=points)
            raise _option_error("streak_range", high=MAX_STREAK, points=MAX_STREAK_POINTS)
    if isinstance(value, Mapping) and set(value) == {"assafs", "reset"}:
        assafs = value["assafs"]
        if type(assafs) is int and value["reset"] is True:
            if 1 <= assafs <= MAX_STREAK:
                return AssafReset(assafs=assafs)
            raise _option_error("streak_range", high=MAX_STREAK, points=MAX_STREAK_POINTS)
    raise _option_error("streak_rule")


def _parse_streak_bonus(value: object) -> tuple[StreakRule, ...]:
    """A list of at most MAX_STREAK_RULES streak rules; [] for none."""
    if not isinstance(value, list | tuple):
        raise _option_error("streak_list")
    if len(value) > MAX_STREAK_RULES:
        raise _option_error("streak_count", most=MAX_STREAK_RULES)
    return tuple(_streak_rule(rule) for rule in value)


def _dump(value: object) -> object:
    """An option's value as JSON holds it."""
    if isinstance(value, enum.StrEnum):
        return str(value)
    if isinstance(value, tuple):
        return [_dump(item) for item in value]
    if isinstance(value, WinStreak):
        return {"wins": value.wins, "points": value.points}
    if isinstance(value, AssafReset):
        return {"assafs": value.assafs, "reset": True}
    return value


# option name -> (Ruleset attribute, parse a JSON value, dump it back).
OPTIONS: Mapping[str, tuple[str, Callable[[object], object], Callable[[object], object]]] = (
    MappingProxyType(
        {
            "false_yaniv": ("false_yaniv", _choice("false_yaniv", FalseYaniv), _dump),
            "yaniv_limit": ("yaniv_limit", _whole_number("yaniv_limit", 0, MAX_HAND), _dump),
            "reductions": ("reduction_table", _parse_reductions, _dump),
            "reduce_multiples": ("reduce_multiples", _parse_reduce_multiples, _dump),
            "end": ("end", _choice("end", End), _dump),
            "end_above": ("end_above", _whole_number("end_above", 1, MAX_TOTAL), _dump),
            "deals_per_player": (
                "deals_per_player",
                _whole_number("deals_per_player", 0, MAX_DEALS_PER_PLAYER),
                _dump,
            ),
            "cards_dealt": (
                "cards_dealt",
                _whole_number("cards_dealt", 1, MAX_CARDS_DEALT),
                _dump,
            ),
            "face_values": ("face_values", _choice("face_values", FaceValues), _dump),
            "one_deck_up_to": ("one_deck_up_to", _whole_number("one_deck_up_to", 1, 8), _dump),
            "assaf": ("assaf", _choice("assaf", Assaf), _dump),
            "assaf_penalty": (
                "assaf_penalty",
                _whole_number("assaf_penalty", 0, MAX_ASSAF_PENALTY),
                _dump,
            ),
            "assaf_zero": ("assaf_zero", _choice("assaf_zero", AssafZero), _dump),
            "reduction_needs_points": (
                "reduction_needs_points",
                _true_false("reduction_needs_points"),
                _dump,
            ),
            "yaniv_limit_warns": ("yaniv_limit_warns", _true_false("yaniv_limit_warns"), _dump),
            "assaf_extra": ("assaf_extra", _parse_assaf_extra, _dump),
            "joker_held": (
                "joker_held",
                _whole_number("joker_held", 0, MAX_JOKER_POINTS),
                _dump,
            ),
            "joker_value": (
                "joker_value",
                _whole_number("joker_value", -MAX_JOKER_POINTS, 0),
                _dump,
            ),
            "streak_bonus": ("streak_bonus", _parse_streak_bonus, _dump),
        }
    )
)


def check_ruleset(ruleset: Ruleset) -> None:
    """Options that only make sense together."""
    if ruleset.yaniv_limit > ruleset.max_hand:
        raise _option_error("yaniv_limit_above_hand", max=ruleset.max_hand)


BELGIAN = Ruleset()
# pagat (seed 002): automatic Assaf, 100 -> 50 and 200 -> 100, above 200 a player is out.
ISRAELI = Ruleset(
    name="israeli",
    challenge=Challenge.ASSAF,
    false_yaniv_above_limit=False,
    reduction_table=((100, 50), (200, 100)),
    end=End.ELIMINATION,
    end_above=200,
)
# English Wikipedia (seed 003): Yaniv at 7, the lowest challenger scores 0, multiples of 50 - 50.
WIKIPEDIA_EN = Ruleset(
    name="wikipedia_en",
    yaniv_limit=7,
    challenge=Challenge.ASSAF,
    assaf_zero=AssafZero.LOWEST,
    false_yaniv_above_limit=False,
    reduction_table=(),
    reduce_multiples=(50, 50),
    end_above=200,
)
# French Wikipedia (seed 004): Yaniv at 7, 100 -> 50 and 200 -> 150.
WIKIPEDIA_FR = Ruleset(
    name="wikipedia_fr",
    yaniv_limit=7,
    challenge=Challenge.ASSAF,
    false_yaniv_above_limit=False,
    reduction_table=((100, 50), (200, 150)),
    end_above=200,
)
RULESETS: Mapping[str, Ruleset] = MappingProxyType(
    {ruleset.name: ruleset for ruleset in (BELGIAN, ISRAELI, WIKIPEDIA_EN, WIKIPEDIA_FR)}
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
    if len(set(entries.along)) != len(entries.along) or not set(entries.along) <= set(players):
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
    """The round with its hands as they count (the same round without a joker value)."""
    if not ruleset.joker_value or not entries.jokers:
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
        if isinstance(rule, WinStreak) and before.wins < rule.wins == after.wins
    )
    return points if points >= 0 else max(points, -max(total, 0))


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
        if total > 0 and total % every == 0:
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
    joined = None
    if entries.joins is not None:
        check_join(players, totals, entries.joins, number, ruleset)
        joined = (entries.joins.name, join_start(playing, totals, entries.joins.start))
        players, playing = (*players, joined[0]), (*playing, joined[0])
        totals[joined[0]] = joined[1]
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
        neighbour=left_neighbour(playing, entries.yaniv or "")
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
        return (-went_out.get(player, float("inf")), totals[player])

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
    streaks: Mapping[str, Streak] = {}
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
    ranking = rank(players, totals, out_in_round if ruleset.eliminates else None)
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
