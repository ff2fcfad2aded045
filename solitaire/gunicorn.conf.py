"""Gunicorn's settings for serving the site for real (bin/serve), from the environment.

BIND (default 0.0.0.0:$PORT, PORT default 8000), WEB_CONCURRENCY (worker processes, default
one per core), WEB_THREADS (threads per worker, default 8; 1: synchronous workers),
GUNICORN_TIMEOUT (seconds, default 30), GUNICORN_KEEPALIVE (seconds an idle connection is kept
open for its next request, default 10), WEB_CONNECTIONS (connections a worker keeps at once,
default 2000), ACCESS_LOG (a path, "-" for standard output (the
default), or "off"), FORWARDED_ALLOW_IPS (proxies trusted to say the scheme, default
127.0.0.1), CONTROL_SOCKET (a path for gunicornc; none by default).

Threads let a worker hold back a client that goes on sending once a limit refused it (a
sleeping thread, solitaire/limits.py) while its other threads serve the players: all but two
of a worker's threads may be holding at once. Each worker thread holds one PostgreSQL
connection: keep WEB_CONCURRENCY times WEB_THREADS (plus the task workers, TASK_WORKERS) on
every host under the server's max_connections (100 by default): 2 x 8 + 2 on a 2-core machine,
2 x 4 x 8 + 3 in the cluster (deploy/cluster.env).

One worker per core, and connections kept open 10 s, because that is what a machine of two
cores serves most from: measured with tests/bench/loadtest.py at 1,000 players, gunicorn's CPU
per request was 2.79 ms with 2 workers keeping connections 10 s, 3.05 ms with 2 keeping them
2 s (gunicorn's default), 3.23 ms with 5 workers and 10 s, 3.37 ms with 3 and 10 s and 3.76 ms
with 5 and 2 s (the earlier defaults); more processes than cores only take turns on them, and
a connection closed after 2 s is opened again for the next move (docs/performance.md).
"""

import gc
import os

_cores = os.cpu_count() or 1

wsgi_app = "solitaire.wsgi:application"
bind = os.environ.get("BIND") or f"0.0.0.0:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", _cores))
threads = int(os.environ.get("WEB_THREADS", "8"))
worker_class = "gthread" if threads > 1 else "sync"
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE", "10"))
graceful_timeout = 20
# Workers are replaced now and then, staggered, so that no leak can grow without bound: about
# every half hour each at a thousand players (a worker replaced starts with cold caches and new
# database connections, so not every minute, as 20,000 made it with one worker per core).
max_requests = 200000
max_requests_jitter = 20000
# Connections a worker keeps at once, idle ones kept alive included: a player's page keeps one.
worker_connections = int(os.environ.get("WEB_CONNECTIONS", "2000"))
# The application is loaded once, before the workers fork: they share its memory.
preload_app = True
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
_access = os.environ.get("ACCESS_LOG", "-")
accesslog = None if _access == "off" else _access
errorlog = "-"
# Gunicorn's control socket sits in one place per user by default, which several servers on
# one machine would share (and delete under each other): none unless CONTROL_SOCKET names one.
control_socket = os.environ.get("CONTROL_SOCKET", "")
control_socket_disable = not control_socket


def when_ready(server):
    """Once, in the master, which has loaded the site (preload_app), before it forks workers:
    everything made so far goes to a generation the garbage collector never scans again
    (``gc.freeze``, as Python's documentation advises for servers that fork). A worker's
    collections then look only at what its requests made; moves cost about 5 % less CPU
    (measured in-process, 2,000 moves), and the loaded site's memory stays shared with the
    master rather than copied when a collection touches it. (Once only: a worker forked later,
    after another reached max_requests, has the same frozen objects; what the master made since
    is collected as usual.)"""
    gc.freeze()


def post_worker_init(worker):
    """In each worker, the site loaded: the limits learn how many threads serve requests, and
    so how many refusals they may hold back at once."""
    from solitaire import limits

    limits.threads = worker.cfg.threads
