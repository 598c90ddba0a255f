"""python -m bench
{standings,pdf,hotpath,load,stack,ratings,seasons,statistics,downloads,push,chaos,phone}
[options]: one benchmark on the configured site.

Run from the repository root; DATABASE_URL picks the database as for manage.py.
"""

from __future__ import annotations

import importlib
import os
import sys

from bench import BenchError

BENCHMARKS = {
    "standings": "standings of a championship-sized tournament (512 players, 8 sessions)",
    "pdf": "blank score sheets of a 40-table session",
    "hotpath": "round submission, table page, polls and standings against their floors",
    "load": "championship day under load with a PostgreSQL restart (needs PostgreSQL)",
    "stack": "the deploy's Caddy, two app servers, own PostgreSQL and Redis, three faults",
    "ratings": "recompute the ratings of 10,000 games against the openskill calls alone",
    "seasons": "the season standings and page at 500 players against the raw SQL of their seats",
    "statistics": "a player's Yaniv statistics over 10,000 games against their hands in raw SQL",
    "downloads": "a referee's preview and /health/ while clients download the report (PostgreSQL)",
    "push": "a draw to 200 subscribed phones; a round's save with 200 subscribers against none",
    "chaos": "seeded games on the offline table page: drops, reloads, a second phone (Chromium)",
    "phone": "the referee's table page on a throttled Chromium: cold load, save, offline reload",
}


def usage() -> str:
    lines = [
        "usage: python -m bench "
        "{standings,pdf,hotpath,load,stack,ratings,seasons,statistics,downloads,push,chaos,phone} "
        "[options]",
        "",
    ]
    lines += [f"  {name:10} {what}" for name, what in BENCHMARKS.items()]
    lines += ["", "python -m bench <name> --help lists the benchmark's options."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in {"-h", "--help"}:
        print(usage())
        return 0 if argv else 2
    name, rest = argv[0], argv[1:]
    if name not in BENCHMARKS:
        print(f"unknown benchmark {name!r}\n\n{usage()}", file=sys.stderr)
        return 2
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yaniv_club.settings")
    import django

    django.setup()
    module = importlib.import_module(f"bench.{name}")
    try:
        return module.main(rest, prog=f"python -m bench {name}")
    except BenchError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
