"""The game record (JSON) of shared/RULES.md, in and out of the engine.

Pure Python, no Django: `game_from_record` turns a parsed JSON record into a
`Game`, raising `GameError` for anything malformed; `result_to_record` gives
the scored result in exactly the shape RULES.md specifies (under elimination,
each round also lists the players who went out after it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.rules import (
    BELGIAN,
    RULESETS,
    Game,
    GameError,
    GameResult,
    Round,
    RoundResult,
    Ruleset,
    check_players,
)


def _round_from_record(entry: object, number: int) -> Round:
    def error(field: str, message: str) -> GameError:
        return GameError(field, message, round_number=number)

    if not isinstance(entry, Mapping):
        raise error("round", "a round must be an object")
    unknown = set(entry) - {"hands", "yaniv", "along", "empty_hand"}
    if unknown:
        raise error("round", f"unknown field {sorted(unknown)[0]!r}")
    hands = entry.get("hands")
    if not isinstance(hands, Mapping):
        raise error("hands", "hands must be an object of player: hand total")
    along = entry.get("along", [])
    if not isinstance(along, list) or not all(isinstance(p, str) for p in along):
        raise error("along", "along must be a list of players")
    yaniv, empty_hand = entry.get("yaniv"), entry.get("empty_hand")
    for field, value in (("yaniv", yaniv), ("empty_hand", empty_hand)):
        if value is not None and not isinstance(value, str):
            raise error(field, f"{field} must name a player")
    return Round(hands=hands, yaniv=yaniv, along=tuple(along), empty_hand=empty_hand)


def game_from_record(record: object) -> Game:
    """Validate the record's shape and build the engine's `Game`."""
    if not isinstance(record, Mapping):
        raise GameError("record", "a game record must be a JSON object")
    name = record.get("ruleset", "belgian")
    if not isinstance(name, str) or name not in RULESETS:
        raise GameError("ruleset", f"unknown {name}")
    ruleset = RULESETS[name].with_options(record.get("options", {}))
    players = record.get("players")
    if not isinstance(players, list):
        raise GameError("players", "players must be a list of names")
    check_players(players, ruleset)
    rounds = record.get("rounds", [])
    if not isinstance(rounds, list):
        raise GameError("rounds", "rounds must be a list")
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
    return record


def round_result_to_record(round_result: RoundResult, *, elimination: bool) -> dict[str, Any]:
    """One scored round; under elimination with the players who went out after it."""
    record: dict[str, Any] = {
        "number": round_result.number,
        "kind": str(round_result.kind),
        "points": dict(round_result.points),
        "reductions": dict(round_result.reductions),
        "totals": dict(round_result.totals),
    }
    if elimination:
        record["eliminated"] = list(round_result.eliminated)
    return record


def result_to_record(result: GameResult) -> dict[str, Any]:
    """The scored result, in the shape RULES.md gives (and the vectors hold)."""
    return {
        "rounds": [
            round_result_to_record(round_result, elimination=result.elimination)
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
