"""The Content Security Policy is sent, the browser enforces it, and the pages work under it.

Every browser test fails when the page breaks the policy (see conftest); these check that
the policy is really there and strict, so that passing under it means something.
"""

import pytest
from playwright.sync_api import expect

from .conftest import BOARD, card, legal_picks, moved_on, open_deal, ply

pytestmark = pytest.mark.django_db(transaction=True)


def policy(response) -> dict[str, list[str]]:
    header = response.headers.get("content-security-policy", "")
    directives = {}
    for part in header.split(";"):
        name, *values = part.split()
        directives[name] = values
    return directives


@pytest.mark.parametrize("path", ["/", "/rules/forty-thieves/", "/play/forty-thieves/7/"])
def test_every_page_is_sent_a_strict_policy(page, live_server, path):
    response = page.goto(f"{live_server.url}{path}")
    assert response.ok
    csp = policy(response)
    assert csp["script-src"] == ["'self'"]
    assert csp["style-src"] == ["'self'"]
    assert csp["default-src"] == ["'none'"]
    assert csp["frame-ancestors"] == ["'none'"]
    for values in csp.values():
        assert "'unsafe-inline'" not in values
        assert "'unsafe-eval'" not in values


def test_the_browser_refuses_an_inline_script_and_style(page, live_server):
    open_deal(page, live_server)
    page.blocked.clear()
    ran = page.evaluate(
        """() => {
            window.inlineRan = false;
            const script = document.createElement('script');
            script.textContent = 'window.inlineRan = true';
            document.body.append(script);
            const probe = document.createElement('p');
            probe.setAttribute('style', 'color: rgb(1, 2, 3)');
            document.body.append(probe);
            return [window.inlineRan, getComputedStyle(probe).color];
        }"""
    )
    assert ran[0] is False
    assert ran[1] != "rgb(1, 2, 3)"
    # The refusals were reported: the check the other tests rely on can see them.
    assert any("Content Security Policy" in text for text in page.blocked)
    page.blocked.clear()


def test_a_game_plays_by_click_under_the_policy(page, live_server):
    open_deal(page, live_server, "forty-thieves", 3)
    before = ply(page)
    pick, targets = next(iter(legal_picks(page).items()))
    card(page, pick).click()
    page.locator(f'{BOARD} [data-pile="{targets[0]}"]').first.click()
    moved_on(page, before)
    expect(page.locator(BOARD)).to_have_attribute("data-status", "playing")
