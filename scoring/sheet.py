"""A score sheet for the terminal: players as columns, one row a round."""

from __future__ import annotations

from scoring.rules import Game, GameResult, RoundKind

# Marks beside a player's points, as a referee writes them on paper.
MARKS = {"caller": "Y", "along": "A", "false": "F", "empty": "E"}


def _mark(game: Game, number: int, kind: RoundKind, player: str) -> str:
    entries = game.rounds[number - 1]
    if kind is RoundKind.EMPTY_HAND:
        return MARKS["empty"] if entries.empty_hand == player else ""
    if entries.yaniv == player:
        return MARKS["false"] if kind is RoundKind.FALSE_YANIV else MARKS["caller"]
    if kind is RoundKind.YANIV and player in entries.along:
        return MARKS["along"]
    return ""


def _cell(mark: str, points: int, total: int, reduction: int) -> str:
    arrived = f"{total + reduction} → {total}" if reduction else str(total)
    return f"{mark}{points:+d} = {arrived}"


def render_sheet(game: Game, result: GameResult) -> str:
    players = game.players
    rows: list[list[str]] = [["round", "kind", *players]]
    for round_result in result.rounds:
        rows.append(
            [
                str(round_result.number),
                str(round_result.kind),
                *(
                    _cell(
                        _mark(game, round_result.number, round_result.kind, player),
                        round_result.points[player],
                        round_result.totals[player],
                        round_result.reductions.get(player, 0),
                    )
                    for player in players
                ),
            ]
        )
    ranks = {placing.player: placing.rank for placing in result.ranking}
    rows.append(["total", "", *(str(result.totals[player]) for player in players)])
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
    lines.insert(-2, lines[1])
    if result.finished:
        joint = " (shared win)" if len(result.winners) > 1 else ""
        lines.append(f"Game over. Winner: {', '.join(result.winners)}{joint}")
    else:
        lines.append("Game in progress.")
    lines.append("Y caller, A along, F false Yaniv, E emptied hand; 'a → b' is a reduction.")
    return "\n".join(lines) + "\n"
