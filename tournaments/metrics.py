"""The site's own Prometheus counters (yaniv_club/metrics.py serves them at /metrics/ with
django-prometheus's): the referees' round saves, the cache's hits and misses, the expensive
renders refused for want of a slot. Kept here, beside what counts them: tournaments never
imports the project package."""

from __future__ import annotations

from prometheus_client import Counter

ROUND_SAVES = Counter(
    "yaniv_round_saves", "Rounds saved from the referees' phones (the same round sent twice: once)"
)
CACHE_LOOKUPS = Counter(
    "yaniv_cache_lookups",
    "Kept answers looked for: fragment, part of a page or download; hit or miss",
    ["kind", "result"],
)
RENDERS_REFUSED = Counter(
    "yaniv_render_slot_refusals",
    "PDF or CSV renders refused (503, Retry-After) because every render slot was taken",
)


def looked_up(kind: str, found: object) -> None:
    CACHE_LOOKUPS.labels(kind=kind, result="miss" if found is None else "hit").inc()
