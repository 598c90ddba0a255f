"""How many cases the random tests try: hypothesis' profiles, and the seeded loops sized by them.

"ci" is the full size: hypothesis' own 100 examples a test (and each test's own figure where
it names one), what `.ci/run` runs (`CI=true`). "dev" is a fifth of it, for `make check` and
any run on a laptop: the same properties, fewer random games. `HYPOTHESIS_PROFILE=ci` runs the
full size anywhere. tests/conftest.py loads the profile before any test module is imported,
so a module's sizes (`sized(3_000)`) read the loaded one.
"""

from __future__ import annotations

import os

from hypothesis import settings

# Examples a test tries under "ci": hypothesis' default.
FULL = 100

# No deadline: the machines are shared and run two workers, so a slow example says nothing
# about the code (the benchmarks measure time); a deadline would only make the suite flaky.
settings.register_profile("ci", max_examples=FULL, deadline=None, print_blob=True)
settings.register_profile("dev", max_examples=FULL // 5, deadline=None)


def chosen() -> str:
    """The profile this run asks for: HYPOTHESIS_PROFILE, else "ci" under CI, else "dev"."""
    return os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")


def sized(full: int) -> int:
    """`full` cases under the "ci" profile; the loaded profile's share of them (at least 1)."""
    return max(1, round(full * settings().max_examples / FULL))
