"""The engine's mutation score from mutmut's counts (`make mutation`), failing below the goal.

Reachable mutants are those some test runs (mutmut's "no tests" and "skipped" are not); a
timeout counts as killed (the mutant made a test loop), and so does a "segfault" (a test
process killed by a signal: mutmut's CPU limit ends a looping one with SIGKILL when it does
not stop on SIGXCPU); a suspicious one counts as surviving.

mutmut keeps a mutant it has not run yet (a run stopped part-way) as "not checked", which its
export leaves out of every count but the total: the score refuses to be computed then, rather
than count those mutants as surviving (a run stopped at 60 % would read as a score of 60 %).
Run `make mutation` again: mutmut runs only the mutants it has no result for.

    python scripts/mutation_score.py mutants/mutmut-cicd-stats.json 98
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

# The export's counts of mutants that have a result; the rest of `total` were not run.
RESULTS = (
    "killed",
    "survived",
    "no_tests",
    "skipped",
    "suspicious",
    "timeout",
    "check_was_interrupted_by_user",
    "segfault",
)


def main(stats_file: str, goal: str) -> int:
    stats = json.loads(Path(stats_file).read_text())
    not_run = stats["total"] - sum(stats.get(name, 0) for name in RESULTS)
    if not_run:
        print(
            f"{not_run} of {stats['total']} mutants not run yet (a run stopped part-way): "
            "run `make mutation` again to finish it"
        )
        return 1
    reachable = stats["total"] - stats["no_tests"] - stats["skipped"]
    killed = stats["killed"] + stats["timeout"] + stats.get("segfault", 0)
    surviving = reachable - killed
    score = 100 * killed / reachable if reachable else 0.0
    print(
        f"mutation score {score:.1f}% ({killed} of {reachable} reachable mutants killed; "
        f"{surviving} surviving: {stats['survived']} survived, {stats['suspicious']} suspicious, "
        f"{stats['check_was_interrupted_by_user']} interrupted; "
        f"{stats['no_tests']} no test reaches; goal {goal}%)"
    )
    return 0 if score >= float(goal) else 1


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
