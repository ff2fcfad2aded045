"""What a request the client got wrong leaves in the log: one line at WARNING, never an ERROR,
a traceback or a mail.

Django logs a SuspiciousOperation (too many fields, too large a body, a bad Host, a garbled
multipart form) as an ERROR with its traceback on ``django.security.<name>``, which the
``django`` logger would mail to ADMINS; and a 403 or 404 raised as an exception as a WARNING
with its traceback. Each is a 4xx answer to a mistake anyone can make at will, so the log and
the mail stay for the site's own faults. The records carry the answer's status (Django's
``log_response`` puts ``status_code`` on them), which is how they are told apart.
"""

import copy
import logging


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
        if record.levelno <= logging.WARNING and record.exc_info is None:
            return True
        # A copy: the other handlers see the record as it was logged.
        line = copy.copy(record)
        line.levelno, line.levelname = logging.WARNING, logging.getLevelName(logging.WARNING)
        line.exc_info = line.exc_text = line.stack_info = None
        return line
