"""The clock in a real browser: it ticks on the page, the game's time is the time really spent
(to the millisecond, not whole seconds a move), and it stops while the page is hidden, the
server leaving that time out too; the won panel shows the win's moves and time."""

import json
import time

import pytest
from playwright.sync_api import expect

from games.models import Game
from games.rules import Record
from tests.web.conftest import won_record

from .conftest import BOARD, card, moved_on, open_deal, pile, ply

pytestmark = pytest.mark.django_db(transaction=True)

CLOCK = "#game-info time[data-clock]"
#: Hiding the page as a browser does when its tab is put in the background (Playwright has no
#: such switch: the document's visibility is what the page's scripts read).
HIDE = """state => {
    Object.defineProperty(document, "visibilityState", {configurable: true, get: () => state});
    Object.defineProperty(document, "hidden", {configurable: true, get: () => state === "hidden"});
    document.dispatchEvent(new Event("visibilitychange"));
}"""


def seconds(text: str) -> int:
    """A clock's ``m:ss`` or ``h:mm:ss`` in seconds."""
    total = 0
    for part in text.split(":"):
        total = total * 60 + int(part)
    return total


def shown(page) -> int:
    return seconds(page.locator(CLOCK).inner_text())


def play(page, move: str) -> None:
    """Play ``move`` by clicking its card (the stock's button for a deal), then the pile it
    goes to; wait for the answer."""
    before = ply(page)
    if move == "deal":
        pile(page, "s").get_by_role("button").click()
    else:
        source, _dash, target = move.partition("-")
        card(page, source).click()
        pile(page, target).click()
    moved_on(page, before)


def test_twelve_moves_a_second_apart_make_eleven_seconds_and_the_record_keeps_them(
    page, live_server, screenshot
):
    record = won_record()
    near = Record(record.variant, record.deal, record.moves[:-12])
    page.goto(f"{live_server.url}/import/")
    page.locator("#id_text").fill(near.to_json())
    page.get_by_role("button", name="Start this game").click()
    expect(page.locator(BOARD)).to_have_attribute("data-variant", "indian")
    # The clock counts from the page's drawing (games/pace.py), a moment before this.
    started = time.monotonic()
    page.wait_for_load_state()
    # The player's own twelve moves: no automatic move may play them.
    page.locator("#autoplay").evaluate("button => button.click()")
    expect(page.locator("#autoplay")).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#finish-win")).to_be_visible()  # a win is certain from here

    for n, move in enumerate(record.moves[-12:]):
        page.wait_for_timeout(max(0, (started + 1 + n - time.monotonic()) * 1000))
        if n == 11:
            assert shown(page) >= 10  # the clock ticked on between the moves
        play(page, move)
    spent = time.monotonic() - started

    panel = page.locator("#won-panel")
    expect(panel).to_be_visible(timeout=15_000)
    expect(panel.locator('[data-win="moves"]')).to_have_text(str(len(record.moves)))
    assert seconds(panel.locator('[data-win="time"]').inner_text()) >= 11
    assert shown(page) >= 11
    screenshot(page, "won-panel")

    game = Game.objects.get(status="won")
    assert abs(game.milliseconds_played / 1000 - spent) < 1
    download = page.request.get(f"{live_server.url}/g/{game.public_id}/record/")
    assert json.loads(download.text())["milliseconds_played"] == game.milliseconds_played


def test_the_clock_stops_while_the_page_is_hidden_and_that_time_is_not_counted(page, live_server):
    started = time.monotonic()  # before the game is: its clock starts when it is dealt
    open_deal(page, live_server)
    page.wait_for_load_state()
    before = page.locator(CLOCK).inner_text()
    expect(page.locator(CLOCK)).not_to_have_text(before, timeout=3_000)  # it ticks

    page.evaluate(HIDE, "hidden")
    stopped = page.locator(CLOCK).inner_text()
    page.wait_for_timeout(3_000)
    assert page.locator(CLOCK).inner_text() == stopped
    page.evaluate(HIDE, "visible")

    play(page, "deal")
    elapsed = time.monotonic() - started
    game = Game.objects.get()
    assert game.milliseconds_played / 1000 <= elapsed - 2.5
    # The page and the server agree on the time at the move.
    assert abs(shown(page) - game.milliseconds_played / 1000) <= 1
