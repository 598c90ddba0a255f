"""The game record (JSON) of shared/RULES.md, in and out of the engine.

Pure Python, no Django: `game_from_record` turns a parsed JSON record into a
`Game`, raising `GameError` for anything malformed; `result_to_record` gives
the scored result in exactly the shape RULES.md specifies.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.rules import RULESETS, Game, GameError, GameResult, Round, check_players


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
    if name not in RULESETS:
        raise GameError("ruleset", f"unknown rule set {name!r}")
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
    record["rounds"] = [round_to_record(entries) for entries in game.rounds]
    if game.ruleset.false_yaniv != RULESETS[game.ruleset.name].false_yaniv:
        record["options"] = {"false_yaniv": str(game.ruleset.false_yaniv)}
    return record


def round_to_record(entries: Round) -> dict[str, Any]:
    """One round's entries as the record holds them."""
    record: dict[str, Any] = {"hands": dict(entries.hands)}
    if entries.yaniv is not None:
        record["yaniv"] = entries.yaniv
        record["along"] = list(entries.along)
    else:
        record["empty_hand"] = entries.empty_hand
    return record


def result_to_record(result: GameResult) -> dict[str, Any]:
    """The scored result, in the shape RULES.md gives (and the vectors hold)."""
    return {
        "rounds": [
            {
                "number": round_result.number,
                "kind": str(round_result.kind),
                "points": dict(round_result.points),
                "reductions": dict(round_result.reductions),
                "totals": dict(round_result.totals),
            }
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
