"""Rate limits: a clear 429 page with Retry-After once one client (an address, an IPv6 /64) or
one email address has done a costly thing too often, and the thing allowed again once the
window has passed. The figures are settings.LIMITS."""

import gc
import runpy
import threading
import time
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from django.db import connection
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Game
from games.rules import Move
from games.rules.moves import PARSED, TEXTS
from solitaire import limits

from .conftest import HTMX, board, post_move, start, url, version_of, won_record
from .solver_support import ask, run_worker
from .test_accounts import PASSWORD, SIGNUP, log_in, make_user

ADDRESS = "192.0.2.1"
#: The site's limits as its settings give them (the tests' own fixtures change some).
SITE_LIMITS = dict(settings.LIMITS)


class Clock:
    """The clock of the limits and of the local-memory cache, stopped: a test's counts all
    fall in one window, whenever it runs."""

    def __init__(self, monkeypatch):
        # At the start of an hour: every window (a minute, a quarter, an hour) starts with the
        # test, so a test's later() never crosses into a new window by the hour it runs at.
        self.now = time.time() // 3600 * 3600 + 1
        monkeypatch.setattr(time, "time", lambda: self.now)

    def later(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture(autouse=True)
def clock(settings, monkeypatch):
    """The local-memory cache (Redis keeps its own time), on a stopped clock."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    yield Clock(monkeypatch)
    cache.clear()


def allowed(name: str) -> int:
    return settings.LIMITS[name][0]


def sign_up(client: Client, n: int, address: str = ADDRESS):
    data = {"username": f"player{n}", "password1": PASSWORD, "password2": PASSWORD}
    return client.post(SIGNUP, data, REMOTE_ADDR=address)


def new_game(client: Client, address: str = ADDRESS, **headers):
    data = {"variant": "forty-thieves", "deal": "7"}
    return client.post(reverse("games:new"), data, REMOTE_ADDR=address, headers=headers)


def assert_too_many(response) -> int:
    assert response.status_code == 429
    seconds = int(response["Retry-After"])
    assert seconds > 0
    html = response.content.decode()
    assert "Too many requests: try again in" in html
    return seconds


class TestHit:
    def test_the_limit_then_a_refusal_until_the_window_ends(self, clock):
        assert [limits.hit("test", "a", 3, 60) for _ in range(3)] == [0, 0, 0]
        wait = limits.hit("test", "a", 3, 60)
        assert 0 < wait <= 60
        assert limits.hit("test", "b", 3, 60) == 0  # another key counts on its own
        clock.later(wait)
        assert limits.hit("test", "a", 3, 60) == 0

    def test_keys_in_any_case_are_one(self):
        limits.hit("test", "Alice@Example.org", 1, 60)
        assert limits.hit("test", "alice@example.org", 1, 60) > 0


class TestClientKey:
    def request(self, **meta):
        return RequestFactory().get("/", **meta)

    def test_the_connections_address_by_default(self):
        request = self.request(REMOTE_ADDR="192.0.2.5", HTTP_X_FORWARDED_FOR="203.0.113.9")
        assert limits.client_key(request) == "192.0.2.5"

    def test_behind_a_proxy_the_last_address_its_header_names(self, settings):
        settings.CLIENT_IP_HEADER = "X-Forwarded-For"
        request = self.request(
            REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="198.51.100.1, 203.0.113.9"
        )
        assert limits.client_key(request) == "203.0.113.9"
        assert limits.client_key(self.request(REMOTE_ADDR="10.0.0.2")) == "10.0.0.2"

    def test_an_ipv6_address_is_its_64(self):
        request = self.request(REMOTE_ADDR="2001:db8:0:7:1:2:3:4")
        assert limits.client_key(request) == "2001:db8:0:7::/64"

    def test_an_ipv4_address_written_as_ipv6_is_itself(self):
        assert limits.client_key(self.request(REMOTE_ADDR="::ffff:192.0.2.8")) == "192.0.2.8"


class TestTheAnswer:
    def test_a_page_that_says_how_long_to_wait(self, client):
        for _ in range(allowed("new-game-address")):
            assert new_game(client).status_code == 302
        response = new_game(client)
        seconds = assert_too_many(response)
        assert seconds <= settings.LIMITS["new-game-address"][1]
        assert "<h1>Too many requests</h1>" in response.content.decode()

    def test_htmx_gets_the_sentence_for_the_message_area(self, client):
        for _ in range(allowed("new-game-address")):
            new_game(client)
        response = new_game(client, **HTMX)
        assert_too_many(response)
        assert response["HX-Retarget"] == "#announce"
        assert "<h1>" not in response.content.decode()

    def test_in_the_players_language(self, client):
        for _ in range(allowed("new-game-address")):
            new_game(client)
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
        response = new_game(client)
        assert response.status_code == 429
        assert 'lang="fr"' in response.content.decode()


class TestNewGames:
    def test_limited_per_address_and_released(self, client, clock):
        for _ in range(allowed("new-game-address")):
            assert new_game(client).status_code == 302
        before = Game.objects.count()
        wait = assert_too_many(new_game(client))
        assert Game.objects.count() == before
        assert new_game(Client(), address="192.0.2.2").status_code == 302
        clock.later(wait)
        assert new_game(client).status_code == 302

    def test_a_shared_deal_link_counts_too(self, client):
        for _ in range(allowed("new-game-address")):
            new_game(client)
        response = client.get(reverse("pages:play_deal", args=["lucas", 5]), REMOTE_ADDR=ADDRESS)
        assert_too_many(response)


class TestActionsOnAGame:
    @pytest.fixture
    def site_pace(self, settings):
        """The site's own limit on actions, which the other tests raise to their pace."""
        settings.LIMITS = {**settings.LIMITS, "action-game": SITE_LIMITS["action-game"]}
        return SITE_LIMITS["action-game"][0]

    def test_a_scripts_pace_is_refused_a_persons_is_not(self, client, site_pace, clock):
        game = start(client, "forty-thieves", 5)
        other = start(client, "forty-thieves", 6)
        statuses = []
        for _ in range(site_pace // 2):
            statuses.append(post_move(client, game, "deal").status_code)
            statuses.append(client.post(url("undo", game), board(game), headers=HTMX).status_code)
        assert set(statuses) == {200}
        before = version_of(game)
        refused = post_move(client, game, "deal")
        assert_too_many(refused)
        assert version_of(game) == before  # nothing played
        # The player's other game, and this one once the window is over, play on.
        assert post_move(client, other, "deal").status_code == 200
        clock.later(SITE_LIMITS["action-game"][1])
        assert post_move(client, game, "deal").status_code == 200


class TestRefusedAgain:
    """A client refused once in a window is answered for nothing after: no session read, no
    query, no thread held."""

    def test_the_second_refusal_costs_no_query_and_no_session(self, client, settings, sleeps):
        settings.LIMITS = {**settings.LIMITS, "new-game-address": (2, 60)}
        for _ in range(2):
            assert new_game(client).status_code == 302
        assert_too_many(new_game(client))  # the first refusal: the site's page
        with CaptureQueriesContext(connection) as seen:
            again = new_game(Client(), **{"HX-Request": "true"})
            browser = new_game(Client())
        assert again.status_code == browser.status_code == 429
        assert int(again["Retry-After"]) > 0 and int(browser["Retry-After"]) > 0
        assert again["HX-Retarget"] == "#announce"
        assert "Too many requests: try again in" in again.content.decode()
        assert "Too many requests: try again in" in browser.content.decode()
        assert seen.captured_queries == []
        assert sleeps.seconds == []  # nothing held
        # Another address is not touched.
        assert new_game(Client(), address="192.0.2.77").status_code == 302

    def test_the_pages_that_cost_are_limited_per_address(self, client, settings, clock):
        settings.LIMITS = {**settings.LIMITS, "page-address": (3, 60)}
        game = start(client)
        statuses = [client.get(url("game", game)).status_code for _ in range(3)]
        assert statuses == [200, 200, 200]
        assert_too_many(client.get(url("game", game)))
        assert client.get(url("game", game), REMOTE_ADDR="192.0.2.8").status_code == 200
        clock.later(60)
        assert client.get(url("game", game)).status_code == 200

    def test_the_site_lets_a_household_load_its_pages(self):
        limit, per = SITE_LIMITS["page-address"]
        assert limit / per >= 5  # five pages a second for a minute


class TestRecordImport:
    def test_limited_per_address(self, client):
        text = won_record().to_json()
        for _ in range(allowed("import-address")):
            response = client.post(reverse("games:import"), {"text": text}, REMOTE_ADDR=ADDRESS)
            assert response.status_code == 302
        before = Game.objects.count()
        response = client.post(reverse("games:import"), {"text": text}, REMOTE_ADDR=ADDRESS)
        assert_too_many(response)
        assert Game.objects.count() == before
        # Reading the form is no import.
        assert client.get(reverse("games:import"), REMOTE_ADDR=ADDRESS).status_code == 200


class TestSignUp:
    def test_accounts_made_per_address_are_limited(self, client, db):
        for n in range(allowed("signup-address")):
            assert sign_up(Client(), n).status_code == 302
        response = sign_up(Client(), 999)
        assert_too_many(response)
        assert not get_user_model().objects.filter(username="player999").exists()
        assert sign_up(Client(), 999, address="192.0.2.2").status_code == 302

    def test_one_password_hash_at_a_time_the_next_is_asked_to_wait(self, db):
        with limits.slot("password-hash", settings.PASSWORD_HASHES_AT_ONCE, 30) as free:
            assert free
            response = sign_up(Client(), 1)
            assert response.status_code == 429
            assert int(response["Retry-After"]) > 0
            html = response.content.decode()
            assert "Too many requests: try again in" in html
            assert 'value="player1"' in html  # the form comes back as it was filled
            assert not get_user_model().objects.exists()
        assert sign_up(Client(), 1).status_code == 302

    def test_forms_sent_back_with_a_mistake_do_not_count(self, db):
        bad = {"username": "x", "password1": PASSWORD, "password2": "other"}
        for _ in range(allowed("signup-address") + 2):
            assert Client().post(SIGNUP, bad, REMOTE_ADDR=ADDRESS).status_code == 400
        assert sign_up(Client(), 1).status_code == 302

    def test_forms_sent_per_address_are_limited_and_refused_before_any_check(self, db, clock):
        """A client sending sign-up forms as fast as it can is refused cheaply: past the
        limit its form is not even read, so no account is made, whatever it holds."""
        bad = {"username": "x", "password1": PASSWORD, "password2": "other"}
        for _ in range(allowed("signup-tries")):
            assert Client().post(SIGNUP, bad, REMOTE_ADDR=ADDRESS).status_code == 400
        assert_too_many(sign_up(Client(), 1))
        assert not get_user_model().objects.exists()
        # Another address is not held up; a minute later this one is not either.
        assert sign_up(Client(), 2, address="192.0.2.3").status_code == 302
        clock.later(60)
        assert sign_up(Client(), 1).status_code == 302


class Sleeps:
    """time.sleep, stopped: each sleep is noted and moves the stopped clock on."""

    def __init__(self, clock):
        self.clock = clock
        self.seconds: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.seconds.append(seconds)
        self.clock.later(seconds)


@pytest.fixture
def sleeps(clock, monkeypatch, settings):
    """A process of gunicorn's default eight threads, on the stopped clock."""
    monkeypatch.setattr(limits, "threads", 8)
    settings.LIMIT_HOLD_SECONDS = 2
    stopped = Sleeps(clock)
    monkeypatch.setattr(time, "sleep", stopped)
    return stopped


def refused_sign_up_forms(count: int) -> list:
    """``count`` sign-up forms past the limit from one address (after as many as it allows)."""
    bad = {"username": "x", "password1": PASSWORD, "password2": "other"}
    for _ in range(allowed("signup-tries")):
        assert Client().post(SIGNUP, bad, REMOTE_ADDR=ADDRESS).status_code == 400
    return [sign_up(Client(), n) for n in range(count)]


def refused_polls(client: Client, count: int) -> list:
    """``count`` polls of one game past its limit (after as many as it allows)."""
    game = start(client)
    for _ in range(allowed("poll-game")):
        assert poll(client, game).status_code == 204
    return [poll(client, game) for _ in range(count)]


class TestRefusedPerAddress:
    """A client that goes on sending once refused by a per-address limit is answered at once
    and for nothing (RefuseEarly): no thread is held, and the answer says how long to wait."""

    def test_the_first_refusal_is_the_page_the_next_ones_brief_and_none_held(self, db, sleeps):
        first, second, third = refused_sign_up_forms(3)
        assert sleeps.seconds == []
        for response in (first, second, third):
            assert_too_many(response)
        assert int(first["Retry-After"]) == int(third["Retry-After"])
        assert "<h1>Too many requests</h1>" in third.content.decode()
        assert not get_user_model().objects.exists()

    def test_a_refusal_for_htmx_is_still_the_sentence(self, db, sleeps):
        refused_sign_up_forms(1)
        response = Client().post(SIGNUP, {"username": "y"}, REMOTE_ADDR=ADDRESS, headers=HTMX)
        assert sleeps.seconds == []
        assert_too_many(response)
        assert response["HX-Retarget"] == "#announce"

    def test_refused_until_the_window_ends(self, db, sleeps, clock):
        refused_sign_up_forms(1)
        clock.later(57.5)  # a second and a half left in the minute's window
        response = sign_up(Client(), 1)
        assert int(response["Retry-After"]) == 2
        clock.later(1.5)
        response = sign_up(Client(), 2)  # the new window's first
        assert response.status_code == 302
        assert sleeps.seconds == []


class TestHoldingBack:
    """Refusals of the limits that are not per address (a game's poll, searches) from a client
    that goes on sending wait LIMIT_HOLD_SECONDS each, while the process has threads to spare."""

    def test_the_next_refusals_are_held_back(self, client, sleeps):
        first, second, third = refused_polls(client, 3)
        assert sleeps.seconds == [2, 2]
        for response in (first, second, third):
            assert_too_many(response)

    def test_answered_at_once_once_the_process_holds_all_it_may(self, client, sleeps, monkeypatch):
        monkeypatch.setattr(limits, "_holding", limits.holds_at_once())
        *_, last = refused_polls(client, 2)
        assert sleeps.seconds == []
        assert_too_many(last)

    def test_a_process_of_one_thread_holds_nothing_back(self, client, sleeps, monkeypatch):
        monkeypatch.setattr(limits, "threads", 1)
        for response in refused_polls(client, 3):
            assert_too_many(response)
        assert sleeps.seconds == []

    def test_all_but_two_threads_may_hold_at_once(self, monkeypatch, settings):
        """Real threads: with eight, six wait and the others are answered at once; once the
        six are done, the next one waits again."""
        monkeypatch.setattr(limits, "threads", 8)
        settings.LIMIT_HOLD_SECONDS = 2
        release = threading.Event()
        monkeypatch.setattr(time, "sleep", lambda seconds: release.wait(10))
        waited: list[float] = []
        held = [
            threading.Thread(target=lambda: waited.append(limits.hold_back(60))) for _ in range(6)
        ]
        for thread in held:
            thread.start()
        deadline, pause = time.monotonic() + 10, threading.Event()
        while limits._holding < 6 and time.monotonic() < deadline:
            pause.wait(0.01)
        assert limits._holding == 6
        assert limits.hold_back(60) == 0
        release.set()
        for thread in held:
            thread.join(10)
        assert waited == [2] * 6
        assert limits._holding == 0
        assert limits.hold_back(60) == 2


class TestGunicorn:
    def config(self, monkeypatch, **env):
        for name in ("WEB_THREADS", "WEB_CONCURRENCY"):
            monkeypatch.delenv(name, raising=False)
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        return runpy.run_path(str(settings.BASE_DIR / "solitaire" / "gunicorn.conf.py"))

    def test_threaded_workers_by_default_and_the_limits_learn_their_threads(self, monkeypatch):
        config = self.config(monkeypatch)
        assert (config["worker_class"], config["threads"]) == ("gthread", 8)
        monkeypatch.setattr(limits, "threads", 1)
        config["post_worker_init"](SimpleNamespace(cfg=SimpleNamespace(threads=8)))
        assert limits.holds_at_once() == 6

    def test_one_thread_is_a_synchronous_worker_that_holds_nothing(self, monkeypatch):
        config = self.config(monkeypatch, WEB_THREADS="1")
        assert config["worker_class"] == "sync"
        monkeypatch.setattr(limits, "threads", 8)
        config["post_worker_init"](SimpleNamespace(cfg=SimpleNamespace(threads=1)))
        assert limits.holds_at_once() == 0

    def test_granian_s_workers_learn_their_threads_as_gunicorn_s_do(self, monkeypatch):
        """The other server measured beside gunicorn (bin/web, WEB_SERVER=granian) holds
        refusals back as gunicorn's workers do, so that both do the same work."""
        from solitaire import wsgi

        monkeypatch.setenv("WEB_THREADS", "8")
        monkeypatch.setattr(limits, "threads", 1)
        try:
            assert wsgi.granian_worker() is wsgi.application
            assert gc.get_freeze_count() > 0
        finally:
            gc.unfreeze()
        assert limits.holds_at_once() == 6


class TestLogInForms:
    def test_log_in_forms_per_address_are_limited(self, db):
        make_user()
        client = Client()
        for _ in range(allowed("login-address")):
            # Good and bad ones alike: the form's cost is the password hash.
            assert log_in(client, "nobody", "x", REMOTE_ADDR=ADDRESS).status_code in (400, 429)
        assert_too_many(log_in(Client(), REMOTE_ADDR=ADDRESS))
        assert Client().get(reverse("login"), REMOTE_ADDR=ADDRESS).status_code == 200


class TestResetMail:
    @pytest.mark.django_db(transaction=True)  # the worker, run here, closes its connections
    def test_at_most_a_few_mails_to_one_address_an_hour(self, db):
        make_user(email="alice@example.org")
        for n in range(allowed("reset-email") + 2):
            response = Client().post(
                reverse("password_reset"),
                {"email": "alice@example.org"},
                REMOTE_ADDR=f"192.0.2.{n + 1}",
            )
            # The same answer past the limit: it tells no one how often the address was asked.
            assert response.status_code == 302
        run_worker()
        assert len(mail.outbox) == allowed("reset-email")

    def test_requests_per_address_are_limited(self, db):
        for n in range(allowed("reset-address")):
            response = Client().post(
                reverse("password_reset"), {"email": f"someone{n}@example.org"}, REMOTE_ADDR=ADDRESS
            )
            assert response.status_code == 302
        response = Client().post(
            reverse("password_reset"), {"email": "last@example.org"}, REMOTE_ADDR=ADDRESS
        )
        assert_too_many(response)


class TestMoveParseCache:
    def test_only_moves_a_game_can_have_are_kept(self):
        size = len(PARSED)
        for n in range(2000):
            Move.parse(f"t{n % 99 + 1}:{n % 99 + 1}-t{(n + 1) % 99 + 1}")
        Move.parse("t3:1-t4")
        assert len(PARSED) == size == len(TEXTS)
        assert "t3:1-t4" not in PARSED and "t3-t4" in PARSED
        assert "t99:99-t98" not in PARSED

    def test_moves_outside_the_table_still_parse_and_print(self):
        move = Move.parse("t99:40-t98")
        assert str(move) == "t99:40-t98"
        assert Move.parse("t3:1-t4") == Move.parse("t3-t4")


def poll(client: Client, game: Game, address: str = ADDRESS):
    return client.get(url("poll", game), {"version": version_of(game)}, REMOTE_ADDR=address)


class TestPoll:
    """An open game page asks every 3 s whether the game moved on: two devices side by side
    never meet the limit, a client polling flat out is refused and held back."""

    def test_two_devices_side_by_side_for_a_minute_are_never_refused(self, client, clock):
        game = start(client)
        # Both pages in sight for a minute, each brought back into sight five times.
        statuses = {
            poll(client, game, address).status_code
            for _ in range(25)
            for address in (ADDRESS, "192.0.2.2")
        }
        assert statuses == {204}

    def test_one_game_polled_flat_out_is_refused_then_held_back(self, client, sleeps):
        game = start(client)
        for _ in range(allowed("poll-game")):
            assert poll(client, game).status_code == 204
        first, second = poll(client, game, "192.0.2.2"), poll(client, game, "192.0.2.3")
        assert_too_many(first)
        assert_too_many(second)
        assert sleeps.seconds == [2]
        # Another player's game is not held up.
        other = Client()
        assert poll(other, start(other, deal=2), "192.0.2.2").status_code == 204

    def test_a_strangers_polls_of_a_game_use_up_nothing_of_its_players(self, client, clock):
        game = start(client)
        stranger = Client()
        for _ in range(allowed("poll-game") + 5):
            assert poll(stranger, game, "192.0.2.66").status_code in (404, 429)
        assert poll(client, game).status_code == 204

    def test_one_address_polling_many_games_is_refused(self, db, settings, clock):
        settings.LIMITS = {**settings.LIMITS, "poll-address": (4, 60)}
        players = [Client() for _ in range(5)]
        games = [start(player, deal=n) for n, player in enumerate(players, 1)]
        statuses = [poll(p, g).status_code for p, g in zip(players, games, strict=True)]
        assert statuses == [204, 204, 204, 204, 429]
        assert poll(players[0], games[0], "192.0.2.9").status_code == 204
        clock.later(60)
        assert poll(players[4], games[4]).status_code == 204


class TestSearches:
    def test_refusals_past_the_limit_are_held_back_like_every_other_limit(
        self, client, settings, sleeps
    ):
        settings.SOLVER_SEARCHES_PER_CLIENT = (1, 60)
        game = start(client)
        statuses = []
        for _ in range(4):
            statuses.append(ask(client, "hint", game).status_code)
            # Each a search of a new board: asking again on the same one is not counted.
            post_move(client, game, "deal")
        assert statuses == [200, 429, 429, 429]
        assert sleeps.seconds == [2, 2]
