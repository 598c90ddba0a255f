"""The game record (JSON) of shared/RULES.md, in and out of the engine.

Pure Python, no Django: `read_json` reads JSON text handed in (a record, an archive, a
tournament's house rules) within limits; `game_from_record` turns a parsed JSON record into
a `Game`, raising `GameError` for anything malformed; `result_to_record` gives the scored
result in exactly the shape RULES.md specifies (under elimination, each round also lists the
players who went out after it).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from itertools import accumulate
from typing import Any

from scoring.rules import (
    BELGIAN,
    RULESETS,
    Game,
    GameError,
    GameResult,
    Join,
    JoinStart,
    Round,
    RoundResult,
    Ruleset,
    check_players,
)

# --- JSON text handed in ----------------------------------------------------------------------

# The limits of `read_json`. Nothing the site writes comes near them: a game record is about 6
# levels deep, an archive about 10, and its numbers have a few digits. Python's own json module
# has none: 2,000 nested lists raise RecursionError, a number of more than 4,300 digits raises
# ValueError, and one of 4,000 digits takes long to read.
JSON_MAX_DEPTH = 64
JSON_MAX_DIGITS = 100
# A game record (score_game): a long game is a few kilobytes.
RECORD_MAX_CHARS = 5_000_000
# A tournament's house rules (`options`): a few hundred characters at most.
OPTIONS_MAX_CHARS = 10_000

# A JSON string (the unrolled loop, without backtracking), and what is left between strings.
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_A_BRACKET = re.compile(r"[^\[\]{}]+")
_LONG_NUMBER = re.compile(f"[0-9]{{{JSON_MAX_DIGITS + 1}}}")
_DEPTH_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def _json_error(code: str, **params: Any) -> GameError:
    return GameError(code, "json", **params)


def read_json(
    text: str | bytes, *, max_chars: int = RECORD_MAX_CHARS, max_depth: int = JSON_MAX_DEPTH
) -> object:
    """`json.loads` within limits: raises GameError (field "json") instead of crashing.

    Bytes are read as UTF-8 (a byte order mark is no error). Refused: more than `max_chars`
    characters, lists and objects nested deeper than `max_depth`, a number of more than
    JSON_MAX_DIGITS digits, and anything json.loads refuses (with its line and column). The
    limits are checked before parsing, on the text without its strings, in linear time.
    """
    if isinstance(text, bytes):
        # UTF-8 takes at most 4 bytes a character: no need to decode a file that is too large.
        if len(text) > 4 * max_chars:
            raise _json_error("json_too_large", most=max_chars)
        try:
            text = text.decode(
                # Python reads the codec's name in any case: "UTF-8-SIG" is the same codec.
                "utf-8-sig"  # pragma: no mutate
            )
        except UnicodeDecodeError:
            raise _json_error("json_not_utf8") from None
    if len(text) > max_chars:
        raise _json_error("json_too_large", most=max_chars)
    structure = _JSON_STRING.sub("", text)
    if _LONG_NUMBER.search(structure):
        raise _json_error("json_number_too_long", most=JSON_MAX_DIGITS)
    brackets = _NOT_A_BRACKET.sub("", structure)
    if max(accumulate(map(_DEPTH_STEP.__getitem__, brackets)), default=0) > max_depth:
        raise _json_error("json_too_deep", most=max_depth)
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise _json_error("json_invalid", line=error.lineno, column=error.colno) from None
    except (ValueError, RecursionError):
        # Past the checks above only in theory (Python's digit limit, its recursion limit).
        raise _json_error("json_invalid", line=1, column=1) from None


def _round_from_record(entry: object, number: int) -> Round:
    def error(code: str, field: str, **params: Any) -> GameError:
        return GameError(code, field, round_number=number, **params)

    if not isinstance(entry, Mapping):
        raise error("round_object", "round")
    unknown = set(entry) - {"hands", "yaniv", "along", "empty_hand", "jokers", "joins"}
    if unknown:
        raise error("round_field_unknown", "round", name=repr(sorted(unknown)[0]))
    hands = entry.get("hands")
    if not isinstance(hands, Mapping):
        raise error("hands_object", "hands")
    along = entry.get("along", [])
    if not isinstance(along, list) or not all(isinstance(p, str) for p in along):
        raise error("along_list", "along")
    yaniv, empty_hand = entry.get("yaniv"), entry.get("empty_hand")
    for field, value in (("yaniv", yaniv), ("empty_hand", empty_hand)):
        if value is not None and not isinstance(value, str):
            raise error("name_a_player", field, name=field)
    jokers = entry.get("jokers", {})
    if not isinstance(jokers, Mapping):
        raise error("jokers_object", "jokers")
    joins = entry.get("joins")
    return Round(
        hands=hands,
        yaniv=yaniv,
        along=tuple(along),
        empty_hand=empty_hand,
        jokers=jokers,
        joins=None if joins is None else _join_from_record(joins, number),
    )


def _join_from_record(joins: object, number: int) -> Join:
    """`{"name": "Eve", "start": "highest" | "average" | "zero" | n}`; the engine checks the
    name against the table and the number against the rules."""
    if not isinstance(joins, Mapping) or set(joins) != {"name", "start"}:
        raise GameError("joins_object", "joins", round_number=number)
    start = joins["start"]
    if isinstance(start, str) and start in set(JoinStart):
        start = JoinStart(start)
    return Join(name=joins["name"], start=start)


def join_start_text(start: JoinStart | int) -> str:
    """A join's start as the site stores it: "highest", "average", "zero" or the number."""
    return str(start)


def join_start_from_text(text: str) -> JoinStart | int:
    """The inverse of `join_start_text`."""
    return JoinStart(text) if text in set(JoinStart) else int(text)


def game_from_record(record: object) -> Game:
    """Validate the record's shape and build the engine's `Game`."""
    if not isinstance(record, Mapping):
        raise GameError("record_object", "record")
    name = record.get("ruleset", "belgian")
    if not isinstance(name, str) or name not in RULESETS:
        raise GameError("ruleset_unknown", "ruleset", name=name)
    ruleset = RULESETS[name].with_options(record.get("options", {}))
    players = record.get("players")
    if not isinstance(players, list):
        raise GameError("players_list", "players")
    # Every ruleset a record can name seats 2 to 8, the default's bounds: a check without the
    # ruleset is the same check.
    check_players(players, ruleset)  # pragma: no mutate
    rounds = record.get("rounds", [])
    if not isinstance(rounds, list):
        raise GameError("rounds_list", "rounds")
    return Game(
        players=tuple(players),
        rounds=tuple(
            _round_from_record(entry, number) for number, entry in enumerate(rounds, start=1)
        ),
        ruleset=ruleset,
    )


def game_to_record(game: Game) -> dict[str, Any]:
    """The record of a game, e.g. for an export."""
    record: dict[str, Any] = {
        "ruleset": game.ruleset.name,
        "players": list(game.players),
    }
    record["rounds"] = [round_to_record(entries, game.ruleset) for entries in game.rounds]
    options = game.ruleset.options_from(RULESETS.get(game.ruleset.name, BELGIAN))
    if options:
        record["options"] = options
    return record


def round_to_record(entries: Round, ruleset: Ruleset = BELGIAN) -> dict[str, Any]:
    """One round's entries as the record holds them (no `along` under automatic Assaf)."""
    record: dict[str, Any] = {"hands": dict(entries.hands)}
    if entries.yaniv is not None:
        record["yaniv"] = entries.yaniv
        if not ruleset.automatic_assaf or entries.along:
            record["along"] = list(entries.along)
    else:
        record["empty_hand"] = entries.empty_hand
    if entries.jokers:
        record["jokers"] = dict(entries.jokers)
    if entries.joins is not None:
        start = entries.joins.start
        record["joins"] = {
            "name": entries.joins.name,
            "start": str(start) if isinstance(start, JoinStart) else start,
        }
    return record


def round_result_to_record(
    round_result: RoundResult, *, elimination: bool, streak_rules: bool = False
) -> dict[str, Any]:
    """One scored round; under elimination with the players who went out after it, with
    streak rules the bonuses and resets, and who joined before it (if anyone did)."""
    record: dict[str, Any] = {
        "number": round_result.number,
        "kind": str(round_result.kind),
        "points": dict(round_result.points),
        "reductions": dict(round_result.reductions),
        "totals": dict(round_result.totals),
    }
    if elimination:
        record["eliminated"] = list(round_result.eliminated)
    if streak_rules:
        record["bonuses"] = dict(round_result.bonuses)
        record["resets"] = list(round_result.resets)
    if round_result.joined is not None:
        name, start = round_result.joined
        record["joined"] = {"name": name, "start": start}
    return record


def result_to_record(result: GameResult) -> dict[str, Any]:
    """The scored result, in the shape RULES.md gives (and the vectors hold)."""
    return {
        "rounds": [
            round_result_to_record(
                round_result, elimination=result.elimination, streak_rules=result.streak_rules
            )
            for round_result in result.rounds
        ],
        "totals": dict(result.totals),
        "finished": result.finished,
        "ranking": [
            {"player": placing.player, "rank": placing.rank, "total": placing.total}
            for placing in result.ranking
        ],
        "winners": list(result.winners),
    }
