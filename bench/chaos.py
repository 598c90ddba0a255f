"""Benchmark: the table page under chaos, many seeded games (a benchmark, not a test).

Runs the chaos test (tests/browser/test_chaos.py, driven by tests/browser/chaos.py) over
`--games` seeds from `--first-seed`, in real Chromium against a live server on the configured
database (DATABASE_URL, as for the tests: pytest-django makes and drops its test database), and
sums each game's figures: games, rounds, drops (mid-request among them), reloads (offline among
them), the second phone's rounds, the conflicts and the choices made; and what must stay 0:
rounds lost, doubled, misnumbered, and totals other than the engine's. It exits non-zero when
one of those is not 0 or a game failed.

    .venv/bin/python -m bench chaos --games 20
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/yaniv_bench .venv/bin/python -m bench chaos
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence

from bench import BenchError, say


def main(argv: Sequence[str] | None = None, prog: str | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=prog, description="Seeded chaos games on the offline-first table page."
    )
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--first-seed", type=int, default=1)
    options = parser.parse_args(argv)
    if options.games < 1:
        raise BenchError("--games must be at least 1")
    from tests.browser.chaos import Figures

    seeds = range(options.first_seed, options.first_seed + options.games)
    with tempfile.NamedTemporaryFile("r", suffix=".jsonl") as report:
        env = {
            **os.environ,
            "YANIV_CHAOS_SEEDS": ",".join(str(seed) for seed in seeds),
            "YANIV_CHAOS_REPORT": report.name,
        }
        started = time.perf_counter()
        run = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "tests/browser/test_chaos.py",
                "-q",
                "-p",
                "no:randomly",
                "-p",
                "no:cacheprovider",
            ],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        elapsed = time.perf_counter() - started
        total = Figures(games=0)
        played = 0
        for line in report.read().splitlines():
            values = json.loads(line)
            values.pop("seed")
            figures = Figures()
            for name, value in values.items():
                setattr(
                    figures, name, figures.choices.__class__(value) if name == "choices" else value
                )
            total.add(figures)
            played += 1
    say(
        f"chaos: {played} of {options.games} games in {elapsed:.0f} s (seeds {seeds.start}–"
        f"{seeds.stop - 1})"
    )
    for line in total.lines():
        say("  " + line)
    for problem in total.problems:
        say("  problem: " + problem)
    if run.returncode != 0:
        failed = [line for line in run.stdout.splitlines() if line.startswith("FAILED")]
        for line in failed:
            say("  " + line)
        if played < options.games:
            say(run.stdout[-3000:])
    return 0 if run.returncode == 0 and total.found == 0 and played == options.games else 1
