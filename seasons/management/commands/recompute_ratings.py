from __future__ import annotations

import time

from django.core.management.base import BaseCommand

from seasons import ratings


class Command(BaseCommand):
    help = (
        "Rebuild every player's rating from every finished game, in the rating order (when "
        "each game finished, then its id), in one transaction: the same games always give "
        "the same ratings. See docs/rating.md."
    )

    def handle(self, *args: object, **options: object) -> None:
        started = time.perf_counter()
        done = ratings.recompute()
        self.stdout.write(
            f"rated {done.games} games of {done.players} players "
            f"in {time.perf_counter() - started:.2f} s"
        )
