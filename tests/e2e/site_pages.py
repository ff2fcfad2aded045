"""The site's pages and the states of the game page that show something new, each opened in a
browser as a player reaches it: what the accessibility tests check (tests/e2e/
test_accessibility.py, tests/e2e/test_low_vision.py)."""

import re
from datetime import UTC, datetime, time

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.template import loader
from django.test import RequestFactory
from django.utils import translation
from playwright.sync_api import expect

from games import days
from games.models import Game
from games.rules import VARIANTS, Record
from solitaire import limits
from tests.web.conftest import won_record
from tests.web.solver_support import run_worker

from .conftest import BOARD, _new_page, card, open_deal
from .test_daily import finish_by_play, play_daily_in, win_moves

#: The hint's answer comes when the worker has run; the page asks every half second.
ANSWER_MS = 8_000
PASSWORD = "a long enough password 43"


def open_browser(browser, live_server, language: str, theme: str, viewport: dict, phone: bool):
    """A browser in ``language``, with the ``theme`` chosen, at ``viewport`` (a phone: touch,
    one tap picking a card up), the animations off (as the device asks): its context and page."""
    context, page = _new_page(
        browser,
        viewport,
        one_tap=True,
        locale=language,
        reduced_motion="reduce",
        has_touch=phone,
        is_mobile=phone,
    )
    context.add_cookies(
        [
            {"name": "looks", "value": f"theme={theme}&tap=off", "url": live_server.url},
            {"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url},
        ]
    )
    return context, page


class Visit:
    """What a page's opener needs: the browser's page, the live server, the test's fixtures."""

    def __init__(self, page, live_server, request, language):
        self.page, self.live_server, self.request = page, live_server, request
        self.language = language
        self.url = live_server.url

    def go(self, path: str) -> None:
        self.page.goto(self.url + path)
        self.page.wait_for_load_state()


# -- the pages and states ----------------------------------------------------------------------


def import_record(visit: Visit, record: Record) -> None:
    """Start a game from ``record`` through "Start from a record", as a player does."""
    visit.go("/import/")
    visit.page.locator("#id_text").fill(record.to_json())
    visit.page.locator(".record-form button[type=submit]").click()
    expect(visit.page.locator(BOARD)).to_have_attribute("data-variant", record.variant)
    visit.page.wait_for_load_state()


def near_win(visit: Visit, moves_left: int = 20) -> None:
    record = won_record()
    import_record(visit, Record(record.variant, record.deal, record.moves[:-moves_left]))


def won(visit: Visit) -> None:
    import_record(visit, won_record())
    expect(visit.page.locator("#won-panel")).to_be_visible()


def answered(button: str):
    def open_answer(visit: Visit) -> None:
        near_win(visit)
        # In the menu "More" on a phone: pressed as a keyboard would, wherever it is.
        visit.page.locator(button).evaluate("button => button.click()")
        expect(visit.page.locator("#assist .assist-answer")).to_have_count(1)
        run_worker()
        expect(visit.page.locator("#assist [data-hint-move]")).to_have_count(1, timeout=ANSWER_MS)

    return open_answer


def game_start(variant: str):
    def open_game(visit: Visit) -> None:
        open_deal(visit.page, visit.live_server, variant)
        visit.page.wait_for_load_state()

    return open_game


def picked_up(visit: Visit) -> None:
    open_deal(visit.page, visit.live_server)
    visit.page.wait_for_load_state()
    card(visit.page, "t8").click()
    expect(card(visit.page, "t8")).to_have_class(re.compile(r"\bpicked\b"))


def shared(visit: Visit) -> str:
    won(visit)
    visit.page.locator("form.share-game button").click()
    expect(visit.page).to_have_url(re.compile(r"/s/[^/]+/$"))
    return visit.page.url


def shared_replay(visit: Visit) -> None:
    link = shared(visit)
    visit.page.goto(f"{link}12/")
    expect(visit.page.locator(".replay-at")).to_be_visible()


def replay(visit: Visit) -> None:
    won(visit)
    game = Game.objects.get()
    visit.go(f"/g/{game.public_id}/replay/30/")
    expect(visit.page.locator(".replay-at")).to_be_visible()


def leaderboard(visit: Visit) -> None:
    """Today's Lucas with one ranked win, the player's own."""
    visit.request.getfixturevalue("clock").moment = datetime.combine(days.today(), time(12), UTC)
    game = play_daily_in(visit.page, visit.live_server)
    finish_by_play(game, win_moves(game.position()))
    visit.go(f"/daily/lucas/{days.today().isoformat()}/")


def calendar(visit: Visit) -> None:
    today = days.today()
    visit.go(f"/daily/forty-thieves/{today.year}-{today.month:02}/")


def logged_in(path: str):
    def open_account_page(visit: Visit) -> None:
        get_user_model().objects.create_user("ann", "ann@example.com", PASSWORD)
        visit.go("/account/login/")
        visit.page.locator("#id_username").fill("ann")
        visit.page.locator("#id_password").fill(PASSWORD)
        visit.page.locator("main form button[type=submit]").click()
        visit.page.wait_for_load_state()
        visit.go(path)

    return open_account_page


def page_at(path: str):
    return lambda visit: visit.go(path)


def with_history(path: str):
    def open_page(visit: Visit) -> None:
        won(visit)
        open_deal(visit.page, visit.live_server, "maria", 7)
        visit.go(path)

    return open_page


def served(template: str, status: int, path: str = "/a11y-error/"):
    """A page the server sends when something is wrong, drawn as the server draws it and sent
    to the browser at an address of the site."""

    def open_error(visit: Visit) -> None:
        request = RequestFactory().get(path)
        request.user = AnonymousUser()
        request.COOKIES = {c["name"]: c["value"] for c in visit.page.context.cookies()}
        with translation.override(visit.language):
            if template == "429.html":
                body = limits.too_many(request, 90).content.decode()
            else:
                body = loader.get_template(template).render()
        visit.page.route(
            visit.url + path,
            lambda route: route.fulfill(
                status=status, content_type="text/html; charset=utf-8", body=body
            ),
        )
        visit.go(path)

    return open_error


CASES = {
    "home": page_at("/"),
    **{f"game-{v}": game_start(v) for v in VARIANTS},
    "game-picked-up": picked_up,
    "game-won": won,
    "game-hint": answered("#hint"),
    "game-analysis": answered("#can-win"),
    "rules": page_at("/rules/maria/"),
    "winnability": page_at("/rules/forty-thieves/winnability/"),
    "daily": page_at("/daily/"),
    "leaderboard": leaderboard,
    "calendar": calendar,
    "shared": shared,
    "shared-replay": shared_replay,
    "replay": replay,
    "my-games": with_history("/my/"),
    "history": with_history("/my/history/"),
    "statistics": with_history("/my/statistics/"),
    "import": page_at("/import/"),
    "log-in": page_at("/account/login/"),
    "sign-up": page_at("/account/signup/"),
    "reset": page_at("/account/reset/"),
    "looks": page_at("/account/looks/"),
    "account": logged_in("/account/"),
    "password": logged_in("/account/password/"),
    "admin-log-in": page_at("/admin/login/"),
    "404": page_at("/no-such-page/"),
    "429": served("429.html", 429),
    "500": served("500.html", 500),
    "503": served("503.html", 503),
}

#: The pages whose width is the game's table, which may scroll sideways at 320 px.
GAME = {name for name in CASES if name.startswith("game")}
