"""The home page on a phone held upright (390 by 844, touch) and on a laptop, in English and in
Polish: each game shows its table as dealt, a picture that keeps its room while it loads, and
on a touch screen every control is a finger's target, 44 px high at least."""

import pytest
from django.conf import settings
from playwright.sync_api import expect

from games.images import PICTURE_HEIGHT, PICTURE_WIDTH
from games.rules import VARIANTS

from .conftest import LAPTOP, SCREENSHOTS, TALL_PHONE, _close, _new_page

pytestmark = pytest.mark.django_db(transaction=True)

#: Every control a finger may aim at on the home page, and the checkbox's row and label.
CONTROLS = (
    "main :is(select, button, input[type='text'], input[type='number']), "
    ".site-header :is(select, button), .variant-actions > a, "
    ".winnable-field, .winnable-field > label"
)


def home(browser, live_server, viewport, language: str, **options):
    context, page = _new_page(browser, viewport, **options)
    context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    page.goto(f"{live_server.url}/{language}/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    return context, page


def window_shot(page, name: str) -> None:
    """The window as the player sees it, for a person to look at (a whole-page screenshot
    would resize the window and lose the touch screen's media queries)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("scrollTo(0, 0)")
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def pictures_shown(page) -> None:
    """Each game's picture, scrolled into sight (they load lazily), drawn at its full size and
    shown in the room its width and height attributes kept."""
    pictures = page.locator("img.variant-picture")
    expect(pictures).to_have_count(len(VARIANTS))
    for n in range(len(VARIANTS)):
        picture = pictures.nth(n)
        kept = picture.evaluate("img => img.getBoundingClientRect().height")
        picture.scroll_into_view_if_needed()
        expect(picture).to_have_js_property("complete", True)
        assert picture.evaluate("img => img.naturalWidth") == PICTURE_WIDTH
        assert picture.evaluate("img => img.naturalHeight") == PICTURE_HEIGHT
        assert picture.evaluate("img => img.getBoundingClientRect().height") == kept > 0
        assert picture.get_attribute("alt")


@pytest.mark.parametrize("language", ["en", "pl"])
def test_on_a_phone_every_control_is_a_finger_s_target_and_each_game_shows_its_table(
    browser, live_server, language
):
    context, page = home(browser, live_server, TALL_PHONE, language, has_touch=True, is_mobile=True)
    try:
        assert page.evaluate("matchMedia('(pointer: coarse)').matches")
        sizes = page.locator(CONTROLS).evaluate_all(
            """all => all.filter(e => e.offsetParent !== null).map(
                e => [e.id || e.name || e.textContent.trim().slice(0, 30),
                      e.getBoundingClientRect().height])"""
        )
        assert len(sizes) > 30
        small = [(name, height) for name, height in sizes if height < 44]
        assert small == [], small
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= TALL_PHONE["width"]
        pictures_shown(page)
        window_shot(page, f"home-{language}-390x844")
    finally:
        _close(context, page)


def test_on_a_laptop_each_game_shows_its_table(browser, live_server):
    context, page = home(browser, live_server, LAPTOP, "en")
    try:
        pictures_shown(page)
        window_shot(page, "home-en-1280x720")
    finally:
        _close(context, page)
