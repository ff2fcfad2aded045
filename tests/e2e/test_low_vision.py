"""What a player with low vision needs of every page (WCAG 2.2 AA; docs/accessibility.md):

- at 320 CSS px wide (a laptop zoomed to 400 %), no page but the game's table scrolls sideways
  (1.4.10 Reflow);
- with the text at 200 % (the browser's text-only zoom: the root font size doubled), no text is
  cut off by its box (1.4.4 Resize text);
- every element the keyboard reaches looks different once it has the focus (2.4.7 Focus
  visible);
- every control is at least 24 by 24 px, or has that much room round it (2.5.8 Target size);
- with large cards (Looks), every face-up card's corner letters are at least 20 px and in sight,
  covered or not, and the cards grow where the screen is wide enough.
"""

import pytest
from playwright.sync_api import expect

from .conftest import BOARD, LAPTOP, SCREENSHOTS, TALL_PHONE, _close, no_horizontal_overflow
from .conftest import open_deal as open_game
from .site_pages import CASES, GAME, Visit, open_browser
from .table_figures import SIZES, figures, is_phone
from .test_layout import grow_column

pytestmark = pytest.mark.django_db(transaction=True)

LANGUAGES = ("en", "fr", "nl", "pl", "vi")
#: The pages a player reads and fills in (not the table, whose width is the cards').
PAGES = [name for name in CASES if name not in GAME]
NARROW = {"width": 320, "height": 640}


def opened(request, browser, live_server, case: str, language: str, viewport, phone=False):
    context, page = open_browser(browser, live_server, language, "light", viewport, phone)
    request.addfinalizer(lambda: _close(context, page))
    CASES[case](Visit(page, live_server, request, language))
    expect(page.locator("html")).to_have_attribute("lang", language)
    return page


@pytest.mark.parametrize("case", PAGES)
def test_no_page_scrolls_sideways_at_320_px(request, browser, live_server, case):
    language = LANGUAGES[PAGES.index(case) % len(LANGUAGES)]
    page = opened(request, browser, live_server, case, language, NARROW, phone=True)
    no_horizontal_overflow(page)


#: Every element whose box cuts off text it holds, with what it cuts off.
CLIPPED = """() => Array.from(document.querySelectorAll("body *")).filter(el => {
    if (!el.checkVisibility() || el.closest(".visually-hidden, [aria-hidden=true], [hidden]"))
        return false;
    const style = getComputedStyle(el);
    if (style.display === "inline" || !el.textContent.trim()) return false;
    const cuts = value => value === "hidden" || value === "clip";
    return (cuts(style.overflowX) && el.scrollWidth > el.clientWidth + 1)
        || (cuts(style.overflowY) && el.scrollHeight > el.clientHeight + 1);
}).map(el => `${el.tagName.toLowerCase()}.${el.className}: ${el.textContent.trim().slice(0, 60)}`
)"""


@pytest.mark.parametrize("case", PAGES)
def test_text_at_200_percent_is_not_cut_off(request, browser, live_server, case):
    language = LANGUAGES[PAGES.index(case) % len(LANGUAGES)]
    page = opened(request, browser, live_server, case, language, LAPTOP)
    size = page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    page.evaluate("document.documentElement.style.fontSize = '200%'")
    assert page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)") == 2 * size
    assert page.evaluate(CLIPPED) == []


#: The element in focus: where it is on the screen and what it is; null once none is, or once
#: the focus comes back to one it had already.
FOCUSED = """() => {
    const el = document.activeElement;
    window.focusSeen ??= new WeakSet();
    if (!el || el === document.body || window.focusSeen.has(el)) return null;
    window.focusSeen.add(el);
    const box = el.getBoundingClientRect();
    const name = `${el.tagName.toLowerCase()}#${el.id}.${el.className}`;
    return {x: box.x, y: box.y, width: box.width, height: box.height,
            name: `${name} ${el.textContent.trim().slice(0, 40)}`};
}"""
FOCUS_PAGES = ["home", "game-forty-thieves", "game-won", "rules", "looks", "log-in", "history"]


def around(page, box: dict, margin: int = 6) -> dict:
    """The part of the window round ``box``, ``margin`` px wider on every side."""
    view = page.viewport_size
    x, y = max(0, box["x"] - margin), max(0, box["y"] - margin)
    right = min(view["width"], box["x"] + box["width"] + margin)
    bottom = min(view["height"], box["y"] + box["height"] + margin)
    return {"x": x, "y": y, "width": max(1, right - x), "height": max(1, bottom - y)}


@pytest.mark.parametrize("size", ["laptop", "phone"])
@pytest.mark.parametrize("case", FOCUS_PAGES)
def test_the_focus_is_seen_on_every_element_the_keyboard_reaches(
    request, browser, live_server, case, size
):
    viewport = LAPTOP if size == "laptop" else TALL_PHONE
    page = opened(request, browser, live_server, case, "en", viewport, phone=size == "phone")
    page.locator("body").focus()
    seen, unseen = [], []
    for _step in range(120):
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED)
        if focused is None:
            break
        seen.append(focused["name"])
        if focused["width"] == 0 or focused["height"] == 0:
            unseen.append(focused["name"] + " (no box)")
            continue
        clip = around(page, focused)
        with_focus = page.screenshot(clip=clip, animations="disabled")
        page.evaluate("document.activeElement.blur()")
        without = page.screenshot(clip=clip, animations="disabled")
        if with_focus == without:
            unseen.append(focused["name"])
    assert len(seen) > 3, f"the keyboard reached only {seen}"
    assert not unseen, f"no visible change on focus: {unseen}"


#: Every control too small to take a finger, with no room round it (WCAG 2.5.8): a link in
#: running text is left out (its size is the text's), as the rule leaves it out.
SMALL = """() => {
    const controls = Array.from(document.querySelectorAll(
        "a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex='0']"
    )).filter(el => el.checkVisibility() && !el.closest("[inert], [aria-hidden=true]"));
    const inText = el => {
        if (el.tagName !== "A") return false;
        const block = el.parentElement.closest("p, li, td, dd, small, label");
        return block && block.textContent.trim().length > el.textContent.trim().length + 2;
    };
    const boxes = controls.map(el => el.getBoundingClientRect());
    const small = [];
    controls.forEach((el, i) => {
        const box = boxes[i];
        if (inText(el) || (box.width >= 23.5 && box.height >= 23.5)) return;
        const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
        const crowded = boxes.some((other, j) => {
            if (j === i || controls[j].contains(el) || el.contains(controls[j])) return false;
            const dx = Math.max(other.left - cx, 0, cx - other.right);
            const dy = Math.max(other.top - cy, 0, cy - other.bottom);
            return Math.hypot(dx, dy) < 12;
        });
        const name = `${el.tagName.toLowerCase()}#${el.id} ${el.textContent.trim().slice(0, 30)}`;
        if (crowded) small.push(`${name} ${Math.round(box.width)} by ${Math.round(box.height)}`);
    });
    return small;
}"""


@pytest.mark.parametrize("size", ["laptop", "phone"])
@pytest.mark.parametrize("case", [*PAGES, "game-forty-thieves", "game-lucas", "game-won"])
def test_every_control_is_at_least_24_px_or_has_room(request, browser, live_server, case, size):
    viewport = LAPTOP if size == "laptop" else TALL_PHONE
    page = opened(request, browser, live_server, case, "en", viewport, phone=size == "phone")
    assert page.evaluate(SMALL) == []


#: Large cards' least corner letter, CSS px.
LARGE_CORNER = 20

#: Each face-up card whose corner letters are under ``least`` px or hidden: scrolled into sight,
#: its rank and its suit must lie within the card, and the middle of each be the card's own
#: (not a card or a note over it). [card, font size, what is hidden] for each.
UNREADABLE = """(least) => {
    const found = [];
    for (const card of document.querySelectorAll('#board .card:not(.back)')) {
        const corner = card.querySelector('.corner');
        const size = parseFloat(getComputedStyle(corner).fontSize);
        card.scrollIntoView({block: 'center', inline: 'nearest'});
        const hidden = [];
        for (const node of corner.childNodes) {
            if (node.nodeType !== Node.TEXT_NODE || !node.textContent.trim()) continue;
            const range = document.createRange();
            range.selectNodeContents(node);
            const box = range.getBoundingClientRect();
            const edges = card.getBoundingClientRect();
            if (box.left < edges.left - 1 || box.right > edges.right + 1) {
                hidden.push(`${node.textContent.trim()} cut off`);
                continue;
            }
            const at = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
            if (at && at.closest('.card') === card) continue;
            const over = at ? at.closest('.card')?.dataset.card || at.className : 'nothing';
            hidden.push(`${node.textContent.trim()} under ${over}`);
        }
        if (size < least || hidden.length) found.push([card.dataset.card, size, hidden.join(', ')]);
    }
    return found;
}"""


def card_width(page) -> float:
    return page.locator(f"{BOARD} .tableau .card").first.bounding_box()["width"]


@pytest.mark.parametrize("variant", ["forty-thieves", "little-forty", "lucas", "forty-devils"])
@pytest.mark.parametrize("size", ["390x844", "844x390", "1280x720"])
def test_large_cards_show_every_corner_at_20_px(request, browser, live_server, size, variant):
    phone = is_phone(size)
    context, page = open_browser(browser, live_server, "en", "light", SIZES[size], phone)
    request.addfinalizer(lambda: _close(context, page))
    open_game(page, live_server, variant)
    page.wait_for_load_state()
    normal = card_width(page)
    if phone:  # normal cards' corners are smaller there: the look is what makes them 20 px
        assert figures(page)["corner"] < LARGE_CORNER

    looks = next(c["value"] for c in context.cookies() if c["name"] == "looks")
    large_cards = {"name": "looks", "value": f"{looks}&cards=large", "url": live_server.url}
    context.add_cookies([large_cards])
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-cards", "large")
    large = card_width(page)
    # The waste's cards (Little Forty fans its top three), and a long column (16 cards: a King
    # and its run down to the Ace on three dealt cards).
    page.locator(f'{BOARD} [data-pile="s"] > .stock-button').click()
    expect(page.locator(f'{BOARD} [data-pile="w"] .card').first).to_be_visible()
    # At the start of a deal the whole table is in sight: nothing to scroll to.
    assert page.locator(f"{BOARD} .table").evaluate("t => t.scrollHeight <= t.clientHeight + 1")
    grow_column(page, "t1", 16)
    page.evaluate("document.querySelector('main').scrollTo(0, 0)")
    page.screenshot(path=str(SCREENSHOTS / f"large-cards-{variant}-{size}.png"))
    unreadable = page.evaluate(UNREADABLE, LARGE_CORNER)
    assert not unreadable, f"corners too small or hidden: {unreadable}"
    no_horizontal_overflow(page)
    # Never smaller; larger where the screen's width leaves room (not an upright phone, whose
    # width the columns already fill).
    assert large >= normal - 0.5
    if size == "1280x720" and variant != "lucas":
        assert large > normal * 1.1, f"{large:.0f} px wide, {normal:.0f} px in normal cards"
    assert figures(page)["corner"] >= LARGE_CORNER
