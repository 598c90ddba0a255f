"""The engine's mutation score from mutmut's counts (`make mutation`), failing below the goal.

Reachable mutants are those some test runs (mutmut's "no tests" and "skipped" are not); a
timeout counts as killed (the mutant made a test loop), a suspicious one as surviving.

    python scripts/mutation_score.py mutants/mutmut-cicd-stats.json 98
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def main(stats_file: str, goal: str) -> int:
    stats = json.loads(Path(stats_file).read_text())
    reachable = stats["total"] - stats["no_tests"] - stats["skipped"]
    killed = stats["killed"] + stats["timeout"]
    score = 100 * killed / reachable if reachable else 0.0
    print(
        f"mutation score {score:.1f}% ({killed} of {reachable} reachable mutants killed; "
        f"{stats['survived']} survived, {stats['suspicious']} suspicious, "
        f"{stats['no_tests']} no test reaches; goal {goal}%)"
    )
    return 0 if score >= float(goal) else 1


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
