"""One player, two devices, in two separate browser contexts: a game begun as a guest on the
laptop, the account made there, the game resumed on the phone at the same position and played
on, and the laptop catching up by itself; then back the other way."""

import time

import pytest
from playwright.sync_api import expect

from games.web import play as play_views

from .conftest import BOARD, STATE, card, layout, moved_on, open_deal, ply, top_card

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "green felt 40 thieves"
#: The page asks every 3 seconds; a few more for a slow machine.
CATCH_UP_MS = 9_000


@pytest.fixture(autouse=True)
def quick_accounts(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def deal(page) -> int:
    """Deal from the stock (a click on it); the ply after."""
    before = ply(page)
    page.locator(f"{BOARD} .stock-button").click()
    return moved_on(page, before)


def resume(page) -> None:
    page.get_by_role("link", name="Resume Forty Thieves, deal 1").click()
    expect(page.locator(BOARD)).to_have_attribute("data-variant", "forty-thieves")
    page.wait_for_load_state()  # the page's scripts have run: clicks play by htmx


def test_a_game_follows_its_player_to_a_second_device(page, phone_page, live_server, screenshots):
    laptop, phone = page, phone_page

    # A guest on the laptop: a game of Forty Thieves deal 1, two moves in.
    open_deal(laptop, live_server, "forty-thieves", 1)
    card(laptop, "t8").click()
    top_card(laptop, "t4").click()
    moved_on(laptop, 0)
    at = deal(laptop)
    guest_board = layout(laptop)

    # Signing up there brings the game along: it is in My games, where it was left.
    laptop.get_by_role("link", name="Sign up").click()
    laptop.get_by_label("Username:").fill("alice")
    laptop.get_by_label("Password:", exact=True).fill(PASSWORD)
    laptop.get_by_label("Password confirmation:").fill(PASSWORD)
    screenshots(laptop, "two-devices-sign-up")
    laptop.get_by_role("button", name="Sign up").click()
    expect(laptop).to_have_url(f"{live_server.url}/my/")
    expect(laptop.locator(".messages")).to_contain_text("now in your account")
    screenshots(laptop, "two-devices-my-games")
    resume(laptop)
    expect(laptop.locator(STATE)).to_have_attribute("data-ply", str(at))
    assert layout(laptop) == guest_board

    # Logging in on the phone: the same game, the same board.
    phone.goto(live_server.url)
    phone.get_by_role("link", name="Log in").click()
    phone.get_by_label("Username:").fill("alice")
    phone.get_by_label("Password:").fill(PASSWORD)
    phone.get_by_role("button", name="Log in").click()
    expect(phone).to_have_url(f"{live_server.url}/my/")
    resume(phone)
    expect(phone.locator(STATE)).to_have_attribute("data-ply", str(at))
    assert layout(phone) == layout(laptop)
    screenshots(phone, "two-devices-phone")

    # Playing on on the phone: the laptop, untouched, catches up by itself.
    at = deal(phone)
    expect(laptop.locator(STATE)).to_have_attribute("data-ply", str(at), timeout=CATCH_UP_MS)
    expect(laptop.locator("#announce")).to_contain_text("Caught up")
    assert layout(laptop) == layout(phone)

    # And back on the laptop: a move there reaches the phone.
    at = deal(laptop)
    expect(phone.locator(STATE)).to_have_attribute("data-ply", str(at), timeout=CATCH_UP_MS)
    assert layout(phone) == layout(laptop)
    screenshots(laptop, "two-devices-caught-up")


def test_a_move_from_the_device_that_is_behind_gets_the_current_board(
    page, phone_page, live_server
):
    """The phone moves before it has caught up: its move is not played on a board it never
    saw; it gets the current board, and can play on from there."""
    laptop, phone = page, phone_page
    open_deal(laptop, live_server, "forty-thieves", 1)
    laptop.get_by_role("link", name="Sign up").click()
    laptop.get_by_label("Username:").fill("alice")
    laptop.get_by_label("Password:", exact=True).fill(PASSWORD)
    laptop.get_by_label("Password confirmation:").fill(PASSWORD)
    laptop.get_by_role("button", name="Sign up").click()
    phone.goto(f"{live_server.url}/account/login/")
    phone.get_by_label("Username:").fill("alice")
    phone.get_by_label("Password:").fill(PASSWORD)
    phone.get_by_role("button", name="Log in").click()
    resume(phone)
    # The phone stops asking, as a phone asleep would; the laptop plays on.
    phone.evaluate("document.querySelectorAll('[data-poll]').forEach(e => e.remove())")
    resume(laptop)
    at = deal(laptop)
    assert ply(phone) == 0
    phone.locator(f"{BOARD} .stock-button").click()
    expect(phone.locator("#announce")).to_contain_text("The game had moved on")
    expect(phone.locator(STATE)).to_have_attribute("data-ply", str(at))
    assert layout(phone) == layout(laptop)


def test_cards_held_are_not_dropped_by_catching_up(page, live_server):
    """Two tabs on one game: while cards are held in one, it does not ask whether the game moved
    on (the answer would replace the board and drop them); put back, it catches up."""
    first = page
    open_deal(first, live_server, "forty-thieves", 1)
    second = first.context.new_page()
    second.set_default_timeout(10_000)
    second.blocked = first.blocked
    second.goto(first.url)
    card(second, "t8").click()
    expect(second.locator(BOARD)).to_have_attribute("data-pick", "t8")
    at = deal(first)
    second.wait_for_timeout(5_000)  # more than the 3 s between questions
    expect(second.locator(BOARD)).to_have_attribute("data-pick", "t8")
    assert ply(second) == 0
    second.keyboard.press("Escape")
    expect(second.locator(STATE)).to_have_attribute("data-ply", str(at), timeout=CATCH_UP_MS)
    second.close()


def test_a_catch_up_answer_that_comes_after_a_move_replaces_the_board(
    page, live_server, monkeypatch
):
    """The page asks whether the game moved on; a move is answered (its answer replaces the
    question's element out of band) before the question is: that answer still replaces the
    board whole, not something inside it."""
    open_deal(page, live_server, "forty-thieves", 1)
    answer = play_views.game_or_404

    def late(request, public_id):
        if request.path.endswith("/poll/"):
            time.sleep(1.0)  # the move is played meanwhile
        return answer(request, public_id)

    monkeypatch.setattr(play_views, "game_or_404", late)
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # ask now
    page.wait_for_timeout(100)
    at = deal(page)
    page.wait_for_timeout(2_000)
    expect(page.locator("section#board")).to_have_count(1)
    expect(page.locator(STATE)).to_have_attribute("data-ply", str(at))
