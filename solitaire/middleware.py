"""Keeping requests answerable when a service behind the site fails, and traceable in the logs.

``RequestIdMiddleware`` (first in settings.MIDDLEWARE) gives every request an id: the one the
load balancer sent in ``X-Request-ID`` when it looks sane, else a new one. It goes back in the
response's ``X-Request-ID`` header and in every log line written while the request runs
(``RequestIdFilter``, settings.LOGGING), among them Django's own line for each answer of 500
or more (``django.request``): a player's report of an error page can be matched to its
traceback.

``DatabaseUnavailableMiddleware`` turns a request that found the database unreachable (a
PostgreSQL restart, a connection the server dropped) into a 503 page with ``Retry-After``
instead of a 500: nothing was changed (the transaction did not commit), and trying again in a
few seconds works. Django closes a connection that failed, so the next request of the process
connects again. The page (templates/503.html) reads nothing from the database. Each such
request is one line on ``solitaire.requests`` with the reason; ``NotDatabaseUnavailable``
keeps Django's own lines about it (a 500 with a traceback, then the 503) out of the log.
"""

import contextvars
import logging
import re
import sys
import uuid

from django.core.signals import got_request_exception, request_finished
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

#: Seconds a 503 asks the client to wait before trying again (PostgreSQL restarts in a few).
RETRY_AFTER = 5
#: An id from the balancer is kept when it is this: short, and characters a log line can hold.
SANE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:@+=/-]{7,127}")
#: What the database raises when it cannot be reached or the connection was lost.
DATABASE_UNAVAILABLE = (OperationalError, InterfaceError)

request_id = contextvars.ContextVar("request_id", default="-")
logger = logging.getLogger("solitaire.requests")


class RequestIdFilter(logging.Filter):
    """Puts the running request's id on every log record as ``request_id`` ("-" outside one)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id.get()
        return True


def id_for(request: HttpRequest) -> str:
    """The balancer's id for this request if it sent a sane one, else a new one."""
    incoming = request.headers.get("X-Request-ID", "")
    return incoming if SANE_ID.fullmatch(incoming) else uuid.uuid4().hex


class RequestIdMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request.id = id_for(request)
        # Left set until the response is closed: Django logs an answer of 500 or more (one
        # line, on django.request) after the middleware is done with it.
        request_id.set(request.id)
        response = self.get_response(request)
        response["X-Request-ID"] = request.id
        return response


def forget_request_id(sender, **kwargs) -> None:
    request_id.set("-")


request_finished.connect(forget_request_id, dispatch_uid="solitaire.request_id")


class NotServiceUnavailable(logging.Filter):
    """Keeps the 503s out of the mail: a service away for a moment is not a bug, and while the
    database restarts every request is one."""

    def filter(self, record: logging.LogRecord) -> bool:
        return getattr(record, "status_code", None) != 503


class NotDatabaseUnavailable(logging.Filter):
    """Drops Django's own lines (on ``django.request``) about a request that could not reach
    the database: ``DatabaseUnavailableMiddleware`` writes the one line it is worth, with the
    reason. Django would write a 500 with its traceback (a failure met in a middleware is a
    500 before the middleware makes it a 503) and the 503 again."""

    def filter(self, record: logging.LogRecord) -> bool:
        request = getattr(record, "request", None)
        return getattr(request, "database_unavailable", None) is None


def unavailable(request: HttpRequest) -> HttpResponse:
    """The 503 page: the site cannot reach its database for a moment."""
    response = HttpResponse(render_to_string("503.html", request=None), status=503)
    response["Retry-After"] = str(RETRY_AFTER)
    # Nothing to remember: a retry must reach the server again.
    response["Cache-Control"] = "no-store"
    return response


def note_database_failure(sender, request=None, **kwargs) -> None:
    """Marks a request whose uncaught exception was the database being unreachable: Django
    turned it into a 500 inside the middleware stack (in a middleware rather than the view),
    and ``DatabaseUnavailableMiddleware`` then answers 503 instead."""
    error = sys.exc_info()[1]
    if request is not None and isinstance(error, DATABASE_UNAVAILABLE):
        request.database_unavailable = error


got_request_exception.connect(note_database_failure, dispatch_uid="solitaire.database_failure")


def log_unavailable(request: HttpRequest, error: Exception) -> None:
    """The one line of a request answered 503 for want of the database, with the reason."""
    reason = (str(error).strip().splitlines() or [""])[0][:200]
    logger.warning(
        "database unavailable: %s %s answered 503 (%s: %s)",
        request.method,
        request.path[:200],
        type(error).__name__,
        reason,
    )


class DatabaseUnavailableMiddleware:
    """Placed before the session middleware: every middleware that may read the database runs
    inside it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        error = getattr(request, "database_unavailable", None)
        if response.status_code == 500 and error is not None:
            log_unavailable(request, error)
            return unavailable(request)
        return response

    def process_exception(self, request: HttpRequest, exception: Exception):
        if isinstance(exception, DATABASE_UNAVAILABLE):
            request.database_unavailable = exception
            log_unavailable(request, exception)
            return unavailable(request)
        return None
