"""The rule sets of the Yaniv engine: every number of the rules (`Ruleset`), the options a game
record or a tournament sets on top of a preset, with their bounds, and the presets.

Pure Python, no Django. `scoring.rules` scores games under these rule sets and re-exports every
name here, so `rules.Ruleset`, `rules.OPTIONS` and `rules.BELGIAN` are the same objects;
`scoring.engine_data` writes the options' data from here into the phone's engine.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType
from typing import Any

from scoring.errors import GameError


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


def dump_option(value: object) -> object:
    """An option's value as JSON holds it."""
    if isinstance(value, enum.StrEnum):
        return str(value)
    if isinstance(value, tuple):
        return [dump_option(item) for item in value]
    if isinstance(value, WinStreak):
        return {"wins": value.wins, "points": value.points}
    if isinstance(value, AssafReset):
        return {"assafs": value.assafs, "reset": True}
    return value


# option name -> (Ruleset attribute, parse a JSON value, dump it back).
OPTIONS: Mapping[str, tuple[str, Callable[[object], object], Callable[[object], object]]] = (
    MappingProxyType(
        {
            "false_yaniv": ("false_yaniv", _choice("false_yaniv", FalseYaniv), dump_option),
            "yaniv_limit": ("yaniv_limit", _whole_number("yaniv_limit", 0, MAX_HAND), dump_option),
            "reductions": ("reduction_table", _parse_reductions, dump_option),
            "reduce_multiples": ("reduce_multiples", _parse_reduce_multiples, dump_option),
            "end": ("end", _choice("end", End), dump_option),
            "end_above": ("end_above", _whole_number("end_above", 1, MAX_TOTAL), dump_option),
            "deals_per_player": (
                "deals_per_player",
                _whole_number("deals_per_player", 0, MAX_DEALS_PER_PLAYER),
                dump_option,
            ),
            "cards_dealt": (
                "cards_dealt",
                _whole_number("cards_dealt", 1, MAX_CARDS_DEALT),
                dump_option,
            ),
            "face_values": ("face_values", _choice("face_values", FaceValues), dump_option),
            "one_deck_up_to": (
                "one_deck_up_to",
                _whole_number("one_deck_up_to", 1, 8),
                dump_option,
            ),
            "assaf": ("assaf", _choice("assaf", Assaf), dump_option),
            "assaf_penalty": (
                "assaf_penalty",
                _whole_number("assaf_penalty", 0, MAX_ASSAF_PENALTY),
                dump_option,
            ),
            "assaf_zero": ("assaf_zero", _choice("assaf_zero", AssafZero), dump_option),
            "reduction_needs_points": (
                "reduction_needs_points",
                _true_false("reduction_needs_points"),
                dump_option,
            ),
            "yaniv_limit_warns": (
                "yaniv_limit_warns",
                _true_false("yaniv_limit_warns"),
                dump_option,
            ),
            "assaf_extra": ("assaf_extra", _parse_assaf_extra, dump_option),
            "joker_held": (
                "joker_held",
                _whole_number("joker_held", 0, MAX_JOKER_POINTS),
                dump_option,
            ),
            "joker_value": (
                "joker_value",
                _whole_number("joker_value", -MAX_JOKER_POINTS, 0),
                dump_option,
            ),
            "streak_bonus": ("streak_bonus", _parse_streak_bonus, dump_option),
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
