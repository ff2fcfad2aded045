"""The history: every game that counts, filtered by game and result, a page at a time."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.owners import Owner
from games.rules import Move
from games.web import history as history_views

from . import services_support as services
from .conftest import start, stuck_record, url, version_of, won_record

HISTORY = reverse("games:history")


@pytest.fixture
def player(client, django_user_model):
    user = django_user_model.objects.create_user("ada", password="pw-long-enough")
    client.force_login(user)
    return Owner(user=user)


def begun(owner: Owner, variant: str = "forty-thieves", deal: int = 1):
    game = services.start_game(owner, variant, deal)
    services.play(game, 0, Move.parse("deal"), autoplay=False)
    game.refresh_from_db()
    return game


def listed(client, query: str = "") -> list[str]:
    response = client.get(HISTORY + query)
    assert response.status_code == 200, response.content[:300]
    return re.findall(r'href="/g/([^/]+)/replay/"', response.content.decode())


class TestHistory:
    def test_lists_games_that_count_last_played_first(self, client, player):
        services.start_game(player, "lucas", 1)  # no move: not listed
        first = begun(player)
        second = services.start_from_record(player, won_record())
        assert listed(client) == [second.public_id, first.public_id]

    def test_each_game_opens_its_replay(self, client, player):
        game = begun(player)
        html = client.get(HISTORY).content.decode()
        assert reverse("games:replay", args=[game.public_id]) in html

    def test_filters_by_game_and_result(self, client, player):
        lucas = begun(player, "lucas")
        won = services.start_from_record(player, won_record())
        stuck = services.start_from_record(player, stuck_record())
        given_up = begun(player)
        services.give_up(given_up)
        assert listed(client, "?game=lucas") == [lucas.public_id]
        assert listed(client, "?result=won") == [won.public_id]
        assert set(listed(client, "?result=lost")) == {stuck.public_id, given_up.public_id}
        assert listed(client, "?result=unfinished") == [lucas.public_id]
        assert listed(client, "?game=indian&result=lost") == []

    def test_a_bad_filter_is_a_clear_400(self, client, player):
        for query in ("?game=snap", "?result=drawn", "?game=lucas&result=x"):
            response = client.get(HISTORY + query)
            assert response.status_code == 400
            assert b"There is no such game or result" in response.content

    def test_pages_and_a_page_out_of_range_shows_the_last(self, client, player, monkeypatch):
        monkeypatch.setattr(history_views, "HISTORY_PAGE", 2)
        games = [begun(player, deal=n) for n in range(1, 6)]
        newest = [g.public_id for g in reversed(games)]
        assert listed(client) == newest[:2]
        assert listed(client, "?page=2") == newest[2:4]
        assert listed(client, "?page=99") == newest[4:]
        assert listed(client, "?page=abc") == newest[:2]
        html = client.get(HISTORY + "?game=forty-thieves&page=2").content.decode()
        assert "?game=forty-thieves&amp;page=3" in html and "Page 2 of 3" in html

    def test_someone_elses_games_are_not_listed(self, client, other_client, player):
        begun(player)
        mine = start(other_client)
        other_client.post(
            url("move", mine), {"move": "deal", "version": version_of(mine), "ply": 0}
        )
        assert listed(other_client) == [mine.public_id]
        assert len(listed(client)) == 1

    def test_the_first_page_costs_the_same_queries_for_few_and_many_games(self, client, player):
        def queries() -> int:
            with CaptureQueriesContext(connection) as captured:
                assert client.get(HISTORY).status_code == 200
            return len(captured)

        begun(player)
        queries()  # the day's first request renews the session: a write, once
        few = queries()
        for n in range(2, 12):
            begun(player, deal=n)
        assert queries() == few
