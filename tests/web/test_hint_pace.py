"""Hints at the pace of play: a player who asks for a hint, plays it and asks again, move after
move, never meets the limit on searches, since a hint already known (the next move of the win
the last search found, or the answer kept for this board) costs no search and is not counted.
What costs, a new search, is still limited: a flood of searches of new boards gets its 429."""

import pytest
from django.conf import settings
from django_tasks_db.models import DBTaskResult

from games.models import Analysis, Game
from games.services.searches import waiting_searches

from .conftest import post_move, start
from .solver_support import answer, ask, run_worker, shown_move

# The real worker closes a connection left in a transaction when it runs, as it should in a
# process of its own; so these tests run outside the test case's transaction.
pytestmark = pytest.mark.django_db(transaction=True)

#: The pace of the issue's report: 29 hints in about 24 seconds.
SECONDS_A_HINT = 0.8


@pytest.fixture
def clock(monkeypatch):
    """The limits' clock, moved on by hand: a whole game at a player's pace in no time."""

    class Clock:
        now = 1_000_000.0

        def time(self) -> float:
            return self.now

    clock = Clock()
    monkeypatch.setattr("solitaire.limits.time.time", clock.time)
    return clock


def searches() -> int:
    """The searches the worker was given, ever."""
    return DBTaskResult.objects.filter(task_path__endswith="search").count()


class TestFollowingTheHints:
    def test_a_whole_game_played_by_hints_meets_no_limit(self, client, clock):
        """Forty Thieves deal 2 from its deal, the automatic moves on, every move the hint's,
        a hint every 0.8 s: no 429 from the first move to the win, and one search."""
        game = start(client, "forty-thieves", 2)
        hints = 0
        while True:
            game.refresh_from_db()
            if game.status != Game.Status.PLAYING:
                break
            asked = ask(client, "hint", game)
            assert asked.status_code == 200, (hints, asked.content.decode()[-400:])
            hints += 1
            clock.now += SECONDS_A_HINT
            run_worker()
            move = shown_move(answer(client, "hint", game, game.version)).get("move")
            assert move, f"no move hinted after {hints} hints"
            assert post_move(client, game, move).status_code == 200
            assert hints < 400
        print(f"won by {hints} hints, {game.automatic_ply} automatic moves, {searches()} search")
        assert game.status == Game.Status.WON
        assert hints > 2 * settings.SOLVER_SEARCHES_PER_CLIENT[0]
        assert searches() == 1, "every hint after the first is the found win's next move"

    def test_asking_again_on_the_same_board_is_not_counted(self, client, clock, settings):
        settings.SOLVER_SEARCHES_PER_CLIENT = (2, 60)
        game = start(client, "forty-thieves", 2)
        for kind in ("hint", "analysis"):
            for _ in range(10):
                assert ask(client, kind, game).status_code == 200
        # One search of each kind was queued: the rest asked for the one there.
        assert Analysis.objects.filter(game=game).count() == 2

    def test_a_known_win_answers_a_hint_after_the_limit_is_spent(self, client, clock, settings):
        """Searches spent on other boards do not stand in the way of the next move of a win
        already found."""
        settings.SOLVER_SEARCHES_PER_CLIENT = (1, 60)
        game = start(client, "forty-thieves", 2)
        ask(client, "hint", game)
        run_worker()
        move = shown_move(answer(client, "hint", game, game.version))["move"]
        post_move(client, game, move)
        for _ in range(5):
            assert ask(client, "hint", game).status_code == 200
        assert Analysis.objects.filter(game=game, status=Analysis.Status.WON).count() == 2


class TestTheQueue:
    def test_asking_on_one_board_after_another_leaves_one_search_waiting(self, client, clock):
        """A player who plays on and asks again before the worker came to the last board's
        search: that search leaves the queue (it is out of date), so the queue does not fill
        with them and answer "busy"."""
        game = start(client, "streets", 1)
        for n in range(6):
            game.refresh_from_db()
            post_move(client, game, "deal")
            assert ask(client, "analysis", game).status_code == 200, n
            clock.now += 5
        assert waiting_searches().count() == 1


class TestNewSearchesStillLimited:
    def test_a_flood_of_searches_of_new_boards_gets_a_429(self, client, clock, settings):
        limit = settings.SOLVER_SEARCHES_PER_CLIENT[0]
        # Room in the site's queue for them all: the client's own limit is what refuses.
        settings.SOLVER_QUEUE_SECONDS = 10**6
        game = start(client, "streets", 1)
        codes = []
        for n in range(limit + 3):
            # A new board each time (a deal from the stock), no search answered yet.
            game.refresh_from_db()
            assert post_move(client, game, "deal").status_code == 200, n
            codes.append(ask(client, "analysis", game).status_code)
            clock.now += 0.1
        assert codes[:limit] == [200] * limit
        assert codes[limit:] == [429] * 3
        # A search was asked for on each board let through, and none on those refused.
        assert Analysis.objects.filter(game=game).count() == limit

    def test_the_limit_s_window_ends_and_searches_are_let_through_again(
        self, client, clock, settings
    ):
        settings.SOLVER_SEARCHES_PER_CLIENT = (2, 60)
        settings.SOLVER_QUEUE_SECONDS = 10**6
        game = start(client, "streets", 1)
        codes = []
        for _ in range(3):
            game.refresh_from_db()
            post_move(client, game, "deal")
            codes.append(ask(client, "hint", game).status_code)
        clock.now += 60
        game.refresh_from_db()
        post_move(client, game, "deal")
        codes.append(ask(client, "hint", game).status_code)
        assert codes == [200, 200, 429, 200]
