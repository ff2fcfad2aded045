"""WSGI entry point."""

import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "solitaire.settings")
application = get_wsgi_application()


def granian_worker():
    """The site as each of Granian's workers loads it (bin/web, ``WEB_SERVER=granian``, for
    tests/bench/servers.py), given what gunicorn's hooks give its own workers
    (solitaire/gunicorn.conf.py): the limits learn the threads that serve requests
    (WEB_THREADS, Granian's blocking threads), and what loading made is frozen (``gc.freeze``),
    so that both servers are measured doing the same work."""
    from solitaire import limits

    limits.threads = int(os.environ.get("WEB_THREADS", "8"))
    gc.freeze()
    return application
