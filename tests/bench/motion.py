"""Benchmark of cards that travel: run it as `.venv/bin/python tests/bench/motion.py`.

It serves the site from a temporary SQLite file (Django's live test server, DEBUG off) and
plays games in Debian's Chromium at the desktop size (1280 by 720): moves chosen at random among
the legal ones (a deal now and then), with an undo every few moves, each made as the page
makes it (window.solitaire.move, the stock's button, the undo button). While cards travel, the
page records the time between two frames (requestAnimationFrame) and every long task
(PerformanceObserver "longtask": a task of over 50 ms on the main thread). It prints
- how many answers animated, and the frames drawn while cards moved;
- the worst frame, the 95th percentile and the median (ms), how many frames were over the
  budget, and the long tasks (count, longest);
- the time motion.js itself takes on an answer (measuring before the swap, starting the
  flights after it), which depends far less on what else the machine is doing;
it exits with status 1 when a frame took over FRAME_BUDGET_MS.
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

#: The longest a frame may take while cards move (ms).
FRAME_BUDGET_MS = 50
#: The games played, and how many moves in each.
GAMES = [("forty-thieves", 3), ("indian", 7), ("little-forty", 9), ("lucas", 5)]
MOVES_PER_GAME = 25
UNDO_EVERY = 6
SEED = 20261201
VIEWPORT = {"width": 1280, "height": 720}
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")

#: The time motion.js itself took on each answer (ms): measuring the board before the swap
#: plus working out and starting the flights after it (its User Timing measures).
OWN = """(() => {
    const entries = performance.getEntriesByType('measure');
    const measured = entries.filter(e => e.name === 'motion: measure');
    const travelled = entries.filter(e => e.name === 'motion: travel');
    return travelled.map((e, i) => e.duration + (measured[i] ? measured[i].duration : 0));
})()"""

#: Installed in the page: frame times and long tasks while a .motion-layer is on the page.
PROBE = """() => {
    window.motionBench = {frames: [], longtasks: [], answers: 0};
    let last = 0, moving = false;
    const tick = (now) => {
        const layer = document.querySelector('.motion-layer');
        if (layer && moving) window.motionBench.frames.push(now - last);
        if (layer && !moving) window.motionBench.answers += 1;
        moving = Boolean(layer);
        last = now;
        requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
            if (document.querySelector('.motion-layer')) {
                window.motionBench.longtasks.push(entry.duration);
            }
        }
    }).observe({type: 'longtask', buffered: false});
}"""


def play(page, rng: random.Random) -> None:
    """Play MOVES_PER_GAME moves as the page makes them, waiting after each until no card
    moves."""
    for n in range(MOVES_PER_GAME):
        if page.locator('#board[data-status="playing"]').count() == 0:
            return
        ply = page.locator("#table-state").get_attribute("data-ply")
        if n and n % UNDO_EVERY == 0 and page.locator("#undo:enabled").count():
            page.locator("#undo").click()
        else:
            moves = (page.locator("#table-state").get_attribute("data-legal") or "").split()
            stock = page.locator('[data-pile="s"] button')
            if stock.count() and (not moves or rng.random() < 0.2):
                stock.click()
            elif moves:
                pick, _dash, target = rng.choice(moves).partition("-")
                page.evaluate("([p, t]) => window.solitaire.move(p, t)", [pick, target])
            else:
                return
        wait_for_ply(page, ply)
        for _ in range(200):
            if not page.locator(".motion-layer").count():
                break
            page.wait_for_timeout(20)


def wait_for_ply(page, ply: str) -> None:
    for _ in range(500):
        if page.locator("#table-state").get_attribute("data-ply") != ply:
            return
        page.wait_for_timeout(10)


def main() -> int:
    from django.test import LiveServerTestCase
    from playwright.sync_api import sync_playwright

    class Server(LiveServerTestCase):
        pass

    Server.setUpClass()
    rng = random.Random(SEED)
    frames: list[float] = []
    longtasks: list[float] = []
    answers = 0
    own: list[float] = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=CHROMIUM, args=["--headless", "--no-sandbox"]
            )
            context = browser.new_context(viewport=VIEWPORT)
            page = context.new_page()
            for variant, deal in GAMES:
                page.goto(f"{Server.live_server_url}/play/{variant}/{deal}/")
                page.wait_for_load_state()
                page.evaluate(PROBE)
                play(page, rng)
                found = page.evaluate("window.motionBench")
                frames += found["frames"]
                longtasks += found["longtasks"]
                answers += found["answers"]
                own += page.evaluate(OWN)
            browser.close()
    finally:
        Server.tearDownClass()
    if not frames:
        print("no frame was drawn while cards moved")
        return 1
    worst = max(frames)
    p95 = statistics.quantiles(frames, n=20)[-1] if len(frames) > 1 else worst
    print(f"answers animated: {answers}, frames while cards moved: {len(frames)}")
    print(
        f"frame time: worst {worst:.1f} ms, 95th percentile {p95:.1f} ms, median "
        f"{statistics.median(frames):.1f} ms (budget {FRAME_BUDGET_MS} ms)"
    )
    if own:
        print(
            f"motion.js's own work on an answer: worst {max(own):.1f} ms, median "
            f"{statistics.median(own):.1f} ms over {len(own)} answers"
        )
    over = sum(1 for frame in frames if frame > FRAME_BUDGET_MS)
    print(f"frames over {FRAME_BUDGET_MS} ms: {over} of {len(frames)}")
    longest = f", longest {max(longtasks):.0f} ms" if longtasks else ""
    print(f"long tasks (over 50 ms) while cards moved: {len(longtasks)}{longest}")
    return 1 if worst > FRAME_BUDGET_MS else 0


if __name__ == "__main__":
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # the ORM beside Playwright's loop
    with tempfile.TemporaryDirectory() as folder:
        setup_django(Path(folder) / "bench.sqlite3")
        sys.exit(main())
