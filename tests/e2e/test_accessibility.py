"""axe-core on every page of the site and every state of the game page that shows something
new (docs/accessibility.md): no violation of impact serious or critical, and none moderate but
those kept with a reason (tests/e2e/axe.py, ``KEPT``).

Each page or state is checked once in `make test`, the language (English or another), the
theme (light or dark) and the size (a phone, a laptop) paired across them so that every
combination comes up; `make test-a11y` (``--a11y-matrix``) checks each in all eight.
"""

from itertools import product

import pytest
from playwright.sync_api import expect

from . import axe
from .conftest import LAPTOP, TALL_PHONE, _close
from .site_pages import CASES, Visit, open_browser

pytestmark = pytest.mark.django_db(transaction=True)

#: English, and in turn each other language of the site.
OTHERS = ("fr", "nl", "pl", "vi")
SIZES = {"phone": TALL_PHONE, "laptop": LAPTOP}
LOOKS = list(product(("en", "other"), ("light", "dark"), SIZES))


def pytest_generate_tests(metafunc):
    """Each case once, its look paired in turn (``LOOKS``), or in every look (the matrix)."""
    if "case" not in metafunc.fixturenames:
        return
    matrix = metafunc.config.getoption("a11y_matrix")
    params = []
    for n, case in enumerate(CASES):
        other = OTHERS[n % len(OTHERS)]
        for language, theme, size in LOOKS if matrix else [LOOKS[n % len(LOOKS)]]:
            language = other if language == "other" else language
            params.append(
                pytest.param(case, language, theme, size, id=f"{case}-{language}-{theme}-{size}")
            )
    metafunc.parametrize(("case", "language", "theme", "size"), params)


@pytest.fixture
def looked_page(browser, live_server, language, theme, size):
    phone = size == "phone"
    context, page = open_browser(browser, live_server, language, theme, SIZES[size], phone)
    yield page
    _close(context, page)


def test_no_serious_violation(looked_page, live_server, request, case, language, theme, size):
    page = looked_page
    CASES[case](Visit(page, live_server, request, language))
    found = axe.violations(page)
    axe.keep(f"{case}-{language}-{theme}-{size}", found)
    # The page says its language, as the player chose it.
    expect(page.locator("html")).to_have_attribute("lang", language)
    bad = axe.failing(found)
    assert not bad, f"axe on {case} ({page.url}):\n{axe.described(bad)}"
