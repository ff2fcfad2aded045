"""A game played in Polish, in a browser whose language is Polish: the home page opens in
Polish, the player picks a card up and moves it, is refused a move in Polish, undoes, and opens
the statistics; and the game page in each language, for the eye."""

import pytest
from playwright.sync_api import expect

from tests.test_catalogues import entries

from .conftest import BOARD, DESKTOP, _close, _new_page, card, moved_on, top_card

pytestmark = pytest.mark.django_db(transaction=True)


def polish(english: str, context: str = "") -> str:
    """The Polish of an English string of the site, up to its first placeholder."""
    for entry in entries("pl"):
        if entry["msgid"] == english and entry.get("msgctxt", "") == context:
            return entry["msgstr"][0].split("%(")[0].strip()
    raise AssertionError(f"not in the Polish catalogue: {english}")


@pytest.fixture
def polish_page(browser):
    context, page = _new_page(browser, DESKTOP, locale="pl-PL")
    yield page
    _close(context, page)


def test_a_game_is_played_in_polish(polish_page, live_server, screenshots):
    page = polish_page
    page.goto(live_server.url)
    expect(page).to_have_url(f"{live_server.url}/pl/")
    expect(page.locator("html")).to_have_attribute("lang", "pl")
    page.goto(f"{live_server.url}/pl/play/forty-thieves/1/")
    expect(page.locator(BOARD)).to_have_attribute("data-variant", "forty-thieves")
    expect(page.locator("html")).to_have_attribute("lang", "pl")
    expect(page.locator("#undo")).to_have_text(polish("Undo"))

    # Picked up and put down: the Eight of Diamonds... as deal 1 has it, t8 onto t4.
    announce = page.locator("#announce")
    card(page, "t8").click()
    # The card named as running text, with no capital after the colon.
    expect(announce).to_have_text("W ręce: dziesiątka kier.")
    top_card(page, "t4").click()
    played = moved_on(page, 0)
    expect(announce).not_to_be_empty()

    # A move the rules refuse: the reason in Polish.
    card(page, "t1").click()
    top_card(page, "t2").click()
    expect(announce.locator(".message.error")).to_contain_text(
        polish("That move is not allowed: %(reason)s.")
    )
    screenshots(page, "polish-refused")

    page.locator("#undo").click()
    moved_on(page, played)
    expect(announce).to_contain_text("Cofnięto: dziesiątka kier z kolumny 8 na kolumnę 4.")

    page.get_by_role("link", name=polish("Statistics")).click()
    expect(page.locator("html")).to_have_attribute("lang", "pl")
    expect(page.locator("h1")).to_contain_text(polish("Statistics: all games"))


@pytest.mark.parametrize("language", ["en", "fr", "nl", "pl", "vi"])
def test_the_game_page_in_each_language(browser, live_server, screenshots, language):
    context, page = _new_page(browser, DESKTOP, locale=language)
    try:
        page.goto(f"{live_server.url}/{language}/play/forty-thieves/1/")
        expect(page.locator("html")).to_have_attribute("lang", language)
        card(page, "t8").click()
        top_card(page, "t4").click()
        moved_on(page, 0)
        screenshots(page, f"game-{language}")
    finally:
        _close(context, page)


def test_the_keys_are_the_letters_of_the_players_words(polish_page, live_server):
    """In Polish, D deals (dobierz) and C undoes (cofnij); the keys help lists those letters."""
    page = polish_page
    page.goto(f"{live_server.url}/pl/play/forty-thieves/1/")
    expect(page.locator(BOARD)).to_have_attribute("data-variant", "forty-thieves")
    page.locator("#undo").focus()
    page.keyboard.press("d")
    dealt = moved_on(page, 0)
    page.keyboard.press("u")  # the English letter does nothing here
    page.keyboard.press("c")
    moved_on(page, dealt)
    help_keys = page.locator("#keys-help kbd").evaluate_all("keys => keys.map(k => k.textContent)")
    assert "C" in help_keys and "U" not in help_keys


def test_a_polish_link_opened_in_an_english_browser_plays_on_in_polish(browser, live_server):
    """The deal's link carries its language; the game it opens has an address without one, and
    its moves, its reload and the next pages stay Polish (the browser says English)."""
    context, page = _new_page(browser, DESKTOP, locale="en-US")
    try:
        page.goto(f"{live_server.url}/pl/play/maria/12/")
        expect(page.locator("html")).to_have_attribute("lang", "pl")
        page.wait_for_load_state()
        page.keyboard.press("d")
        expect(page.locator("#announce")).to_contain_text("Dobrano z talii")
        page.reload()
        expect(page.locator("html")).to_have_attribute("lang", "pl")
        page.goto(f"{live_server.url}/my/")
        expect(page.locator("html")).to_have_attribute("lang", "pl")
    finally:
        _close(context, page)
