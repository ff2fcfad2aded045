"""What a request the client got wrong leaves in the log: one line at WARNING, never an ERROR,
a traceback or a mail.

Django logs a SuspiciousOperation (too many fields, too large a body, a bad Host, a garbled
multipart form) as an ERROR with its traceback on ``django.security.<name>``, which the
``django`` logger would mail to ADMINS; and a 403 or 404 raised as an exception as a WARNING
with its traceback. Each is a 4xx answer to a mistake anyone can make at will, so the log and
the mail stay for the site's own faults. The records carry the answer's status (Django's
``log_response`` puts ``status_code`` on them), which is how they are told apart.

A refusal for too many requests (429) is one line per client address and minute: a client that
goes on sending past a limit is told about once, not once per refused request.
"""

import copy
import logging

from django.core.cache import cache

#: Seconds in which one address's refusals (429) leave one line in the log.
REFUSALS_LOGGED_EVERY = 60


def client_mistake(record: logging.LogRecord) -> bool:
    """Whether ``record`` tells of a request answered with a 4xx."""
    status = getattr(record, "status_code", None)
    return isinstance(status, int) and 400 <= status < 500


class ClientMistakes(logging.Filter):
    """On a handler: a client's mistake passes as one line at WARNING without a traceback; with
    ``drop`` (the mail's handler) it does not pass at all. Other records pass unchanged."""

    def __init__(self, drop: bool = False) -> None:
        super().__init__()
        self.drop = drop

    def filter(self, record: logging.LogRecord) -> bool | logging.LogRecord:
        if not client_mistake(record):
            return True
        if self.drop:
            return False
        if record.status_code == 429 and not first_refusal(record):
            return False
        if record.levelno <= logging.WARNING and record.exc_info is None:
            return True
        # A copy: the other handlers see the record as it was logged.
        line = copy.copy(record)
        line.levelno, line.levelname = logging.WARNING, logging.getLevelName(logging.WARNING)
        line.exc_info = line.exc_text = line.stack_info = None
        return line


def first_refusal(record: logging.LogRecord) -> bool:
    """Whether ``record`` (a 429) is its address's first in ``REFUSALS_LOGGED_EVERY`` seconds."""
    # Imported here: the logging set-up loads this module before the apps and their views.
    from django.http import HttpRequest

    from solitaire.limits import client_key

    request = getattr(record, "request", None)
    if not isinstance(request, HttpRequest):  # none, or the development server's socket
        return True
    return cache.add(f"log-429:{client_key(request)}", 1, REFUSALS_LOGGED_EVERY)
