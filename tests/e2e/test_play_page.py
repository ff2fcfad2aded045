"""The play page as a player meets it on a phone upright (390x844, touch), sideways (844x390,
touch) and on a laptop (1280x720) (docs/phone.md, "Answers, the won panel and thumb-sized
controls"): a tap just after a drag is a tap; a hint's or "Can this still be won?"'s answer and
its Finish are in sight and on top, right after a move and alone; the won panel's buttons are in
the window and on top after a helped win; every control is a thumb's height on a touch screen;
a covered card shows its corner only."""

import pytest
from playwright.sync_api import expect

from .conftest import (
    BOARD,
    _close,
    _new_page,
    card,
    drop_point,
    grab_point,
    mouse_drag,
    open_deal,
    touch_drag,
)

pytestmark = pytest.mark.django_db(transaction=True)

#: The sizes, each with whether it is a touch screen.
SIZES = {"390x844": True, "844x390": True, "1280x720": False}
#: The least height of a control on a touch screen (CSS pixels): a thumb's target.
THUMB = 44


@pytest.fixture(params=list(SIZES))
def screen(request, browser):
    """A page at one of SIZES: a phone's with touch, or a laptop's with a mouse."""
    width, height = map(int, request.param.split("x"))
    touch = SIZES[request.param]
    context, page = _new_page(
        browser, {"width": width, "height": height}, has_touch=touch, is_mobile=touch
    )
    page.touch = touch
    yield page
    _close(context, page)


def press(page, locator) -> None:
    """A tap on a touch screen, a click with a mouse."""
    if page.touch:
        locator.tap()
    else:
        locator.click()


def test_a_tap_just_after_a_drag_picks_up_a_card(screen, live_server):
    page = screen
    open_deal(page, live_server, "forty-thieves", 1)
    page.wait_for_load_state()
    # The Ten of Hearts dragged and let go on the stock, which takes no card: it goes back.
    start, end = grab_point(card(page, "t8")), drop_point(page, "s")
    (touch_drag if page.touch else mouse_drag)(page, start, end)
    expect(page.locator(".drag-ghost")).to_have_count(0)
    # The player's next tap comes 100 ms after letting go: the pause is the case tested, not
    # a wait for the page.
    page.wait_for_timeout(100)
    press(page, card(page, "t1"))
    expect(page.locator(BOARD)).to_have_attribute("data-pick", "t1")
