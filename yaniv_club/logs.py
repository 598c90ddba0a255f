from __future__ import annotations

import json
import logging

# The attributes every LogRecord has; anything else was passed in `extra=` and is kept.
_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message and the `extra=` fields."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S%z"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry.update((key, value) for key, value in vars(record).items() if key not in _STANDARD)
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str, ensure_ascii=False)


class AnsweredUnavailable(logging.Filter):
    """Django logs every 5xx answer as an error; a 503 is an answer the site chose (the
    render bound is reached, the database is away: it said so with Retry-After, and the
    outage has its own error line), so it is logged as a warning."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) == 503 and record.levelno > logging.WARNING:
            record.levelno, record.levelname = (
                logging.WARNING,
                logging.getLevelName(logging.WARNING),
            )
        return True
