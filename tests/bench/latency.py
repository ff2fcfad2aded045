"""Benchmark of play at a distance: run it as `.venv/bin/python tests/bench/latency.py`
(or with round trips in ms as arguments, `... latency.py 200`, for only those).

It serves the site from a temporary SQLite file (Django's live test server, DEBUG off, static
files as collectstatic writes them) and plays in Debian's Chromium with Chrome's own network
emulation (the DevTools protocol's Network.emulateNetworkConditions: every request waits the
round trip given, bandwidth unlimited) at 0, 100, 200 and 300 ms. At each round trip it plays
- 10 moves in each of three games, made three ways: a click on the card then on the pile
  (Forty Thieves), a drag and drop (Streets), the keys (Maria: the column's digit, then the
  target's digit, W for the waste, F for a foundation), each a legal move of one card read from
  the board's list; and 10 deals by a click on the stock. One at a time: the next waits until
  the answer is in and nothing moves;
- 8 deals by the D key, 60 ms apart, on a new game of Forty Thieves;
- a first visit of a game page (the game made before, the browser's cache emptied) and a
  second one (the cache as the first left it).

For each input it notes, in the page, the input event's time (the pointer let go, the key
pressed) and the first animation frame in which a card is seen moving (a stand-in in the
motion layer with an animation running past its first moment), and the first frame in which
the board's ply or version (#table-state, only ever the server's) is no longer the one shown
when the input was made: the board confirmed. It prints, per round trip,
- moves and deals: median and 95th percentile (ms) from the input to the card moving, and to
  the board confirmed;
- 8 quick deals: the time from the first key to the eighth card seen leaving the stock (a
  face-down stand-in whose flight starts there), and whether the
  stock lost exactly 8 cards in the end (nothing lost, nothing doubled);
- the first and the second visit: the time to the page drawn and playable (the later of the
  first paint and the end of DOMContentLoaded, when the deferred scripts have run), the
  requests after the page itself, and the bytes over the wire (the page included).
Nothing here is a pass or fail: the figures are for docs/performance.md.
"""

import os
import random
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.move_request import setup_django  # noqa: E402

ROUND_TRIPS = [0, 100, 200, 300]
MOVES_PER_GAME = 10
DEALS = 10
QUICK_DEALS = 8
QUICK_GAP_MS = 60
SEED = 20261202
VIEWPORT = {"width": 1280, "height": 720}
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
#: The way each game's moves are made, and the games (variant, first deal): ten columns each, so
#: that a digit names every column.
WAYS = [("click", "forty-thieves", 11), ("drag", "streets", 21), ("keys", "maria", 31)]

#: Installed in the page: the input's time, the first frame a card moves, the board confirmed,
#: and each face-down stand-in (a dealt card) seen moving.
PROBE = r"""() => {
    const p = window.latencyProbe = {input: null, moving: null, confirmed: null, state: '',
                                     deals: [], seen: new WeakSet(), armed: false};
    const stateOf = () => {
        const s = document.getElementById('table-state');
        return s ? `${s.dataset.ply}/${s.dataset.version}` : '';
    };
    const mark = (e) => { if (p.armed && p.input === null) p.input = e.timeStamp; };
    // A card travels when its place changes (not only its width, as a card turning over).
    const place = (frame) => String(frame.transform || '').split(' scale')[0];
    const travels = (a) => {
        const frames = a.effect ? a.effect.getKeyframes() : [];
        return frames.some(f => place(f) !== place(frames[0]));
    };
    // A card dealt: a face-down stand-in whose flight starts on the stock (not one that goes
    // on from where a card dealt ahead of its answer already is).
    let stock = null;
    const fromStock = (a) => {
        const frames = a.effect ? a.effect.getKeyframes() : [];
        const at = /translate\(([-\d.]+)px, ([-\d.]+)px\)/.exec(place(frames[0] || {}));
        return Boolean(stock && at) && Math.abs(at[1] - stock.left) < 2 &&
            Math.abs(at[2] - stock.top) < 2;
    };
    addEventListener('pointerup', mark, true);
    addEventListener('keydown', mark, true);
    const tick = () => {
        const now = performance.now();
        if (p.input !== null) {
            for (const el of document.querySelectorAll('.motion-layer > *')) {
                const moving = el.getAnimations().some(
                    a => a.playState === 'running' && a.currentTime > 0);
                if (!moving) continue;
                if (p.moving === null) p.moving = now;
                if (el.dataset.card === 'down' && !p.seen.has(el) &&
                        el.getAnimations().some(a => travels(a) && fromStock(a))) {
                    p.seen.add(el);
                    p.deals.push(now);
                }
            }
            if (p.confirmed === null && stateOf() !== p.state) p.confirmed = now;
        }
        requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    p.arm = () => {
        Object.assign(p, {input: null, moving: null, confirmed: null, deals: [], armed: true,
                          state: stateOf()});
        const card = document.querySelector('#board [data-pile="s"] > .card');
        stock = card ? card.getBoundingClientRect() : null;
    };
}"""

READ = """() => {
    const p = window.latencyProbe;
    return {input: p.input, moving: p.moving, confirmed: p.confirmed, deals: p.deals};
}"""

#: Nothing moves and no request is on its way.
STILL = """!document.querySelector('.motion-layer') &&
    !document.querySelector('.htmx-request:not([data-poll])')"""


def emulate(page, rtt: int):
    session = page.context.new_cdp_session(page)
    session.send("Network.enable")
    session.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": rtt, "downloadThroughput": -1, "uploadThroughput": -1},
    )
    return session


def wait_until(page, script: str, timeout_ms: int = 8000) -> bool:
    for _ in range(timeout_ms // 20):
        if page.evaluate(script):
            return True
        page.wait_for_timeout(20)
    return False


def settle(page) -> None:
    """Wait until the answer is in and nothing moves."""
    if not wait_until(page, f"window.latencyProbe.confirmed !== null && {STILL}", 4000):
        print("an input was not answered in 4 s", file=sys.stderr)
    wait_until(page, STILL)
    page.wait_for_timeout(50)


def open_game(page, url: str, variant: str, deal: int) -> None:
    page.goto(f"{url}/play/{variant}/{deal}/")
    page.wait_for_load_state()
    page.evaluate(PROBE)


def legal_single_moves(page) -> list[tuple[str, str]]:
    """The legal moves of one card from a column (1 to 10) or the waste to a column or a
    foundation."""
    text = page.locator("#table-state").get_attribute("data-legal") or ""
    out = []
    for move in text.split():
        pick, _dash, target = move.partition("-")
        if ":" in pick or not (pick == "w" or pick.startswith("t")):
            continue
        out.append((pick, target))
    return out


def box_of(page, pile: str):
    el = page.locator(f'#board [data-pile="{pile}"] > .card, #board [data-pile="{pile}"] > .slot')
    return el.last.bounding_box()


def digit(pile: str) -> str:
    return str(int(pile[1:]) % 10)


def make_move(page, way: str, pick: str, target: str) -> None:
    """Make the move the way ``way``; the probe is armed just before the input that plays it."""
    source = page.locator(f'#board a[data-pick="{pick}"]')
    if way == "click":
        source.click()
        page.evaluate("window.latencyProbe.arm()")
        b = box_of(page, target)
        page.mouse.click(b["x"] + b["width"] / 2, b["y"] + b["height"] * 0.6)
    elif way == "drag":
        a = source.bounding_box()
        start = (a["x"] + a["width"] / 2, a["y"] + min(a["height"] * 0.15, 12))
        b = box_of(page, target)
        end = (b["x"] + b["width"] / 2, b["y"] + b["height"] * 0.7)
        page.mouse.move(*start)
        page.mouse.down()
        page.mouse.move(start[0] + 8, start[1] + 8, steps=2)
        page.mouse.move(*end, steps=6)
        page.evaluate("window.latencyProbe.arm()")
        page.mouse.up()
    else:
        page.keyboard.press("w" if pick == "w" else digit(pick))
        page.evaluate("window.latencyProbe.arm()")
        page.keyboard.press("f" if target.startswith("f") else digit(target))


def deal(page) -> bool:
    stock = page.locator('#board [data-pile="s"] button')
    if not stock.count() or stock.get_attribute("value") != "deal":
        return False
    page.evaluate("window.latencyProbe.arm()")
    stock.click()
    return True


def record(page, into: dict[str, list[float]], kind: str) -> None:
    settle(page)
    found = page.evaluate(READ)
    if found["input"] is None:
        return
    if found["moving"] is not None:
        into[f"{kind} moving"].append(max(found["moving"] - found["input"], 0))
    if found["confirmed"] is not None:
        into[f"{kind} confirmed"].append(max(found["confirmed"] - found["input"], 0))


def play_moves(page, url: str, rng: random.Random, into: dict) -> None:
    for way, variant, first in WAYS:
        deal_number, made = first, 0
        open_game(page, url, variant, deal_number)
        while made < MOVES_PER_GAME:
            moves = legal_single_moves(page)
            if moves:
                pick, target = rng.choice(moves)
                make_move(page, way, pick, target)
                record(page, into, "move")
                made += 1
            elif deal(page):
                record(page, into, "deal")
            else:
                deal_number += 1
                open_game(page, url, variant, deal_number)
    dealt = 0
    open_game(page, url, "forty-thieves", 41)
    while dealt < DEALS:
        if deal(page):
            record(page, into, "deal")
            dealt += 1
        else:
            open_game(page, url, "forty-thieves", 42 + dealt)


def stock_count(page) -> int:
    return int(page.locator('#board [data-pile="s"] .count').inner_text())


def quick_deals(page, url: str, deal_number: int) -> tuple[float | None, int, bool]:
    """Press D eight times, 60 ms apart: the time to the eighth card seen moving, and whether
    exactly eight cards left the stock."""
    open_game(page, url, "forty-thieves", deal_number)
    before = stock_count(page)
    page.evaluate("window.latencyProbe.arm()")
    for n in range(QUICK_DEALS):
        if n:
            page.wait_for_timeout(QUICK_GAP_MS)
        page.keyboard.press("d")
    wait_until(page, f"window.latencyProbe.deals.length >= {QUICK_DEALS}", 10_000)
    found = page.evaluate(READ)
    wait_until(page, STILL, 10_000)
    page.wait_for_timeout(3500)  # anything still queued or late would show by now
    wait_until(page, STILL, 10_000)
    exact = before - stock_count(page) == QUICK_DEALS
    seen = len(found["deals"])
    if seen < QUICK_DEALS:
        return None, seen, exact
    return found["deals"][QUICK_DEALS - 1] - found["input"], seen, exact


VISIT = """() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const paint = performance.getEntriesByName('first-contentful-paint')[0];
    const resources = performance.getEntriesByType('resource');
    return {
        playable: Math.max(nav.domContentLoadedEventEnd, paint ? paint.startTime : 0),
        bytes: nav.transferSize + resources.reduce((sum, r) => sum + r.transferSize, 0),
        fetched: resources.filter(r => r.transferSize > 0).map(r => r.name),
    };
}"""


def visits(browser, url: str, rtt: int, deal_number: int) -> list[tuple[float, int, int]]:
    """The first visit of a game page (cold cache) and the second: (ms, requests, bytes)."""
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.goto(f"{url}/play/forty-thieves/{deal_number}/")
    page.wait_for_load_state()
    game_url = page.url
    session = emulate(page, rtt)
    session.send("Network.clearBrowserCache")
    out = []
    for _visit in range(2):
        finished = []

        def note(request, finished=finished):
            finished.append(request)

        page.on("requestfinished", note)
        page.goto("about:blank")
        page.goto(game_url)
        page.wait_for_load_state("load")
        page.wait_for_timeout(300)
        page.remove_listener("requestfinished", note)
        found = page.evaluate(VISIT)
        # Requests after the page itself that went over the network (a cached file's does not),
        # the icon (not in the page's resource timing) included when it came with a body.
        icon = [
            r
            for r in finished
            if r.url.endswith(".svg")
            and r.url not in found["fetched"]
            and r.sizes()["responseBodySize"] > 0
        ]
        fetched = [u for u in found["fetched"] if "/poll" not in u]
        out.append((found["playable"], len(fetched) + len(icon), found["bytes"]))
    context.close()
    return out


def quantile(values: list[float], q: int) -> float:
    if len(values) < 2:
        return values[0] if values else float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def main(round_trips: list[int]) -> int:
    from django.test import LiveServerTestCase
    from playwright.sync_api import sync_playwright

    class Server(LiveServerTestCase):
        pass

    Server.setUpClass()
    rows = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            for n, rtt in enumerate(round_trips):
                rng = random.Random(SEED)
                context = browser.new_context(viewport=VIEWPORT)
                page = context.new_page()
                page.goto(f"{Server.live_server_url}/")
                emulate(page, rtt)
                figures: dict[str, list[float]] = {
                    k: []
                    for k in ("move moving", "move confirmed", "deal moving", "deal confirmed")
                }
                play_moves(page, Server.live_server_url, rng, figures)
                quick, seen, exact = quick_deals(page, Server.live_server_url, 500 + n)
                context.close()
                first, second = visits(browser, Server.live_server_url, rtt, 600 + n)
                rows.append((rtt, figures, (quick, seen, exact), first, second))
                print(f"round trip {rtt} ms done", file=sys.stderr)
            browser.close()
    finally:
        Server.tearDownClass()
    print_table(rows)
    return 0


def print_table(rows) -> None:
    def pair(values: list[float]) -> str:
        if not values:
            return "—"
        return f"{statistics.median(values):.0f} / {quantile(values, 95):.0f}"

    head = (
        "| round trip | moves: to moving (median / p95) | moves: to confirmed | deals: to moving "
        "| deals: to confirmed | 8 quick deals all moving | first visit | second visit |"
    )
    print(head)
    print("|" + "---|" * 8)
    for rtt, figures, (quick, seen, exact), first, second in rows:
        quick_text = f"{seen} of 8 seen moving" if quick is None else f"{quick:.0f} ms"
        quick_text += "" if exact else " (the stock did not lose exactly 8)"
        visit = "{:.0f} ms, {} requests, {:.0f} kB"
        print(
            f"| {rtt} ms | {pair(figures['move moving'])} "
            f"({len(figures['move moving'])} of {len(figures['move confirmed'])}) "
            f"| {pair(figures['move confirmed'])} "
            f"| {pair(figures['deal moving'])} ({len(figures['deal moving'])}) "
            f"| {pair(figures['deal confirmed'])} | {quick_text} "
            f"| {visit.format(first[0], first[1], first[2] / 1000)} "
            f"| {visit.format(second[0], second[1], second[2] / 1000)} |"
        )


if __name__ == "__main__":
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # the ORM beside Playwright's loop
    with tempfile.TemporaryDirectory() as folder:
        setup_django(Path(folder) / "bench.sqlite3")
        sys.exit(main([int(a) for a in sys.argv[1:]] or ROUND_TRIPS))
