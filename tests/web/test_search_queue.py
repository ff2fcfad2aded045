"""The queue of searches: bounded site-wide (past the bound a search is refused "busy" at once,
429 with Retry-After, and nothing changes), limited per client (429 with Retry-After), and
fair: one client's many searches never stand in front of another client's first. A client is
an account, else an address (IPv6 by its /64): a guest's session costs nothing to make. The
real worker takes the searches, one at a time here, in the order the queue gives them."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from games.models import Analysis
from games.services import assist, searches
from solitaire import clock as site_clock

from .conftest import post_move, start, url
from .solver_support import answer, ask, near_win, run_worker, said
from .test_limits import Clock

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def everyone_a_player(settings):
    """Every search here is a player's, unless a test says otherwise (TestNewcomers)."""
    settings.SOLVER_NEWCOMER_MOVES = 0


def guest(address: str) -> Client:
    """A new guest (a session of their own) coming from ``address``."""
    return Client(REMOTE_ADDR=address)


def run_one_task() -> None:
    """Let the real worker take one task, the one the queue puts first."""
    call_command("db_worker", "--batch", "--no-startup-delay", "--max-tasks", "1", verbosity=0)


def answered(game) -> bool:
    return not game.analyses.pending().exists()


class TestTheBound:
    def test_past_the_bound_a_search_is_refused_busy_at_once(self, settings):
        settings.SOLVER_HINT_SECONDS = 1
        settings.SOLVER_QUEUE_SECONDS = 2  # two hints of a second
        players = [guest(f"10.0.0.{n}") for n in (1, 2, 3)]
        games = [start(player, "forty-thieves", n) for n, player in enumerate(players, 1)]
        for player, game in zip(players[:2], games[:2], strict=True):
            assert ask(player, "hint", game).status_code == 200
        refused = ask(players[2], "hint", games[2])
        assert refused.status_code == 429
        seconds = int(refused["Retry-After"])
        assert 2 <= seconds <= 60
        assert said(refused) == f"The solver is busy: try again in {seconds} seconds."
        # Nothing changed: not counted, not queued.
        games[2].refresh_from_db()
        assert games[2].hint_count == 0
        assert not games[2].analyses.exists()
        assert DBTaskResult.objects.count() == 2

    def test_once_the_queue_drains_the_search_is_taken(self, settings):
        settings.SOLVER_HINT_SECONDS = 1
        settings.SOLVER_QUEUE_SECONDS = 1
        first, second = guest("10.0.0.1"), guest("10.0.0.2")
        ask(first, "hint", start(first))
        game = start(second, "forty-thieves", 2)
        assert ask(second, "hint", game).status_code == 429
        run_worker()
        assert "Thinking" in said(ask(second, "hint", game))

    def test_the_bound_is_seconds_of_searching_an_analysis_takes_more_room(self, settings):
        settings.SOLVER_QUEUE_SECONDS, settings.SOLVER_ANALYSIS_SECONDS = 10, 9
        settings.SOLVER_HINT_SECONDS = 1
        players = [guest(f"10.0.0.{n}") for n in (1, 2, 3)]
        games = [start(player, "forty-thieves", n) for n, player in enumerate(players, 1)]
        assert ask(players[0], "analysis", games[0]).status_code == 200
        assert ask(players[1], "hint", games[1]).status_code == 200
        assert ask(players[2], "hint", games[2]).status_code == 429

    def test_without_javascript_busy_is_a_page_that_says_when_to_come_back(self, settings):
        settings.SOLVER_QUEUE_SECONDS = 0
        player = guest("10.0.0.1")
        game = start(player)
        refused = ask(player, "analysis", game, htmx=False)
        assert refused.status_code == 429
        assert "Retry-After" in refused
        page = refused.content.decode()
        assert "The solver is busy: try again in" in page
        assert f'href="{url("game", game)}"' in page
        assert 'http-equiv="refresh"' not in page

    def test_a_hint_known_from_a_win_needs_no_room_in_the_queue(self, client, settings):
        game = near_win(client, 5)
        ask(client, "analysis", game)
        run_worker()
        settings.SOLVER_QUEUE_SECONDS = 0
        response = ask(client, "hint", game)
        assert response.status_code == 200
        assert said(response).startswith("This move leads to a win")


@pytest.fixture
def stopped_clock(monkeypatch):
    """The limits' clock stopped at the top of an hour: no count crosses a minute's window."""
    return Clock(monkeypatch)


@pytest.mark.usefixtures("stopped_clock")
class TestPerClient:
    def test_past_its_limit_a_client_is_told_to_wait(self, settings):
        settings.SOLVER_SEARCHES_PER_CLIENT = (2, 60)
        player = guest("10.0.0.1")
        game = start(player)
        for _n in range(2):
            assert ask(player, "hint", game).status_code == 200
            # A new board: asking again on the same one is no new search, and not counted.
            post_move(player, game, "deal")
        refused = ask(player, "hint", game)
        assert refused.status_code == 429
        seconds = int(refused["Retry-After"])
        assert 1 <= seconds <= 60
        assert said(refused).startswith("Too many requests: try again in")
        game.refresh_from_db()
        assert game.hint_count == 2

    def test_fresh_guests_from_one_address_share_its_limit(self, settings):
        settings.SOLVER_SEARCHES_PER_CLIENT = (2, 60)
        statuses = []
        for deal in (1, 2, 3):
            player = guest("10.0.0.1")
            statuses.append(ask(player, "hint", start(player, "forty-thieves", deal)).status_code)
        assert statuses == [200, 200, 429]
        other = guest("10.0.0.2")
        assert ask(other, "hint", start(other)).status_code == 200

    def test_an_ipv6_client_is_its_64_block(self, settings):
        settings.SOLVER_SEARCHES_PER_CLIENT = (1, 60)
        first, second = guest("2001:db8:1:2::10"), guest("2001:db8:1:2:ffff::1")
        assert ask(first, "hint", start(first)).status_code == 200
        assert ask(second, "hint", start(second)).status_code == 429
        elsewhere = guest("2001:db8:1:3::10")
        assert ask(elsewhere, "hint", start(elsewhere)).status_code == 200

    def test_an_account_is_a_client_of_its_own(self, settings):
        settings.SOLVER_SEARCHES_PER_CLIENT = (1, 60)
        flooder = guest("10.0.0.1")
        ask(flooder, "hint", start(flooder))
        get_user_model().objects.create_user("alice", "", "a long pass phrase")
        alice = guest("10.0.0.1")
        alice.post(reverse("login"), {"username": "alice", "password": "a long pass phrase"})
        assert ask(alice, "hint", start(alice, "forty-thieves", 2)).status_code == 200


class TestFairOrder:
    def test_one_clients_many_searches_do_not_stand_before_anothers_first(self):
        flood = [guest("10.0.0.1") for _n in range(4)]
        flooded = [start(player, "forty-thieves", n) for n, player in enumerate(flood, 1)]
        for player, game in zip(flood, flooded, strict=True):
            ask(player, "hint", game)
        player = guest("10.0.0.2")
        game = start(player, "forty-thieves", 9)
        ask(player, "hint", game)
        run_one_task()  # the flood's first, asked before anyone else
        run_one_task()  # then the other client's first, before the flood's second
        assert answered(flooded[0]) and answered(game)
        assert not any(answered(g) for g in flooded[1:])
        run_worker()
        assert all(answered(g) for g in flooded)

    def test_an_account_goes_before_the_searches_queued_from_its_address(self):
        flood = [guest("10.0.0.1") for _n in range(3)]
        flooded = [start(player, "forty-thieves", n) for n, player in enumerate(flood, 1)]
        for player, game in zip(flood, flooded, strict=True):
            ask(player, "hint", game)
        get_user_model().objects.create_user("alice", "", "a long pass phrase")
        alice = guest("10.0.0.1")
        alice.post(reverse("login"), {"username": "alice", "password": "a long pass phrase"})
        game = start(alice, "forty-thieves", 9)
        ask(alice, "hint", game)
        run_one_task()
        run_one_task()
        assert answered(game)
        assert [answered(g) for g in flooded] == [True, False, False]

    def test_the_search_for_winnable_deals_waits_for_every_player(self, client):
        assist.top_up("forty-thieves")
        game = start(client)
        ask(client, "hint", game)
        run_one_task()
        assert answered(game)
        (waiting,) = DBTaskResult.objects.ready()
        assert waiting.task_path.endswith("find_winnable_deals")


class TestNewcomers:
    """Fresh clients cost an attacker nothing, one address each: their searches (a guest's, on
    a game with fewer than SOLVER_NEWCOMER_MOVES of their own moves) wait behind every
    player's and fill at most half the queue, so a real player's hint still gets in, first."""

    @pytest.fixture(autouse=True)
    def newcomers(self, settings):
        settings.SOLVER_NEWCOMER_MOVES = 10
        settings.SOLVER_HINT_SECONDS = 1
        settings.SOLVER_QUEUE_SECONDS = 4  # four hints of a second; newcomers two

    def flood(self, count: int) -> list:
        """``count`` fresh guests, each from an address of its own, each asking a hint on a new
        game; what each was answered."""
        answers = []
        for n in range(count):
            newcomer = guest(f"10.1.0.{n + 1}")
            answers.append(ask(newcomer, "hint", start(newcomer, "forty-thieves", n + 1)))
        return answers

    def test_newcomers_fill_only_half_the_queue(self):
        assert [r.status_code for r in self.flood(3)] == [200, 200, 429]

    def test_a_player_gets_in_past_the_flood_and_is_answered_first(self):
        player = guest("10.2.0.1")
        game = near_win(player, 20)  # a game played a long way: a player's
        assert not assist.is_newcomer(game)
        self.flood(3)
        assert ask(player, "hint", game).status_code == 200
        run_one_task()
        assert answered(game)
        assert Analysis.objects.pending().count() == 2  # the flood's, still waiting

    def test_an_accounts_search_is_a_players_from_the_first_move(self):
        get_user_model().objects.create_user("alice", "", "a long pass phrase")
        alice = guest("10.2.0.2")
        alice.post(reverse("login"), {"username": "alice", "password": "a long pass phrase"})
        game = start(alice, "forty-thieves", 9)
        assert not assist.is_newcomer(game)
        self.flood(2)
        assert ask(alice, "hint", game).status_code == 200
        run_one_task()
        assert answered(game)


class TestTheAnswerInThePage:
    def test_a_refusal_is_the_answer_swapped_into_the_assist_region(self, settings):
        settings.SOLVER_QUEUE_SECONDS = 0
        player = guest("10.0.0.1")
        game = start(player)
        refused = ask(player, "hint", game)
        page = refused.content.decode()
        assert refused.status_code == 429
        assert page.lstrip().startswith('<div class="assist-answer busy"')
        assert "hx-trigger" not in page
        # Nothing was asked, so nothing answers for this board.
        assert said(answer(player, "hint", game, game.version)).startswith("Nothing was asked")


class TestLostWorkers:
    """A task row left RUNNING by a worker that is gone, as a kill leaves it, found by whoever
    comes next: the next search asked, the next task a worker takes (the page's own look, and
    real workers killed, are in test_worker_death.py)."""

    ASKED = timedelta(seconds=12)

    @pytest.fixture
    def taken(self, client, settings):
        """A search asked 12 s ago and taken by a worker then: the game and the task row."""
        settings.SOLVER_LEASE_SECONDS = 5
        game = near_win(client, 20)
        ask(client, "analysis", game)
        run = DBTaskResult.objects.get()
        run.claim("a-worker-that-is-gone")
        asked = site_clock.now() - self.ASKED
        DBTaskResult.objects.filter(pk=run.pk).update(started_at=asked)
        Analysis.objects.update(created_at=asked)
        cache.clear()  # a second later: the site looks for lost workers once a second at most
        return game, run

    @pytest.fixture
    def lost(self, taken):
        """A search whose worker was lost 10 s ago, two seconds into it."""
        Analysis.objects.update(status=Analysis.Status.RUNNING, seconds=2)
        return taken[0]

    def test_the_next_search_asked_finds_a_lost_worker(self, lost, client, other_client, caplog):
        with caplog.at_level("ERROR", logger="solitaire.tasks"):
            ask(other_client, "hint", near_win(other_client, 5))
        lost_run = DBTaskResult.objects.get(worker_ids=["a-worker-that-is-gone"])
        # One line for the operator (mailed to ADMINS when they are set).
        assert [r.getMessage() for r in caplog.records if r.name == "solitaire.tasks"] == [
            f"task {lost_run.pk} (games.tasks.search) failed: its worker stopped while running it"
        ]
        assert lost_run.status == "FAILED"
        assert lost_run.exception_class_path == "games.services.searches.WorkerLost"
        assert not DBTaskResult.objects.running().exists()
        # Queued once more: the next worker answers it.
        run_worker()
        assert said(answer(client, "analysis", lost, lost.version)).startswith("Yes")

    def test_a_worker_still_beating_is_left_alone(self, lost, client, other_client):
        Analysis.objects.update(seconds=10)  # its last beat two seconds ago
        ask(other_client, "hint", near_win(other_client, 5))
        assert DBTaskResult.objects.running().count() == 1
        assert said(answer(client, "analysis", lost, lost.version)) == "Thinking…"

    def test_a_search_set_aside_while_its_worker_searches_on_is_not_lost(
        self, lost, client, other_client, caplog, settings
    ):
        settings.SOLVER_ANALYSIS_SECONDS = 10
        # The player undid a move while the worker searched: the search is set aside and its
        # worker no longer beats on it, but it searches on to the end of its 10 s.
        Analysis.objects.update(status=Analysis.Status.STALE)
        with caplog.at_level("ERROR", logger="solitaire.tasks"):
            ask(other_client, "hint", near_win(other_client, 5))
        assert DBTaskResult.objects.running().count() == 1
        assert not [r for r in caplog.records if r.name == "solitaire.tasks"]
        # Well past its budget, its worker is lost after all.
        long_ago = site_clock.now() - timedelta(seconds=30)
        DBTaskResult.objects.filter(worker_ids=["a-worker-that-is-gone"]).update(
            started_at=long_ago
        )
        cache.clear()
        assert searches.recover_lost() == 1

    def test_a_run_that_failed_before_it_searched_is_tried_again(self, taken, client, caplog):
        game, run = taken
        run.set_failed(RuntimeError("the database went away"))
        with caplog.at_level("ERROR", logger="solitaire.tasks"):
            assert said(answer(client, "analysis", game, game.version)) == "Thinking…"
        assert [r.name for r in caplog.records].count("solitaire.tasks") == 1
        assert DBTaskResult.objects.ready().count() == 1
        run_worker()
        assert said(answer(client, "analysis", game, game.version)).startswith("Yes")

    def test_a_search_for_winnable_deals_lost_with_its_worker_can_start_again(self, db):
        assert assist.top_up("forty-thieves")
        run = DBTaskResult.objects.get()
        run.claim("a-worker-that-is-gone")
        an_hour_ago = site_clock.now() - timedelta(hours=1)
        DBTaskResult.objects.filter(pk=run.pk).update(started_at=an_hour_ago)
        assert not assist.top_up("forty-thieves")  # one is under way, as far as anyone knows
        assert searches.recover_lost() == 1
        assert DBTaskResult.objects.get(pk=run.pk).status == "FAILED"
        assert assist.top_up("forty-thieves")
