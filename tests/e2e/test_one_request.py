"""A game opens in one request: the form or the link that opens it is answered with the game
page itself, whose address the page puts in the address bar. A reload then shows the same game
(no second game, no form sent again), a language chosen on it comes back to it, Back goes to
the page the player came from, and without JavaScript the form is answered with a redirect, as
before."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games.models import Game

from .conftest import BOARD, shown_game

pytestmark = pytest.mark.django_db(transaction=True)


def documents(page) -> list[str]:
    """The pages the browser asks for from now on: method and path, in order."""
    asked: list[str] = []

    def note(request) -> None:
        if request.resource_type == "document":
            asked.append(f"{request.method} {request.url.split('//', 1)[1].split('/', 1)[1]}")

    page.on("request", note)
    return asked


def the_game(page) -> Game:
    """The game the page shows, by the address in its address bar: the only game there is."""
    game = shown_game(page)
    assert Game.objects.get() == game
    expect(page.locator(BOARD)).to_have_attribute(
        "data-game-url", reverse("games:game", args=[game.public_id])
    )
    return game


def open_from(page, address: str, role: str, name: str, variant: str) -> list[str]:
    """On the page at ``address``, the button or link ``name`` that opens a game of ``variant``
    pressed: the pages the browser asked for from then on (more as the test goes on)."""
    page.goto(address)
    asked = documents(page)
    page.get_by_role(role, name=name).click()
    shows(page, variant)
    return asked


def shows(page, variant: str) -> None:
    expect(page.locator(BOARD)).to_have_attribute("data-variant", variant)


def test_a_new_game_from_the_home_page_is_one_request_and_a_reload_shows_it_again(
    page, live_server
):
    asked = open_from(page, f"{live_server.url}/en/", "button", "New game of Lucas", "lucas")
    assert asked == ["POST new/"]
    game = the_game(page)

    page.reload()
    shows(page, "lucas")
    assert asked == ["POST new/", f"GET g/{game.public_id}/"]
    assert the_game(page) == game

    page.go_back()
    expect(page).to_have_url(f"{live_server.url}/en/")
    page.go_forward()
    shows(page, "lucas")
    assert the_game(page) == game


def test_a_language_chosen_on_a_page_that_answered_the_form_comes_back_to_its_game(
    page, live_server
):
    open_from(page, f"{live_server.url}/en/", "button", "New game of Maria", "maria")
    game = the_game(page)
    page.locator("#language-choice").select_option("fr")
    page.get_by_role("button", name="Change language").click()
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    shows(page, "maria")
    assert the_game(page) == game


def test_today_s_deal_opens_in_one_request_and_keeps_its_game(page, live_server):
    asked = open_from(page, f"{live_server.url}/daily/", "link", "Play Maria", "maria")
    assert asked == ["GET daily/maria/"]
    game = the_game(page)
    page.reload()
    shows(page, "maria")
    assert the_game(page) == game
    assert asked == ["GET daily/maria/", f"GET g/{game.public_id}/"]


def test_without_javascript_a_new_game_is_a_redirect_to_its_page(nojs_page, live_server):
    asked = open_from(nojs_page, f"{live_server.url}/en/", "button", "New game of Lucas", "lucas")
    game = the_game(nojs_page)
    assert asked == ["POST new/", f"GET g/{game.public_id}/"]
