"""Looks in a real browser: chosen on the Looks page (with or without JavaScript), shown at once
while choosing, kept across reloads for a guest and on the account for a player's second
device; dark mode follows the system unless the player chose; four colours tell clubs and
diamonds apart."""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.models import Game

from .conftest import BOARD, LAPTOP, SCREENSHOTS, STATE, TALL_PHONE, open_deal

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a long enough passphrase 42"


def looks(page) -> dict[str, str]:
    return page.evaluate(
        "() => Object.fromEntries(['theme', 'table', 'back', 'deck', 'motion'].map("
        "n => [n, document.documentElement.dataset[n]]))"
    )


def colour(page, selector: str, prop: str = "color") -> str:
    return page.locator(selector).first.evaluate(f"e => getComputedStyle(e).{prop}")


def choose(page, **chosen: str) -> None:
    """Choose on the Looks page (reached from the game's header) and save."""
    page.get_by_role("link", name="Looks", exact=True).first.click()
    expect(page.get_by_role("heading", name="Looks")).to_be_visible()
    for name, value in chosen.items():
        page.locator(f'input[name="{name}"][value="{value}"]').check()
    page.get_by_role("button", name="Save").click()


def test_a_guest_keeps_the_looks_across_reloads_and_back_on_the_game(page, live_server):
    open_deal(page, live_server)
    felt = colour(page, BOARD, "backgroundColor")
    choose(page, table="wine", back="red", deck="four", motion="off")
    # Back on the game, drawn with them from the first paint.
    expect(page.locator(BOARD)).to_have_attribute("data-variant", "forty-thieves")
    assert looks(page) == {
        "theme": "auto",
        "table": "wine",
        "back": "red",
        "deck": "four",
        "motion": "off",
    }
    assert colour(page, BOARD, "backgroundColor") != felt
    assert colour(page, f'{BOARD} .card[data-card$="C"]') == "rgb(10, 122, 47)"  # clubs green
    assert colour(page, f'{BOARD} .card[data-card$="D"]') == "rgb(21, 70, 196)"  # diamonds blue
    page.reload()
    assert looks(page)["table"] == "wine" and looks(page)["motion"] == "off"
    page.set_viewport_size(LAPTOP)
    page.screenshot(path=str(SCREENSHOTS / "looks-wine-red-four-colours-laptop.png"))


def test_a_relaxed_game_shows_no_moves_or_clock_and_still_counts_them(page, live_server):
    open_deal(page, live_server)
    expect(page.locator(f"{BOARD} [data-clock]")).to_be_visible()
    choose(page, counters="hidden")
    expect(page.locator(BOARD)).to_have_attribute("data-variant", "forty-thieves")
    expect(page.locator(f"{BOARD} [data-moves]")).to_be_hidden()
    expect(page.locator(f"{BOARD} [data-clock]")).to_be_hidden()
    expect(page.locator(f"{BOARD} .game-info")).to_contain_text("Deal")  # the deal stays
    page.wait_for_load_state()
    page.keyboard.press("d")
    expect(page.locator(STATE)).to_have_attribute("data-ply", "1")
    expect(page.locator(f"{BOARD} [data-clock]")).to_be_hidden()
    assert Game.objects.get().player_moves == 1  # counted all the same


def test_a_choice_shows_at_once_on_the_looks_page_before_it_is_saved(page, live_server):
    page.goto(f"{live_server.url}/account/looks/")
    page.locator('input[name="theme"][value="dark"]').check()
    assert looks(page)["theme"] == "dark"
    assert colour(page, "body", "backgroundColor") == "rgb(18, 20, 22)"
    page.locator('input[name="back"][value="green"]').check()
    assert looks(page)["back"] == "green"
    page.screenshot(path=str(SCREENSHOTS / "looks-page-dark.png"), full_page=True)
    page.reload()  # not saved
    assert looks(page)["theme"] == "auto"


def test_dark_mode_follows_the_system_unless_the_player_chose(browser, live_server):
    context = browser.new_context(viewport=LAPTOP, color_scheme="dark")
    page = context.new_page()
    try:
        open_deal(page, live_server)
        assert colour(page, "body", "backgroundColor") == "rgb(18, 20, 22)"
        page.screenshot(path=str(SCREENSHOTS / "dark-forty-thieves-laptop.png"))
        choose(page, theme="light")
        expect(page.locator(BOARD)).to_be_visible()
        assert colour(page, "body", "backgroundColor") == "rgb(253, 253, 248)"
    finally:
        context.close()


def test_the_looks_follow_a_player_to_a_second_device(page, browser, live_server):
    User.objects.create_user("alice", "", PASSWORD)
    page.goto(f"{live_server.url}/account/login/")
    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    open_deal(page, live_server)
    choose(page, theme="dark", table="blue", back="green")
    expect(page.locator(BOARD)).to_be_visible()

    phone = browser.new_context(viewport=TALL_PHONE, has_touch=True, is_mobile=True)
    other = phone.new_page()
    try:
        other.goto(f"{live_server.url}/account/login/")
        assert looks(other)["table"] == "green"
        other.get_by_label("Username").fill("alice")
        other.get_by_label("Password").fill(PASSWORD)
        other.get_by_role("button", name="Log in").click()
        open_deal(other, live_server, "lucas")
        assert looks(other) == {
            "theme": "dark",
            "table": "blue",
            "back": "green",
            "deck": "two",
            "motion": "normal",
        }
        other.screenshot(path=str(SCREENSHOTS / "looks-second-device-phone.png"))
    finally:
        phone.close()


def test_the_looks_page_works_without_javascript(nojs_page, live_server):
    page = nojs_page
    open_deal(page, live_server)
    choose(page, table="blue", theme="dark")
    expect(page.locator(BOARD)).to_be_visible()
    assert looks(page)["table"] == "blue" and looks(page)["theme"] == "dark"


def test_every_swatch_on_the_looks_page_shows_its_choice(page, live_server):
    """A swatch beside a choice shows what it chooses; a choice with nothing to show has none,
    never an empty box."""
    page.goto(f"{live_server.url}/account/looks/")
    shown = page.locator(".swatch:visible").evaluate_all(
        """es => es.map(e => { const s = getComputedStyle(e);
            return [e.className, s.backgroundImage, s.backgroundColor]; })"""
    )
    assert len(shown) >= 10  # the tables, the backs, the themes and the decks
    blank = [
        name
        for name, image, colour in shown
        if image == "none" and colour in ("rgba(0, 0, 0, 0)", "transparent")
    ]
    assert blank == [], f"empty swatches: {blank}"
