"""Serving the site for real: bin/serve with debug off, under gunicorn, static files by
WhiteNoise, Django's deployment checks clean. Each test runs real processes."""

import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.balancer import HAPROXY, MISSING

ROOT = Path(__file__).resolve().parents[1]
KEY = "k3y-for-the-tests-" + "x7Q9" * 12


def production_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "DATABASE_URL", "REDIS_URL"))
    }
    env.update(
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=KEY,
        DJANGO_ALLOWED_HOSTS="127.0.0.1,example.org",
        SQLITE_PATH=str(tmp_path / "site.sqlite3"),
        DJANGO_STATIC_ROOT=str(tmp_path / "static"),
        PY=sys.executable,
    )
    env.update(extra)
    return env


def manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_deployment_checks_find_nothing_under_the_production_settings(tmp_path):
    result = manage(production_env(tmp_path), "check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_without_a_secret_key_the_site_refuses_to_start(tmp_path):
    env = production_env(tmp_path)
    del env["DJANGO_SECRET_KEY"]
    result = manage(env, "check")
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY must be set" in result.stderr
    serve = subprocess.run(
        ["bin/serve"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert serve.returncode == 1
    assert "DJANGO_SECRET_KEY is not set; refusing to start" in serve.stderr


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url: str, **headers: str):
    request = urllib.request.Request(url, headers=headers)
    try:
        return urllib.request.urlopen(request, timeout=10)
    except urllib.error.HTTPError as e:
        return e


@pytest.fixture
def server(tmp_path):
    """bin/serve on a free loopback port, plain HTTP (DJANGO_HTTPS=0), two workers."""
    yield from serving(tmp_path, BIND=f"127.0.0.1:{free_port()}")


@pytest.fixture
def balanced(tmp_path):
    """bin/serve with HAProxy in front (BALANCER_BIND), as `make serve` runs it."""
    yield from serving(
        tmp_path, BALANCER_BIND=f"127.0.0.1:{free_port()}", BIND=f"127.0.0.1:{free_port()}"
    )


def serving(tmp_path, **where: str):
    port = (where.get("BALANCER_BIND") or where["BIND"]).rsplit(":", 1)[1]
    env = production_env(
        tmp_path,
        **where,
        WEB_CONCURRENCY="2",
        DJANGO_HTTPS="0",
        SUPERVISOR_DIR=str(tmp_path),
    )
    log = open(tmp_path / "serve.log", "w+")  # noqa: SIM115 (closed below)
    process = subprocess.Popen(["bin/serve"], cwd=ROOT, env=env, stdout=log, stderr=log)
    base = f"http://127.0.0.1:{port}"
    try:
        # The release (checks, migrations, static files, catalogues) comes first: on a busy
        # machine it takes a while.
        deadline = time.monotonic() + 120
        while True:
            if process.poll() is not None:
                break
            try:
                if get(f"{base}/healthz/").status == 200:
                    break
            except OSError:
                time.sleep(0.1)
            if time.monotonic() > deadline:
                pytest.fail("the server did not answer within 120 s")
        if process.poll() is not None:
            log.seek(0)
            pytest.fail(f"bin/serve stopped: {log.read()[-3000:]}")
        yield base
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()


@pytest.mark.slow
def test_bin_serve_runs_the_site_with_hashed_compressed_static_files(server):
    home = get(f"{server}/")
    assert home.status == 200
    html = home.read().decode()
    assert "Forty Thieves" in html
    csp = home.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert home.headers["X-Frame-Options"] == "DENY"
    # Debug is off: an unknown page is the site's own 404, with no traceback.
    missing = get(f"{server}/no-such-page/")
    assert missing.status == 404 and b"Traceback" not in missing.read()
    # The stylesheet's name carries a hash of its content; it is cached for good, and sent
    # compressed to a browser that takes gzip.
    css = re.search(r'href="(/static/css/site\.[0-9a-f]{12}\.css)"', html)
    assert css, "the page links the stylesheet by its hashed name"
    static = get(f"{server}{css.group(1)}", **{"Accept-Encoding": "gzip"})
    assert static.status == 200
    assert static.headers["Content-Encoding"] == "gzip"
    assert "immutable" in static.headers["Cache-Control"]
    script = re.search(r'src="(/static/[^"]*htmx[^"]*\.js)"', html)
    assert script and get(f"{server}{script.group(1)}").status == 200


@pytest.mark.slow
def test_bin_serve_deals_and_plays_a_game(server):
    """A whole round trip through gunicorn: a new game, answered with its page, which names
    its own address; then its page by that address."""
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    opened = browser.open(f"{server}/play/forty-thieves/1/", timeout=10).read().decode()
    address = re.search(r'<link rel="canonical" href="(/g/[^/"]+/)">', opened)
    assert address, opened[:500]
    for html in (opened, browser.open(f"{server}{address[1]}", timeout=10).read().decode()):
        assert 'data-variant="forty-thieves"' in html
        assert 'data-ply="0"' in html
        assert f'data-game-url="{address[1]}"' in html


@pytest.mark.slow
def test_bin_serve_supervises_gunicorn_two_task_workers_and_the_housekeeping(server, tmp_path):
    env = {**os.environ, "SUPERVISOR_DIR": str(tmp_path)}
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        status = subprocess.run(
            ["supervisorctl", "-c", "deploy/supervisord.conf", "status"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=30,
        ).stdout
        running = set(re.findall(r"^(\S+)\s+RUNNING", status, re.M))
        if len(running) == 4:
            break
        time.sleep(0.5)
    assert running == {"web", "worker:worker-0", "worker:worker-1", "housekeeping"}, status
    # The release migrated the database before the processes started; none of them migrates.
    log = (tmp_path / "serve.log").read_text()
    assert log.count("Applying games.0001_initial... OK") <= 1


@pytest.mark.slow
@pytest.mark.skipif(not HAPROXY, reason=MISSING)
def test_with_a_balancer_the_site_is_served_through_it_and_answers_for_a_stopped_server(
    balanced, tmp_path
):
    # The site answers on the balancer's address (gunicorn listens elsewhere, on loopback).
    home = get(f"{balanced}/en/", **{"Accept-Language": "pl"})
    assert home.status == 200 and "Forty Thieves" in home.read().decode()
    # With gunicorn stopped, the balancer answers for the site: its 503 page, in the client's
    # language, with the time to wait, not a connection refused.
    env = {**os.environ, "SUPERVISOR_DIR": str(tmp_path)}
    subprocess.run(
        ["supervisorctl", "-c", "deploy/supervisord.conf", "stop", "web"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        timeout=60,
        check=True,
    )
    away = get(f"{balanced}/en/", **{"Accept-Language": "pl"})
    assert away.status == 503
    assert away.headers["Retry-After"] == "5"
    assert '<html lang="pl">' in away.read().decode()
