"""Playing with JavaScript off: a card is a link that picks it up, each pile then offers a "Put
here" button, and the move is a form POST that redirects back to the game."""

import re

import pytest
from playwright.sync_api import expect

from .conftest import BOARD, STATE, card, layout, open_deal, pile, ply

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_move_is_a_link_then_a_form(nojs_page, live_server, screenshots):
    page = nojs_page
    open_deal(page, live_server)
    # Without the page's script the link's address stays in the address bar (a reload opens
    # the same untouched game); an action's redirect then lands on the game's own address.
    game_url = live_server.url + page.locator(BOARD).get_attribute("data-game-url")
    before = layout(page)
    expect(page.locator("#keys-help")).to_be_hidden()

    card(page, "t8").click()
    expect(page).to_have_url(re.compile(r"\?pick=t8$"))
    expect(page.locator(".pick-note")).to_contain_text("Ten of Hearts")
    put_here = pile(page, "t4").get_by_role("button", name="Put Ten of Hearts on")
    expect(put_here).to_have_class("drop legal")
    screenshots(page, "nojs-picked")

    put_here.click()
    expect(page).to_have_url(game_url)
    expect(page.locator(STATE)).not_to_have_attribute("data-ply", "0")
    assert layout(page)["t4"] == [*before["t4"], "TH"]
    expect(page.locator("#announce")).to_contain_text("Ten of Hearts")
    expect(page.locator(".pick-note")).to_have_count(0)
    screenshots(page, "nojs-moved")


def test_an_illegal_put_down_without_javascript_changes_nothing(
    nojs_page, live_server, screenshots
):
    page = nojs_page
    open_deal(page, live_server)
    before = layout(page)
    card(page, "t1").click()
    pile(page, "t2").locator("button.drop").click()
    expect(page.locator("#announce")).to_contain_text("That move is not allowed")
    assert ply(page) == 0 and layout(page) == before
    screenshots(page, "nojs-illegal")


def test_giving_up_asks_first_without_javascript(nojs_page, live_server, screenshots):
    page = nojs_page
    open_deal(page, live_server)
    # Without the page's script the link's address stays in the address bar (a reload opens
    # the same untouched game); an action's redirect then lands on the game's own address.
    game_url = live_server.url + page.locator(BOARD).get_attribute("data-game-url")
    page.locator("#give-up").click()
    expect(page.locator("h1")).to_have_text("Give up this game?")
    screenshots(page, "nojs-give-up-asks")
    page.get_by_role("link", name="Back to the game").click()
    expect(page).to_have_url(game_url)
    expect(page.locator(".outcome.given-up")).to_have_count(0)
    page.locator("#give-up").click()
    page.get_by_role("button", name="Give up").click()
    expect(page).to_have_url(game_url)
    expect(page.locator(".outcome.given-up")).to_contain_text("You gave up this game.")
