"""What the benchmarks' smoke runs share: a PostgreSQL and a Redis database of their own."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

BASE_DIR = Path(__file__).resolve().parents[2]


def smoke_database_url(name: str) -> str | None:
    """A database `name`_<pid> next to the configured PostgreSQL one; None on SQLite."""
    configured = os.environ.get("DATABASE_URL", "")
    parts = urlsplit(configured)
    if parts.scheme not in {"postgres", "postgresql"}:
        return None
    # A database of its own per run: parallel runs on one server do not drop each other's.
    return urlunsplit(parts._replace(path=f"/{name}_{os.getpid()}"))


def smoke_cache_url(database: int) -> str:
    """Redis database `database` of the smoke run's own; without Redis, each worker's memory,
    unless under CI, where the machines run Redis."""
    from tests.tournaments.test_caching_redis import redis_answers

    if redis_answers() is None or os.environ.get("CI"):
        return f"redis://127.0.0.1:6379/{database}"
    return ""
