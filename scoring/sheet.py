"""A score sheet for the terminal: players as columns, one row a round."""

from __future__ import annotations

from scoring.rules import Game, GameResult, RoundKind, RoundResult, Ruleset

# Marks beside a player's points, as a referee writes them on paper.
MARKS = {
    "caller": "Y",
    "along": "A",
    "false": "F",
    "empty": "E",
    # Automatic Assaf: the caller who was caught, and the lowest hand(s) that caught them.
    "assaf": "S",
    "lowest": "L",
}
# A player who is out (elimination) has no hand in later rounds.
NO_HAND = "—"
OUT = "out"


def _lowest_challengers(game: Game, number: int) -> set[str]:
    entries = game.rounds[number - 1]
    others = {player: hand for player, hand in entries.hands.items() if player != entries.yaniv}
    lowest = min(others.values())
    return {player for player, hand in others.items() if hand == lowest}


def _mark(game: Game, number: int, kind: RoundKind, player: str) -> str:
    entries = game.rounds[number - 1]
    if kind is RoundKind.EMPTY_HAND:
        return MARKS["empty"] if entries.empty_hand == player else ""
    if kind is RoundKind.ASSAF:
        if entries.yaniv == player:
            return MARKS["assaf"]
        return MARKS["lowest"] if player in _lowest_challengers(game, number) else ""
    if entries.yaniv == player:
        return MARKS["false"] if kind is RoundKind.FALSE_YANIV else MARKS["caller"]
    if kind is RoundKind.YANIV and player in entries.along:
        return MARKS["along"]
    return ""


def _cell(mark: str, points: int, total: int, reduction: int, *, out: bool = False) -> str:
    arrived = f"{total + reduction} → {total}" if reduction else str(total)
    return f"{mark}{points:+d} = {arrived}{f' {OUT}' if out else ''}"


def _round_cell(game: Game, round_result: RoundResult, player: str) -> str:
    if player not in round_result.points:
        return NO_HAND
    return _cell(
        _mark(game, round_result.number, round_result.kind, player),
        round_result.points[player],
        round_result.totals[player],
        round_result.reductions.get(player, 0),
        out=player in round_result.eliminated,
    )


def legend(ruleset: Ruleset) -> str:
    """What the marks mean, for the marks this ruleset can show."""
    if ruleset.automatic_assaf:
        marks = "Y caller, S Assaf on the caller, L lowest hand (the Assaf), E emptied hand"
    else:
        marks = "Y caller, A along, F false Yaniv, E emptied hand"
    out = f"; '{OUT}' went out, {NO_HAND} no hand (out)" if ruleset.eliminates else ""
    return f"{marks}; 'a → b' is a reduction{out}."


def render_sheet(game: Game, result: GameResult) -> str:
    players = game.players
    rows: list[list[str]] = [["round", "kind", *players]]
    for round_result in result.rounds:
        rows.append(
            [
                str(round_result.number),
                str(round_result.kind),
                *(_round_cell(game, round_result, player) for player in players),
            ]
        )
    ranks = {placing.player: placing.rank for placing in result.ranking}
    rows.append(["total", "", *(str(result.totals[player]) for player in players)])
    footer = 2
    if result.elimination:
        footer += 1
        rows.append(
            [
                "out",
                "",
                *(
                    f"round {result.out_in_round[player]}" if player in result.out_in_round else ""
                    for player in players
                ),
            ]
        )
    rows.append(
        [
            "rank",
            "",
            *(
                f"{ranks[player]}{' winner' if player in result.winners else ''}"
                for player in players
            ),
        ]
    )
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    lines = [
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in rows
    ]
    lines.insert(1, "  ".join("-" * width for width in widths))
    lines.insert(-footer, lines[1])
    if result.finished:
        joint = " (shared win)" if len(result.winners) > 1 else ""
        lines.append(f"Game over. Winner: {', '.join(result.winners)}{joint}")
    else:
        lines.append("Game in progress.")
    lines.append(legend(game.ruleset))
    return "\n".join(lines) + "\n"
