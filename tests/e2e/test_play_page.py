"""The play page as a player meets it on a phone upright (390x844, touch), sideways (844x390,
touch) and on a laptop (1280x720) (docs/phone.md, "Answers, the won panel and thumb-sized
controls"): a tap just after a drag is a tap; a hint's or "Can this still be won?"'s answer and
its Finish are in sight and on top, right after a move and alone; the won panel's buttons are in
the window and on top after a helped win; every control is a thumb's height on a touch screen,
the "Put here" buttons of a game played without JavaScript too;
a covered card shows its corner only."""

import pytest
from playwright.sync_api import expect

from .conftest import (
    BOARD,
    STATE,
    _close,
    _new_page,
    card,
    drop_point,
    grab_point,
    legal_picks,
    mouse_drag,
    open_deal,
    pile,
    top_card,
    touch_drag,
)
from .test_hints import ANSWER_MS, open_near_win
from .test_layout import answer as run_worker
from .test_layout import press_menu_button

pytestmark = pytest.mark.django_db(transaction=True)

#: The sizes, each with whether it is a touch screen.
SIZES = {"390x844": True, "844x390": True, "1280x720": False}
#: The least height of a control on a touch screen (CSS pixels): a thumb's target.
THUMB = 44


#: Where an element lies and whether it is on top at its centre: its box inside the window, and
#: what the browser finds at its centre is the element or inside it.
IN_SIGHT = """el => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return {
        inside: r.width > 0 && r.height > 0 && r.left >= 0 && r.top >= 0
            && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5,
        onTop: el.contains(hit),
        hit: hit ? hit.outerHTML.slice(0, 80) : null,
        whole: el.scrollHeight <= el.clientHeight + 1,
    };
}"""

#: Every control shown on the page (its buttons, links, menus, selects and fields; not the
#: cards, nor the "Put here" buttons between them) less than ``min`` pixels high.
LOW_CONTROLS = """min => [...document.querySelectorAll(
        'button, a[href], summary, select, input:not([type="hidden"])')]
    .filter(e => !e.closest('.card, .drop') && !e.matches('.card, .drop'))
    .filter(e => e.checkVisibility({visibilityProperty: true}))
    .map(e => [e.outerHTML.slice(0, 70), e.getBoundingClientRect().height])
    .filter(([, h]) => h < min)"""


def assert_in_sight(locator) -> None:
    """``locator`` lies inside the window, on top at its centre, shown whole."""
    expect(locator).to_be_visible()
    found = locator.evaluate(IN_SIGHT)
    assert found["inside"], f"{locator} is not inside the window"
    assert found["onTop"], f"{locator} is under {found['hit']}"
    assert found["whole"], f"{locator} is cut"


@pytest.fixture(params=list(SIZES))
def screen(request, browser):
    """A page at one of SIZES: a phone's with touch, or a laptop's with a mouse."""
    width, height = map(int, request.param.split("x"))
    touch = SIZES[request.param]
    context, page = _new_page(
        browser, {"width": width, "height": height}, has_touch=touch, is_mobile=touch
    )
    page.touch = touch
    yield page
    _close(context, page)


def press(page, locator) -> None:
    """A tap on a touch screen, a click with a mouse."""
    if page.touch:
        locator.tap()
    else:
        locator.click()


def test_a_tap_just_after_a_drag_picks_up_a_card(screen, live_server):
    page = screen
    open_deal(page, live_server, "forty-thieves", 1)
    page.wait_for_load_state()
    # The Ten of Hearts dragged and let go on the stock, which takes no card: it goes back.
    start, end = grab_point(card(page, "t8")), drop_point(page, "s")
    (touch_drag if page.touch else mouse_drag)(page, start, end)
    expect(page.locator(".drag-ghost")).to_have_count(0)
    # The player's next tap comes 100 ms after letting go: the pause is the case tested, not
    # a wait for the page.
    page.wait_for_timeout(100)
    press(page, card(page, "t1"))
    expect(page.locator(BOARD)).to_have_attribute("data-pick", "t1")


def play(page, pick: str, target: str) -> None:
    """Play a move by pressing its card, then its pile; wait for the answer."""
    version = page.locator(STATE).get_attribute("data-version")
    press(
        page, page.locator(f'{BOARD} [data-pile="s"] button') if pick == "s" else card(page, pick)
    )
    if pick != "s":
        press(page, top_card(page, target))
    expect(page.locator(STATE)).not_to_have_attribute("data-version", version)


def play_a_column_move(page) -> None:
    picks = legal_picks(page)
    play(page, *next((p, t) for p, ts in picks.items() for t in ts if t.startswith("t")))


def ask(page, selector: str, answer: str):
    """Ask for a hint (``#hint``) or whether the game can still be won (``#can-win``): the answer,
    once the solver has given it."""
    press_menu_button(page, selector)
    expect(page.locator("#assist .assist-answer")).to_be_visible()
    run_worker(page)
    expect(page.locator("#assist")).to_contain_text(answer, timeout=ANSWER_MS)
    return page.locator("#assist .assist-answer")


def assert_answers_in_sight(page) -> None:
    """A hint's answer, then "Can this still be won?"'s and its Finish, are in sight and on top;
    so is the toolbar's Finish where the win is certain."""
    assert_in_sight(ask(page, "#hint", "This move leads to a win:"))
    assert_in_sight(ask(page, "#can-win", "Yes — next move:"))
    assert_in_sight(page.locator("#finish"))
    if page.locator("#finish-win").is_visible():
        assert_in_sight(page.locator("#finish-win"))


def test_answers_and_their_finish_are_in_sight_after_a_move_and_alone(screen, live_server):
    page = screen
    open_near_win(page, live_server)
    # Hint is one tap away, on a phone too.
    expect(page.locator("#hint")).to_be_visible()
    # Right after a move, with what happened still said.
    play_a_column_move(page)
    expect(page.locator("#announce .message")).to_be_visible()
    assert_answers_in_sight(page)
    assert_in_sight(page.locator("#announce .message"))
    # Alone: the page opened afresh, nothing said.
    page.reload()
    page.wait_for_load_state()
    expect(page.locator("#announce .message")).to_have_count(0)
    assert_answers_in_sight(page)


def test_the_won_panel_fits_and_its_buttons_are_on_top_after_a_helped_win(screen, live_server):
    page = screen
    open_near_win(page, live_server, 3)
    board = page.locator(BOARD)
    # The hint's moves played one by one: the last hint stays, out of date, as the game is won.
    for _ in range(10):
        if board.get_attribute("data-status") == "won":
            break
        answer = ask(page, "#hint", "This move leads to a win:")
        play(
            page, answer.get_attribute("data-hint-source"), answer.get_attribute("data-hint-target")
        )
    expect(board).to_have_attribute("data-status", "won")
    panel = page.locator("#won-panel")
    expect(panel.get_by_role("heading", name="You won!")).to_be_visible(timeout=30_000)
    assert panel.evaluate(IN_SIGHT)["inside"], "the won panel is not inside the window"
    assert_in_sight(page.locator("#new-deal"))
    assert_in_sight(panel.get_by_role("button", name="Play this deal again"))
    # What the last move did is said whole.
    assert_in_sight(page.locator("#announce .message").last)
    if page.touch:
        assert page.evaluate(LOW_CONTROLS, THUMB) == []


@pytest.mark.parametrize("screen", ["390x844", "844x390"], indirect=True)
def test_every_control_is_a_thumbs_height_on_a_touch_screen(screen, live_server):
    page = screen
    open_deal(page, live_server, "forty-thieves", 1)
    page.wait_for_load_state()
    assert page.evaluate(LOW_CONTROLS, THUMB) == []
    # The game's "More" menu and the site's menu.
    page.locator("#more > summary").click()
    expect(page.locator("#give-up")).to_be_visible()
    assert page.evaluate(LOW_CONTROLS, THUMB) == []
    page.locator("#more > summary").click()
    page.locator("#site-menu > summary").click()
    expect(page.locator("#site-menu .site-menu-items")).to_be_visible()
    assert page.evaluate(LOW_CONTROLS, THUMB) == []


@pytest.mark.parametrize("size", ["390x844", "844x390"])
def test_without_javascript_put_here_is_a_thumbs_height_on_a_touch_screen(
    browser, live_server, size
):
    width, height = map(int, size.split("x"))
    context, page = _new_page(
        browser,
        {"width": width, "height": height},
        has_touch=True,
        is_mobile=True,
        java_script_enabled=False,
    )
    try:
        open_deal(page, live_server, "forty-thieves", 1)
        card(page, "t8").tap()
        expect(page.locator(".pick-note")).to_be_visible()
        drops = page.locator("button.drop")
        expect(drops.first).to_be_visible()
        heights = drops.evaluate_all("bs => bs.map(b => b.getBoundingClientRect().height)")
        assert len(heights) >= 10 and min(heights) >= THUMB, heights
        assert page.evaluate(LOW_CONTROLS, THUMB) == []
        # A thumb's "Put here" still puts the card down.
        put_here = pile(page, "t4").get_by_role("button", name="Put Ten of Hearts on")
        expect(put_here).to_have_class("drop legal")
        put_here.tap()
        expect(page.locator(".pick-note")).to_have_count(0)
        expect(pile(page, "t4").locator("[data-card]").last).to_have_attribute("data-card", "TH")
    finally:
        _close(context, page)


@pytest.mark.parametrize("screen", ["390x844"], indirect=True)
def test_a_covered_card_shows_its_corner_only(screen, live_server):
    page = screen
    open_deal(page, live_server, "forty-thieves", 1)
    pips = pile(page, "t1").locator(".card .pip")
    expect(pips).to_have_count(4)
    seen = pips.evaluate_all("ps => ps.map(p => p.checkVisibility({visibilityProperty: true}))")
    assert seen == [False, False, False, True]
