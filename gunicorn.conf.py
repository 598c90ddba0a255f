"""gunicorn's settings for Yaniv Club (the README's production command uses this file).

`gunicorn -c gunicorn.conf.py` from the repository root serves `yaniv_club.wsgi` on
127.0.0.1:8000 (the TLS proxy in front is the only client) with 4 workers of 4 threads; any of
them can be changed on the command line or in GUNICORN_CMD_ARGS.

No `Server` header: gunicorn writes "Server: gunicorn" among the headers it adds itself
(`gunicorn.http.wsgi.Response.default_headers`, from the `gunicorn.SERVER` that module copied
when imported). Changing `gunicorn.SERVER` would still send an empty "Server:" line: the line is
dropped instead. A probe learns nothing of what serves the site or of its version.
"""

from __future__ import annotations

from typing import Any

from gunicorn.http import wsgi

wsgi_app = "yaniv_club.wsgi:application"
bind = ["127.0.0.1:8000"]
workers = 4
threads = 4
# No control socket (gunicornc, since 25.1): unused here, refused by the units' ProtectSystem.
control_socket_disable = True

_default_headers = wsgi.Response.default_headers


def _without_server_header(response: wsgi.Response) -> list[str]:
    return [line for line in _default_headers(response) if not line.lower().startswith("server:")]


wsgi.Response.default_headers = _without_server_header


def child_exit(server: Any, worker: Any) -> None:
    """A worker gone: its live gauges leave the metrics (prometheus_client's multiprocess
    mode, with PROMETHEUS_MULTIPROC_DIR; its counters stay counted)."""
    import os

    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
