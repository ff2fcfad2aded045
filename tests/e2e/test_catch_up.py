"""An open game page catching up with moves made elsewhere, at little cost while nothing
happens: two pages of one game side by side catch up within a few seconds of a move, a page
brought back into sight catches up at once, and a page left open asks rarely."""

import pytest
from playwright.sync_api import expect

from .conftest import BOARD, STATE, moved_on, open_deal, ply

pytestmark = pytest.mark.django_db(transaction=True)

#: What the issue promises for two pages side by side: within 5 s of a move.
SIDE_BY_SIDE_MS = 5_000
#: A page with no other way to hear of the move (no BroadcastChannel: another device).
NO_CHANNEL = "delete window.BroadcastChannel;"


def deal(page) -> int:
    before = ply(page)
    page.locator(f"{BOARD} .stock-button").click()
    return moved_on(page, before)


def second_page(first, init_script: str = ""):
    """Another tab of ``first``'s game, in the same browser (the same guest)."""
    other = first.context.new_page()
    other.set_default_timeout(10_000)
    other.blocked = first.blocked
    other.in_flight = first.in_flight
    if init_script:
        other.add_init_script(init_script)
    other.goto(first.url)
    expect(other.locator(STATE)).to_have_attribute("data-ply", str(ply(first)))
    other.wait_for_load_state()
    return other


def polls(page) -> list[str]:
    """The questions the page sends from now on: whether its game moved on."""
    asked = []
    page.on("request", lambda r: asked.append(r.url) if "/poll/" in r.url else None)
    return asked


def test_a_second_tab_catches_up_at_once(page, live_server):
    open_deal(page, live_server, "forty-thieves", 1)
    other = second_page(page)
    at = deal(page)
    expect(other.locator(STATE)).to_have_attribute("data-ply", str(at), timeout=SIDE_BY_SIDE_MS)
    other.close()


def test_a_page_that_only_asks_catches_up_within_seconds(page, live_server):
    """As another device would: it hears of the move only by asking."""
    open_deal(page, live_server, "forty-thieves", 1)
    other = second_page(page, NO_CHANNEL)
    at = deal(page)
    expect(other.locator(STATE)).to_have_attribute("data-ply", str(at), timeout=SIDE_BY_SIDE_MS)
    at = deal(page)  # and again: it goes on asking often while the game moves on
    expect(other.locator(STATE)).to_have_attribute("data-ply", str(at), timeout=SIDE_BY_SIDE_MS)
    other.close()


def test_a_page_brought_back_into_sight_catches_up_at_once(page, live_server):
    open_deal(page, live_server, "forty-thieves", 1)
    other = second_page(page, NO_CHANNEL)
    # Out of sight (a phone asleep, another tab in front): it asks nothing.
    seen(other, "hidden")
    before = ply(other)
    at = deal(page)
    other.wait_for_timeout(4_000)
    assert ply(other) == before
    seen(other, "visible")
    expect(other.locator(STATE)).to_have_attribute("data-ply", str(at), timeout=1_500)
    other.close()


def seen(page, state: str) -> None:
    """The page goes out of sight ("hidden") or comes back ("visible"), as the browser says."""
    page.evaluate(
        "state => { Object.defineProperty(document, 'visibilityState', "
        "{value: state, configurable: true});"
        "document.dispatchEvent(new Event('visibilitychange')); }",
        state,
    )


def test_a_page_left_open_asks_rarely(page, live_server):
    """Every 3 s at first; after a minute without news, at most once in 20 s, and it still
    asks. Its clock is the browser's own, run ahead: the test takes seconds, not minutes."""
    page.clock.install()
    open_deal(page, live_server, "forty-thieves", 1)
    page.wait_for_load_state()
    asked = polls(page)
    run_for(page, 30_000)
    first_half_minute = len(asked)
    run_for(page, 30_000)
    asked.clear()
    run_for(page, 120_000)
    assert first_half_minute >= 8  # about every 3 s: two pages side by side keep up
    assert 5 <= len(asked) <= 120 // 20  # once in 20 s, no more, and it still asks


def run_for(page, ms: int, step: int = 1_000) -> None:
    """The page's clock run ahead by ``ms``, a second at a time, each question answered before
    the next second (a page asks nothing while its last question is on its way)."""
    for _ in range(ms // step):
        page.clock.run_for(step)
        page.wait_for_timeout(40)


def test_a_page_in_play_does_not_ask(page, live_server):
    """Each of its own actions is checked against the game as it is: no question needed."""
    page.clock.install()
    open_deal(page, live_server, "forty-thieves", 1)
    page.wait_for_load_state()
    asked = polls(page)
    for _ in range(4):
        page.clock.run_for(2_000)
        deal(page)
    assert asked == []
