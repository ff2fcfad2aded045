"""The door (deploy/haproxy.cfg, docs/security.md): the balancer refuses a client address that
floods, before any app server sees its requests, in the client's language, while another
address is served; and an open page's catch-up question yields while requests wait for an app
server. Debian's HAProxy in front of the live test server (or of one that holds its requests),
on loopback, each client from its own loopback address."""

import http.client
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.core.management import call_command

from tests.balancer import HAPROXY, MISSING, balancer, command, free_port

pytestmark = pytest.mark.skipif(not HAPROXY, reason=MISSING)


def test_the_balancers_refusals_are_the_sites_words_now():
    # A changed sentence or a new language cannot leave the balancer's answers behind.
    call_command("balancer_refusals", "--check")


#: A static file that is not there: the app server answers 404 without a query.
NOT_THERE = "/static/not-there.css"


@pytest.fixture
def door(live_server, tmp_path):
    with balancer(live_server.url.removeprefix("http://"), tmp_path) as (port, _process):
        deadline = time.monotonic() + 10
        while ask(port, "127.0.0.1", "/readyz/")[0] != 200:
            assert time.monotonic() < deadline, "the balancer did not start serving"
            time.sleep(0.2)
        yield port


def ask(
    port: int, source: str, path: str, headers=None
) -> tuple[int, http.client.HTTPMessage | dict, str]:
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=30, source_address=(source, 0)
    )
    try:
        connection.request("GET", path, headers={"Host": "localhost", **(headers or {})})
        response = connection.getresponse()
        return response.status, response.msg, response.read().decode()
    except ConnectionError:
        return 0, {}, ""
    finally:
        connection.close()


def test_a_flooding_address_is_refused_in_its_language_and_another_is_served(door, settings):
    settings.ALLOWED_HOSTS = ["localhost"]
    # 300 requests in a few seconds (for a file the app server answers at once, so that they
    # fit in the door's 10 s however slow the machine; three at a time, as the test server
    # keeps only a few connections waiting): a household's worth gets through to the app
    # server, which answers each.
    with ThreadPoolExecutor(3) as pool:
        statuses = [
            answer[0]
            for answer in pool.map(lambda _: ask(door, "127.0.0.2", NOT_THERE), range(300))
        ]
    assert statuses == [404] * 300, Counter(statuses)
    # Each refusal is held 5 s in the balancer: ask at once, in the same window.
    with ThreadPoolExecutor(4) as pool:
        polish = pool.submit(
            ask, door, "127.0.0.2", "/readyz/", {"Accept-Language": "pl-PL,pl;q=0.9"}
        )
        # An htmx request gets the sentence for the page's message area, in the language the
        # player chose on the site (its cookie) over the browser's.
        htmx = pool.submit(
            ask,
            door,
            "127.0.0.2",
            "/readyz/",
            {"HX-Request": "true", "Cookie": "django_language=vi", "Accept-Language": "fr"},
        )
        # A language the site does not speak gets English.
        german = pool.submit(ask, door, "127.0.0.2", "/readyz/", {"Accept-Language": "de"})
        # Meanwhile another address is served.
        time.sleep(0.5)
        assert ask(door, "127.0.0.3", "/readyz/")[0] not in (0, 429)
    status, headers, body = polish.result()
    assert status == 429
    assert headers["Retry-After"] == "10"
    assert '<html lang="pl">' in body and "spróbuj ponownie za 10 sekund" in body
    status, headers, body = htmx.result()
    assert status == 429
    assert headers["HX-Retarget"] == "#announce"
    assert body == '<span class="message error">Quá nhiều yêu cầu: hãy thử lại sau 10 giây.</span>'
    status, headers, body = german.result()
    assert status == 429 and "try again in 10 seconds" in body


def test_pages_that_cost_are_counted_apart_from_what_costs_nothing(door, settings):
    settings.ALLOWED_HOSTS = ["localhost"]
    # 60 pages drawn in 10 s from one address (a household, a class) are served...
    # (One at a time: on SQLite, pages drawn at once may wait for each other's session writes.)
    statuses = [ask(door, "127.0.0.4", "/en/rules/maria/")[0] for _ in range(60)]
    assert statuses == [200] * 60, Counter(statuses)
    with ThreadPoolExecutor(2) as pool:
        # ... the next is refused...
        page = pool.submit(ask, door, "127.0.0.4", "/en/rules/lucas/")
        time.sleep(0.5)
        # ... while the same address still gets what costs the app servers nothing.
        assert ask(door, "127.0.0.4", "/readyz/")[0] not in (0, 429)
    assert page.result()[0] == 429


def test_a_request_no_app_server_can_take_gets_the_sites_503_in_its_language(tmp_path):
    # No app server up (nothing listens on the port): the balancer answers for the site.
    with balancer(f"127.0.0.1:{free_port()}", tmp_path) as (port, _process):
        deadline = time.monotonic() + 10
        while (answer := ask(port, "127.0.0.5", "/en/", {"Accept-Language": "nl"}))[0] == 0:
            assert time.monotonic() < deadline, "the balancer did not start"
            time.sleep(0.2)
    status, headers, body = answer
    assert status == 503
    assert headers["Retry-After"] == "5"
    assert '<html lang="nl">' in body and "<h1>Zo weer terug</h1>" in body


@pytest.fixture
def held_app():
    """An app server that holds every request but the balancer's health check until released:
    the paths it was asked for, and the release."""
    asked: list[str] = []
    release = threading.Event()

    class Held(BaseHTTPRequestHandler):
        def do_GET(self):
            if self.path != "/readyz/":
                asked.append(self.path)
                release.wait(30)
            self.send_response(204 if "/poll/" in self.path else 200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Held)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"127.0.0.1:{server.server_port}", asked, release
    finally:
        release.set()
        server.shutdown()


def waiting(folder) -> int:
    """The requests waiting in the balancer for a free app server."""
    lines = command(folder, "show stat").splitlines()
    fields = lines[0].lstrip("# ").split(",")
    for line in lines[1:]:
        row = dict(zip(fields, line.split(","), strict=False))
        if row.get("pxname") == "apps" and row.get("svname") == "BACKEND":
            return int(row["qcur"] or 0)
    return 0


def test_a_catch_up_question_yields_while_requests_wait_for_an_app_server(held_app, tmp_path):
    app, asked, release = held_app
    poll = "/g/some-game-id/poll/?version=3"
    with balancer(app, tmp_path) as (port, _process):
        deadline = time.monotonic() + 10
        while ask(port, "127.0.0.8", "/readyz/")[0] != 200:
            assert time.monotonic() < deadline, "the balancer did not start"
            time.sleep(0.2)
        with ThreadPoolExecutor(10) as pool:
            # Ten page loads: the two servers take four each at once, two wait.
            pages = [pool.submit(ask, port, "127.0.0.8", f"/en/rules/{n}/") for n in range(10)]
            while waiting(tmp_path) < 2:
                assert time.monotonic() < deadline + 10, "no request waited"
                time.sleep(0.05)
            # The open page's question is answered at once, without reaching a server, with
            # the wait its page may take before asking again.
            status, headers, _body = ask(port, "127.0.0.9", poll)
            assert status == 503 and headers["Retry-After"] == "5"
            assert not any("/poll/" in path for path in asked)
            release.set()
            assert [page.result()[0] for page in pages] == [200] * 10
        # Nothing waits: the question reaches the app server and is answered.
        assert ask(port, "127.0.0.9", poll)[0] == 204
        assert poll in asked
