"""A site too busy for a moment: the balancer (deploy/haproxy.cfg, Debian's HAProxy in front of
the live test server) answers the page's actions 503 with Retry-After while its app servers are
out (taken out through its admin socket, as an operator would); the page plays them by itself
once it may, in order, none lost or doubled, and the board is the one a reload shows."""

import time
import urllib.request

import pytest
from playwright.sync_api import expect

from games.models import Game
from tests.balancer import HAPROXY, MISSING, balancer, command

from .conftest import BOARD, STATE, layout, legal_picks, ply

pytestmark = pytest.mark.skipif(not HAPROXY, reason=MISSING)


@pytest.fixture
def busy_site(live_server, tmp_path):
    """The live server behind the balancer: its address, and a switch for its app servers."""
    with balancer(live_server.url.removeprefix("http://"), tmp_path) as (port, _process):
        site = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 10
        while not ready(site):
            assert time.monotonic() < deadline, "the balancer did not start serving"
            time.sleep(0.2)

        def servers(state: str) -> None:
            for server in ("app1", "app2"):
                command(tmp_path, f"{state} server apps/{server}")

        yield site, servers


def ready(site: str) -> bool:
    try:
        with urllib.request.urlopen(f"{site}/readyz/", timeout=5) as answer:
            return answer.status == 200
    except OSError:
        return False


def test_actions_refused_while_the_site_is_busy_are_played_after_the_wait(page, busy_site):
    site, servers = busy_site
    # No automatic moves (the session's setting, from a game of a deal no test plays): the
    # move and the deal are the only ones played.
    page.goto(f"{site}/play/forty-thieves/999999/")
    button = page.locator("#autoplay")
    if button.get_attribute("aria-pressed") == "true":
        button.evaluate("button => button.click()")
        expect(button).to_have_attribute("aria-pressed", "false")
    page.goto(f"{site}/play/forty-thieves/1/")
    expect(page.locator(BOARD)).to_have_attribute("data-variant", "forty-thieves")
    start = ply(page)
    pick, targets = next(iter(legal_picks(page).items()))
    servers("disable")
    # A move, then a deal, while no app server takes requests: each is answered 503.
    page.evaluate("([p, t]) => window.solitaireTests.move(p, t)", [pick, targets[0]])
    page.locator(f'{BOARD} [data-pile="s"] button').click()
    page.wait_for_timeout(1_000)
    assert ply(page) == start
    servers("enable")
    # The balancer asked for 5 s: the page sends the move again then, and the deal after it.
    expect(page.locator(STATE)).to_have_attribute("data-ply", str(start + 2), timeout=15_000)
    game = Game.objects.get(deal="1")
    assert [m.notation for m in game.log.order_by("ply")][-2:] == [f"{pick}-{targets[0]}", "deal"]
    assert game.ply == start + 2
    # Nothing said the site was busy: it went through in time.
    expect(page.locator("#announce")).not_to_contain_text("was not saved")
    drawn = layout(page)
    page.reload()
    assert layout(page) == drawn


def test_an_action_the_site_cannot_take_for_long_is_given_up_and_the_player_told(page, busy_site):
    site, servers = busy_site
    page.goto(f"{site}/play/forty-thieves/1/")
    expect(page.locator(BOARD)).to_have_attribute("data-variant", "forty-thieves")
    start, drawn = ply(page), layout(page)
    pick, targets = next(iter(legal_picks(page).items()))
    servers("disable")
    page.evaluate("([p, t]) => window.solitaireTests.move(p, t)", [pick, targets[0]])
    # Tried again for 15 s, then the player is told that it was not played.
    expect(page.locator("#announce")).to_contain_text("was not saved", timeout=25_000)
    assert ply(page) == start
    servers("enable")
    assert Game.objects.get(deal="1").ply == start
    page.reload()
    assert layout(page) == drawn
