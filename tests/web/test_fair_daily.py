"""A leaderboard that cannot be gamed: one player ranks once a day, even after playing as a
guest and logging back in; one address opens today's deal for a few guests, not for a flood of
fresh sessions; a shared game of today's deal shows its moves only once the day is over."""

from datetime import UTC, datetime, timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from games.models import DailyDeal, Game
from games.owners import Owner
from games.selectors.leaderboards import leaderboard

from .conftest import post_move
from .test_accounts import LOGOUT, log_in, make_user
from .test_daily import play_today, win
from .test_share import share

WEDNESDAY = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def wednesday(clock):
    clock.moment = WEDNESDAY
    return clock


def rows(game: Game) -> list[str]:
    deal = DailyDeal.objects.get(games__game=game)
    reader = Owner(session_key="someone-else")
    return [row.public_id for row in leaderboard(deal, reader).rows]


class TestOnePlayerOneRow:
    def test_a_guests_win_joining_the_account_does_not_rank_twice(self, client):
        make_user("alice")
        log_in(client)
        first = win(play_today(client), 90, 600_000)
        client.post(LOGOUT)
        again = win(play_today(client), 80, 600_000)  # as a guest, with fewer moves
        assert set(rows(first)) == {first.public_id, again.public_id}
        log_in(client)
        again.refresh_from_db()
        assert again.owner is not None  # the guest's game came along ...
        assert rows(first) == [first.public_id]  # ... but the account ranks once


class TestGuestsOfOneAddress:
    def test_a_few_guests_of_one_address_open_todays_deal_then_they_are_asked_to_log_in(self):
        allowed = settings.DAILY_GUESTS_PER_ADDRESS
        for _ in range(allowed):
            assert Client().get(reverse("games:daily_play", args=["lucas"])).status_code == 200
        refused = Client().get(reverse("games:daily_play", args=["lucas"]))
        assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
        assert "log in or sign up to play it too" in refused.content.decode()
        assert Game.objects.count() == allowed
        # Another address, another game, and the same guest again, are let in.
        other = Client(REMOTE_ADDR="198.51.100.4")
        assert other.get(reverse("games:daily_play", args=["lucas"])).status_code == 200
        assert Client().get(reverse("games:daily_play", args=["maria"])).status_code == 200

    def test_a_guest_who_opened_it_comes_back_to_it_and_an_account_is_never_held(self, client):
        assert play_today(client)
        for _ in range(settings.DAILY_GUESTS_PER_ADDRESS + 2):
            assert play_today(client)  # their own game again, not another
        make_user("bob")
        bob = Client()
        log_in(bob, "bob")
        assert bob.get(reverse("games:daily_play", args=["lucas"])).status_code == 200


class TestSharedDailyGames:
    def test_todays_moves_show_once_the_day_is_over(self, client, clock):
        game = win(play_today(client), 90, 600_000)
        link = share(client, game)
        page = Client().get(link).content.decode()
        assert "its moves show here once that day is over" in page
        assert "replay-at" not in page
        at_move = Client().get(f"{link}5/").content.decode()
        assert "replay-at" not in at_move
        clock.moment = WEDNESDAY + timedelta(hours=12)  # midnight UTC
        page = Client().get(link).content.decode()
        assert "its moves show here" not in page and "replay-at" in page

    def test_its_image_is_the_deal_until_then(self, client, clock):
        game = play_today(client)
        link = share(client, game)
        dealt = Client().get(f"{link}board.png").content
        assert post_move(client, game, "deal").status_code == 200
        assert Client().get(f"{link}board.png").content == dealt
        clock.moment = WEDNESDAY + timedelta(hours=12)
        assert Client().get(f"{link}board.png").content != dealt

    def test_a_game_not_of_todays_deal_replays_at_once(self, client):
        response = client.post(reverse("games:new"), {"variant": "lucas", "deal": "5"})
        game = Game.objects.get(public_id=response["Location"].split("/")[2])
        page = Client().get(share(client, game)).content.decode()
        assert "replay-at" in page
