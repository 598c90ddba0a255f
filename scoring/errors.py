"""The errors of the pure modules: a code, its parameters, and where the input was wrong.

Each code has one English message here. The site shows it in the reader's language by
looking the code up and translating that message (`gettext_noop` marks it for the
catalogues); a command-line tool prints the English. Nothing outside this module matches
the text of a message.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import ClassVar


def gettext_noop(text: str) -> str:
    """Marks a text for the site's translations (`makemessages` finds it); returns it as is."""
    return text


# What the engine, the game records and the game model say. The site translates the marked
# ones (a referee or director can act on them); the rest reach command-line tools only.
GAME_MESSAGES: Mapping[str, str] = MappingProxyType(
    {
        # A round's entries (scoring.rules.check_round).
        "hands_name_players": gettext_noop(
            "hands must name every player still in the game exactly once"
        ),
        "hand_range": gettext_noop("hand of %(player)s must be an integer 0-%(max)s"),
        "one_ending": gettext_noop("exactly one of yaniv / empty_hand"),
        "no_along_under_assaf": gettext_noop("nobody goes along under the %(ruleset)s rules"),
        "empty_hand_unknown": gettext_noop("empty_hand must name a player in the game"),
        "empty_hand_not_zero": gettext_noop("an emptied hand is 0"),
        "no_along_after_empty_hand": gettext_noop("nobody can go along when a hand was emptied"),
        "caller_unknown": gettext_noop("yaniv must name a player in the game"),
        "caller_along": gettext_noop("the caller cannot go along"),
        "along_players": gettext_noop("along must list players in the game once"),
        "above_yaniv_limit": gettext_noop("Yaniv needs a hand of %(limit)s or less"),
        "game_over": gettext_noop("the game is already over"),
        "jokers_players": gettext_noop(
            "jokers must name players of the round, each holding 0-%(max)s"
        ),
        "hand_with_jokers": gettext_noop(
            "hand of %(player)s must be an integer 0-%(max)s beside %(jokers)s joker(s)"
        ),
        "jokers_count": gettext_noop("at most %(most)s jokers in a round (2 a deck)"),
        "join_full": gettext_noop("%(high)s players at most: nobody can join"),
        "join_name": gettext_noop("a player joining needs a name not yet in the game"),
        "join_start": gettext_noop(
            "a player joins on highest, average, zero or a total from 0 to %(high)s"
        ),
        # The game as stored (the site's game model).
        "rounds_from_one": gettext_noop("rounds are numbered from 1"),
        "rounds_in_order": gettext_noop("rounds are recorded in order"),
        "correction_ends_game_before_last": gettext_noop(
            "with this correction the game would be over after round %(round)s, yet round "
            "%(last)s was played: undo it first"
        ),
        "correction_ends_game": gettext_noop(
            "with this correction the game would be over after round %(round)s, yet rounds "
            "%(next)s to %(last)s were played: undo those first"
        ),
        "correction_changes_who_is_out": gettext_noop(
            "this correction changes who is out of the game before round %(round)s: "
            "undo the rounds after it first"
        ),
        "nothing_to_undo": gettext_noop("there is no round to undo"),
        "no_such_round": gettext_noop("there is no round %(number)s"),
        "sign_off_unfinished": gettext_noop("only a finished game can be signed off"),
        "signed_off_already": gettext_noop("the game is already signed off"),
        "game_has_rounds": gettext_noop("the game already has rounds"),
        "confirm_unfinished": gettext_noop("only a finished game's sheet can be agreed to"),
        "not_at_this_table": gettext_noop("that player does not sit at this table"),
        "dispute_answered": gettext_noop("this dispute was answered already"),
        # The players of a game.
        "player_count": gettext_noop("%(low)s to %(high)s names"),
        "player_name_empty": gettext_noop("every name must be a non-empty text"),
        "player_name_twice": gettext_noop("duplicate name"),
        # Rule options (a tournament's house rules, a record's "options").
        "options_object": gettext_noop("options must be an object"),
        "option_unknown": gettext_noop("unknown option %(option)s"),
        "option_whole_number": gettext_noop(
            "%(option)s must be a whole number from %(low)s to %(high)s"
        ),
        "option_choice": gettext_noop("%(option)s must be one of %(choices)s"),
        "option_true_false": gettext_noop("%(option)s must be true or false"),
        "option_pairs": gettext_noop("%(option)s needs pairs of whole numbers"),
        "reductions_list": gettext_noop("reductions must be a list of [total, becomes] pairs"),
        "reductions_count": gettext_noop("reductions: at most %(most)s pairs"),
        "reductions_total": gettext_noop(
            "reductions: a total must be a whole number from %(low)s to %(high)s"
        ),
        "reductions_smaller": gettext_noop(
            "reductions: a total must become a smaller total, 0 or more"
        ),
        "reductions_once": gettext_noop("reductions: each total once"),
        "reduce_multiples_every": gettext_noop(
            "reduce_multiples: every must be a whole number from %(low)s to %(high)s"
        ),
        "reduce_multiples_range": gettext_noop(
            "reduce_multiples: [every, minus] with 0 < minus <= every"
        ),
        "yaniv_limit_above_hand": gettext_noop(
            "yaniv_limit must be at most the largest hand, %(max)s"
        ),
        "streak_list": gettext_noop("streak_bonus must be a list of rules"),
        "streak_count": gettext_noop("streak_bonus: at most %(most)s rules"),
        "streak_rule": gettext_noop(
            'streak_bonus: each rule is {"wins": n, "points": p} or {"assafs": n, "reset": true}'
        ),
        "streak_range": gettext_noop(
            "streak_bonus: n from 1 to %(high)s, points from -%(points)s to %(points)s"
        ),
        # The shape of a game record (JSON).
        "record_object": gettext_noop("a game record must be a JSON object"),
        "ruleset_unknown": gettext_noop("unknown %(name)s"),
        "players_list": gettext_noop("players must be a list of names"),
        "rounds_list": gettext_noop("rounds must be a list"),
        "round_object": gettext_noop("a round must be an object"),
        "round_field_unknown": gettext_noop("unknown field %(name)s"),
        "hands_object": gettext_noop("hands must be an object of player: hand total"),
        "along_list": gettext_noop("along must be a list of players"),
        "jokers_object": gettext_noop("jokers must be an object of player: jokers held"),
        "joins_object": gettext_noop("joins must be an object of name and start"),
        "name_a_player": gettext_noop("%(name)s must name a player"),
        # JSON text handed in (scoring.records.read_json): a record, an archive, house rules.
        "json_invalid": gettext_noop("not valid JSON (line %(line)s, column %(column)s)"),
        "json_not_utf8": gettext_noop("not UTF-8 text"),
        "json_too_large": gettext_noop("more than %(most)s characters of JSON"),
        "json_too_deep": gettext_noop("JSON nested more than %(most)s levels deep"),
        "json_number_too_long": gettext_noop("a number of more than %(most)s digits"),
    }
)

# The codes scoring.rules and scoring.records raise for a game record (the others are the
# site's game model's, and the JSON reader's): static/js/yaniv-engine.js holds exactly these.
ENGINE_CODES: frozenset[str] = frozenset(
    {
        "hands_name_players",
        "hand_range",
        "one_ending",
        "no_along_under_assaf",
        "empty_hand_unknown",
        "empty_hand_not_zero",
        "no_along_after_empty_hand",
        "caller_unknown",
        "caller_along",
        "along_players",
        "above_yaniv_limit",
        "game_over",
        "jokers_players",
        "hand_with_jokers",
        "jokers_count",
        "join_full",
        "join_name",
        "join_start",
        "streak_list",
        "streak_count",
        "streak_rule",
        "streak_range",
        "jokers_object",
        "joins_object",
        "player_count",
        "player_name_empty",
        "player_name_twice",
        "options_object",
        "option_unknown",
        "option_whole_number",
        "option_choice",
        "option_true_false",
        "option_pairs",
        "reductions_list",
        "reductions_count",
        "reductions_total",
        "reductions_smaller",
        "reductions_once",
        "reduce_multiples_every",
        "reduce_multiples_range",
        "yaniv_limit_above_hand",
        "record_object",
        "ruleset_unknown",
        "players_list",
        "rounds_list",
        "round_object",
        "round_field_unknown",
        "hands_object",
        "along_list",
        "name_a_player",
    }
)


class Coded:
    """A message picked by `code` from the class's MESSAGES and filled in with `params`: the
    English text here; the site translates by the code (tournaments.texts)."""

    MESSAGES: ClassVar[Mapping[str, str]]
    code: str
    params: Mapping[str, object]

    @property
    def template(self) -> str:
        return self.MESSAGES[self.code]

    @property
    def message(self) -> str:
        return self.template % self.params


class GameError(Coded, ValueError):
    """Bad input to the engine or a game record.

    `code` picks the message (GAME_MESSAGES), `params` fill it in; `field` is the entry that
    is wrong, `round_number` the round (None for the whole game) and `player` whose entry.
    Its message reads e.g. "hand of Bart must be an integer 0-50".
    """

    MESSAGES = GAME_MESSAGES

    def __init__(
        self,
        code: str,
        field: str,
        *,
        round_number: int | None = None,
        player: str | None = None,
        **params: object,
    ) -> None:
        self.code = code
        self.field = field
        self.round_number = round_number
        self.player = player
        if player is not None:
            params.setdefault("player", player)
        self.params: Mapping[str, object] = MappingProxyType(params)
        where = field if round_number is None else f"round {round_number}"
        super().__init__(f"{where}: {self.message}")


# What the engine warns a referee of in a round it scores (scoring.rules.round_warnings).
WARNING_MESSAGES: Mapping[str, str] = MappingProxyType(
    {
        "call_above_limit": gettext_noop(
            "%(player)s called Yaniv with %(hand)s, above the limit of %(limit)s: "
            "scored as any other call"
        ),
    }
)


class GameWarning(Coded):
    """Something a referee should know about a round that is still scored (not an error).

    `code` picks the message (WARNING_MESSAGES), `params` fill it in; `player` is whose entry.
    """

    MESSAGES = WARNING_MESSAGES

    def __init__(self, code: str, *, player: str | None = None, **params: object) -> None:
        self.code = code
        self.player = player
        if player is not None:
            params.setdefault("player", player)
        self.params: Mapping[str, object] = MappingProxyType(params)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameWarning):
            return NotImplemented
        return (self.code, self.player, dict(self.params)) == (
            other.code,
            other.player,
            dict(other.params),
        )

    def __hash__(self) -> int:
        return hash((self.code, self.player))

    def __repr__(self) -> str:
        return f"GameWarning({self.code!r}, {self.message!r})"

    def __str__(self) -> str:
        return self.message


# What the seating draw says about a director's adjustment or a draw it cannot make.
SEATING_MESSAGES: Mapping[str, str] = MappingProxyType(
    {
        "not_seated": gettext_noop("player %(player)s is not seated in this draw"),
        "target_size": gettext_noop(
            "the target table size must be %(low)s–%(high)s, got %(target)s"
        ),
        "too_few_players": gettext_noop(
            "a session needs at least %(low)s players to seat, got %(count)s"
        ),
        "table_bounds": gettext_noop(
            "tables of %(smallest)s to %(largest)s players cannot hold a target of %(target)s: "
            "the sizes must be %(low)s–%(high)s with the target between them"
        ),
        "no_table_split": gettext_noop(
            "%(count)s players cannot be split into tables of %(smallest)s to %(largest)s"
        ),
        "already_seated": gettext_noop("player %(player)s is seated in this draw already"),
        "swap_same_player": gettext_noop(
            "swapping needs two different players, got %(player)s twice"
        ),
        "no_such_table": gettext_noop(
            "there is no table %(table)s; this draw has %(count)s tables"
        ),
        "already_at_table": gettext_noop("player %(player)s already sits at table %(table)s"),
        "table_too_small": gettext_noop(
            "moving %(player)s would leave table %(table)s with fewer than %(low)s players"
        ),
        "table_full": gettext_noop(
            "table %(table)s already has %(high)s players, the most a table seats"
        ),
        "listed_twice": gettext_noop("player %(player)s is listed twice"),
        "meeting_pair": "a meeting is between two players, got %(pair)s",
        "meeting_count": "a pair cannot have met %(times)s times",
    }
)


class CodedError(Coded, ValueError):
    """An error whose message is all it says: `code` picks it, `params` fill it in."""

    def __init__(self, code: str, **params: object) -> None:
        self.code = code
        self.params = MappingProxyType(params)
        super().__init__(self.message)


class SeatingError(CodedError):
    """A draw or an adjustment the seating cannot make."""

    MESSAGES = SEATING_MESSAGES


# What a tournament's final says when it cannot be drawn as asked (scoring.finals).
FINAL_MESSAGES: Mapping[str, str] = MappingProxyType(
    {
        "final_size": gettext_noop(
            "a final of %(tables)s table(s) takes %(low)s to %(high)s players, not %(size)s"
        ),
        "too_few_qualified": gettext_noop(
            "only %(count)s players have a qualifying result: the final needs %(size)s"
        ),
        "tie_at_the_cut": gettext_noop(
            "%(players)s share place %(place)s, at the final's cut: widen the final to "
            "%(wider)s players or seat it by hand"
        ),
    }
)


class FinalError(CodedError):
    """A final that cannot be drawn as asked."""

    MESSAGES = FINAL_MESSAGES
