"""Playing ahead of the answer (static/js/game/actions.js, ahead.js): a move the board lists as
legal sets off before the server answers, however it is made (a click on the card then on the
pile, a drag, the keys, a double-click); a deal shows a back until the answer names the card;
an undo the page can tell sets off at once; a move the server refuses flies back and the
server's board shows, with the reason; quick deals are all played, in order, one request at a
time, none lost, none twice.

The answers are held back with Playwright's ``route`` while the test looks at the page; nothing
here is timed.
"""

import re

import pytest
from playwright.sync_api import expect

from .conftest import (
    ACTIONS,
    BOARD,
    NO_SERVICE_WORKER,
    STATE,
    Held,
    automatic_moves_off,
    card,
    drop_point,
    grab_point,
    layout,
    legal_picks,
    mouse_drag,
    open_deal,
    pile,
    ply,
    route_actions,
)
from .test_motion import column_move, wait_until

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def page(routed_page):
    """Answers are held back here (``Held``): the page without the service worker."""
    return routed_page


#: The stand-ins set off ahead of the answer: each one's card, whether it travels (its place
#: changes over its animation), and where it is drawn now.
AHEAD = """() => Array.from(document.querySelectorAll('.motion-layer.ahead > .motion-card'),
    el => {
        const place = f => String(f.transform || '').split(' scale')[0];
        const frames = el.getAnimations().flatMap(a => a.effect.getKeyframes());
        const r = el.getBoundingClientRect();
        return {card: el.dataset.card, travels: frames.some(f => place(f) !== place(frames[0])),
                box: [r.left, r.top, r.width, r.height]};
    })"""


def ahead(page) -> list[dict]:
    return page.evaluate(AHEAD)


def box_of(locator) -> list[float]:
    b = locator.bounding_box()
    return [b["x"], b["y"], b["width"], b["height"]]


def centre_x(b) -> float:
    return b[0] + b[2] / 2


def assert_sets_off_ahead(page, held, code: str, source: str, target: str, before: int):
    """While the answer is held back, the card ``code`` travels from the pile ``source`` to
    the pile ``target``: its stand-in moves, lands over the target, the card itself waits
    unseen; then the answer confirms it."""
    held.wait()
    flying = [s for s in ahead(page) if s["card"] == code]
    assert len(flying) == 1 and flying[0]["travels"], ahead(page)
    assert ply(page) == before, "the answer was held back, yet the board moved on"
    page.evaluate("document.getAnimations().forEach(a => a.finish())")
    landed = ahead(page)[0]["box"]
    to_box, from_box = box_of(pile(page, target)), box_of(pile(page, source))
    assert abs(centre_x(landed) - centre_x(to_box)) < to_box[2] / 2, (landed, to_box)
    assert abs(centre_x(landed) - centre_x(from_box)) > from_box[2] / 2
    expect(page.locator(f"{BOARD} .card.ahead-away")).to_have_count(1)
    held.release()
    expect(page.locator(STATE)).not_to_have_attribute("data-ply", str(before))
    expect(page.locator(".motion-layer.ahead")).to_have_count(0)
    assert code in layout(page)[target]


def single_column_move(page) -> tuple[str, str, str]:
    pick, target = column_move(page)
    return pick, target, card(page, pick).get_attribute("data-card")


def test_a_clicked_move_sets_off_before_its_answer(page, live_server):
    open_deal(page, live_server, "forty-thieves", 1)
    held = Held(page)
    pick, target, code = single_column_move(page)
    card(page, pick).click()
    pile(page, target).locator(":scope > .card").last.click()
    assert_sets_off_ahead(page, held, code, pick, target, 0)


def test_a_dragged_move_sets_off_before_its_answer(page, live_server):
    open_deal(page, live_server, "forty-thieves", 1)
    held = Held(page)
    pick, target, code = single_column_move(page)
    mouse_drag(page, grab_point(card(page, pick)), drop_point(page, target))
    assert_sets_off_ahead(page, held, code, pick, target, 0)
    expect(page.locator(".drag-ghost")).to_have_count(0)


def test_a_move_by_keys_sets_off_before_its_answer(page, live_server):
    open_deal(page, live_server, "forty-thieves", 1)
    held = Held(page)
    pick, target, code = single_column_move(page)
    page.keyboard.press(pick[1:][-1])
    page.keyboard.press(target[1:][-1])
    assert_sets_off_ahead(page, held, code, pick, target, 0)


def open_with_an_ace_to_send_home(page, live_server) -> tuple[str, str]:
    """A deal of Forty Thieves (automatic moves off) with a card at the top of a column that
    may go to a foundation: its pick and the foundation the board lists first."""
    automatic_moves_off(page, live_server, "forty-thieves")
    for deal in range(1, 60):
        open_deal(page, live_server, "forty-thieves", deal)
        for pick, targets in legal_picks(page).items():
            homes = [t for t in targets if t.startswith("f")]
            if pick.startswith("t") and ":" not in pick and homes:
                return pick, homes[0]
    raise AssertionError("no deal with a card to send home")


def test_a_double_clicked_card_sets_off_for_its_foundation_before_the_answer(page, live_server):
    pick, home = open_with_an_ace_to_send_home(page, live_server)
    held = Held(page)
    code = card(page, pick).get_attribute("data-card")
    card(page, pick).dblclick()
    assert_sets_off_ahead(page, held, code, pick, home, 0)
    assert held.posted == [held.posted[0]] and "pick=" in held.posted[0]


def one_move_played(page, live_server) -> tuple[str, str, str]:
    """Deal 1 of Forty Thieves with one card moved from column to column, its flight over.
    Without automatic moves the last answer lists the player's move alone."""
    automatic_moves_off(page, live_server, "forty-thieves")
    open_deal(page, live_server, "forty-thieves", 1)
    pick, target, code = single_column_move(page)
    card(page, pick).click()
    pile(page, target).locator(":scope > .card").last.click()
    expect(page.locator(STATE)).to_have_attribute("data-ply", "1")
    wait_until(page, "!document.querySelector('.motion-layer')")
    return pick, target, code


def test_an_undo_the_page_can_tell_sets_off_at_once(page, live_server):
    pick, target, code = one_move_played(page, live_server)
    expect(page.locator("#undo")).to_be_enabled()
    held = Held(page)
    page.keyboard.press("u")
    assert_sets_off_ahead(page, held, code, target, pick, 1)


def test_an_undo_sets_off_at_once_after_a_catch_up_question_with_no_news(page, live_server):
    """The page asks whether the game moved on elsewhere; the answer (204: nothing new) does
    not make it forget what its last move was, so an undo still sets off before its answer."""
    pick, target, code = one_move_played(page, live_server)
    with page.expect_response(lambda r: "/poll/" in r.url) as asked:
        page.evaluate("htmx.trigger(document.getElementById('poll'), 'catchup')")
    assert asked.value.status == 204
    # Its answer handled (htmx takes the mark off once the answer is dealt with).
    wait_until(page, "!document.querySelector('#poll.htmx-request')")
    expect(page.locator("#undo")).to_be_enabled()
    held = Held(page)
    page.keyboard.press("u")
    assert_sets_off_ahead(page, held, code, target, pick, 1)


def test_a_deal_shows_a_back_until_the_answer_then_the_face(page, live_server):
    open_deal(page, live_server, "forty-thieves", 1)
    held = Held(page)
    page.locator(f"{BOARD} .stock-button").click()
    held.wait()
    flying = ahead(page)
    assert [s["card"] for s in flying] == ["down"] and flying[0]["travels"]
    page.evaluate("document.getAnimations().forEach(a => a.finish())")
    assert abs(centre_x(ahead(page)[0]["box"]) - centre_x(box_of(pile(page, "w")))) < 5
    held.release()
    expect(page.locator(STATE)).not_to_have_attribute("data-ply", "0")
    expect(page.locator(".motion-layer.ahead")).to_have_count(0)
    dealt = layout(page)["w"][-1]
    assert dealt != "down"
    # The answer turns the card over: its face, named by the server, shows.
    faces = page.locator(".motion-layer:not(.ahead) .motion-card").evaluate_all(
        "els => els.map(el => el.dataset.card)"
    )
    assert dealt in faces or page.locator(".motion-layer").count() == 0


#: The looks a deal's prediction must not read, changed: the stock button's count says
#: ``text`` and the waste's class is toggled (the fan of a deal of three, or none).
RELOOK = """(text) => {
    document.querySelector('#board [data-pile="s"] .stock-button .count').textContent = text;
    document.querySelector('#board [data-pile="w"]').classList.toggle('fanned');
}"""


def test_a_deal_of_one_card_sets_off_whatever_the_stock_and_waste_look_like(page, live_server):
    """How many cards a deal takes and the stock holds is what the server says (the board's
    data-deal, the stock's data-cards), not the button's text or the waste's class."""
    open_deal(page, live_server, "forty-thieves", 1)
    page.evaluate(RELOOK, "0")
    held = Held(page)
    page.locator(f"{BOARD} .stock-button").click()
    held.wait()
    flying = ahead(page)
    assert [s["card"] for s in flying] == ["down"] and flying[0]["travels"]
    held.release()
    expect(page.locator(STATE)).not_to_have_attribute("data-ply", "0")


def test_a_deal_of_three_waits_for_its_answer_whatever_the_stock_and_waste_look_like(
    page, live_server
):
    open_deal(page, live_server, "little-forty", 1)
    page.evaluate(RELOOK, "99")
    held = Held(page)
    page.locator(f"{BOARD} .stock-button").click()
    held.wait()
    assert ahead(page) == []
    held.release()
    expect(page.locator(STATE)).not_to_have_attribute("data-ply", "0")


def test_a_move_the_server_refuses_flies_back_and_the_server_board_shows(page, live_server):
    open_deal(page, live_server, "forty-thieves", 1)
    game_url = page.url
    # This page does not ask whether the game moved on (as a phone asleep would not): the move
    # below is made on the board it shows, which the server no longer has.
    page.evaluate("document.querySelectorAll('[data-poll]').forEach(e => e.remove())")
    # Meanwhile the game moves on on another device (another tab of the same browser, which
    # does not tell this one: tabs of one browser hear of each other's moves at once).
    other = page.context.new_page()
    other.add_init_script("delete window.BroadcastChannel;")
    other.goto(game_url)
    other.wait_for_load_state()
    other.locator(f"{BOARD} .stock-button").click()
    expect(other.locator(STATE)).not_to_have_attribute("data-ply", "0")
    other.wait_for_timeout(300)
    servers = layout(other)
    other.close()

    held = Held(page)
    pick, target, code = single_column_move(page)
    start = box_of(card(page, pick))
    # The flight back, as it is set off when the answer is swapped in.
    page.evaluate("""() => document.addEventListener('htmx:afterSwap', () => {
        window.flownBack = Array.from(document.querySelectorAll('.motion-layer.ahead > *'),
            el => el.getAnimations().map(a => {
                const frames = a.effect.getKeyframes();
                return frames[frames.length - 1].transform;
            })).flat();
    }, {once: true})""")
    card(page, pick).click()
    pile(page, target).locator(":scope > .card").last.click()
    held.wait()
    assert [s["card"] for s in ahead(page)] == [code]
    held.release()
    page.wait_for_function("() => window.flownBack !== undefined")  # the answer is in
    expect(page.locator("#announce .message")).not_to_have_count(0)
    flown_back = page.evaluate("window.flownBack")
    assert len(flown_back) == 1, flown_back
    x, y = (
        float(n) for n in re.findall(r"translate\(([-\d.]+)px, ([-\d.]+)px\)", flown_back[0])[0]
    )
    assert abs(x - start[0]) < 1 and abs(y - start[1]) < 1, (flown_back, start)
    expect(page.locator(".motion-layer.ahead")).to_have_count(0)
    assert layout(page) == servers
    expect(page.locator(f"{BOARD} .card.ahead-away")).to_have_count(0)


def test_eight_quick_deals_are_all_played_in_order_one_at_a_time(page, live_server):
    open_deal(page, live_server, "forty-thieves", 1)
    stock = int(page.locator(f"{BOARD} .stock-button .count").inner_text())
    held = Held(page)
    for n in range(8):
        if n:
            page.wait_for_timeout(60)
        page.keyboard.press("d")
    held.wait()
    # All eight set off at once, face down; one request is on its way.
    flying = ahead(page)
    assert [s["card"] for s in flying] == ["down"] * 8 and all(s["travels"] for s in flying)
    assert len(held.routes) == 1
    for n in range(8):
        held.wait(n + 1)
        assert len(held.routes) == 1, "two actions were on their way at once"
        held.release()
    expect(page.locator(f"{BOARD} .stock-button .count")).to_have_text(str(stock - 8))
    # Each sent with the board the answer before it left: eight deals, none on a ply twice.
    sent = [dict(part.split("=", 1) for part in body.split("&")) for body in held.posted]
    assert [fields["move"] for fields in sent] == ["deal"] * 8
    sent_plies = [int(fields["ply"]) for fields in sent]
    assert sent_plies == sorted(set(sent_plies)), sent_plies
    expect(page.locator(".motion-layer.ahead")).to_have_count(0)
    shown = layout(page)
    page.reload()
    assert layout(page) == shown


def test_under_reduced_motion_the_card_is_in_its_new_place_before_the_answer(browser, live_server):
    context = browser.new_context(
        viewport={"width": 1280, "height": 900}, reduced_motion="reduce", **NO_SERVICE_WORKER
    )
    page = context.new_page()
    route_actions(page)
    try:
        open_deal(page, live_server, "forty-thieves", 1)
        page.wait_for_load_state()
        held = Held(page)
        pick, target, code = single_column_move(page)
        card(page, pick).click()
        pile(page, target).locator(":scope > .card").last.click()
        held.wait()
        there = ahead(page)
        assert [s["card"] for s in there] == [code]
        to_box = box_of(pile(page, target))
        assert abs(centre_x(there[0]["box"]) - centre_x(to_box)) < to_box[2] / 2
        expect(card(page, pick)).to_have_class(re.compile(r"\bahead-away\b"))
        held.release()
        expect(page.locator(STATE)).not_to_have_attribute("data-ply", "0")
        expect(page.locator(".motion-layer.ahead")).to_have_count(0)
    finally:
        page.unroute(ACTIONS)
        context.close()


def test_a_redeal_sets_off_at_once_the_wastes_cards_flying_to_the_stock(page, live_server):
    open_deal(page, live_server, "little-forty", 1)
    stock = page.locator(f"{BOARD} .stock-button")
    while stock.get_attribute("value") == "deal":
        before = ply(page)
        stock.click()
        expect(page.locator(STATE)).not_to_have_attribute("data-ply", str(before))
    wait_until(page, "!document.querySelector('.motion-layer')")
    at = ply(page)
    shown = layout(page)["w"]
    assert shown, "the waste shows cards to redeal"
    held = Held(page)
    stock.click()
    held.wait()
    flying = ahead(page)
    assert [s["card"] for s in flying] == shown and all(s["travels"] for s in flying)
    page.evaluate("document.getAnimations().forEach(a => a.finish())")
    to_box = box_of(pile(page, "s"))
    for landed in ahead(page):
        assert abs(centre_x(landed["box"]) - centre_x(to_box)) < to_box[2] / 2
    held.release()
    expect(page.locator(STATE)).not_to_have_attribute("data-ply", str(at))
    expect(page.locator(".motion-layer.ahead")).to_have_count(0)
    assert layout(page)["w"] == []


def test_give_up_clicked_while_a_move_is_on_its_way_is_sent_after_it(page, live_server):
    """The move is played, then the game given up: neither is lost, neither goes beside the
    other."""
    automatic_moves_off(page, live_server, "forty-thieves")
    open_deal(page, live_server, "forty-thieves", 1)
    sent: list[str] = []
    page.on("request", lambda r: r.method == "POST" and sent.append(r.url.split("/")[-2]))
    held = Held(page)
    pick, target, _code = single_column_move(page)
    card(page, pick).click()
    pile(page, target).locator(":scope > .card").last.click()
    held.wait()
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#give-up").click()
    page.wait_for_timeout(300)
    assert sent == ["move"]  # the give-up waits for the move's answer
    held.release()
    expect(page.locator(BOARD)).to_have_class(re.compile(r"status-given-up"))
    assert sent == ["move", "give-up"]
    page.reload()
    expect(page.locator(BOARD)).to_have_class(re.compile(r"status-given-up"))
    assert ply(page) == 1
