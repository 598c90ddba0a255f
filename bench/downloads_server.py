"""gunicorn configuration of `python -m bench downloads` (given in GUNICORN_CMD_ARGS).

The site does not log its PDF and CSV renders; the benchmark needs them to count the renders
and how many ran at once. After each worker has loaded the site, its bound of expensive
renders (`tournaments.caching.RENDERS`) is wrapped so that every slot taken, released or
refused writes one line to the server log (logger `bench.renders`: event, wall time, pid).
Nothing else changes: the same bound decides, the same views render.
"""

from __future__ import annotations

import logging
import os
import time
from typing import Any


def post_worker_init(worker: Any) -> None:
    from tournaments import caching

    bound = caching.RENDERS
    acquire, release = bound.acquire, bound.release
    log = logging.getLogger("bench.renders")

    def event(name: str) -> None:
        log.info("render %s", name, extra={"event": name, "at": time.time(), "pid": os.getpid()})

    def logged_acquire() -> bool:
        taken = acquire()
        event("start" if taken else "refused")
        return taken

    def logged_release() -> None:
        # Logged while the slot is still held (as "start" is logged once it is taken): a
        # worker descheduled between releasing and logging would otherwise seem to overlap
        # the next render, which took the slot in between.
        event("end")
        release()

    bound.acquire = logged_acquire  # type: ignore[method-assign]
    bound.release = logged_release  # type: ignore[method-assign]
