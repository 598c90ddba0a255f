"""A game's changes of its seats beside the rounds: a part of `Game`
(tournaments.models.games), kept here with their callers' needs in one method.

Game points given (tournaments.models.adjustments), a substitute taking a seat, two seats
typed the wrong way round (tournaments.models.substitutions): each writes its own rows under
the game's lock, and the game then does what it does after any change.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.db import transaction

from tournaments.models.seats import save_standing
from tournaments.models.tables import Seat


class SeatChanges:
    """A part of `Game`."""

    # Declared by Game.
    if TYPE_CHECKING:
        _locked_with_seats: Callable[[], tuple[Any, list[Seat]]]
        _take_state: Callable[[Any], None]
        _rerate: Callable[[Any], None]

    def change_seats(
        self, change: Callable[[Any, list[Seat]], str], *, by: Any, action: str, rescore: bool
    ) -> None:
        """A change of the seats beside the rounds, written by `change` (under the game's
        lock, given the locked game and its seats; it returns the audit log's reason). The
        seats' standing is written again (the ranks with the game points given), or with
        `rescore` the game is scored again from its rounds (two seats swapped: a false
        Yaniv's left neighbour may be another player); the version moves on and the change is
        logged, as after a round's correction."""
        with transaction.atomic():
            game, seats = self._locked_with_seats()
            reason = change(game, seats)
            if rescore:
                rows = game.rows()
                game._store(rows, game.score(rows), first_changed=1)
            else:
                save_standing(seats)
                game.version += 1
                game.save(update_fields=["version"])
            game._log(action, by, None, None, None, reason)
        self._take_state(game)
        self._rerate(game)
