"""Winnable deals: "Only deals that can be won" deals from the deals the solver has won (the
committed list and those found since by the background task, whose every win is replayed
before it is stored), the player's unplayed ones first; a pool running low starts a search."""

import io

import pytest
from django.core.management import call_command
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from games.models import Game, WinnableDeal
from games.rules import VARIANTS, Record, replay
from games.services import assist as solving
from games.services import searches
from games.tasks import find_winnable_deals

from .conftest import start
from .solver_support import run_worker

# The real worker closes a connection left in a transaction when it runs, as it should in a
# process of its own; so these tests run outside the test case's transaction.
pytestmark = pytest.mark.django_db(transaction=True)

#: Forty Thieves deal 2 is won by the solver in a few hundred positions.
EASY = ("forty-thieves", 2)


def new_winnable(client, variant: str) -> Game:
    response = client.post(reverse("games:new"), {"variant": variant, "winnable": "on"})
    assert response.status_code == 302, response.content[:500]
    return Game.objects.get(public_id=response["Location"].split("/")[2])


def searches_queued(variant: str) -> int:
    rows = DBTaskResult.objects.filter(
        task_path=find_winnable_deals.module_path, status="READY"
    ).values_list("args_kwargs", flat=True)
    return sum(1 for row in rows if row["args"][0] == variant)


def found_easy_deal() -> list[str]:
    """Let the real task search the easy deal; the moves it stored."""
    variant, deal = EASY
    find_winnable_deals.enqueue(variant, deal, 1, 2.0)
    run_worker()
    return WinnableDeal.objects.get(variant=variant, deal=str(deal)).moves


def leave_unplayed(client, variant: str, keep: int) -> set[int]:
    """Play (start) every known winnable deal of ``variant`` but ``keep``; those kept."""
    pool = sorted(solving.winnable_deals(variant))
    for deal in pool[keep:]:
        start(client, variant, deal)
    return set(pool[:keep])


class TestTheSearchTask:
    def test_the_task_stores_wins_that_replay_to_a_win(self, db):
        moves = found_easy_deal()
        variant, deal = EASY
        assert replay(Record(variant, deal, moves)).is_won()
        assert deal in solving.winnable_deals(variant)

    def test_a_solution_that_does_not_win_is_not_stored(self, db):
        moves = found_easy_deal()
        WinnableDeal.objects.all().delete()
        variant, deal = EASY
        wrong = [
            {"deal": deal, "moves": moves[:-1]},  # one move short of the win
            {"deal": deal + 1, "moves": moves},  # another deal's moves
            {"deal": deal, "moves": ["t1-t99"]},  # not even a move of this game
        ]
        assert searches.store_winnable(variant, wrong) == []
        assert not WinnableDeal.objects.exists()
        assert searches.store_winnable(variant, [{"deal": deal, "moves": moves}]) == [deal]

    def test_the_command_tops_up_by_hand(self, db):
        variant, deal = EASY
        out = io.StringIO()
        call_command(
            "find_winnable_deals", variant, "--start", str(deal), "--count", "1", stdout=out
        )
        assert "stored 1 new winnable deals (2)" in out.getvalue()
        assert WinnableDeal.objects.filter(variant=variant, deal=str(deal)).exists()


class TestOnlyWinnableDeals:
    def test_the_option_deals_a_deal_known_to_be_winnable(self, client):
        found_easy_deal()
        variant, _deal = EASY
        game = new_winnable(client, variant)
        assert game.deal_number in solving.winnable_deals(variant)

    def test_deals_not_yet_played_come_first(self, client):
        found_easy_deal()
        variant, _deal = EASY
        kept = leave_unplayed(client, variant, 1)
        assert new_winnable(client, variant).deal_number in kept

    def test_a_pool_running_low_starts_one_search(self, client):
        found_easy_deal()
        variant, _deal = EASY
        leave_unplayed(client, variant, 1)
        assert searches_queued(variant) == 0
        new_winnable(client, variant)
        assert searches_queued(variant) == 1
        new_winnable(client, variant)
        assert searches_queued(variant) == 1

    def test_with_no_deal_known_a_random_deal_is_dealt_and_the_page_says_so(
        self, client, monkeypatch
    ):
        # A game with no committed list (every game has one now): as a new game would be.
        monkeypatch.setattr(solving, "solutions", lambda variant: [])
        assert not solving.winnable_deals("maria")
        game = new_winnable(client, "maria")
        page = client.get(reverse("games:game", args=[game.public_id])).text
        assert "No deal of this game is known to be winnable yet" in page
        assert searches_queued("maria") == 1

    def test_a_deal_number_given_wins_over_the_option(self, client):
        response = client.post(
            reverse("games:new"), {"variant": "indian", "deal": "77", "winnable": "on"}
        )
        game = Game.objects.get(public_id=response["Location"].split("/")[2])
        assert game.deal_number == 77

    def test_the_pages_offer_the_option(self, client):
        home = client.get(reverse("pages:home")).text
        assert "Only deals that can be won" in home
        assert home.count('name="winnable" value="on"') == len(VARIANTS)
        game = start(client)
        page = client.get(reverse("games:game", args=[game.public_id])).text
        assert 'id="new-winnable-game"' in page
