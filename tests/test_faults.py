"""Faults that lose nothing, on the test's own servers (never the shared ones):

- Redis stops (a redis-server of the test's own on port 6391): pages outside and inside a game,
  logging in and moves still answer, the throttle and the limits count in the database; when
  Redis is back it is used again.
- PostgreSQL restarts (an instance of the test's own, initdb into a temporary directory, port
  5491, under gunicorn on port 8400): while it is down every request is a 503 page with
  Retry-After, none a 500; when it is back play resumes, every move that got a 200 is in the log
  and none of the others, and check_games finds nothing wrong.

Each skips, saying why, when the server's programs are missing.
"""

import glob
import http.cookiejar
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from django.core.cache import cache, caches
from django.db import connection
from django.test import Client, override_settings

from .faketime import real_clock_env
from .test_production import manage as run_manage
from .test_production import production_env
from .web.conftest import HTMX, legal_move, log, post_move, start

ROOT = Path(__file__).resolve().parents[1]
REDIS_PORT = 6391
PG_PORT = 5491
SERVER_PORT = 8400
PASSWORD = "a long pass phrase"


def wait_for_port(port: int, seconds: float = 30) -> None:
    """Until something listens on the loopback ``port``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise AssertionError(f"nothing listens on port {port} after {seconds} s")


# -- Redis ------------------------------------------------------------------------------------


class OwnRedis:
    """A redis-server of the test's own, in memory only, that the test stops and starts."""

    def __init__(self, binary: str, port: int):
        self.binary, self.port, self.process = binary, port, None

    def start(self) -> None:
        options = ["--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
        self.process = subprocess.Popen(
            [self.binary, *options, "--appendonly", "no"],
            env=real_clock_env(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for_port(self.port)

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None

    def keys(self) -> list[bytes]:
        import redis

        return redis.Redis(port=self.port).keys("*")


@pytest.fixture
def own_redis():
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed (Debian: apt-get install redis-server)")
    server = OwnRedis(binary, REDIS_PORT)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def fallback_caches(retry_seconds: float) -> dict:
    from django.conf import settings

    return {
        **settings.CACHES,
        "default": {
            "BACKEND": "solitaire.cache.RedisWithDatabaseFallback",
            "LOCATION": f"redis://127.0.0.1:{REDIS_PORT}/0",
            "KEY_PREFIX": "faults",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
            "FALLBACK": "database",
            "RETRY_SECONDS": retry_seconds,
        },
    }


def database_cache_entries() -> int:
    """How many entries the database's cache (solitaire_cache) holds."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM solitaire_cache")
        return cursor.fetchone()[0]


def log_in(client: Client, username: str, password: str):
    return client.post("/account/login/", {"username": username, "password": password})


@pytest.mark.slow
@pytest.mark.django_db
def test_with_redis_stopped_every_page_answers_from_the_database_and_redis_is_used_again(
    own_redis, settings, django_user_model, caplog
):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    django_user_model.objects.create_user("alice", "", PASSWORD)
    with override_settings(CACHES=fallback_caches(retry_seconds=0.5)):
        cache.clear()
        guest = Client()
        game = start(guest)
        assert post_move(guest, game, legal_move(game)).status_code == 200
        assert own_redis.keys(), "the limits count in Redis while it answers"

        own_redis.stop()
        # A guest in a game: the home page, the game page, a move, a new game.
        assert guest.get("/en/").status_code == 200
        assert guest.get(f"/g/{game.public_id}/").status_code == 200
        move = legal_move(game)
        assert post_move(guest, game, move).status_code == 200
        assert move in log(game)
        second = start(guest, deal=7)
        assert guest.get(f"/g/{second.public_id}/").status_code == 200
        # Logging in, and the throttle's count of a wrong password, in the database's cache.
        player = Client()
        before = database_cache_entries()
        assert log_in(player, "alice", "wrong").status_code == 400
        assert database_cache_entries() > before
        assert log_in(player, "alice", PASSWORD).status_code == 302
        assert player.get("/my/").status_code == 200
        mine = start(player)
        assert post_move(player, mine, legal_move(mine), htmx=False).status_code == 302

        own_redis.start()
        # After the back-off, the next count goes to Redis again.
        redis_cache = caches["default"]
        deadline = time.monotonic() + 10
        while not redis_cache.redis_in_use and time.monotonic() < deadline:
            time.sleep(0.1)
        assert own_redis.keys() == []
        assert log_in(Client(), "bob", "wrong").status_code == 400
        assert own_redis.keys(), "the count of a failed log-in is in Redis again"
        assert redis_cache.redis_in_use
        assert guest.get(f"/g/{game.public_id}/").status_code == 200
        cache.clear()
    # One line each way, however many calls failed meanwhile.
    said = [r.getMessage() for r in caplog.records if r.name == "solitaire.cache"]
    assert len(said) == 2, said
    assert said[0].startswith("Redis unavailable (ConnectionError")
    assert said[1].startswith("Redis answers again after")


@pytest.mark.django_db
def test_a_dead_redis_is_left_alone_for_the_back_off(own_redis):
    with override_settings(CACHES=fallback_caches(retry_seconds=60)):
        cache.clear()
        own_redis.stop()
        cache.set("k", "from the database")
        assert not cache.redis_in_use
        own_redis.start()
        # Within the back-off the cache keeps to the database, where the value is.
        assert cache.get("k") == "from the database"
        assert own_redis.keys() == []
        cache.clear()


# -- PostgreSQL -------------------------------------------------------------------------------


def postgres_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


class OwnPostgres:
    """A PostgreSQL of the test's own in a temporary directory; as root, run as postgres."""

    def __init__(self, bindir: Path, port: int):
        self.bindir, self.port = bindir, port
        self.dir = Path(tempfile.mkdtemp(prefix="faults-pg-"))
        self.data = self.dir / "data"
        self.as_user = []
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres", "postgres")
            self.as_user = ["runuser", "-u", "postgres", "--"]

    def run(self, program: str, *args: str) -> None:
        subprocess.run(
            [*self.as_user, str(self.bindir / program), *args],
            check=True,
            capture_output=True,
            timeout=120,
        )

    def init(self) -> None:
        self.run("initdb", "-D", str(self.data), "--auth=trust", "-U", "postgres", "-E", "UTF8")
        self.start()
        self.run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "faults")

    def start(self) -> None:
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.dir} -c fsync=off"
        log = str(self.dir / "log")
        self.run("pg_ctl", "-D", str(self.data), "-o", options, "-l", log, "-w", "start")
        wait_for_port(self.port)

    def stop(self) -> None:
        self.run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def remove(self) -> None:
        pg_ctl = str(self.bindir / "pg_ctl")
        stop = [pg_ctl, "-D", str(self.data), "-m", "immediate", "stop"]
        subprocess.run([*self.as_user, *stop], capture_output=True)
        shutil.rmtree(self.dir, ignore_errors=True)

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/faults"


#: The site's web processes and threads in these tests (each thread keeps its own connection).
WEB_PROCESSES = 2
WEB_THREADS = 8


def site_env(tmp: Path, database_url: str) -> dict[str, str]:
    return production_env(
        tmp,
        DJANGO_HTTPS="0",
        DATABASE_URL=database_url,
        BIND=f"127.0.0.1:{SERVER_PORT}",
        WEB_CONCURRENCY=str(WEB_PROCESSES),
        WEB_THREADS=str(WEB_THREADS),
        ACCESS_LOG="off",
    )


def manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    result = run_manage(env, *args)
    assert result.returncode == 0, result.stdout + result.stderr
    return result


class Player:
    """A browser's requests: cookies kept, the CSRF token read from each page."""

    def __init__(self, base: str):
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )
        self.token = ""

    def request(self, path: str, data: dict | None = None, headers: dict | None = None):
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        request = urllib.request.Request(self.base + path, data=body, headers=headers or {})
        if data is not None:
            request.add_header("X-CSRFToken", self.token)
            request.add_header("Referer", self.base + "/")
        try:
            response = self.opener.open(request, timeout=20)
        except urllib.error.HTTPError as error:
            response = error
        text = response.read().decode()
        found = re.search(r'"X-CSRFToken": "([^"]+)"', text)
        if found:
            self.token = found.group(1)
        return response.status, response.headers, text, response.url


def board_of(text: str) -> dict[str, str]:
    """The ply and version of the board a game page shows (what every action sends)."""
    board = {}
    for name in ("ply", "version"):
        found = re.search(rf'name="{name}" value="(\d+)"', text)
        assert found, f"no {name} on the page"
        board[name] = found.group(1)
    return board


@pytest.fixture
def own_postgres():
    bindir = postgres_bin()
    if bindir is None:
        pytest.skip("PostgreSQL's initdb is not installed (Debian: apt-get install postgresql)")
    server = OwnPostgres(bindir, PG_PORT)
    try:
        server.init()
        yield server
    finally:
        server.remove()


@pytest.mark.slow
def test_while_postgresql_restarts_requests_get_a_503_page_and_play_resumes(own_postgres):
    import psycopg

    from games.rules import position_from_text

    tmp = own_postgres.dir
    env = site_env(tmp, own_postgres.url)
    manage(env, "migrate", "--noinput")
    manage(env, "createcachetable")
    manage(env, "collectstatic", "--noinput", "--verbosity", "0")
    log_file = open(tmp / "web.log", "w+")  # noqa: SIM115 (closed below)
    web = subprocess.Popen(
        [str(Path(sys.executable).parent / "gunicorn"), "--config", "solitaire/gunicorn.conf.py"],
        cwd=ROOT,
        env=env,
        stdout=log_file,
        stderr=log_file,
    )
    database = None
    try:
        wait_for_port(SERVER_PORT)
        player = Player(f"http://127.0.0.1:{SERVER_PORT}")
        status, _headers, text, _url = player.request("/play/forty-thieves/1/")
        assert status == 200
        # The link is answered with the game page, which names its own address.
        game_path = re.search(r'<link rel="canonical" href="([^"]+)">', text)[1]
        public_id = game_path.strip("/").split("/")[-1]
        database = psycopg.connect(own_postgres.url, autocommit=True)

        def next_move() -> str:
            row = database.execute(
                "SELECT snapshot FROM games_game WHERE public_id = %s", [public_id]
            ).fetchone()
            return str(position_from_text(row[0]).legal_moves()[0])

        acknowledged = []

        def play() -> int:
            status, _h, text, _u = player.request(game_path)
            if status != 200:
                return status
            move = next_move()
            status, _h, _t, _u = player.request(
                f"{game_path}move/", {"move": move, **board_of(text)}, HTMX
            )
            if status == 200:
                acknowledged.append(move)
            return status

        for _ in range(3):
            assert play() == 200
        database.close()

        own_postgres.stop()
        answers = []
        for path in ("/", game_path, "/my/", "/my/history/", "/play/forty-thieves/2/"):
            for _ in range(2):  # both web processes
                status, headers, text, _u = player.request(path)
                answers.append(status)
                if status == 503:
                    assert headers["Retry-After"] == "5"
                    assert "Back in a moment" in text
                    assert headers["X-Request-ID"]
        refused_move = player.request(
            f"{game_path}move/", {"move": "t1-t2", "ply": "3", "version": "3"}, HTMX
        )
        answers.append(refused_move[0])
        assert 500 not in answers
        assert set(answers) <= {200, 503}
        assert answers.count(503) >= 5, answers
        # The balancer asks without cookies.
        balancer = Player(player.base)
        status, _h, text, _u = balancer.request("/readyz/")
        assert status == 503 and '"database": "unavailable' in text
        assert balancer.request("/healthz/")[0] == 200

        own_postgres.start()
        database = psycopg.connect(own_postgres.url, autocommit=True)
        # A connection that a web thread kept from before the restart fails that thread's next
        # request, as a 503 like those of the outage, and the thread connects again
        # (docs/operations.md): at most one such answer per thread, then play resumes.
        stale = []
        played = 0
        while played < 4:
            status = play()
            if status == 503:
                stale.append(status)
                assert len(stale) <= WEB_PROCESSES * WEB_THREADS, stale
                continue
            assert status == 200
            played += 1
        assert balancer.request("/readyz/")[0] == 200
        rows = database.execute(
            "SELECT m.notation FROM games_move m JOIN games_game g ON g.id = m.game_id"
            " WHERE g.public_id = %s AND NOT m.automatic ORDER BY m.ply",
            [public_id],
        ).fetchall()
        assert [r[0] for r in rows] == acknowledged
        check = manage(env, "check_games")
        assert "no mismatch" in check.stdout
    finally:
        if database is not None:
            database.close()
        web.terminate()
        web.wait(timeout=30)
        log_file.seek(0)
        server_log = log_file.read()
        log_file.close()
        print(server_log[-4000:])  # shown when the test fails
    # One line for each request answered 503, saying why; no 500 in the log either.
    lines = server_log.splitlines()
    assert "Internal Server Error" not in server_log
    unavailable = [line for line in lines if "database unavailable:" in line]
    assert len(unavailable) == answers.count(503) + len(stale), unavailable
    assert all("answered 503 (OperationalError" in line for line in unavailable)
