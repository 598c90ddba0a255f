"""A game's sheet as the site shows it, built once per request from what is stored.

`GameSheet` pairs the stored rows (seats, rounds, who entered them) with the pure read model
`scoring.sheet.ScoreSheet` (rows, marks, arrived totals, ranks, winners, the legend of the
game's rule set), made from the engine's numbers cached on each hand: nothing is rescored
to show a sheet. The table page, the player page, the filled PDF, the rounds CSV and the
archive all read it; the terminal sheet reads the same `ScoreSheet`.

Rounds and hands are read as plain values (no model instances) into plain tuples: a
tournament's rounds CSV reads tens of thousands of hands through here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from itertools import groupby
from operator import itemgetter
from typing import NamedTuple

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from scoring import rules
from scoring.records import join_start_from_text, round_to_record
from scoring.sheet import (
    CELL_NOTE_MESSAGES,
    NOTE_MESSAGES,
    Cell,
    Mark,
    RoundNote,
    RoundPreview,
    Row,
    Scores,
    ScoreSheet,
    round_preview,
    sheet_from_scores,
)
from tournaments.chart import progression_svg
from tournaments.models import Game, Hand, Seat
from tournaments.models.seats import LabelledSeats, mark_withdrawn, seats_of_games
from tournaments.texts import mark_letter


class StoredHand(NamedTuple):
    seat_id: int
    hand_total: int
    along: bool
    points: int
    reduction: int
    total: int
    jokers: int
    bonus: int
    reset: bool


class StoredRound(NamedTuple):
    number: int
    kind: str
    caller_id: int | None
    empty_hand_id: int | None
    # The account that entered the round (None: deleted, or no account).
    entered_by: str | None
    entered_at: datetime
    hands: tuple[StoredHand, ...]
    # The seat of a player who joined before this round, and the start the record gives.
    joined_id: int | None = None
    join_start: str = ""


def stored_rounds(games: Sequence[Game]) -> dict[int, list[StoredRound]]:
    """Game id → its rounds in order, with their hands, in one query: a round recorded,
    corrected or undone while the sheet is read is in it whole or not at all (read apart,
    the rounds could hold one whose hands were not there yet: a poll beside a referee's save
    failed on it under load)."""
    game_ids = [game.pk for game in games]
    rounds: dict[int, list[StoredRound]] = {game_id: [] for game_id in game_ids}
    rows = (
        Hand.objects.filter(round__game_id__in=game_ids)
        .order_by("round__game_id", "round__number", "pk")
        .values_list(*_ROUND_COLUMNS, *_HAND_COLUMNS)
    )
    for (game_id, number), group in groupby(rows, key=_BY_ROUND):
        hands = list(group)
        # The round's own columns, after its game and number (the same on each of its hands).
        kind, caller_id, empty_hand_id, entered_by, entered_at, joined_id, join_start = hands[0][
            2 : _HAND.start
        ]
        rounds[game_id].append(
            StoredRound(
                number=number,
                kind=kind,
                caller_id=caller_id,
                empty_hand_id=empty_hand_id,
                entered_by=entered_by,
                entered_at=entered_at,
                # Each hand as the tuple it is read as (tuple.__new__: no call of Python code).
                hands=tuple([tuple.__new__(StoredHand, hand[_HAND]) for hand in hands]),
                joined_id=joined_id,
                join_start=join_start,
            )
        )
    return rounds


# A hand's row: its round's columns (the round's game and number first), then the hand's.
_ROUND_COLUMNS = (
    "round__game_id",
    "round__number",
    "round__kind",
    "round__caller_id",
    "round__empty_hand_id",
    "round__entered_by__username",
    "round__entered_at",
    "round__joined_id",
    "round__join_start",
)
_HAND_COLUMNS = (
    "seat_id",
    "hand_total",
    "along",
    "points",
    "reduction",
    "total",
    "jokers",
    "bonus",
    "reset",
)
_BY_ROUND = itemgetter(0, 1)
_HAND = slice(len(_ROUND_COLUMNS), None)


@dataclass(frozen=True)
class EntrySheet(LabelledSeats):
    """What the next round's entry form needs, from the seats alone (no rounds): who sits
    where, who is out (cached on the seats), the rule set and how many rounds were played."""

    game: Game
    seats: tuple[Seat, ...]
    ruleset: rules.Ruleset

    @classmethod
    def of(cls, game: Game, seats: Sequence[Seat]) -> EntrySheet:
        return cls(game, tuple(seats), game.ruleset)

    @classmethod
    def load(cls, game: Game) -> EntrySheet:
        """The entry form's seats as stored now (one query; not locked: the write checks
        the entries against the seats it locks)."""
        return cls.of(game, seats_of_games([game])[game.pk])

    @property
    def round_count(self) -> int:
        return self.game.round_count

    def out_before(self, number: int) -> frozenset[str]:
        """Elimination: who went out before round `number` (they get no hand in it)."""
        return frozenset(
            self.labels[seat.pk]
            for seat in self.seats
            if seat.out_after is not None and seat.out_after < number
        )


@dataclass(frozen=True)
class GameSheet(LabelledSeats):
    game: Game
    seats: tuple[Seat, ...]
    stored_rounds: tuple[StoredRound, ...]
    ruleset: rules.Ruleset

    @classmethod
    def of(cls, game: Game, seats: Sequence[Seat]) -> GameSheet:
        """The sheet of a game whose seats the caller read already, e.g. under the lock of a
        round's write (two queries: who withdrew, the rounds with their hands)."""
        mark_withdrawn(seats, game.table.session.tournament_id)
        return cls(game, tuple(seats), tuple(stored_rounds([game])[game.pk]), game.ruleset)

    @classmethod
    def load(cls, game: Game) -> GameSheet:
        """The sheet of one game (two queries)."""
        return cls.load_many([game])[0]

    @classmethod
    def load_many(cls, games: Iterable[Game]) -> list[GameSheet]:
        """The sheets of many games (two queries); each game's ruleset from its table."""
        games = list(games)
        rounds = stored_rounds(games)
        seats = seats_of_games(games)
        return [
            cls(game, tuple(seats[game.pk]), tuple(rounds[game.pk]), game.ruleset)
            for game in games
        ]

    # --- who sits where (`LabelledSeats`: labels, players, label, seat_for) -----------

    def seat_lines(self) -> list[tuple[Seat, str, int, int]]:
        """Per seat, clockwise: the seat, its label, its total and its rank."""
        return [
            (seat, label, self.sheet.totals[label], self.sheet.ranks[label])
            for seat, label in zip(self.seats, self.players, strict=True)
        ]

    @property
    def winners(self) -> list[Seat]:
        winners = set(self.sheet.winners)
        if winners and any(seat.adjustment for seat in self.seats):
            # Game points a director gave count in the result: the seats' ranks hold them.
            return [seat for seat in self.seats if seat.rank == 1]
        return [seat for seat in self.seats if self.label(seat) in winners]

    # --- the rounds -----------------------------------------------------------------

    def entries(self, stored: StoredRound) -> rules.Round:
        """A stored round's raw entries, as the engine takes them."""
        labels = self.labels
        return rules.Round(
            hands={labels[hand.seat_id]: hand.hand_total for hand in stored.hands},
            yaniv=labels[stored.caller_id] if stored.caller_id else None,
            along=tuple(labels[hand.seat_id] for hand in stored.hands if hand.along),
            empty_hand=labels[stored.empty_hand_id] if stored.empty_hand_id else None,
            jokers={labels[hand.seat_id]: hand.jokers for hand in stored.hands if hand.jokers},
            joins=rules.Join(labels[stored.joined_id], join_start_from_text(stored.join_start))
            if stored.joined_id
            else None,
        )

    @cached_property
    def joined_in(self) -> dict[str, int]:
        """A player who joined the game -> the round they joined before."""
        return {
            self.labels[stored.joined_id]: stored.number
            for stored in self.stored_rounds
            if stored.joined_id
        }

    @cached_property
    def starting_players(self) -> tuple[str, ...]:
        """The players seated when the game began, as the engine's `Game` takes them."""
        return tuple(player for player in self.players if player not in self.joined_in)

    @cached_property
    def sheet(self) -> ScoreSheet:
        labels = self.labels
        # Only the players seated so far have a total: a later joiner's column stays empty.
        totals = dict.fromkeys(self.starting_players, 0)
        rounds = []
        for stored in self.stored_rounds:
            joined = None
            if stored.joined_id:
                playing = [labels[hand.seat_id] for hand in stored.hands]
                playing.remove(labels[stored.joined_id])
                start = join_start_from_text(stored.join_start)
                joined = (labels[stored.joined_id], rules.join_start(playing, totals, start))
            for hand in stored.hands:
                totals[labels[hand.seat_id]] = hand.total
            scores = Scores(
                kind=rules.RoundKind(stored.kind),
                points={labels[hand.seat_id]: hand.points for hand in stored.hands},
                reductions={
                    labels[hand.seat_id]: hand.reduction for hand in stored.hands if hand.reduction
                },
                totals=dict(totals),
                bonuses={labels[hand.seat_id]: hand.bonus for hand in stored.hands if hand.bonus},
                resets=tuple(labels[hand.seat_id] for hand in stored.hands if hand.reset),
                joined=joined,
            )
            rounds.append((self.entries(stored), scores))
        return sheet_from_scores(self.players, self.ruleset, rounds, finished=self.game.finished)

    @property
    def rows(self) -> tuple[Row, ...]:
        return self.sheet.rows

    @property
    def round_count(self) -> int:
        return len(self.stored_rounds)

    @property
    def legend(self) -> tuple[Mark, ...]:
        return self.sheet.legend

    def drawn_rows(self) -> list[DrawnRow]:
        """The rows as the table page draws them (`drawn_rows`), in the active language."""
        return drawn_rows(self.rows)

    def chart_svg(self) -> SafeString:
        """The score progression chart as inline SVG (`tournaments.chart`)."""
        return mark_safe(progression_svg(self.sheet))  # noqa: S308 - our SVG, escaped there

    def device_state(self) -> dict[str, object]:
        """The game as the table page's script scores it on the device (offline)."""
        game, ruleset = self.game, self.ruleset
        return {
            "version": game.version,
            "finished": game.finished,
            "ended_at_time_limit": game.ended_at_time_limit,
            "signed_off": game.signed_off,
            "players": list(self.players),
            "positions": [seat.position for seat in self.seats],
            # The players the game began with (the engine's `players`); the others joined
            # through their round's `joins`.
            "starting_players": list(self.starting_players),
            "ruleset": ruleset.name,
            "options": ruleset.options_from(rules.RULESETS[ruleset.name]),
            "rounds": [round_to_record(row.entries, ruleset) for row in self.rows],
        }

    def engine_game(self, up_to: int | None = None) -> rules.Game:
        """The game as the engine takes it; with `up_to`, only its first rounds."""
        rounds = [row.entries for row in self.rows]
        if up_to is not None:
            rounds = rounds[:up_to]
        return rules.Game(self.starting_players, tuple(rounds), self.ruleset)

    def out_before(self, number: int) -> frozenset[str]:
        """Who has no hand in round `number`: out before it (elimination), or joining the
        game only after it."""
        out = {
            player for player, round_out in self.sheet.out_in_round.items() if round_out < number
        }
        return frozenset(out | {player for player, at in self.joined_in.items() if at > number})

    def preview(self, entries: rules.Round) -> RoundPreview:
        """What `entries` as the next round would do (raises GameError as the engine does)."""
        if self.game.ended_at_time_limit:
            raise rules.GameError("game_over", "rounds", round_number=len(self.rows) + 1)
        return round_preview(self.engine_game(), entries)

    def entered_by(self) -> list[str]:
        """Who entered each round, by account name (for the people running the table)."""
        return [stored.entered_by or "" for stored in self.stored_rounds]


class DrawnCell(NamedTuple):
    """A player's cell of the table page's sheet: its words and numbers in the active
    language, ready for the template (`sheet-row` in templates/tournaments/table.html), which
    holds the markup. Made here for speed: a long game's sheet has four hundred cells, and
    the template engine looked each number and letter up, and localised it, one at a time."""

    # No hand this round: out of the game, or not seated yet (a player joining later).
    out: bool
    seated: bool
    # The cell's class: its mark ("caller", "along", …), "" for none.
    mark: str
    # The mark's letter and the points: "Y +0".
    points: str
    # The total, "100 → 50" after a reduction.
    running: str
    went_out: bool
    notes: tuple[str, ...]


class DrawnRow(NamedTuple):
    number: int
    kind: str
    cells: tuple[DrawnCell, ...]


def drawn_rows(rows: Iterable[Row]) -> list[DrawnRow]:
    """Sheet rows as the table page draws them, in the active language."""
    letters = {mark: mark_letter(mark) for mark in Mark}
    return [
        DrawnRow(row.number, row.kind, tuple(drawn_cell(cell, letters) for cell in row.cells))
        for row in rows
    ]


def drawn_cell(cell: Cell, letters: dict[Mark, str]) -> DrawnCell:
    if cell.out:
        return DrawnCell(True, cell.seated, "", "", "", False, ())
    letter = f"{letters[cell.mark]} " if cell.mark else ""
    return DrawnCell(
        out=False,
        seated=True,
        mark=cell.mark or "",
        points=f"{letter}+{cell.points}",
        running=f"{cell.arrived} → {cell.total}" if cell.reduction else str(cell.total),
        went_out=cell.went_out,
        notes=tuple(note_text(note, short=True) for note in cell.notes),
    )


def note_text(note: RoundNote, *, short: bool = False) -> str:
    """A house rule's note in the active language: in a player's cell (`short`), or as a
    sentence naming the player (the PDFs)."""
    message = CELL_NOTE_MESSAGES[note.code] if short else NOTE_MESSAGES[note.code]
    return gettext(message) % note.params


# A round's number no game reaches, that the table page's script swaps for the round's.
ROUND_STAND_IN = 987654321


# The stand-in row the table page sends its script (`<template id="sheet-row">`), drawn by the
# sheet's own row template: one cell of each kind (a player not seated yet, one out, one who
# played with a mark, a reduction, going out and a note), a flag, the stand-in number that
# the script swaps for the round's.
SPECIMEN_ROW = Row(
    number=ROUND_STAND_IN,
    kind=rules.RoundKind.FALSE_YANIV,
    cells=(
        Cell(hand_total=None, points=0, reduction=0, total=0, seated=False),
        Cell(hand_total=None, points=0, reduction=0, total=0),
        Cell(
            hand_total=0,
            points=0,
            reduction=1,
            total=0,
            mark=Mark.CALLER,
            went_out=True,
            notes=(RoundNote("reset", ""),),
        ),
    ),
    entries=rules.Round(hands={}),
)


def sheets_by_game(sheets: Sequence[GameSheet]) -> dict[int, GameSheet]:
    return {sheet.game.pk: sheet for sheet in sheets}
