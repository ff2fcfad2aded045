"""On a phone held upright (390 by 844) no table splits a word, in any of the five languages: the
daily deals, a day's leaderboard, the statistics (game by game, and the charts' figures) and
the history. Each word of each cell is measured in the browser: a word set on one line has
its box on one line; a word broken across two has two."""

from datetime import UTC, datetime

import pytest
from django.conf import settings
from django.urls import reverse
from playwright.sync_api import expect

from games.models import Game

from .conftest import SCREENSHOTS, TALL_PHONE, _close, _new_page

pytestmark = pytest.mark.django_db(transaction=True)

#: A Wednesday at noon (UTC): the day's deals and the win below read this one clock.
NOON = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)

#: The words of ``selector``'s cells (their text nodes, split at white space) that stand on
#: more than one line: a Range around each word, and the lines its boxes start on.
BROKEN_WORDS = """selector => {
  const broken = [];
  for (const cell of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const node = walker.currentNode;
      if (node.parentElement.closest('.visually-hidden')) continue;
      for (const word of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const lines = new Set(
          [...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
        if (lines.size > 1) broken.push(word[0]);
      }
    }
  }
  return broken;
}"""

#: The tables' cells, and the history's rows (a list that reads as one).
CELLS = "table :is(th, td, caption), .history li"


def won_daily_game(page, live_server) -> Game:
    """Open today's Lucas deal in ``page``'s browser and mark it won within the day, at a
    person's pace: a ranked row, a played and won game in the statistics and the history."""
    page.goto(f"{live_server.url}/daily/lucas/")
    game = Game.objects.get(public_id=page.url.rstrip("/").split("/")[-1])
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.WON,
        ply=150,
        automatic_ply=0,
        milliseconds_played=900_000,
        first_move_at=NOON,
        finished_at=NOON,
    )
    return game


@pytest.mark.parametrize("language", ["en", "fr", "nl", "pl", "vi"])
def test_no_table_splits_a_word_on_a_phone(browser, live_server, clock, language):
    clock.moment = NOON
    context, page = _new_page(browser, TALL_PHONE, has_touch=True, is_mobile=True)
    try:
        context.add_cookies(
            [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
        )
        won_daily_game(page, live_server)
        pages = [
            reverse("games:daily"),
            reverse("games:daily_day", args=["lucas", NOON.date()]),
            reverse("games:statistics"),
            reverse("games:history"),
        ]
        for path in pages:
            page.goto(live_server.url + path)
            expect(page.locator("html")).to_have_attribute("lang", language)
            page.locator("details.chart-table").evaluate_all(
                "all => all.forEach(d => d.open = true)"
            )
            assert page.locator(CELLS).count() > 0, path
            assert page.evaluate(BROKEN_WORDS, CELLS) == [], (language, path)
            # The page itself never scrolls sideways: a wide table scrolls in its own box.
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= TALL_PHONE["width"], (language, path)
            if path == pages[0]:
                page.screenshot(path=str(SCREENSHOTS / f"daily-{language}-390x844.png"))
    finally:
        _close(context, page)
