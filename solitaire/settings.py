"""Settings, read from the environment with safe defaults for a developer's machine."""

import os
import tempfile
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


DEBUG = env_bool("DJANGO_DEBUG", True)
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off")
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"
#: Served over HTTPS (the default when debug is off): secure cookies, HSTS and a redirect from
#: plain HTTP. DJANGO_HTTPS=0 serves plain HTTP, e.g. on loopback behind a TLS proxy or for a
#: load test.
HTTPS = env_bool("DJANGO_HTTPS", not DEBUG)
ALLOWED_HOSTS = [
    h for h in os.environ.get("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]").split(",") if h
]

INSTALLED_APPS = [
    # Before django.contrib.auth: its registration/ templates (password_reset_subject.txt among
    # them) are found before auth's own.
    "solitaire.accounts",
    # The staff's admin at /admin/ (games/admin.py and solitaire/accounts/admin.py register the
    # site's models).
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_htmx",
    "django_tasks_db",
    "games",
]

MIDDLEWARE = [
    # An id for every request, in its log lines and its answer's X-Request-ID header.
    "solitaire.middleware.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # A database that cannot be reached is a 503 page, whichever middleware or view met it.
    "solitaire.middleware.DatabaseUnavailableMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # A client refused already by a per-address limit is answered at once, before its session
    # or user is read (solitaire/limits.py).
    "solitaire.limits.RefuseEarly",
    "django.middleware.common.CommonMiddleware",
    # A form body in another charset than UTF-8 is a 400 before the CSRF check reads it.
    "solitaire.errors.BodyCharsetMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "solitaire.accounts.preferences.PreferencesMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # request.owner: the player, worked out when a view first asks.
    "games.web.player.OwnerMiddleware",
]

ROOT_URLCONF = "solitaire.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            # {% frame %}: parts of pages drawn once per process and language (FRAMES below).
            "libraries": {"frames": "solitaire.frames"},
        },
    },
]

#: Whether the parts of pages marked {% frame %} are drawn once per process and language and
#: kept (solitaire/frames.py); off, every part is drawn on every request. Off by default while
#: debugging, so that a template edited under `make run` shows at the next request (the suite
#: keeps them, as production does: tests/conftest.py).
FRAMES = env_bool("DJANGO_FRAMES", not DEBUG)

WSGI_APPLICATION = "solitaire.wsgi.application"

# SQLite unless DATABASE_URL names another database, e.g.
# DATABASE_URL=postgres://postgres@127.0.0.1:5432/solitaire (PostgreSQL through psycopg 3).
_SQLITE = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
        # SQLite has no row locks: an immediate transaction takes the write lock at its start,
        # so a transaction that reads then writes (a move's write, games/store.py) never fails
        # to upgrade its lock; which of two moves on one game wins is the version check's.
        # Write-ahead logging lets pages read while a move is written, and with synchronous
        # NORMAL a commit no longer waits for the disk twice (still safe against crashes).
        "OPTIONS": {
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        },
    }
}
if os.environ.get("DATABASE_URL"):
    DATABASES = {
        "default": dj_database_url.parse(
            os.environ["DATABASE_URL"],
            # Each web process keeps its connection between requests. Checking it before each
            # request costs a round trip every time; a connection the server dropped fails one
            # request and is replaced. DATABASE_HEALTH_CHECKS=1 checks it first.
            conn_max_age=int(os.environ.get("DATABASE_CONN_MAX_AGE", "600")),
            conn_health_checks=env_bool("DATABASE_HEALTH_CHECKS", False),
        )
    }
    # On PostgreSQL the parameters go with the statement (server-side binding), so psycopg can
    # prepare a statement the fifth time a connection runs it: a move's statements are then
    # planned once per connection, not on every request (a third less of the database's CPU
    # per move in make loadtest). DATABASE_PREPARED=0 turns this off, for a pooler in
    # transaction mode that does not track prepared statements.
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool(
        "DATABASE_PREPARED", True
    ):
        DATABASES["default"].setdefault("OPTIONS", {}).update(
            server_side_binding=True, prepare_threshold=5
        )
else:
    DATABASES = _SQLITE

# Django's own cache; the log-in throttle (solitaire/accounts/throttle.py) counts failures in
# it. Each process has its own unless REDIS_URL names a Redis server (e.g.
# redis://127.0.0.1:6379/0), which all web processes then share, and with it their failure
# counts. While Redis does not answer, the database's table solitaire_cache stands in for it
# (solitaire/cache.py), and Redis is tried again after CACHE_RETRY_SECONDS. The table is made
# by `manage.py createcachetable` (the release step; the test runner makes it too).
_CACHE_KEY_PREFIX = os.environ.get("CACHE_KEY_PREFIX", "solitaire")
_DATABASE_CACHE = {
    "BACKEND": "django.core.cache.backends.db.DatabaseCache",
    "LOCATION": "solitaire_cache",
    "KEY_PREFIX": _CACHE_KEY_PREFIX,
    # Django's default (300 entries, a third culled beyond) is too few for the throttle's
    # counts of a busy site.
    "OPTIONS": {"MAX_ENTRIES": 100_000},
}
if os.environ.get("REDIS_URL"):
    CACHES = {
        "default": {
            "BACKEND": "solitaire.cache.RedisWithDatabaseFallback",
            "LOCATION": os.environ["REDIS_URL"],
            "KEY_PREFIX": _CACHE_KEY_PREFIX,
            # A Redis that does not answer costs at most this, then the back-off skips it.
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
            "FALLBACK": "database",
            "RETRY_SECONDS": float(os.environ.get("CACHE_RETRY_SECONDS", "2")),
        },
        "database": _DATABASE_CACHE,
    }
else:
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
        "database": _DATABASE_CACHE,
    }
# Shared boards' images (games/web/share.py) are kept apart from the counters of the limits and
# the log-in throttle in the default cache: a flood of images must never evict a count. On the
# file system of each app server, a bounded number, each image replacing its game's last.
CACHES["images"] = {
    "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
    "LOCATION": os.environ.get(
        "IMAGE_CACHE_DIR", str(Path(tempfile.gettempdir()) / "solitaire-images")
    ),
    "TIMEOUT": 24 * 60 * 60,
    "OPTIONS": {"MAX_ENTRIES": int(os.environ.get("IMAGE_CACHE_ENTRIES", "5000"))},
}
# Sessions live in the database (a guest's games hang on theirs), Redis or not, so that a
# Redis outage logs nobody out and costs no page: Django's db engine, its read one statement
# (solitaire/sessions.py).
SESSION_ENGINE = "solitaire.sessions"
#: The request header that carries the client's address when the site runs behind a proxy
#: (e.g. X-Forwarded-For: its last address, the one the proxy added, is used); empty: the
#: connection's address.
CLIENT_IP_HEADER = os.environ.get("DJANGO_CLIENT_IP_HEADER", "")
#: A refused CSRF check: a page that reads nothing of the request's body (solitaire/errors.py).
CSRF_FAILURE_VIEW = "solitaire.errors.csrf_failure"
#: Rate limits (solitaire/limits.py, docs/security.md): what one client address (an IPv6
#: address by its /64), one account or one email address may do, as (how many, per seconds).
#: Past one the answer is a 429 with Retry-After. The figures are far above what a player
#: does, even several players behind one address (a school, an office).
LIMITS = {
    # Accounts made from one address.
    "signup-address": (10, 60 * 60),
    # Sign-up forms sent from one address (each is checked, and answered with a page).
    "signup-tries": (20, 60),
    # Reset mails asked for from one address, and sent to one email address.
    "reset-address": (10, 60 * 60),
    "reset-email": (3, 60 * 60),
    # Log-in forms sent from one address (the guesses themselves: LOGIN_FAILURES).
    "login-address": (60, 60),
    # Records imported from one address.
    "import-address": (30, 60 * 60),
    # New games started from one address.
    "new-game-address": (60, 60),
    # Password checks (change the password, delete the account) in one logged-in session.
    "password-session": (10, 15 * 60),
    # The catch-up poll of open game pages (every 3 s in sight): per address, room for 30
    # pages behind one shared address; per game, for two devices side by side and more.
    "poll-address": (600, 60),
    "poll-game": (60, 60),
    # Actions on one game (moves, undo, redo, ...): six a second for ten seconds is more than a
    # person keeps up, with moves sent ahead of the answers; a script playing a found line
    # meets it. The load tests set their own (ACTIONS_PER_GAME).
    "action-game": (int(os.environ.get("ACTIONS_PER_GAME", "60")), 10),
    # The pages that cost a few queries to draw (a game's page, a day's leaderboard, a shared
    # game), from one address: five a second for a minute, room for a household or a class.
    "page-address": (300, 60),
    # Shared links made from one address (a game's link is made once: asking again finds it).
    "share-address": (30, 60 * 60),
    # Shared boards' images asked for from one address (a chat's preview fetcher asks once;
    # the image is drawn once per version of the game and then read from the cache).
    "share-image-address": (120, 60),
}
#: Seconds a client refused once by a per-address limit above waits for each next refusal in
#: the same window, so that a client that never pauses cannot refuse itself hundreds of times a
#: second: a sleeping thread of a threaded web process (WEB_THREADS, solitaire/limits.py).
LIMIT_HOLD_SECONDS = float(os.environ.get("LIMIT_HOLD_SECONDS", "2"))
#: Failed log-ins before a refusal, as (how many, within seconds): per (username, address) and
#: per address they lock that client out for the window; per username, whatever the address,
#: each failure past the count only slows the next check of that username (a delay that grows
#: to LOGIN_DELAY_MAX seconds), so nobody can lock an owner out of their account.
LOGIN_FAILURES = {
    "username-address": (5, 15 * 60),
    "address": (20, 15 * 60),
    "username": (10, 15 * 60),
}
LOGIN_DELAY_MAX = 30
#: Guests from one address who may open today's deal of a game (each a win that may rank); more
#: are asked to log in: fresh guest sessions from one address cannot fill a leaderboard. A
#: household behind one address has room.
DAILY_GUESTS_PER_ADDRESS = int(os.environ.get("DAILY_GUESTS_PER_ADDRESS", "3"))
#: The least time a person needs to see a board and act on it (milliseconds): the time the page
#: says it was hidden never shortens a gap between two actions below it, and a ranked daily win
#: takes at least this per move of the player's own (games/pace.py).
HUMAN_ACTION_MS = int(os.environ.get("HUMAN_ACTION_MS", "250"))
#: Passwords being hashed at once, across every process, for any form (sign-up, log-in, the
#: admin's log-in, a change of password): each hash takes a core for most of a second; one more
#: is refused at once and asked to try again in a moment.
PASSWORD_HASHES_AT_ONCE = int(os.environ.get("PASSWORD_HASHES_AT_ONCE", "1"))

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "games:my_games"
LOGOUT_REDIRECT_URL = "pages:home"

# Email (password reset links) goes to the SMTP server EMAIL_HOST names; with debug on and no
# EMAIL_HOST, to the console; with debug off, to the local mail server (localhost:25) unless
# EMAIL_HOST names another.
_smtp_host = os.environ.get("EMAIL_HOST", "" if DEBUG else "localhost")
_smtp_ssl = env_bool("EMAIL_USE_SSL", False)
if _smtp_host:
    MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": _smtp_host,
                "port": int(os.environ["EMAIL_PORT"]) if os.environ.get("EMAIL_PORT") else None,
                "username": os.environ.get("EMAIL_HOST_USER", ""),
                "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
                "use_ssl": _smtp_ssl,
                "use_tls": env_bool("EMAIL_USE_TLS", not _smtp_ssl),
                "timeout": 10,
            },
        }
    }
else:
    MAILERS = {"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "patience@localhost")
SERVER_EMAIL = os.environ.get("SERVER_EMAIL", DEFAULT_FROM_EMAIL)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "solitaire.accounts.passwords.MinimumLength"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
#: The site's languages, each named in itself (as the language switcher shows them).
LANGUAGES = [
    ("en", "English"),
    ("fr", "Français"),
    ("nl", "Nederlands"),
    ("pl", "Polski"),
    ("vi", "Tiếng Việt"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT", BASE_DIR / "staticfiles"))
# With debug off, WhiteNoise serves the files collectstatic wrote, under names that carry a
# hash of their content (cached for a year) and compressed; with it on, straight from static/.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# A guest's games hang on their session: keep it for a year, renewed once a day as they play
# (games/web/player.py).
SESSION_COOKIE_AGE = 60 * 60 * 24 * 365
SESSION_SAVE_EVERY_REQUEST = False
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
CSRF_COOKIE_HTTPONLY = False  # htmx reads no cookie: the token travels in the page
if HTTPS:
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", str(60 * 60 * 24 * 365)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", True)
# Behind a proxy that ends TLS, DJANGO_PROXY_SSL_HEADER=X-Forwarded-Proto says which header
# tells that the request came over HTTPS (the proxy must set it on every request).
if os.environ.get("DJANGO_PROXY_SSL_HEADER"):
    _header = "HTTP_" + os.environ["DJANGO_PROXY_SSL_HEADER"].upper().replace("-", "_")
    SECURE_PROXY_SSL_HEADER = (_header, "https")
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Every page's scripts, styles and images come from this site's own static files: no inline
# script or style, no eval, no other origin.
SECURE_CSP = {
    "default-src": [CSP.NONE],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "font-src": [CSP.SELF],
    "connect-src": [CSP.SELF],
    "manifest-src": [CSP.SELF],
    "form-action": [CSP.SELF],
    "base-uri": [CSP.NONE],
    "frame-ancestors": [CSP.NONE],
}

#: Who gets a mail for every server error (Django's own) and every error of the site's loggers:
#: ADMINS="ops@example.org,other@example.org"; none when unset.
ADMINS = [a.strip() for a in os.environ.get("ADMINS", "").split(",") if a.strip()]
# One line per event, on standard error, each with the request's id ("-" outside a request):
# django.request (an answer of 500 or more, a 500 with its traceback), solitaire.security (a
# lockout), solitaire.tasks (a failed task), solitaire.requests (the database away: a 503),
# solitaire.cache (Redis away: the database's cache stands in).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "request_id": {"()": "solitaire.middleware.RequestIdFilter"},
        "require_debug_false": {"()": "django.utils.log.RequireDebugFalse"},
        "not_503": {"()": "solitaire.middleware.NotServiceUnavailable"},
        "not_database_unavailable": {"()": "solitaire.middleware.NotDatabaseUnavailable"},
        # A request the client got wrong (a 4xx): a WARNING line on the console, never mailed.
        "client_mistakes": {"()": "solitaire.logs.ClientMistakes"},
        "not_client_mistakes": {"()": "solitaire.logs.ClientMistakes", "drop": True},
    },
    "formatters": {
        "line": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["request_id", "client_mistakes"],
            "formatter": "line",
        },
        "mail_admins": {
            "class": "django.utils.log.AdminEmailHandler",
            "level": "ERROR",
            "filters": ["require_debug_false", "not_503", "not_client_mistakes"],
        },
    },
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
    "loggers": {
        # Django's own errors (a 500 with its traceback, on django.request) go to the console
        # through the root and to ADMINS; a 503 only to the console.
        "django": {"handlers": ["mail_admins"], "level": "INFO"},
        # A request that could not reach the database: one line, on solitaire.requests.
        "django.request": {"filters": ["not_database_unavailable"]},
        "solitaire": {"handlers": ["mail_admins"], "level": "INFO"},
    },
}

MESSAGE_STORAGE = "django.contrib.messages.storage.session.SessionStorage"

# Background work (games/tasks.py: hints, "can this still be won?", finding winnable deals)
# is queued in the database and run by `manage.py db_worker` (README.md, "Background work").
TASKS = {
    "default": {
        "BACKEND": "django_tasks_db.DatabaseBackend",
        "QUEUES": ["default"],
    }
}
#: /readyz/ answers 503 once the oldest task waiting for a worker has waited longer than this
#: (seconds): the workers are down or cannot keep up (games/web/health.py).
READY_TASK_SECONDS = float(os.environ.get("READY_TASK_SECONDS", "120"))
#: Seconds a hint searches for a win before it falls back on the heuristic's best move.
SOLVER_HINT_SECONDS = float(os.environ.get("SOLVER_HINT_SECONDS", "1"))
#: Seconds "Can this still be won?" searches from the current position.
SOLVER_ANALYSIS_SECONDS = float(os.environ.get("SOLVER_ANALYSIS_SECONDS", "10"))
# The queue of searches (games/services/searches.py, docs/architecture.md "Searches"). A player
# has one search at a time: a newer one replaces the older.
#: Seconds of searching (each waiting search's budget) the queue holds, site-wide; past them
#: a new search is refused "busy" at once, 429 with Retry-After.
SOLVER_QUEUE_SECONDS = float(os.environ.get("SOLVER_QUEUE_SECONDS", "60"))
#: A guest's search on a game with fewer of their own moves than this is a newcomer's: it
#: waits behind every player's and may fill only half the queue, so that a flood of fresh
#: clients (one address each) cannot keep a real player's hint waiting.
SOLVER_NEWCOMER_MOVES = int(os.environ.get("SOLVER_NEWCOMER_MOVES", "10"))
#: Searches one client (an account, else an address, IPv6 by /64) may ask for, as (how many,
#: per seconds); past it a 429 with Retry-After.
SOLVER_SEARCHES_PER_CLIENT = (int(os.environ.get("SOLVER_SEARCHES_PER_MINUTE", "30")), 60)
#: Seconds a running search may go unheard (its worker beats every second) before its worker
#: is taken as lost: the search is queued again once, then answered as failed.
SOLVER_LEASE_SECONDS = float(os.environ.get("SOLVER_LEASE_SECONDS", "5"))
#: Seconds the search for winnable deals spends on each deal it tries.
SOLVER_DEAL_SECONDS = float(os.environ.get("SOLVER_DEAL_SECONDS", "2"))
