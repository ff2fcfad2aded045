"""The table's figures on every screen: run it as `.venv/bin/python tests/bench/phone_table.py`.

It serves the site from a temporary SQLite file (Django's live test server, DEBUG off), opens
deal 1 of every game at each size the table is made for (four phones upright and sideways,
touch; a laptop's 1280 by 720) in Debian's Chromium, and prints, per size and game, the share
of the table's area the cards cover at the start of the deal, the share of the window, the
smallest corner letter (px), the narrowest card, and whether the page scrolls; then the
median share per size. With a folder as its argument it also saves a screenshot of each
(SIZE-GAME.png) there.
"""

import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.move_request import setup_django  # noqa: E402
from tests.e2e.table_figures import SIZES, figures, is_phone  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def main(shots: Path | None) -> int:
    from django.test import LiveServerTestCase
    from playwright.sync_api import sync_playwright

    from games.rules import VARIANTS

    class Server(LiveServerTestCase):
        pass

    Server.setUpClass()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            print(f"{'size':9} {'game':14} {'table':>6} {'window':>6} {'corner':>6} {'card':>9}")
            for size, viewport in SIZES.items():
                phone = is_phone(size)
                context = browser.new_context(viewport=viewport, has_touch=phone, is_mobile=phone)
                page = context.new_page()
                shares = []
                for variant in VARIANTS:
                    page.goto(f"{Server.live_server_url}/play/{variant}/1/")
                    page.wait_for_load_state()
                    f = figures(page)
                    shares.append(f["coverage"])
                    if shots:
                        page.screenshot(path=str(shots / f"{size}-{variant}.png"))
                    card = f"{f['card']['width']:.0f}x{f['card']['height']:.0f}"
                    scrolls = "  scrolls" if f["scrolls"] else ""
                    print(
                        f"{size:9} {variant:14} {f['coverage']:6.1%} {f['screen']:6.1%} "
                        f"{f['corner']:6.1f} {card:>9}{scrolls}"
                    )
                print(f"{size:9} {'median':14} {statistics.median(shares):6.1%}")
                context.close()
            browser.close()
    finally:
        Server.tearDownClass()
    return 0


if __name__ == "__main__":
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # the ORM beside Playwright's loop
    with tempfile.TemporaryDirectory() as folder:
        setup_django(Path(folder) / "bench.sqlite3")
        shots = Path(sys.argv[1]) if len(sys.argv) > 1 else None
        if shots:
            shots.mkdir(parents=True, exist_ok=True)
        sys.exit(main(shots))
