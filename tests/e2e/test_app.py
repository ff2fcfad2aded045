"""The site as an app (docs/app.md): Chromium finds it installable; its service worker keeps
the static files (a second visit fetches none from the server) and never answers a game's
request; offline, a move is refused (its card goes back, the page says why, the server hears
nothing) and back online the page catches up by itself; sound is silent and fetches nothing
until turned on, then a move sounds and what the catch-up brings does not; the pace chosen in
Looks changes how long a card flies; installed on a notched phone, nothing is drawn under the
notch.

Chromium's installability check reports "in incognito" for Playwright's ordinary contexts, so
the service worker's tests run in a persistent context (a profile in a temporary folder).
Playwright's offline mode may not cut a service worker's own fetches: what is checked is what
the page shows and what the server heard (``server_log``: every request the live server
answered)."""

from pathlib import Path

import pytest
from django.core.signals import request_started
from PIL import Image
from playwright.sync_api import expect

from .conftest import (
    BOARD,
    CHROMIUM,
    CHROMIUM_FLAGS,
    NO_SERVICE_WORKER,
    SCREENSHOTS,
    STATE,
    Held,
    _close,
    card,
    layout,
    moved_on,
    open_deal,
    ply,
    route_actions,
    top_card,
    watch,
)

pytestmark = pytest.mark.django_db(transaction=True)

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
#: Forty Thieves deal 1: the Ten of Hearts from column 8 onto the Jack of Hearts in column 4.
PICK, TARGET = "t8", "t4"
#: The page asks every 3 seconds at first (catchup.js); a few more for a slow machine.
CATCH_UP_MS = 9_000

#: Counts what the page asks of Web Audio: contexts made and sounds started.
AUDIO_SPY = """(() => {
    window.audioSpy = { contexts: 0, starts: 0 };
    const Real = window.AudioContext;
    if (!Real) return;
    window.AudioContext = class extends Real {
        constructor(...args) { super(...args); window.audioSpy.contexts += 1; }
    };
    const start = AudioBufferSourceNode.prototype.start;
    AudioBufferSourceNode.prototype.start = function (...args) {
        window.audioSpy.starts += 1;
        return start.apply(this, args);
    };
})();"""


@pytest.fixture
def server_log():
    """The paths of every request the live server answers, in order (its thread runs in this
    process: Django's request_started signal hears each)."""
    heard: list[str] = []

    def note(sender, environ=None, **kwargs):
        if environ:
            heard.append(environ.get("PATH_INFO", ""))

    request_started.connect(note)
    yield heard
    request_started.disconnect(note)


@pytest.fixture
def installed(browser, tmp_path):
    """A page in a persistent context (a profile of its own), where service workers run as in
    an installed app and Chromium's installability check answers."""
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"),
        executable_path=CHROMIUM,
        args=CHROMIUM_FLAGS,
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
    )
    # One tap would play a card's only move on this touch screen: the tests pick and put down.
    context.add_cookies([{"name": "looks", "value": "tap=off", "domain": "localhost", "path": "/"}])
    page = context.pages[0] if context.pages else context.new_page()
    watch(page)
    yield page
    _close(context, page)


def controlled(page) -> None:
    """Wait until the service worker is installed and controls the page."""
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("navigator.serviceWorker.controller !== null")


def click_move(page) -> None:
    card(page, PICK).click()
    top_card(page, TARGET).click()


def test_chromium_finds_the_site_installable(installed, live_server):
    page = installed
    page.goto(f"{live_server.url}/fr/")
    controlled(page)
    cdp = page.context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"].endswith("/fr/manifest.webmanifest")
    assert not manifest["errors"], manifest["errors"]
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    cdp.detach()


def test_the_worker_keeps_static_files_and_never_answers_a_game(installed, live_server, server_log):
    page = installed
    open_deal(page, live_server)
    controlled(page)

    # The second visit: every static file comes from the worker's cache, none from the server.
    server_log.clear()
    answers = []
    page.on("response", lambda r: answers.append(r))
    page.reload()
    expect(page.locator(BOARD)).to_have_attribute("data-variant", "forty-thieves")
    page.wait_for_load_state("load")
    statics = [r for r in answers if "/static/" in r.url]
    assert {"/static/js/game.js", "/static/css/site.css"} <= {
        r.url.removeprefix(live_server.url) for r in statics
    }
    assert all(r.from_service_worker for r in statics)
    assert not [path for path in server_log if path.startswith("/static/")]
    # The page itself went to the server.
    assert any(path.startswith("/g/") for path in server_log)

    # A move and the catch-up's question: the server's answers, never the worker's.
    answers.clear()
    click_move(page)
    moved_on(page, 0)
    page.evaluate("htmx.trigger(document.getElementById('poll'), 'catchup')")
    page.wait_for_timeout(300)
    games = [r for r in answers if "/g/" in r.url]
    assert any(r.request.method == "POST" for r in games)
    assert games and not [r.url for r in games if r.from_service_worker]


def test_offline_a_move_goes_back_and_back_online_the_page_catches_up(
    browser, page, live_server, server_log
):
    open_deal(page, live_server)
    page.wait_for_load_state("load")
    before = layout(page)
    server_log.clear()

    page.context.set_offline(True)
    expect(page.locator("#announce")).to_contain_text("You are offline")
    # The note is said again by the refusal itself, not only when the network went.
    page.evaluate("document.getElementById('announce').replaceChildren()")
    click_move(page)
    expect(page.locator("#announce")).to_contain_text("You are offline")
    expect(page.locator(f"{BOARD} .ahead-away")).to_have_count(0)
    expect(page.locator(".motion-layer.ahead")).to_have_count(0)
    assert layout(page) == before and ply(page) == 0
    assert [path for path in server_log if path.startswith("/g/")] == []

    # Meanwhile the same player plays on another device.
    other = browser.new_context()
    other.add_cookies(page.context.cookies())
    phone = other.new_page()
    phone.goto(page.url)
    click_move(phone)
    moved_on(phone, 0)
    there = layout(phone)
    other.close()

    # Back online: the page asks at once and shows the game as it now is.
    page.context.set_offline(False)
    expect(page.locator("#announce")).to_contain_text(
        "Caught up with moves made elsewhere", timeout=CATCH_UP_MS
    )
    expect(page.locator(f"{BOARD} [data-pile='{PICK}']")).not_to_contain_text(
        "10", timeout=CATCH_UP_MS
    )
    page.wait_for_function(
        "n => Number(document.getElementById('table-state').dataset.ply) > n", arg=0
    )
    caught_up = layout(page)
    assert caught_up == there
    page.reload()
    expect(page.locator(BOARD)).to_be_visible()
    assert layout(page) == caught_up


def sound_requests(page) -> list[str]:
    heard: list[str] = []
    page.on("request", lambda r: heard.append(r.url) if "/static/sounds/" in r.url else None)
    return heard


def test_with_sound_off_no_audio_is_made_and_nothing_fetched(page, live_server):
    page.add_init_script(AUDIO_SPY)
    sounds = sound_requests(page)
    open_deal(page, live_server)
    page.wait_for_load_state("load")
    click_move(page)
    at = moved_on(page, 0)
    page.locator(f"{BOARD} .stock-button").click()
    # The deal answered (the board's ply moved on): what the counters show is moved_on's
    # business in the tests of play; here only the silence counts.
    expect(page.locator(STATE)).not_to_have_attribute("data-ply", str(at))
    assert page.evaluate("window.audioSpy") == {"contexts": 0, "starts": 0}
    assert sounds == []


def test_with_sound_on_a_move_sounds_and_the_catch_up_does_not(browser, page, live_server):
    page.context.add_cookies(
        [{"name": "looks", "value": "sound=on", "domain": "localhost", "path": "/"}]
    )
    page.add_init_script(AUDIO_SPY)
    sounds = sound_requests(page)
    open_deal(page, live_server)
    page.wait_for_load_state("load")
    click_move(page)
    at = moved_on(page, 0)
    page.wait_for_function("window.audioSpy.starts >= 1")
    assert len(sounds) == 4  # fetched once sound is on, each once
    spy = page.evaluate("window.audioSpy")
    assert spy["contexts"] == 1

    # A deal made on another device reaches this page by the catch-up: silently.
    other = browser.new_context()
    other.add_cookies(page.context.cookies())
    phone = other.new_page()
    phone.goto(page.url)
    phone.locator(f"{BOARD} .stock-button").click()
    moved_on(phone, at)
    other.close()
    page.wait_for_function(
        "n => Number(document.getElementById('table-state').dataset.ply) > n",
        arg=at,
        timeout=CATCH_UP_MS,
    )
    page.wait_for_timeout(300)
    assert page.evaluate("window.audioSpy.starts") == spy["starts"]


#: How long the stand-in of a card played ahead flies (ms).
FLIGHT_MS = """() => {
    const el = document.querySelector('.motion-layer.ahead [data-card]');
    return el ? el.getAnimations()[0].effect.getComputedTiming().duration : null;
}"""


@pytest.mark.parametrize("reduced", [False, True])
def test_the_pace_chosen_in_looks_changes_how_long_a_card_flies(browser, live_server, reduced):
    flights = {}
    for pace in ("slow", "normal", "fast", "off"):
        context = browser.new_context(
            reduced_motion="reduce" if reduced else "no-preference", **NO_SERVICE_WORKER
        )
        context.add_cookies(
            [{"name": "looks", "value": f"motion={pace}", "domain": "localhost", "path": "/"}]
        )
        page = context.new_page()
        watch(page)
        route_actions(page)
        held = Held(page)
        open_deal(page, live_server)
        page.wait_for_load_state("load")
        click_move(page)
        held.wait()
        page.wait_for_function(f"({FLIGHT_MS})() !== null")
        flights[pace] = page.evaluate(f"({FLIGHT_MS})()")
        held.release()
        moved_on(page, 0)
        _close(context, page)
    if reduced:
        assert set(flights.values()) == {0}  # reduced motion wins over every pace
    else:
        assert flights["slow"] > flights["normal"] > flights["fast"] > flights["off"] == 0


def test_installed_on_a_notched_phone_nothing_is_drawn_under_the_notch(installed, live_server):
    """The standalone display, emulated: the whole window is the page's (no browser bar, as a
    headless window), and the phone reports the safe areas of its notch, rounded corners and
    home bar (Emulation.setSafeAreaInsetsOverride). Headless Chromium does not report
    display-mode: standalone even for an installed app's window; the page's layout does not
    depend on it, only on the insets."""
    page = installed
    cdp = page.context.new_cdp_session(page)
    shots = []
    for name, size, insets in (
        (
            "upright",
            {"width": 390, "height": 844},
            {"top": 47, "bottom": 34, "left": 0, "right": 0},
        ),
        (
            "sideways",
            {"width": 844, "height": 390},
            {"top": 0, "bottom": 21, "left": 47, "right": 47},
        ),
    ):
        page.set_viewport_size(size)
        cdp.send("Emulation.setSafeAreaInsetsOverride", {"insets": insets})
        open_deal(page, live_server)
        page.wait_for_load_state("load")
        for selector in (BOARD, ".game-header", "#site-menu > summary", "#controls"):
            box = page.locator(selector).bounding_box()
            assert box["y"] >= insets["top"] - 0.5, selector
            assert box["x"] >= insets["left"] - 0.5, selector
            assert box["x"] + box["width"] <= size["width"] - insets["right"] + 0.5, selector
            assert box["y"] + box["height"] <= size["height"] - insets["bottom"] + 0.5, selector
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"app-standalone-notch-{name}.png"
        page.screenshot(path=str(path))
        shots.append(path)
        if name == "upright":
            # The table runs on under the home bar: the strip below it is the table's colour,
            # as the one under the status bar, not the page's.
            table = page.locator(BOARD).evaluate("b => getComputedStyle(b).backgroundColor")
            with Image.open(path) as shot:
                rgb = shot.convert("RGB")
                under_bar = rgb.getpixel((size["width"] // 2, size["height"] - 5))
                under_status = rgb.getpixel((size["width"] // 2, 5))
            assert f"rgb({', '.join(map(str, under_bar))})" == table
            assert under_status == under_bar
    cdp.detach()
    assert all(path.exists() for path in shots)
