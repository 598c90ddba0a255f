"""Benchmarks of the site, run from the repository root (not part of the installed package).

    .venv/bin/python -m bench standings   # standings of a 512-player, 8-session tournament
    .venv/bin/python -m bench pdf         # blank score sheets of a 40-table session
    .venv/bin/python -m bench hotpath     # submission, table page, polls, standings vs floors
    .venv/bin/python -m bench load        # championship day under load, PostgreSQL restart

`python -m bench <name> --help` lists a benchmark's options. Each one builds what it measures
through the models (`Table.objects.create_with_games`, `Game.store_rounds`, the site's own
pages for the load) with rounds from `scoring.dealer`, and cleans up afterwards.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from scoring import dealer, rules


class BenchError(Exception):
    """A benchmark could not run or failed; `python -m bench` prints it and exits 1."""


def say(text: str = "") -> None:
    """One line of a benchmark's report, at once (a long run shows its progress)."""
    print(text, flush=True)


def deal_game(
    players: Sequence[str], ruleset: rules.Ruleset, rng: random.Random
) -> list[rules.Round]:
    """A whole game as the benchmarks play it: low hands and few players going along.

    About 20 rounds a Belgian game of 4, as long as the benchmarks' games have always been,
    so their figures stay comparable; every kind of round still comes up.
    """
    return dealer.deal_game(players, ruleset, rng, hand_scale=0.4, along_rate=0.1)
