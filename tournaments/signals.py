"""The site's own signals: what other parts may react to, inside the same transaction.

- `player_merged(sender=Player, merged_id, into, by)`: `Player.merge_into` moved every row of
  player `merged_id` to `into` and deleted it. Sent before the transaction commits, so a
  receiver's writes (a rating recomputed for `into`) commit or roll back with the merge.
"""

from __future__ import annotations

from django.dispatch import Signal

player_merged = Signal()

# - `finished_game_changed(sender=Game, game_id)`: a finished game (or the change that finished
#   it) was recorded: what is computed from finished games (the ratings, in the seasons app)
#   follows it once the change commits.
finished_game_changed = Signal()

# What players hear about (the notifications app listens; each is sent inside the change's
# transaction, so a receiver's `on_commit` runs only if it commits):
# - `seating_changed(sender=Session, session)`: a session's draw seated, redrawn or adjusted;
# - `game_finished(sender=Game, game)`, `sheet_signed_off(sender=Game, game)` (after the
#   change: `game` is the locked copy with the new state);
# - `round_corrected(sender=Game, game, number, before, after)`: the round's entries
#   (`scoring.rules.Round`) before and after;
# - `dispute_raised(sender=Dispute, dispute)`, `dispute_answered(sender=Dispute, dispute)`:
#   "Something's wrong?" at a table, and its answer (resolved or dismissed);
# - `hall_message_changed(sender=HallScreen, screen)`: a screen's message set or changed;
# - `clock_changed(sender=Session, session)`: the session clock started, paused, resumed or
#   extended (for every table or one).
seating_changed = Signal()
game_finished = Signal()
sheet_signed_off = Signal()
round_corrected = Signal()
dispute_raised = Signal()
dispute_answered = Signal()
hall_message_changed = Signal()
clock_changed = Signal()

# - `door_changed(sender=Door, door)`: check-in at the door opened, closed or set otherwise
#   (the hall's screens show its QR code while it is open, and their pages follow it).
door_changed = Signal()
