"""What the game page reads that never changes once written is read once per process
(games/kept.py): a deal's grade once known, the daily deal a game was opened for. A second load
of the page asks the database less, and shows the same; a deal graded after its page was shown
shows its grade at the next load."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import kept
from games.models import GradedDeal

from .conftest import start
from .test_daily import game_page, play_today


@pytest.fixture(autouse=True)
def nothing_kept():
    kept.forget()
    yield
    kept.forget()


def load(client, game) -> tuple[str, int]:
    with CaptureQueriesContext(connection) as seen:
        response = client.get(reverse("games:game", args=[game.public_id]))
    assert response.status_code == 200
    return response.content.decode(), len(seen)


def test_a_second_load_of_a_daily_game_asks_less_and_shows_the_same(client):
    game = play_today(client)
    kept.forget()  # opening the game drew its page: this process read its daily deal then
    first, first_queries = load(client, game)
    again, again_queries = load(client, game)
    for page in (first, again):
        assert 'id="daily-banner"' in page and 'data-daily="warning"' in page
    assert again_queries < first_queries


def test_a_game_opened_for_no_daily_deal_is_kept_as_such(client):
    game = start(client, "lucas", 7)
    _page, first_queries = load(client, game)
    page, again_queries = load(client, game)
    assert 'id="daily-banner"' not in page
    # The grade asked again (the deal is not graded), not the daily deal.
    assert again_queries == first_queries - 1


def test_a_known_grade_is_read_once(client):
    GradedDeal.objects.create(variant="lucas", deal="776", grade="hard")
    game = start(client, "lucas", 776)
    first, first_queries = load(client, game)
    again, again_queries = load(client, game)
    assert '<span class="deal-grade">(hard)</span>' in first
    assert '<span class="deal-grade">(hard)</span>' in again
    assert again_queries == first_queries - 2


def test_a_deal_graded_after_its_page_was_shown_shows_its_grade_next_time(client):
    game = start(client, "lucas", 777)
    assert "deal-grade" not in load(client, game)[0]
    GradedDeal.objects.create(variant="lucas", deal="777", grade="medium")
    assert '<span class="deal-grade">(medium)</span>' in load(client, game)[0]


def test_the_daily_banner_of_a_game_is_its_own(client):
    daily_game, other = play_today(client), start(client, "lucas", 7)
    assert 'id="daily-banner"' in game_page(client, daily_game)
    assert 'id="daily-banner"' not in game_page(client, other)
    assert 'id="daily-banner"' in game_page(client, daily_game)
