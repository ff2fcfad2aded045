"""Cards that travel (static/js/motion.js): a card that changes place is seen moving from where
it was to where it lands, automatic moves after the player's, undo back the way it came, a
Finish played out, a cascade after a win; nothing moves under reduced motion or the player's
setting, and a move made while cards move goes through.

The animations are read from the page as the browser runs them (``getAnimations``): where a
travelling card is at the start and at the end of its flight is checked against where the
card was and where it is drawn now, with the animation paused at those times.
"""

import itertools

import pytest
from playwright.sync_api import expect

from games.rules import first_position, get_variant
from games.rules.autoplay import next_safe_move
from tests.web.solver_support import run_worker

from .conftest import (
    BOARD,
    STATE,
    Held,
    card,
    drop_point,
    grab_point,
    layout,
    legal_picks,
    mouse_drag,
    open_deal,
    pile,
    ply,
)
from .test_hints import ANSWER_MS, open_near_win

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def page(routed_page):
    """Answers are held back here (``Held``): the page without the service worker."""
    return routed_page


#: The viewports of the done-when: a desktop and a phone.
SIZES = {"desktop": {"width": 1280, "height": 720}, "phone": {"width": 390, "height": 844}}

#: A Finish's flights and turns all end within this long (ms), however many moves it plays
#: (docs/motion.md); a Finish of this many moves is a long one.
FINISH_BOUND_MS = 5500
LONG_FINISH = 350

#: Where the stand-in of the card ``code`` is, and where the card itself, at ``at``: "start"
#: (the moment it sets off), "end" (just before the card itself shows again), or a time (ms).
FLIGHT = """([code, at]) => {
    const ghosts = Array.from(document.querySelectorAll('.motion-layer [data-card]'))
        .filter(g => g.dataset.card === code && g.getAnimations().length);
    if (!ghosts.length) return null;
    const ghost = ghosts[ghosts.length - 1];
    const flight = ghost.getAnimations()[0];
    const real = Array.from(document.querySelectorAll('#board [data-pile] > .card'))
        .find(c => c.dataset.card === code && c.getAnimations().length);
    const lands = real ? real.getAnimations()[0].effect.getComputedTiming().endTime : null;
    document.getAnimations().forEach(a => a.pause());
    const frames = flight.effect.getKeyframes();
    const leaves = frames.findIndex((f, i) => i > 0 && f.transform !== frames[0].transform);
    const duration = flight.effect.getComputedTiming().duration;
    const starts = leaves > 0 ? frames[leaves - 1].computedOffset * duration : 0;
    const time = at === 'start' ? starts : at === 'end' ? lands - 1 : at;
    document.getAnimations().filter(a => a.timeline === document.timeline)
        .forEach(a => { a.currentTime = time; });
    const box = e => {
        const r = e.getBoundingClientRect();
        return [r.left, r.top, r.width, r.height];
    };
    return {ghost: box(ghost), real: real ? box(real) : null, lands, starts,
            pile: real ? real.parentElement.dataset.pile : null};
}"""


#: The layer of an answer's stand-ins (not of those set off ahead of it: play_ahead's tests).
ANSWER_LAYER = "document.querySelector('.motion-layer:not(.ahead)')"

#: The card set off ahead of the answer: where its flight starts, how long it lasts.
AHEAD_FLIGHT = """code => {
    const el = Array.from(document.querySelectorAll('.motion-layer.ahead > .motion-card'))
        .find(g => g.dataset.card === code);
    if (!el) return null;
    const flight = el.getAnimations()[0];
    flight.pause();
    flight.currentTime = 0;
    const r = el.getBoundingClientRect();
    return {box: [r.left, r.top, r.width, r.height],
            duration: flight.effect.getComputedTiming().duration};
}"""

#: How many animations run on the table's cards or their stand-ins.
CARDS_MOVING = """document.getAnimations().filter(a => a.effect && a.effect.target &&
    a.effect.target.closest('#board [data-pile], .motion-layer')).length"""


#: Ask the catch-up poll now (as when the page comes back in sight); its answer's status.
POLL = """new Promise(resolve => {
    const poll = document.getElementById('poll');
    poll.addEventListener('htmx:afterRequest', e => resolve(e.detail.xhr.status), {once: true});
    document.dispatchEvent(new Event('visibilitychange'));
})"""


#: Hold the answer's motion the moment its layer is added, however slow the machine: every
#: animation paused, and the timer that would end the motion (set as the layer is drawn, in
#: the same task) cleared. A mutation observer runs before the page draws, ends an animation
#: or runs a timer. Armed before the action, then ``wait_until(page, ANSWER_PAUSED)``.
ARM_ANSWER_PAUSE = """() => {
    const root = document.documentElement;
    delete root.dataset.answerPaused;
    const layer = () => document.querySelector('.motion-layer:not(.ahead)');
    const original = window.setTimeout;
    const ending = [];
    window.setTimeout = (fn, ms, ...rest) => {
        const id = original(fn, ms, ...rest);
        if (layer() && ms >= 100) ending.push(id);
        return id;
    };
    const observer = new MutationObserver(() => {
        if (!layer()) return;
        observer.disconnect();
        window.setTimeout = original;
        document.getAnimations().forEach(a => a.pause());
        ending.forEach(clearTimeout);
        root.dataset.answerPaused = 'yes';
    });
    observer.observe(document.body, {childList: true, subtree: true});
}"""
ANSWER_PAUSED = "document.documentElement.dataset.answerPaused === 'yes'"


def wait_until(page, script: str, timeout: int = 10_000) -> None:
    """Wait until ``script`` (an expression) is true on the page: asked from outside, as the
    site's policy forbids the page to evaluate strings (page.wait_for_function would)."""
    for _ in range(timeout // 10):
        if page.evaluate(script):
            return
        page.wait_for_timeout(10)
    raise AssertionError(f"still not true after {timeout} ms: {script}")


def moved_on(page, before: int) -> int:
    """Wait for the board after a move (its ply is not ``before``)."""
    expect(page.locator(STATE)).not_to_have_attribute("data-ply", str(before))
    return ply(page)


def near(a, b, tolerance: float = 2.0) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


def box(locator) -> list[float]:
    b = locator.bounding_box()
    return [b["x"], b["y"], b["width"], b["height"]]


def resume(page) -> None:
    """Let the paused animations run to their end, and wait until nothing moves."""
    page.evaluate("document.getAnimations().forEach(a => a.play())")
    wait_until(page, "!document.querySelector('.motion-layer')")


def column_move(page) -> tuple[str, str]:
    """A legal move of one card from a column to another column: (pick, target)."""
    for pick, targets in legal_picks(page).items():
        if pick.startswith("t") and ":" not in pick:
            for target in targets:
                if target.startswith("t"):
                    return pick, target
    raise AssertionError("no move from a column to a column on this board")


def click_move(page, pick: str, target: str) -> None:
    card(page, pick).click()
    pile(page, target).locator(":scope > .card").last.click()


def quiet_column_moves(variant: str):
    """Each deal of ``variant`` that sends no card home by itself, with each move of one card
    from a column to another column after which no card goes home either: (deal, position,
    move, the position after it)."""
    for deal in range(1, 400):
        position = first_position(get_variant(variant), deal)
        if next_safe_move(position):
            continue
        for move in position.legal_moves():
            text = str(move)
            if text.startswith("t") and "-t" in text and ":" not in text:
                ahead = position.copy()
                ahead.play(move)
                yield deal, position, text, ahead


def deal_with_an_automatic_move(
    variant: str = "forty-thieves", at_least: int = 1
) -> tuple[int, str, int]:
    """A deal where a column-to-column move is followed by ``at_least`` automatic moves home:
    the deal, the move, and how many automatic moves follow it."""
    for deal, _position, move, ahead in quiet_column_moves(variant):
        count = 0
        while safe := next_safe_move(ahead):
            ahead.play(safe)
            count += 1
        if count >= at_least:
            return deal, move, count
    raise AssertionError(f"no deal with {at_least} automatic moves after a column move")


def ask_for_the_win(page) -> None:
    """Ask "Can this still be won?", let the search run, wait for its Finish button."""
    page.locator("#can-win").click()
    expect(page.locator("#assist")).to_contain_text("Thinking")
    run_worker()
    expect(page.locator("#finish")).to_be_visible(timeout=ANSWER_MS)


def play_a_column_move(page) -> tuple[str, str, str, list[float], int]:
    """Move a card from a column to another by clicks: its pick, its target, its name, where
    it was drawn and the ply before."""
    pick, target = column_move(page)
    code = layout(page)[pick][-1]
    was = box(card(page, pick))
    before = ply(page)
    click_move(page, pick, target)
    return pick, target, code, was, before


@pytest.fixture(params=list(SIZES))
def sized_page(request, page):
    page.set_viewport_size(SIZES[request.param])
    return page


def test_a_clicked_card_travels_from_its_pile_to_its_target(sized_page, live_server):
    page = sized_page
    open_deal(page, live_server, "forty-thieves", 3)
    held = Held(page)
    _pick, target, code, was, before = play_a_column_move(page)
    # It sets off at once (the answer held back), from where it was, for a whole flight.
    held.wait()
    start = page.evaluate(AHEAD_FLIGHT, code)
    assert near(start["box"], was), f"it sets off from {start['box']}, not from {was}"
    assert start["duration"] >= 150
    held.release()
    wait_until(page, ANSWER_LAYER)
    end = page.evaluate(FLIGHT, [code, "end"])
    assert end["pile"] == target
    assert near(end["ghost"], end["real"]), "it lands where the card is drawn"
    # The answer's stand-in shows (it is no copy of the card waiting unseen).
    assert page.evaluate("document.querySelectorAll('.motion-layer .ahead-away').length") == 0
    resume(page)
    moved_on(page, before)
    assert layout(page)[target][-1] == code
    assert page.evaluate(CARDS_MOVING) == 0


def test_undo_takes_the_card_back_the_way_it_came(page, live_server):
    open_deal(page, live_server, "forty-thieves", 3)
    pick, target, code, was, before = play_a_column_move(page)
    moved_on(page, before)
    wait_until(page, "!document.querySelector('.motion-layer')")
    there = box(pile(page, target).locator(":scope > .card").last)
    # The last answer listed the move alone: the undo sets off at once (its answer held back).
    held = Held(page)
    page.locator("#undo").click()
    held.wait()
    start = page.evaluate(AHEAD_FLIGHT, code)
    assert near(start["box"], there)
    held.release()
    wait_until(page, ANSWER_LAYER)
    end = page.evaluate(FLIGHT, [code, "end"])
    assert end["pile"] == pick
    assert near(end["ghost"], was)
    resume(page)
    expect(page.locator(STATE)).to_have_attribute("data-ply", str(before))


def test_automatic_moves_travel_after_the_players_move(page, live_server):
    deal, move, count = deal_with_an_automatic_move()
    open_deal(page, live_server, "forty-thieves", deal)
    pick, target = move.split("-")
    code = layout(page)[pick][-1]
    click_move(page, pick, target)
    wait_until(page, ANSWER_LAYER)
    steps = page.evaluate("JSON.parse(document.getElementById('motion').dataset.steps)")
    assert len(steps) == 1 + count
    assert [bool(s.get("auto")) for s in steps] == [False] + [True] * count
    player = page.evaluate(FLIGHT, [code, "end"])
    auto = steps[-1]  # the last: the card on top of its pile at the end
    auto_code = auto["card"]
    page.evaluate("document.getAnimations().forEach(a => a.play())")
    flight = page.evaluate(FLIGHT, [auto_code, "start"])
    assert flight["starts"] > 0, "the automatic move waits for the player's"
    assert flight["lands"] > player["lands"]
    assert flight["pile"] == auto["to"]
    resume(page)
    assert layout(page)[auto["to"]][-1] == auto_code


#: The flights of the stand-ins of the cards ``autos`` in the answer's layer (the same card may
#: go home twice, two decks), in the order they set off: each card, when it leaves its pile and
#: how long it flies (ms), read from its keyframes.
AUTO_FLIGHTS = """autos => {
    document.getAnimations().forEach(a => a.pause());
    return Array.from(document.querySelectorAll('.motion-layer:not(.ahead) [data-card]'))
        .filter(g => autos.includes(g.dataset.card) && g.getAnimations().length)
        .map(ghost => {
            const effect = ghost.getAnimations()[0].effect;
            const frames = effect.getKeyframes();
            const duration = effect.getComputedTiming().duration;
            const last = frames[frames.length - 1].transform;
            const leaves = frames.findIndex((f, i) => i > 0 && f.transform !== frames[0].transform);
            const lands = frames.findIndex((f, i) => i >= leaves && f.transform === last);
            const at = i => frames[i].computedOffset * duration;
            const starts = at(leaves - 1);
            return {card: ghost.dataset.card, starts, flies: at(lands) - starts};
        })
        .filter(f => f.starts > 0)
        .sort((a, b) => a.starts - b.starts);
}"""


def test_a_run_of_automatic_moves_gathers_speed(page, live_server):
    deal, move, count = deal_with_an_automatic_move(at_least=3)
    open_deal(page, live_server, "forty-thieves", deal)
    pick, target = move.split("-")
    click_move(page, pick, target)
    wait_until(page, ANSWER_LAYER)
    steps = page.evaluate("JSON.parse(document.getElementById('motion').dataset.steps)")
    autos = [s["card"] for s in steps if s.get("auto")]
    assert len(autos) == count >= 3
    flights = page.evaluate(AUTO_FLIGHTS, autos)
    assert [f["card"] for f in flights] == autos, flights
    # Each card of the run flies faster than the one before and sets off sooner after it,
    # never quicker than the floor (docs/motion.md, "Timing").
    flies = [f["flies"] for f in flights]
    gaps = [b["starts"] - a["starts"] for a, b in itertools.pairwise(flights)]
    assert all(a > b for a, b in itertools.pairwise(flies)), flights
    assert all(a > b for a, b in itertools.pairwise(gaps)), flights
    assert min(flies) >= 80 - 1, flights
    assert flies[0] / flies[1] > 1.05, flights
    resume(page)
    assert [layout(page)[s["to"]][-1] for s in steps if s.get("auto")][-1] == autos[-1]


@pytest.mark.parametrize("how", ["reduced-motion", "setting-off"])
def test_nothing_moves_when_motion_is_off(page, live_server, how):
    if how == "reduced-motion":
        page.emulate_media(reduced_motion="reduce")
    open_deal(page, live_server, "forty-thieves", 3)
    if how == "setting-off":
        page.evaluate("document.documentElement.dataset.motion = 'off'")
    _pick, target, code, _was, before = play_a_column_move(page)
    moved_on(page, before)
    assert page.evaluate(CARDS_MOVING) == 0
    assert page.locator(".motion-layer").count() == 0
    assert layout(page)[target][-1] == code


def test_a_move_made_while_cards_move_goes_through(page, live_server):
    open_deal(page, live_server, "forty-thieves", 3)
    page.evaluate(ARM_ANSWER_PAUSE)
    *_move, before = play_a_column_move(page)
    wait_until(page, ANSWER_PAUSED)
    # Held in mid-flight: the next move does not wait for it.
    page.evaluate(
        """document.getAnimations().filter(a => a.timeline === document.timeline)
            .forEach(a => { a.pause(); a.currentTime = 90; })"""
    )
    after = moved_on(page, before)
    pick, target = column_move(page)
    code = layout(page)[pick][-1]
    click_move(page, pick, target)
    moved_on(page, after)
    resume(page)
    assert layout(page)[target][-1] == code


def test_the_catch_up_polls_nothing_new_leaves_the_cards_moving(page, live_server):
    open_deal(page, live_server, "forty-thieves", 3)
    page.evaluate(ARM_ANSWER_PAUSE)
    _pick, _target, code, _was, _before = play_a_column_move(page)
    wait_until(page, ANSWER_PAUSED)
    assert page.evaluate(POLL) == 204
    assert page.locator(".motion-layer").count() == 1
    assert page.evaluate(FLIGHT, [code, "end"])["pile"] is not None


def test_finish_plays_the_win_out_then_the_cards_cascade_and_the_panel_shows(
    page, live_server, screenshot
):
    page.set_viewport_size(SIZES["desktop"])
    open_near_win(page, live_server, moves_left=30)
    ask_for_the_win(page)
    page.locator("#finish").click()
    board = page.locator(BOARD)
    expect(board).to_have_attribute("data-status", "won")
    steps = page.evaluate("JSON.parse(document.getElementById('motion').dataset.steps)")
    assert len(steps) > 12  # a Finish: played out at its own pace
    # The moves are played out: cards are on their way, the won panel waits.
    wait_until(page, "document.querySelectorAll('.motion-layer [data-card]').length > 0")
    expect(board.locator(".outcome")).to_be_hidden()
    expect(page.locator("#motion-skip")).to_be_visible()
    # Then the cards leave the foundations.
    wait_until(page, "document.querySelector('#board.cascading')", 20_000)
    page.wait_for_timeout(900)
    screenshot(page, "win-cascade-desktop")
    page.mouse.click(5, 5)  # a click skips the cascade
    expect(board.locator(".outcome")).to_be_visible()
    expect(page.locator(".motion-layer")).to_have_count(0)
    expect(page.get_by_role("heading", name="You won!")).to_be_visible()
    screenshot(page, "win-panel-desktop")


def test_the_skip_button_ends_a_finish_at_once(phone_page, live_server, screenshot):
    page = phone_page
    open_near_win(page, live_server, moves_left=30)
    page.set_viewport_size(SIZES["desktop"])  # where "Can this still be won?" is in sight
    ask_for_the_win(page)
    page.set_viewport_size(SIZES["phone"])
    page.locator("#finish").click()
    expect(page.locator("#motion-skip")).to_be_visible()
    # "Skip" covers none of the message that says what the Finish did.
    message = page.locator("#announce .message")
    expect(message).to_contain_text("Finished")
    skip, said = box(page.locator("#motion-skip")), box(message)
    apart = skip[1] + skip[3] <= said[1] or said[1] + said[3] <= skip[1]
    assert apart or skip[0] + skip[2] <= said[0] or said[0] + said[2] <= skip[0]
    screenshot(page, "finish-skip-phone")
    page.locator("#motion-skip").click()
    expect(page.locator(".motion-layer")).to_have_count(0)
    expect(page.locator(BOARD).locator(".outcome")).to_be_visible()
    screenshot(page, "win-panel-phone")


def test_a_key_skips_the_cascade(page, live_server):
    open_near_win(page, live_server, moves_left=2)
    ask_for_the_win(page)
    page.locator("#finish").click()
    wait_until(page, "document.querySelector('#board.cascading')", 5_000)
    page.keyboard.press("Escape")
    expect(page.locator(".motion-layer")).to_have_count(0)
    expect(page.locator(BOARD).locator(".outcome")).to_be_visible()


TURNS = """(code) => {
    const ghost = Array.from(document.querySelectorAll('.motion-layer [data-card]'))
        .find(g => g.dataset.card === code);
    return Boolean(ghost) && ghost.getAnimations()[0].effect.getKeyframes()
        .some(f => /scale\\(0,/.test(f.transform));
}"""


@pytest.mark.parametrize("how", ["click", "key"])
def test_a_card_dealt_from_the_stock_travels_to_the_waste_and_turns_over(page, live_server, how):
    open_deal(page, live_server, "forty-thieves", 3)
    stock = box(pile(page, "s").locator(":scope > .card"))
    before = ply(page)
    held = Held(page)
    if how == "click":
        pile(page, "s").locator("button").click()
    else:
        page.locator("h1").click()  # the focus on the page, outside the table
        page.keyboard.press("d")
    # A back sets off from the stock at once (the answer held back); the answer turns it.
    held.wait()
    start = page.evaluate(AHEAD_FLIGHT, "down")
    assert near(start["box"][:2], stock[:2])
    held.release()
    wait_until(page, ANSWER_LAYER)
    code = page.evaluate("JSON.parse(document.getElementById('motion').dataset.steps)[0].card")
    assert page.evaluate(TURNS, code), "the dealt card turns face up"
    end = page.evaluate(FLIGHT, [code, "end"])
    assert end["pile"] == "w"
    assert near(end["ghost"], end["real"])
    resume(page)
    moved_on(page, before)
    assert layout(page)["w"][-1] == code


def uncovering_moves(variant: str = "indian") -> tuple[int, list[str]]:
    """A deal and two moves from one column to others (no automatic move between) that empty
    its face-up cards, so that the second turns its face-down card up."""
    for deal, _position, first, ahead in quiet_column_moves(variant):
        if next_safe_move(ahead):
            continue
        source = first.split("-")[0]
        column = int(source[1:]) - 1
        for second in ahead.legal_moves():
            then = str(second)
            if then.startswith(f"{source}-t") and ":" not in then:
                last = ahead.copy()
                last.play(second)
                if last.down[column] < ahead.down[column]:
                    return deal, [first, then]
    raise AssertionError("no deal where two moves turn a card up")


def test_a_card_uncovered_turns_face_up(page, live_server):
    deal, moves = uncovering_moves()
    open_deal(page, live_server, "indian", deal)
    for n, move in enumerate(moves):
        pick, target = move.split("-")
        before = ply(page)
        click_move(page, pick, target)
        if n < len(moves) - 1:
            moved_on(page, before)
            wait_until(page, "!document.querySelector('.motion-layer')")
    wait_until(page, ANSWER_LAYER)
    step = page.evaluate("JSON.parse(document.getElementById('motion').dataset.steps)[0]")
    assert step["face"] == "up"
    assert page.evaluate(TURNS, step["turn"]), "the uncovered card turns over"
    resume(page)
    assert layout(page)[step["from"]][-1] == step["turn"]


def test_a_dropped_card_travels_on_from_where_it_was_let_go(page, live_server):
    open_deal(page, live_server, "forty-thieves", 3)
    pick, target = column_move(page)
    code = layout(page)[pick][-1]
    was = box(card(page, pick))
    grab = grab_point(card(page, pick))
    drop = drop_point(page, target)
    held = Held(page)
    mouse_drag(page, grab, drop)
    held.wait()
    start = page.evaluate(AHEAD_FLIGHT, code)
    x, y = start["box"][0] + grab[0] - was[0], start["box"][1] + grab[1] - was[1]
    assert near([x, y], drop, 3), "it sets off from where the pointer let it go"
    held.release()
    wait_until(page, ANSWER_LAYER)
    end = page.evaluate(FLIGHT, [code, "end"])
    assert end["pile"] == target
    assert near(end["ghost"], end["real"])
    resume(page)
    assert layout(page)[target][-1] == code


def test_the_finish_that_shows_itself_plays_the_win_out_too(page, live_server):
    open_near_win(page, live_server, moves_left=5)
    page.locator("#finish-win").click()
    wait_until(page, "document.querySelectorAll('.motion-layer [data-card]').length > 0")
    steps = page.evaluate("JSON.parse(document.getElementById('motion').dataset.steps)")
    assert len(steps) >= 5
    expect(page.locator(BOARD).locator(".outcome")).to_be_hidden()
    wait_until(page, "document.querySelector('#board.cascading')")
    page.locator("#motion-skip").click()
    expect(page.locator(BOARD).locator(".outcome")).to_be_visible()


def test_a_card_dealt_from_the_stock_flies_as_a_plain_card(page, live_server):
    open_deal(page, live_server, "forty-thieves", 3)
    expect(pile(page, "s").locator(".count")).not_to_have_text("")
    pile(page, "s").locator("button").click()
    wait_until(page, "document.querySelector('.motion-layer [data-card]')")
    flying = page.evaluate(
        """Array.from(document.querySelectorAll('.motion-layer > .card'), c => ({
            tag: c.tagName, text: c.textContent.trim(), back: c.classList.contains('back'),
            marks: c.querySelectorAll('.count, .badge').length,
            button: c.classList.contains('stock-button')}))"""
    )
    backs = [one for one in flying if one["back"]]
    assert backs, "the dealt card sets off face down"
    for one in backs:
        assert one == {"tag": "SPAN", "text": "", "back": True, "marks": 0, "button": False}
    assert not any(one["marks"] or one["button"] for one in flying)
    resume(page)


#: The end (ms) of the last flight or turn of the moves played out, read from the animations.
LAST_FLIGHT = """Math.max(...document.getAnimations()
    .filter(a => a.effect && a.effect.target && a.effect.target.closest('.motion-layer'))
    .map(a => a.effect.getComputedTiming().endTime))"""


def test_a_long_finish_ends_its_flights_within_the_documented_bound(page, live_server):
    page.set_viewport_size(SIZES["desktop"])
    open_near_win(page, live_server, moves_left=LONG_FINISH)
    ask_for_the_win(page)
    page.locator("#finish").click()
    expect(page.locator(BOARD)).to_have_attribute("data-status", "won")
    steps = page.evaluate("JSON.parse(document.getElementById('motion').dataset.steps)")
    assert len(steps) >= 300  # the search's own line: about as long as the moves left
    wait_until(page, "document.querySelectorAll('.motion-layer [data-card]').length > 0")
    assert not page.evaluate("!!document.querySelector('#board.cascading')")
    assert 0 < page.evaluate(LAST_FLIGHT) <= FINISH_BOUND_MS
    page.locator("#motion-skip").click()
    expect(page.locator(BOARD).locator(".outcome")).to_be_visible()
