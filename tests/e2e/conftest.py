"""Real-browser tests: Debian's Chromium driven by Playwright against a live test server.

These tests fail (never skip) when Chromium is missing, and say how to install it.
"""

import os
import shutil
from pathlib import Path

import pytest

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


def _new_page(browser, viewport, **options):
    context = browser.new_context(viewport=viewport, **options)
    page = context.new_page()
    page.set_default_timeout(10_000)
    return context, page


@pytest.fixture
def page(browser):
    context, page = _new_page(browser, DESKTOP)
    yield page
    context.close()


@pytest.fixture
def phone_page(browser):
    context, page = _new_page(browser, PHONE, has_touch=True, is_mobile=True)
    yield page
    context.close()


@pytest.fixture
def nojs_page(browser):
    context, page = _new_page(browser, DESKTOP, java_script_enabled=False)
    yield page
    context.close()


@pytest.fixture
def screenshot():
    """Save a screenshot under test-artifacts/screenshots/ (git-ignored) for a person to see."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(page, name: str) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take
