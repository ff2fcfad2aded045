"""Real-browser tests: Debian's Chromium driven by Playwright against a live test server.

These tests fail (never skip) when Chromium is missing, and say how to install it.
"""

import os
import re
import shutil
from pathlib import Path

import pytest
from django.core.cache import cache
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from games.models import Game

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 360, "height": 740}
#: The sizes the whole table must fit without scrolling: a laptop's window and a tall phone.
LAPTOP = {"width": 1280, "height": 720}
TALL_PHONE = {"width": 390, "height": 844}

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config, items):
    """Every test under tests/e2e is marked e2e: `-m "not e2e"` leaves the browser out."""
    for item in items:
        if item.path.is_relative_to(HERE):
            item.add_marker(pytest.mark.e2e)


# Playwright's sync API runs an event loop in this thread; the ORM calls the tests make
# between browser steps are ordinary synchronous code.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="session")
def browser():
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        pytest.fail(
            f"Chromium was not found at {CHROMIUM}. The browser tests need it: install it with "
            "`apt-get install -y chromium` (Debian), or set CHROMIUM to its path.",
            pytrace=False,
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield browser
        browser.close()


@pytest.fixture(autouse=True)
def fresh_limits():
    """Every browser test starts with the site's rate limits counted afresh: the tests all come
    from one address, and together they open more new games a minute than a player may."""
    cache.clear()


def _new_page(browser, viewport, one_tap: bool = False, **options):
    context = browser.new_context(viewport=viewport, **options)
    if options.get("has_touch") and not one_tap:
        # On a touch screen one tap plays a card's only move by default: the tests of picking
        # up and putting down (and of what a tap shows) turn it off, as a player can.
        context.add_cookies(
            [{"name": "looks", "value": "tap=off", "domain": "localhost", "path": "/"}]
        )
    page = context.new_page()
    watch(page)
    return context, page


def watch(page) -> None:
    """Hold ``page`` to the tests' rules: a ten-second wait at most, and any Content Security
    Policy violation, htmx error or script error noted, to fail the test at its end."""
    page.set_default_timeout(10_000)
    # Every page runs under the site's Content Security Policy: anything it blocks (an inline
    # script or style, a script from elsewhere, code htmx would evaluate), any error htmx logs
    # and any script error fails the test.
    page.blocked = []
    page.on(
        "console",
        lambda m: (
            page.blocked.append(m.text)
            if m.type == "error" and ("Content Security Policy" in m.text or "htmx:" in m.text)
            else None
        ),
    )
    page.on("pageerror", lambda e: page.blocked.append(f"script error: {e}"))
    # Requests still on their way when a test ends (the catch-up poll, say) would hold the test
    # database's tables while the test's data is flushed: the page is closed once none is.
    page.in_flight = set()
    page.on("request", lambda r: page.in_flight.add(r))
    page.on("requestfinished", lambda r: page.in_flight.discard(r))
    page.on("requestfailed", lambda r: page.in_flight.discard(r))


def _quiet(page, ms: int = 5_000) -> None:
    """Wait (up to ``ms``) until the page has no request on its way, then stop its timers."""
    for _ in range(ms // 20):
        if not page.in_flight:
            break
        page.wait_for_timeout(20)
    page.goto("about:blank")


def _close(context, page) -> None:
    blocked = list(page.blocked)
    if not page.is_closed():
        _quiet(page)
    context.close()
    assert not blocked, "the page broke its Content Security Policy or threw: " + "; ".join(blocked)


@pytest.fixture
def page(browser):
    context, page = _new_page(browser, DESKTOP)
    yield page
    _close(context, page)


#: Where a test holds the answers back (``Held``): without the site's service worker, so
#: that Playwright's routes see every request the page makes: its documentation says routing
#: does not intercept what a service worker handles, and to block them when routing.
NO_SERVICE_WORKER = {"service_workers": "block"}


@pytest.fixture
def routed_page(browser):
    """A desktop page (as ``page``) whose every request Playwright's routes see."""
    context, page = _new_page(browser, DESKTOP, **NO_SERVICE_WORKER)
    route_actions(page)
    yield page
    _close(context, page)


@pytest.fixture
def phone_page(browser):
    context, page = _new_page(browser, PHONE, has_touch=True, is_mobile=True)
    yield page
    _close(context, page)


def _open_page(browser, viewport, **options):
    context, page = _new_page(browser, viewport, **options)
    yield page
    _close(context, page)


@pytest.fixture
def laptop_page(browser):
    yield from _open_page(browser, LAPTOP)


@pytest.fixture
def tall_phone_page(browser):
    yield from _open_page(browser, TALL_PHONE, has_touch=True, is_mobile=True)


@pytest.fixture
def nojs_page(browser):
    context, page = _new_page(browser, DESKTOP, java_script_enabled=False)
    yield page
    _close(context, page)


@pytest.fixture
def screenshot():
    """Save a screenshot under test-artifacts/screenshots/ (git-ignored) for a person to see."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(page, name: str) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


@pytest.fixture
def screenshots(screenshot):
    """Save the page at a desktop and at a phone width (``NAME-desktop``, ``NAME-phone``)."""

    def take(page, name: str) -> list[Path]:
        size = page.viewport_size
        paths = []
        for label, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
            page.set_viewport_size(viewport)
            paths.append(screenshot(page, f"{name}-{label}"))
        page.set_viewport_size(size)
        return paths

    return take


# -- reading and playing the board ----------------------------------------------------------

BOARD = "#board"
#: The board's ply and version, which every action sends.
STATE = "#table-state"


#: A game's own address, which its page puts in the address bar once its script runs (the page
#: may be the answer to the form or the link that opened the game: docs/architecture.md).
GAME_ADDRESS = re.compile(r"/g/([^/?#]+)/$")


def shown_game(page):
    """The game the page shows, once the address bar holds the game's own address."""
    expect(page).to_have_url(GAME_ADDRESS)
    return Game.objects.get(public_id=GAME_ADDRESS.search(page.url)[1])


def open_deal(page, live_server, variant: str = "forty-thieves", deal: int = 1):
    """Open the shareable link of a deal: a new game of it, its board ready to play."""
    page.goto(f"{live_server.url}/play/{variant}/{deal}/")
    expect(page.locator(BOARD)).to_have_attribute("data-variant", variant)
    return page.locator(BOARD)


def automatic_moves_off(page, live_server, variant: str) -> None:
    """Turn the automatic moves off for ``variant`` (the session's setting, from a game of a
    deal no test plays), so that the next deal opened stays as dealt: no ace goes home by
    itself."""
    open_deal(page, live_server, variant, 999_999)
    page.wait_for_load_state()
    button = page.locator("#autoplay")
    if button.get_attribute("aria-pressed") == "true":
        button.evaluate("button => button.click()")
        expect(button).to_have_attribute("aria-pressed", "false")


def ply(page) -> int:
    return int(page.locator(STATE).get_attribute("data-ply"))


def layout(page) -> dict[str, list[str]]:
    """Every pile's cards as drawn, bottom to top ("down" for a face-down card)."""
    return page.locator(f"{BOARD} [data-pile]").evaluate_all(
        """piles => Object.fromEntries(piles.map(p => [p.dataset.pile,
            Array.from(p.querySelectorAll('[data-card]'), c => c.dataset.card)]))"""
    )


def legal_picks(page) -> dict[str, list[str]]:
    """Each card that can be picked up and has somewhere to go: its pick and its targets (from
    the legal moves the table lists, each checked to be a card drawn as one to pick up)."""
    moves = page.locator(f"{BOARD} #table-state").get_attribute("data-legal").split()
    cards = page.locator(f"{BOARD} a[data-pick]")
    drawn = set(cards.evaluate_all("cards => cards.map(c => c.dataset.pick)"))
    picks: dict[str, list[str]] = {}
    for move in moves:
        pick, _dash, target = move.partition("-")
        assert pick in drawn, f"{move} is listed but no card is drawn to pick up as {pick}"
        picks.setdefault(pick, []).append(target)
    return picks


def card(page, pick: str):
    return page.locator(f'{BOARD} a[data-pick="{pick}"]')


def pile(page, name: str):
    return page.locator(f'{BOARD} [data-pile="{name}"]')


def top_card(page, name: str):
    """The top card of a pile (the last one drawn), or its empty slot."""
    return pile(page, name).locator(":scope > .card, :scope > .slot").last


def moved_on(page, before: int) -> int:
    """Wait for the board after a move (its ply is not ``before``); the counter agrees: the
    player's moves are the log's less the automatic ones, which it shows apart."""
    # Read at one moment in the page: the ply and the counters come in separate swaps.
    try:
        page.wait_for_function(MOVED_ON, arg=[STATE, BOARD, before])
    except PlaywrightTimeoutError:
        shown = page.evaluate(COUNTERS, [STATE, BOARD])
        raise AssertionError(f"no board after ply {before} whose counter agrees: {shown}") from None
    return ply(page)


#: The ply shown, the player's moves counted and the automatic ones counted apart.
COUNTERS = """([state, board]) => {
    const b = document.querySelector(board);
    const automatic = b && b.querySelector('[data-automatic]');
    const moves = b && b.querySelector('[data-moves]');
    return {ply: (document.querySelector(state) || {dataset: {}}).dataset.ply,
            moves: moves ? moves.textContent.trim() : null,
            automatic: automatic ? Number(automatic.dataset.automatic) : 0};
}"""
MOVED_ON = f"""([state, board, before]) => {{
    const now = ({COUNTERS})([state, board]);
    return now.ply !== undefined && now.ply !== String(before)
        && now.moves === String(Number(now.ply) - now.automatic);
}}"""


def grab_point(locator) -> tuple[float, float]:
    """A point on the visible strip of a card (cards above it cover the rest)."""
    box = locator.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + min(box["height"] * 0.15, 12)


def drop_point(page, name: str) -> tuple[float, float]:
    box = top_card(page, name).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.7


def mouse_drag(page, start: tuple[float, float], end: tuple[float, float]) -> None:
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(start[0] + 8, start[1] + 8, steps=2)
    page.mouse.move(*end, steps=8)
    page.mouse.up()


def touch_drag(page, start: tuple[float, float], end: tuple[float, float], steps: int = 8):
    """A finger drag, sent as touch events through the DevTools protocol (Playwright has taps
    only)."""
    session = page.context.new_cdp_session(page)
    send = session.send

    def touch(kind: str, x: float, y: float) -> None:
        points = [] if kind == "touchEnd" else [{"x": x, "y": y}]
        send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", *start)
    for n in range(1, steps + 1):
        x = start[0] + (end[0] - start[0]) * n / steps
        y = start[1] + (end[1] - start[1]) * n / steps
        touch("touchMove", x, y)
    touch("touchEnd", *end)
    session.detach()


def no_horizontal_overflow(page) -> None:
    width = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert width[0] <= width[1] + 1, f"the page is {width[0]}px wide in a {width[1]}px window"


# -- holding answers back ---------------------------------------------------------------------

#: The game's actions whose answers a test holds back.
ACTIONS = re.compile(r"/g/[^/]+/(move|to-foundation|undo|redo)/$")


def route_actions(page) -> None:
    """Route the game's actions of ``page`` through the tests from now on, each let through
    until a ``Held`` holds them. Called before the page loads: a route added to a page already
    playing is not always in place for the very next request (Chromium's interception is
    switched on while the page runs), and an undo sent at once went past it about once in
    fifteen runs."""
    page.holder = None

    def through(route):
        if page.holder is None:
            route.fallback()
        else:
            page.holder.hold(route)

    page.route(ACTIONS, through)


class Held:
    """The answers to the game's actions, held back until released, in the order sent."""

    def __init__(self, page):
        self.page = page
        self.routes = []
        self.posted: list[str] = []
        if not hasattr(page, "holder"):
            route_actions(page)
        page.holder = self

    def hold(self, route):
        self.posted.append(route.request.post_data or "")
        self.routes.append(route)

    def wait(self, count: int = 1) -> None:
        """Wait until ``count`` requests have been sent in all."""
        for _ in range(1000):
            if len(self.posted) >= count:
                return
            self.page.wait_for_timeout(10)
        raise AssertionError(f"{len(self.posted)} requests sent, not {count}")

    def release(self) -> None:
        self.routes.pop(0).continue_()
