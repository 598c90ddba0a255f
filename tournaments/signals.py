"""The site's own signals: what other parts may react to, inside the same transaction.

- `player_merged(sender=Player, merged_id, into, by)`: `Player.merge_into` moved every row of
  player `merged_id` to `into` and deleted it. Sent before the transaction commits, so a
  receiver's writes (a rating recomputed for `into`) commit or roll back with the merge.
"""

from __future__ import annotations

from django.dispatch import Signal

player_merged = Signal()
