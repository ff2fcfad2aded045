"""A daily deal's day ends at midnight UTC, to the second, whatever the player's clock or time
zone says: a win finished in the last second of its day ranks, one a second later does not and
says so, and a game opened before midnight and played after it is still its own day's game.
The site's one clock is set by each test; nothing here reads the real date."""

from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import formats

from games.models import DailyDeal, Game
from games.owners import Owner
from games.rules import Move
from games.rules.solver import solve
from games.rules.solver.grading import GRADE_NODES
from games.selectors.leaderboards import leaderboard
from games.services import play
from solitaire import clock as site_clock

from .conftest import HTMX, opened, post_move, url

#: A Wednesday's last second, UTC, and the first of the Thursday after.
LAST_SECOND = datetime(2026, 12, 2, 23, 59, 59, tzinfo=UTC)
NEXT_DAY = LAST_SECOND + timedelta(seconds=1)
LATE_WORDS = "Your win does not rank: it came after the day was over."


def open_daily(client: Client, variant: str = "lucas") -> Game:
    """The day's deal, opened from the daily page as a player opens it."""
    return opened(client.get(reverse("games:daily_play", args=[variant])))


def play_to_the_last_move(client: Client, game: Game) -> str:
    """Play ``game`` up to its winning move (a real win found by a search); that move."""
    owner = Owner(session_key=client.session.session_key)
    game.refresh_from_db()
    found = solve(game.position(), seconds=None, max_nodes=GRADE_NODES)
    assert found.status == "won", "the daily deal is winnable"
    moves = [str(move) for move in found.moves]
    for ply, text in enumerate(moves[:-1], start=game.ply):
        site_clock.advance(timedelta(seconds=1))  # a person's pace
        play.play_move(owner, game.public_id, ply, None, Move.parse(text), {game.variant: False})
    return moves[-1]


def finish(client: Client, game: Game, move: str) -> str:
    """Play the winning ``move`` as the page does; the game page drawn after it."""
    response = post_move(client, game, move)
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.status == Game.Status.WON
    return client.get(url("game", game)).content.decode()


def win_at(client: Client, clock, moment: datetime) -> tuple[Game, str]:
    """The day's deal opened an hour before its day ends, played to its last move, and won
    at ``moment``: the game and its page."""
    clock.moment = LAST_SECOND - timedelta(hours=1)
    game = open_daily(client)
    last = play_to_the_last_move(client, game)
    clock.moment = moment
    return game, finish(client, game, last)


def ranked(game: Game) -> list[str]:
    deal = DailyDeal.objects.get(games__game=game)
    return [row.public_id for row in leaderboard(deal, Owner(session_key="someone-else")).rows]


def day_page(client: Client, game: Game) -> str:
    deal = DailyDeal.objects.get(games__game=game)
    response = client.get(reverse("games:daily_day", args=[deal.variant, deal.day]))
    assert response.status_code == 200
    return response.content.decode()


def named_day(day) -> str:
    """The game page's banner, the day in running text ("Daily deal of December 31, 2026")."""
    return f"Daily deal of {formats.date_format(day, 'F j, Y')}"


@pytest.fixture(params=["", "Pacific/Kiritimati", "America/Adak"])
def player(request, client) -> Client:
    """A player in the site's zone (UTC), or one whose browser says they are on the first or
    the last clock of the world (UTC+14, and UTC-10 in December)."""
    if request.param:
        response = client.post(reverse("set_time_zone"), {"time_zone": request.param})
        assert response.status_code in (200, 204)
        assert client.session["time_zone"] == request.param
    return client


class TestTheDaysEdge:
    def test_a_win_in_the_last_second_of_its_day_ranks(self, player, clock):
        game, page = win_at(player, clock, LAST_SECOND)
        assert ranked(game) == [game.public_id]
        assert "This win ranks on the" in page and LATE_WORDS not in page
        assert named_day(LAST_SECOND.date()) in page

    def test_a_win_a_second_after_its_day_does_not_rank_and_says_so(self, player, clock):
        game, page = win_at(player, clock, NEXT_DAY)
        assert ranked(game) == []
        assert LATE_WORDS in page and "This win ranks on the" not in page
        assert LATE_WORDS in day_page(player, game)
        assert "after the day was over" in day_page(player, game)

    def test_a_game_opened_before_midnight_and_played_after_it_keeps_its_day(self, player, clock):
        clock.moment = LAST_SECOND - timedelta(seconds=30)
        game = open_daily(player)
        before = player.get(url("game", game)).content.decode()
        assert named_day(LAST_SECOND.date()) in before
        clock.moment = NEXT_DAY + timedelta(minutes=5)
        after = player.get(url("game", game)).content.decode()
        assert named_day(LAST_SECOND.date()) in after
        assert named_day(NEXT_DAY.date()) not in after
        last = play_to_the_last_move(player, game)
        page = finish(player, game, last)
        assert named_day(LAST_SECOND.date()) in page and LATE_WORDS in page
        # The daily page of the new day deals that day's game, not this one.
        fresh = open_daily(player)
        assert fresh.pk != game.pk
        assert DailyDeal.objects.get(games__game=fresh).day == NEXT_DAY.date()

    def test_the_board_answer_of_a_late_win_says_why_it_does_not_rank(self, client, clock):
        clock.moment = LAST_SECOND - timedelta(minutes=1)
        game = open_daily(client)
        last = play_to_the_last_move(client, game)
        clock.moment = NEXT_DAY
        game.refresh_from_db()
        data = {"move": last, "ply": game.ply, "version": game.version}
        answer = client.post(url("move", game), data, headers=HTMX).content.decode()
        assert LATE_WORDS in answer


def test_a_win_played_faster_than_a_person_does_not_rank_and_says_so(client, clock):
    clock.moment = LAST_SECOND - timedelta(hours=1)
    game = open_daily(client)
    owner = Owner(session_key=client.session.session_key)
    game.refresh_from_db()
    found = solve(game.position(), seconds=None, max_nodes=GRADE_NODES)
    moves = [str(move) for move in found.moves]
    for ply, text in enumerate(moves[:-1], start=game.ply):
        clock.advance(milliseconds=20)  # a script's pace
        play.play_move(owner, game.public_id, ply, None, Move.parse(text), {game.variant: False})
    clock.advance(milliseconds=20)
    page = finish(client, game, moves[-1])
    assert ranked(game) == []
    assert "faster than a person can play them" in page
    assert "faster than a person can play them" in day_page(client, game)


def test_a_game_not_of_the_daily_deal_names_no_day(client, clock):
    clock.moment = LAST_SECOND
    response = client.post(reverse("games:new"), {"variant": "lucas", "deal": "5"})
    game = Game.objects.get(public_id=response["Location"].split("/")[2])
    assert "Daily deal of" not in client.get(url("game", game)).content.decode()
