"""A game's score sheet: the one read model every renderer draws. Pure Python, no Django.

A `ScoreSheet` holds the players in seat order, one `Row` a round with a `Cell` a player
(the hand, points, reduction, total and the mark a referee writes beside them), the ranking
and the winners, and the marks its ruleset can show (`legend`). The site's table page,
player page, filled PDF and rounds CSV and the terminal sheet below all read it, so a mark
or an "arrived" total is worked out in one place.

Two ways in: `score_sheet(game, result)` from the engine's result, and `sheet_from_scores`
from numbers stored earlier (the site caches the engine's points and totals per hand).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from scoring import rules
from scoring.errors import GameWarning, gettext_noop
from scoring.rules import Game, GameResult, Round, RoundKind, RoundResult, Ruleset


class Mark(enum.StrEnum):
    """What a referee writes beside a player's points."""

    CALLER = "caller"
    ALONG = "along"
    FALSE = "false"
    EMPTY = "empty"
    # Automatic Assaf: the caller who was caught, and the lowest hand(s) that caught them.
    ASSAF = "assaf"
    LOWEST = "lowest"
    # Elimination: the player went out after this round.
    OUT = "out"


def legend(ruleset: Ruleset) -> tuple[Mark, ...]:
    """The marks a sheet under `ruleset` can show, in the order a legend lists them."""
    marks = [Mark.CALLER]
    if ruleset.automatic_assaf:
        marks += [Mark.ASSAF, Mark.LOWEST]
    else:
        marks.append(Mark.ALONG)
    if ruleset.scores_false_yaniv:
        marks.append(Mark.FALSE)
    marks.append(Mark.EMPTY)
    if ruleset.eliminates:
        marks.append(Mark.OUT)
    return tuple(marks)


def lowest_challengers(entries: Round) -> frozenset[str]:
    """In an Assaf: the other players holding the lowest hand."""
    others = {player: hand for player, hand in entries.hands.items() if player != entries.yaniv}
    if not others:
        return frozenset()
    lowest = min(others.values())
    return frozenset(player for player, hand in others.items() if hand == lowest)


def hand_mark(entries: Round, kind: RoundKind, player: str) -> Mark | None:
    """The mark beside `player`'s points in a round that ended as `kind`."""
    if kind is RoundKind.EMPTY_HAND:
        return Mark.EMPTY if entries.empty_hand == player else None
    if entries.yaniv == player:
        return {RoundKind.FALSE_YANIV: Mark.FALSE, RoundKind.ASSAF: Mark.ASSAF}.get(
            kind, Mark.CALLER
        )
    if kind is RoundKind.ASSAF:
        return Mark.LOWEST if player in lowest_challengers(entries) else None
    if kind is RoundKind.YANIV and player in entries.along:
        return Mark.ALONG
    return None


@dataclass(frozen=True)
class Cell:
    """One player's line in one round."""

    # None for a player who is out (elimination): no hand that round.
    hand_total: int | None
    points: int
    reduction: int
    total: int
    mark: Mark | None = None
    # Elimination: the player went out after this round.
    went_out: bool = False
    # Streak rules, after the reduction: the win-streak bonus added, and a reset to 0.
    bonus: int = 0
    reset: bool = False
    # What the house rules did to this player this round ("+25 streak bonus").
    notes: tuple[RoundNote, ...] = ()
    # False before the round a player joins the game in (no hand, no total yet).
    seated: bool = True

    @property
    def out(self) -> bool:
        return self.hand_total is None

    @property
    def arrived(self) -> int:
        """The total before the reduction: a sheet shows `100 → 50` (before a streak bonus
        too; a reset's total before it is not kept, the cell's note says it)."""
        return self.total + self.reduction - self.bonus


# What a round's house rules did beside the points, as a sheet notes it (the site translates by
# the code; `amount` fills in the number).
NOTE_MESSAGES: Mapping[str, str] = MappingProxyType(
    {
        "streak_bonus": gettext_noop("%(amount)s streak bonus for %(player)s"),
        "reset": gettext_noop("%(player)s back to 0 after an Assaf streak"),
        "joined": gettext_noop("%(player)s joined at %(amount)s"),
        "jokers": gettext_noop("%(amount)s for the jokers %(player)s held"),
    }
)
# The same, short, in the player's own cell of a sheet (the column names the player).
CELL_NOTE_MESSAGES: Mapping[str, str] = MappingProxyType(
    {
        "streak_bonus": gettext_noop("%(amount)s streak bonus"),
        "reset": gettext_noop("back to 0 (Assaf streak)"),
        "joined": gettext_noop("joined at %(amount)s"),
        "jokers": gettext_noop("%(amount)s jokers"),
    }
)


@dataclass(frozen=True)
class RoundNote:
    """One thing a house rule did in a round: "+25 streak bonus for Ann", "Ann joined at 87"."""

    code: str
    player: str
    amount: int = 0

    @property
    def params(self) -> dict[str, object]:
        amount = str(self.amount) if self.code == "joined" else f"{self.amount:+d}"
        return {"player": self.player, "amount": amount}

    @property
    def message(self) -> str:
        return NOTE_MESSAGES[self.code] % self.params

    @property
    def cell_message(self) -> str:
        return CELL_NOTE_MESSAGES[self.code] % self.params


@dataclass(frozen=True)
class Row:
    number: int
    kind: RoundKind
    cells: tuple[Cell, ...]
    entries: Round
    # A false Yaniv: the caller's left neighbour, whose hand the caller scores.
    neighbour: str | None = None
    # Who joined before the round, streak bonuses, resets: in that order.
    notes: tuple[RoundNote, ...] = ()


@dataclass(frozen=True)
class Scores:
    """A round's numbers as the engine gave them: the players who played it, and every total."""

    kind: RoundKind
    points: Mapping[str, int]
    reductions: Mapping[str, int]
    totals: Mapping[str, int]
    # The house rules' doings (issue 37): a joiner and their start, bonuses, resets.
    joined: tuple[str, int] | None = None
    bonuses: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    resets: tuple[str, ...] = ()

    @classmethod
    def of(cls, scored: RoundResult) -> Scores:
        """The numbers of a round the engine scored."""
        return cls(
            scored.kind,
            scored.points,
            scored.reductions,
            scored.totals,
            joined=scored.joined,
            bonuses=scored.bonuses,
            resets=scored.resets,
        )


def joker_points(entries: Round, ruleset: Ruleset) -> dict[str, int]:
    """What each player's jokers counted in the round: `joker_held` a joker held by a player
    who did not call, and `joker_value` a joker in the hand (for a caller too: it counts in
    the comparison with the others, though a caller nobody caught scores 0)."""
    counted = {}
    penalties = rules.joker_penalties(entries, ruleset)
    for player, jokers in entries.jokers.items():
        amount = penalties.get(player, 0) + ruleset.joker_value * jokers
        if amount:
            counted[player] = amount
    return counted


def round_notes(
    scores: Scores, entries: Round | None = None, ruleset: Ruleset | None = None
) -> tuple[RoundNote, ...]:
    """What the round's house rules did, for the sheet's notes: who joined, what jokers
    counted (with the round's `entries` and `ruleset`), streak bonuses, resets."""
    notes = []
    if scores.joined is not None:
        notes.append(RoundNote("joined", scores.joined[0], scores.joined[1]))
    if entries is not None and ruleset is not None and entries.jokers:
        notes += [
            RoundNote("jokers", player, amount)
            for player, amount in joker_points(entries, ruleset).items()
        ]
    notes += [RoundNote("streak_bonus", player, bonus) for player, bonus in scores.bonuses.items()]
    notes += [RoundNote("reset", player) for player in scores.resets]
    return tuple(notes)


@dataclass(frozen=True)
class ScoreSheet:
    players: tuple[str, ...]
    ruleset: Ruleset
    rows: tuple[Row, ...]
    totals: Mapping[str, int]
    ranks: Mapping[str, int]
    finished: bool
    winners: tuple[str, ...]
    # Elimination: player -> the round after which they went out.
    out_in_round: Mapping[str, int]

    @property
    def legend(self) -> tuple[Mark, ...]:
        return legend(self.ruleset)

    @property
    def elimination(self) -> bool:
        return self.ruleset.eliminates

    def column(self, player: str) -> list[tuple[Row, Cell]]:
        """One player's rounds: (row, their cell), for a player's own page."""
        index = self.players.index(player)
        return [(row, row.cells[index]) for row in self.rows]


def _row(
    players: Sequence[str], number: int, entries: Round, scores: Scores, ruleset: Ruleset
) -> Row:
    playing = [player for player in players if player in scores.points]
    went_out = (
        set(rules.players_going_out(playing, scores.totals, ruleset))
        if ruleset.eliminates
        else set()
    )
    notes = round_notes(scores, entries, ruleset)
    cells = tuple(
        Cell(
            hand_total=entries.hands[player],
            points=scores.points[player],
            reduction=scores.reductions.get(player, 0),
            total=scores.totals[player],
            mark=hand_mark(entries, scores.kind, player),
            went_out=player in went_out,
            bonus=scores.bonuses.get(player, 0),
            reset=player in scores.resets,
            notes=tuple(note for note in notes if note.player == player),
        )
        if player in scores.points
        # Out (elimination), or not seated yet (a player who joins later): no hand.
        else Cell(
            hand_total=None,
            points=0,
            reduction=0,
            total=scores.totals.get(player, 0),
            seated=player in scores.totals,
        )
        for player in players
    )
    neighbour = None
    if scores.kind is RoundKind.FALSE_YANIV and entries.yaniv is not None:
        neighbour = rules.left_neighbour(playing, entries.yaniv)
    return Row(number, scores.kind, cells, entries, neighbour, notes)


def sheet_from_scores(
    players: Sequence[str],
    ruleset: Ruleset,
    rounds: Sequence[tuple[Round, Scores]],
    *,
    finished: bool,
) -> ScoreSheet:
    """The sheet from each round's entries and its stored numbers (no rescoring)."""
    players = tuple(players)
    rows = tuple(
        _row(players, number, entries, scores, ruleset)
        for number, (entries, scores) in enumerate(rounds, start=1)
    )
    totals: dict[str, int] = dict.fromkeys(players, 0)
    out_in_round: dict[str, int] = {}
    for row in rows:
        # A row has a cell a player by construction (`_row`): strict or not, the same pairs.
        for player, cell in zip(players, row.cells, strict=True):  # pragma: no mutate
            totals[player] = cell.total
            if cell.went_out:
                out_in_round[player] = row.number
    # Empty unless the ruleset eliminates: only then does a cell go out.
    ranking = rules.rank(players, totals, out_in_round)
    ranks = {placing.player: placing.rank for placing in ranking}
    winners = tuple(placing.player for placing in ranking if placing.rank == 1)
    return ScoreSheet(
        players=players,
        ruleset=ruleset,
        rows=rows,
        totals=MappingProxyType(totals),
        ranks=MappingProxyType(ranks),
        finished=finished,
        winners=winners if finished else (),
        out_in_round=MappingProxyType(out_in_round),
    )


def score_sheet(game: Game, result: GameResult) -> ScoreSheet:
    """The sheet of a game the engine has just scored."""
    # A scored game has a result a round: strict or not, the same pairs.
    rounds = zip(game.rounds, result.rounds, strict=True)  # pragma: no mutate
    return sheet_from_scores(
        # With the players who joined, seated at the end.
        result.players,
        game.ruleset,
        [(entries, Scores.of(scored)) for entries, scored in rounds],
        finished=result.finished,
    )


# --- the round being typed ------------------------------------------------------


@dataclass(frozen=True)
class PreviewLine:
    player: str
    points: int
    reduction: int
    total: int

    @property
    def arrived(self) -> int:
        return self.total + self.reduction


@dataclass(frozen=True)
class FalseYanivNote:
    """Why a false Yaniv's caller scores what they score: penalty + the neighbour's hand."""

    caller: str
    neighbour: str
    neighbour_hand: int
    penalty: int
    points: int


@dataclass(frozen=True)
class RoundPreview:
    """What the round being entered would do to the game; nothing is stored."""

    number: int
    kind: RoundKind
    lines: tuple[PreviewLine, ...]
    false_yaniv: FalseYanivNote | None
    ends_game: bool
    eliminated: tuple[str, ...]
    # Players above the end limit once the round is scored (the game-over rule).
    over: tuple[str, ...]
    winners: tuple[str, ...]
    ruleset: Ruleset
    # What the referee should know although the round is scored (`rules.round_warnings`):
    # a call above a Yaniv limit that only warns. Each has a code, params and the English
    # message; the site translates by code (scoring.errors.WARNING_MESSAGES).
    warnings: tuple[GameWarning, ...] = ()
    # What the round's house rules did: who joined at what, streak bonuses, resets.
    notes: tuple[RoundNote, ...] = ()

    @property
    def elimination(self) -> bool:
        return self.ruleset.eliminates

    @property
    def limit(self) -> int:
        return self.ruleset.end_above


def round_preview(game: Game, entries: Round) -> RoundPreview:
    """Score `game` with `entries` as its next round; raises GameError as the engine does."""
    played = Game(game.players, (*game.rounds, entries), game.ruleset)
    result = rules.score_game(played)
    scored = result.rounds[-1]
    false_yaniv = None
    # The engine names a neighbour only for a false Yaniv (which has a caller).
    if entries.yaniv and scored.neighbour:
        false_yaniv = FalseYanivNote(
            caller=entries.yaniv,
            neighbour=scored.neighbour,
            neighbour_hand=entries.hands[scored.neighbour],
            penalty=game.ruleset.false_yaniv_penalty,
            points=scored.points[entries.yaniv],
        )
    return RoundPreview(
        number=scored.number,
        kind=scored.kind,
        lines=tuple(
            PreviewLine(
                player=player,
                points=scored.points[player],
                reduction=scored.reductions.get(player, 0),
                total=scored.totals[player],
            )
            for player in result.players
            # A player who is out (elimination) plays no more rounds.
            if player in scored.points
        ),
        false_yaniv=false_yaniv,
        ends_game=scored.ends_game,
        eliminated=scored.eliminated,
        over=tuple(
            player for player in result.players if scored.totals[player] > game.ruleset.end_above
        ),
        winners=result.winners,
        ruleset=game.ruleset,
        warnings=rules.round_warnings(entries, game.ruleset),
        notes=round_notes(Scores.of(scored), entries, game.ruleset),
    )


# --- the terminal sheet ----------------------------------------------------------

# The letters a referee writes, in English (the site has them in each language).
LETTERS: Mapping[Mark, str] = MappingProxyType(
    {
        Mark.CALLER: "Y",
        Mark.ALONG: "A",
        Mark.FALSE: "F",
        Mark.EMPTY: "E",
        Mark.ASSAF: "S",
        Mark.LOWEST: "L",
        Mark.OUT: "out",
    }
)
MEANINGS: Mapping[Mark, str] = MappingProxyType(
    {
        Mark.CALLER: "caller",
        Mark.ALONG: "along",
        Mark.FALSE: "false Yaniv",
        Mark.EMPTY: "emptied hand",
        Mark.ASSAF: "Assaf on the caller",
        Mark.LOWEST: "lowest hand (the Assaf)",
        Mark.OUT: "went out",
    }
)
# A player who is out (elimination) has no hand in later rounds.
NO_HAND = "—"


def _terminal_cell(cell: Cell) -> str:
    if cell.out:
        return NO_HAND
    mark = LETTERS[cell.mark] if cell.mark and cell.mark is not Mark.OUT else ""
    arrived = f"{cell.arrived} → {cell.total}" if cell.reduction else str(cell.total)
    out = f" {LETTERS[Mark.OUT]}" if cell.went_out else ""
    return f"{mark}{cell.points:+d} = {arrived}{out}"


def terminal_legend(sheet: ScoreSheet) -> str:
    marks = ", ".join(
        f"{LETTERS[mark]} {MEANINGS[mark]}" if mark is not Mark.OUT else f"'out' {MEANINGS[mark]}"
        for mark in sheet.legend
    )
    no_hand = f", {NO_HAND} no hand (out)" if sheet.elimination else ""
    return f"{marks}{no_hand}; 'a → b' is a reduction."


def render_sheet(sheet: ScoreSheet) -> str:
    """The sheet for a terminal: players as columns, one row a round."""
    players = sheet.players
    rows: list[list[str]] = [["round", "kind", *players]]
    for row in sheet.rows:
        rows.append(
            [str(row.number), str(row.kind), *(_terminal_cell(cell) for cell in row.cells)]
        )
    rows.append(["total", "", *(str(sheet.totals[player]) for player in players)])
    footer = 2
    if sheet.elimination:
        footer += 1
        rows.append(
            [
                "out",
                "",
                *(
                    f"round {sheet.out_in_round[player]}" if player in sheet.out_in_round else ""
                    for player in players
                ),
            ]
        )
    rows.append(
        [
            "rank",
            "",
            *(
                f"{sheet.ranks[player]}{' winner' if player in sheet.winners else ''}"
                for player in players
            ),
        ]
    )
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    # Every row has a cell a column (`widths` is measured on them): strict or not, the same.
    lines = [
        "  ".join(
            cell.ljust(width)
            for cell, width in zip(row, widths, strict=True)  # pragma: no mutate
        ).rstrip()
        for row in rows
    ]
    lines.insert(1, "  ".join("-" * width for width in widths))
    lines.insert(-footer, lines[1])
    if sheet.finished:
        joint = " (shared win)" if len(sheet.winners) > 1 else ""
        lines.append(f"Game over. Winner: {', '.join(sheet.winners)}{joint}")
    else:
        lines.append("Game in progress.")
    lines.append(terminal_legend(sheet))
    lines += [f"round {row.number}: {note.message}" for row in sheet.rows for note in row.notes]
    return "\n".join(lines) + "\n"
