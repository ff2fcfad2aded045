"""The table on phones and a laptop (docs/phone.md): at four phone sizes, upright and sideways,
and at 1280 by 720, every game's table fits the window, its corner letters are at least 14 px,
its cards cover at least 1.5 times the share of the table they covered before the phone table
(measured with tests/bench/phone_table.py), no answer or announcement covers a card, and every
text on the table reads at 4.5:1 or better in light and dark, on every table colour."""

import re

import pytest
from django.conf import settings
from django.core.cache import cache
from playwright.sync_api import expect

from games.rules import VARIANTS

from .conftest import BOARD, STATE, _close, _new_page, _quiet, card, legal_picks, open_deal, ply
from .table_figures import SIZES, covering, figures, is_phone

pytestmark = pytest.mark.django_db(transaction=True)

LANGUAGES = [code for code, _name in settings.LANGUAGES]

#: The share of the table the cards covered at the start of deal 1, before the phone table
#: (tests/bench/phone_table.py on the commit before it).
BEFORE = {
    ("360x640", "forty-thieves"): 0.196,
    ("360x640", "indian"): 0.145,
    ("360x640", "limited"): 0.129,
    ("360x640", "little-forty"): 0.160,
    ("360x640", "lucas"): 0.150,
    ("360x640", "maria"): 0.171,
    ("360x640", "number-ten"): 0.148,
    ("360x640", "rank-and-file"): 0.135,
    ("360x640", "streets"): 0.187,
    ("360x640", "forty-devils"): 0.187,
    ("390x844", "forty-thieves"): 0.146,
    ("390x844", "indian"): 0.113,
    ("390x844", "limited"): 0.101,
    ("390x844", "little-forty"): 0.119,
    ("390x844", "lucas"): 0.117,
    ("390x844", "maria"): 0.133,
    ("390x844", "number-ten"): 0.116,
    ("390x844", "rank-and-file"): 0.101,
    ("390x844", "streets"): 0.146,
    ("390x844", "forty-devils"): 0.146,
    ("844x390", "forty-thieves"): 0.114,
    ("844x390", "indian"): 0.094,
    ("844x390", "limited"): 0.120,
    ("844x390", "little-forty"): 0.114,
    ("844x390", "lucas"): 0.167,
    ("844x390", "maria"): 0.105,
    ("844x390", "number-ten"): 0.096,
    ("844x390", "rank-and-file"): 0.086,
    ("844x390", "streets"): 0.114,
    ("844x390", "forty-devils"): 0.094,
    ("412x915", "forty-thieves"): 0.137,
    ("412x915", "indian"): 0.107,
    ("412x915", "limited"): 0.095,
    ("412x915", "little-forty"): 0.112,
    ("412x915", "lucas"): 0.110,
    ("412x915", "maria"): 0.126,
    ("412x915", "number-ten"): 0.109,
    ("412x915", "rank-and-file"): 0.095,
    ("412x915", "streets"): 0.137,
    ("412x915", "forty-devils"): 0.137,
}
#: The smallest corner letter (CSS px), and the least tap target of a covered card (px, in one
#: direction: its width or the strip of it in sight) where the screen has the room.
CORNER = 14
TARGET = 44


@pytest.fixture(scope="module")
def screens(browser):
    """One page per size, each reused by every game: phones by touch."""
    opened = {}
    for size, viewport in SIZES.items():
        phone = is_phone(size)
        opened[size] = _new_page(browser, viewport, has_touch=phone, is_mobile=phone)
    yield {size: page for size, (_context, page) in opened.items()}
    for context, page in opened.values():
        _close(context, page)


@pytest.fixture
def screen(screens, transactional_db):
    """The page of a size (``screen(size)``), left quiet (no request on its way, on a blank
    page) before the test's data goes."""
    used = []

    def of(size: str):
        used.append(screens[size])
        return screens[size]

    yield of
    for page in used:
        _quiet(page)


def covered_targets(page) -> list:
    """Each covered face-up card of the tableau whose target is under TARGET px both ways."""
    return page.locator(f"{BOARD} .tableau .card:not(.back):has(+ .card)").evaluate_all(
        """(cards, least) => cards.map(c => {
            const box = c.getBoundingClientRect();
            const strip = c.nextElementSibling.getBoundingClientRect().top - box.top;
            return [c.dataset.card, box.width, strip];
        }).filter(([, width, strip]) => width < least && strip < least)""",
        TARGET,
    )


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("size", list(SIZES))
def test_the_table_uses_the_screen(screen, live_server, size, variant):
    page = screen(size)
    open_deal(page, live_server, variant, 1)
    page.wait_for_load_state()
    found = figures(page)
    before = BEFORE.get((size, variant))
    was = f" (was {before:.1%})" if before else ""
    print(
        f"{size} {variant}: cards cover {found['coverage']:.1%} of the table{was}, "
        f"smallest corner {found['corner']:.1f} px"
    )
    assert not found["scrolls"], "the page scrolls"
    assert found["corner"] >= CORNER, f"a corner letter of {found['corner']:.1f} px"
    if before:
        assert found["coverage"] >= 1.5 * before, f"{found['coverage']:.1%}, was {before:.1%}"
    # Forty Devils held sideways spends its height on its foundations' labels: its cards are
    # 40 px wide, its strips about 30: the one table where the room does not allow 44 px.
    if (size, variant) != ("844x390", "forty-devils"):
        assert covered_targets(page) == []
    assert covering(page) == []


def play_a_move(page) -> None:
    """A move the table lists as legal, else a deal; its announcement in sight."""
    before = ply(page)
    picks = legal_picks(page)
    if picks:
        pick, targets = next(iter(picks.items()))
        page.evaluate("([p, t]) => window.solitaireTests.move(p, t)", [pick, targets[0]])
    else:
        page.locator(f'{BOARD} [data-pile="s"] button').click()
    expect(page.locator(STATE_PLY)).not_to_have_attribute("data-ply", str(before))


STATE_PLY = f"{BOARD} #table-state"


def ask_for_a_hint(page) -> None:
    button = page.locator("#hint")
    if not button.is_visible():
        page.locator("#more > summary").click()
    button.click()
    expect(page.locator("#assist .assist-answer")).to_be_visible()


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("size", ["390x844", "844x390", "1280x720"])
def test_no_answer_or_announcement_covers_a_card(screen, live_server, size, variant):
    page = screen(size)
    open_deal(page, live_server, variant, 2)
    page.wait_for_load_state()
    play_a_move(page)
    ask_for_a_hint(page)
    expect(page.locator("#announce .message").first).to_be_visible()
    assert covering(page) == []


#: Every text on the table and in the answers (its own words, or an empty pile's letter) with
#: its colour against the colours behind it, blended as drawn; those under 4.5:1.
CONTRAST = """() => {
    const rgba = (text) => {
        const m = text.match(/rgba?\\(([^)]*)\\)/);
        if (!m) return null;
        const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number);
        return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
    };
    const over = (top, under) => [0, 1, 2].map(i => top[i] * top[3] + under[i] * (1 - top[3]));
    const luminance = (c) => {
        const [r, g, b] = c.map(v => { v /= 255;
            return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const ratio = (a, b) => { const [x, y] = [luminance(a), luminance(b)].sort((m, n) => n - m);
        return (x + 0.05) / (y + 0.05); };
    // The colour behind an element: its ancestors' backgrounds laid one over the other; null
    // where a picture (a card's back) is behind it.
    // The answers and messages float over the table: the table is behind them.
    const lineage = (el) => {
        const chain = [];
        for (let e = el; e; e = e.parentElement) chain.unshift(e);
        return chain;
    };
    const behind = (el) => {
        const floating = el.closest('.notices');
        const chain = floating
            ? [...lineage(document.querySelector('#board')),
                ...lineage(el).filter(e => floating.contains(e))]
            : lineage(el);
        let colour = [255, 255, 255];
        for (const e of chain) {
            const style = getComputedStyle(e);
            if (style.backgroundImage !== 'none') return null;
            const bg = rgba(style.backgroundColor);
            if (bg && bg[3] > 0) colour = over(bg, colour);
        }
        return colour;
    };
    const seen = (el) => el.checkVisibility({opacityProperty: true, visibilityProperty: true});
    const found = [];
    const check = (el, style, what) => {
        const back = behind(el);
        if (!back) return;
        const fore = over(rgba(style.color), back);
        const r = ratio(fore, back);
        if (r < 4.5) found.push([what, style.color, r.toFixed(2)]);
    };
    const texts = document.querySelectorAll(
        '#board *:not(script, template, style), #announce, #announce *, #assist, #assist *');
    for (const el of texts) {
        if (!seen(el) || el.closest(':disabled, [aria-hidden="true"][inert]')) continue;
        const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
        if (own) check(el, getComputedStyle(el), (el.id || el.className || el.tagName) + ': '
            + el.textContent.trim().slice(0, 30));
        const after = getComputedStyle(el, '::after');
        const letter = after.content && !['none', 'normal', '""'].includes(after.content);
        if (letter && el.classList.contains('slot')) check(el, after, 'empty pile');
    }
    return found;
}"""

LOOKS = [(theme, table) for theme in ("light", "dark") for table in ("green", "blue", "wine")]


@pytest.mark.parametrize("size", ["390x844", "1280x720"])
def test_every_text_on_the_table_reads_clearly_in_every_look(screen, live_server, size):
    page = screen(size)
    open_deal(page, live_server, "forty-devils", 3)
    page.wait_for_load_state()
    play_a_move(page)
    ask_for_a_hint(page)
    picks = legal_picks(page)
    failing = {}
    for theme, table in LOOKS:
        page.evaluate(
            "([theme, table]) => Object.assign(document.documentElement.dataset, {theme, table})",
            [theme, table],
        )
        failing[(theme, table)] = page.evaluate(CONTRAST)
        # The card picked up, and the message that says so.
        card(page, next(iter(picks))).click()
        expect(page.locator("#announce")).to_contain_text("Picked up")
        failing[(theme, table, "picked")] = page.evaluate(CONTRAST)
        card(page, next(iter(picks))).click()
    assert not any(failing.values()), {k: v for k, v in failing.items() if v}


def test_one_tap_plays_a_cards_only_move_on_a_touch_screen(browser, live_server):
    """On a phone, by default: a card with exactly one move goes there at one tap, through the
    queue every move takes; a card with more than one is picked up; with the setting off, a
    tap only picks up."""
    context, page = _new_page(
        browser, SIZES["390x844"], one_tap=True, has_touch=True, is_mobile=True
    )
    try:
        cache.clear()
        open_deal(page, live_server, "forty-thieves", 1)
        page.wait_for_load_state()
        picks = legal_picks(page)
        only = next(p for p, targets in picks.items() if len(targets) == 1)
        target = picks[only][0]
        before = page.locator(f'{BOARD} [data-pile="{target}"] .card').count()
        card(page, only).tap()
        expect(page.locator(STATE_PLY)).not_to_have_attribute("data-ply", "0")
        expect(page.locator(BOARD)).to_have_attribute("data-pick", "")
        assert page.locator(f'{BOARD} [data-pile="{target}"] .card').count() > before

        page.evaluate("document.documentElement.dataset.tap = 'off'")
        picks = legal_picks(page)
        some = next(iter(picks))
        card(page, some).tap()
        expect(page.locator(BOARD)).to_have_attribute("data-pick", some)
    finally:
        _close(context, page)


def test_todays_deals_fit_a_phone_and_the_rules_link_keeps_one_line_in_vietnamese(
    screen, live_server
):
    page = screen("390x844")
    page.goto(f"{live_server.url}/daily/")
    expect(page.locator(".daily-table")).to_be_visible()
    width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], f"the page is {width[0]} px wide in {width[1]}"
    page.goto(f"{live_server.url}/vi/")
    links = page.locator(".variant-actions > a")
    expect(links.first).to_contain_text("Luật chơi")
    # Its words on one line (the link itself is a 44 px target on a touch screen).
    lines = links.evaluate_all(
        """links => links.map(a => {
            const tops = new Set();
            const texts = document.createTreeWalker(a, NodeFilter.SHOW_TEXT);
            while (texts.nextNode()) {
                const text = texts.currentNode;
                const heard = text.parentElement.closest('.visually-hidden');
                if (!text.textContent.trim() || heard) continue;
                const words = document.createRange();
                words.selectNodeContents(text);
                for (const r of words.getClientRects()) tops.add(Math.round(r.top));
            }
            return tops.size;
        })"""
    )
    assert set(lines) == {1}, lines


def test_a_refused_move_is_an_answer_the_page_expects_not_a_console_error(screen, live_server):
    page = screen("1280x720")
    errors = []

    def note(message):
        if message.type == "error":
            errors.append(message.text)

    page.on("console", note)
    try:
        open_deal(page, live_server, "forty-thieves", 1)
        page.wait_for_load_state()
        card(page, "t1").click()
        page.locator(f'{BOARD} [data-pile="t2"] > .card').last.click()
        expect(page.locator("#announce .message.error")).to_contain_text("not allowed")
        assert ply(page) == 0
        page.wait_for_timeout(200)
    finally:
        page.remove_listener("console", note)
    assert errors == []


#: Each counter (its label and figure) the toolbar covers, or that runs past the table's edge.
COUNTERS_HIDDEN = """() => {
    const tools = [...document.querySelectorAll('.play-area .controls :is(.button, summary)')]
        .map(t => t.getBoundingClientRect()).filter(r => r.width && r.height);
    const edge = document.querySelector('.play-area .board').getBoundingClientRect();
    // The counters' own box clips what runs past it (overflow: hidden).
    const info = document.querySelector('.play-area .game-info').getBoundingClientRect();
    const meets = (a, b) =>
        a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    return [...document.querySelectorAll('.play-area .game-info > div')].filter(counter => {
        const box = counter.getBoundingClientRect();
        return !box.width || box.right > edge.right + 0.5 || box.left < edge.left - 0.5
            || box.right > info.right + 0.5 || box.bottom > info.bottom + 0.5
            || tools.some(tool => meets(box, tool));
    }).map(counter => counter.innerText.trim().replace(/\\s+/g, ' '));
}"""


#: Phones held sideways, from the smallest (the counters share a row with the toolbar), and a
#: tablet upright (the counters in two rows kept whatever they hold).
BETWEEN = {
    "640x360": {"width": 640, "height": 360},
    "844x390": SIZES["844x390"],
    "915x412": {"width": 915, "height": 412},
    "768x1024": {"width": 768, "height": 1024},
}


@pytest.mark.parametrize("size", list(BETWEEN))
@pytest.mark.parametrize("language", LANGUAGES)
def test_sideways_and_on_a_tablet_every_counter_is_in_sight_in_every_language(
    browser, live_server, transactional_db, language, size
):
    context, page = _new_page(browser, BETWEEN[size], has_touch=True, is_mobile=True)
    context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    try:
        # Little Forty has the most counters: moves, time, the deal and the redeals left.
        open_deal(page, live_server, "little-forty", 45)
        expect(page.locator(".play-area .game-info [data-redeals]")).to_be_visible()
        assert page.evaluate(COUNTERS_HIDDEN) == []
        width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        assert width[0] <= width[1], f"the page is {width[0]} px wide in {width[1]}"
    finally:
        _close(context, page)


def test_on_a_phone_the_words_keep_a_margin_and_the_menu_leaves_the_cards_when_scrolled(
    phone_page, live_server
):
    page = phone_page
    open_deal(page, live_server, "little-forty", 3)
    page.wait_for_load_state()
    words = page.evaluate(
        """() => ['.play-area .game-header h1', '.game-links label', '.game-links a']
            .map(s => [s, document.querySelector(s).getBoundingClientRect().left])"""
    )
    for selector, left in words:
        assert left >= 6, f"{selector} touches the screen's edge ({left} px)"
    menu = page.locator("#site-menu > summary")
    expect(menu).to_be_visible()
    # Scrolled down to the links below the table, the menu no longer lies over any card.
    page.evaluate("document.querySelector('main').scrollTo(0, document.body.scrollHeight)")
    page.wait_for_timeout(200)
    over = page.evaluate(
        """() => {
            const m = document.querySelector('#site-menu > summary').getBoundingClientRect();
            const seen = getComputedStyle(document.querySelector('#site-menu > summary'))
                .visibility === 'visible' && m.bottom > 0;
            if (!seen) return [];
            return Array.from(document.querySelectorAll('#board .card'), c => {
                const r = c.getBoundingClientRect();
                return r.left < m.right && m.left < r.right && r.top < m.bottom && m.top < r.bottom
                    ? c.dataset.card || 'a card' : null;
            }).filter(Boolean);
        }"""
    )
    assert over == [], f"the menu lies over {over}"
    # Back at the top, it is there again.
    page.evaluate("document.querySelector('main').scrollTo(0, 0)")
    expect(menu).to_be_in_viewport()
    menu.click()
    expect(page.locator(".site-menu-items")).to_be_visible()


def test_a_phone_says_what_a_finger_does_and_what_one_tap_plays(browser, live_server):
    context, page = _new_page(browser, {"width": 390, "height": 844}, True, has_touch=True)
    try:
        open_deal(page, live_server, "forty-thieves", 3)
        page.wait_for_load_state()
        help = page.locator(".touch-help")
        expect(page.locator("#keys-help")).to_be_hidden()
        expect(help).to_be_visible()
        expect(help).to_contain_text("drag cards onto a pile")
        expect(help.locator(".one-tap-help")).to_be_visible()
        expect(help.locator(".one-tap-help")).to_contain_text("plays it at one tap")
        expect(help.get_by_role("link", name="Looks")).to_have_attribute(
            "href", re.compile(r"/looks/")
        )
        # One tap turned off on the Looks page: the page no longer says it plays.
        context.add_cookies(
            [{"name": "looks", "value": "tap=off", "domain": "localhost", "path": "/"}]
        )
        page.reload()
        expect(help).to_be_visible()
        expect(help.locator(".one-tap-help")).to_be_hidden()
    finally:
        _close(context, page)


def test_a_mouse_is_told_of_one_tap_only_when_it_is_on_for_a_mouse(laptop_page, live_server):
    page = laptop_page
    open_deal(page, live_server, "forty-thieves", 3)
    page.wait_for_load_state()
    expect(page.locator(".touch-help")).to_be_hidden()
    page.locator("#keys-help > summary").click()
    said = page.locator("#keys-help .one-tap-help")
    expect(said).to_be_hidden()  # by default a click picks a card up
    page.context.add_cookies(
        [{"name": "looks", "value": "tap=on", "domain": "localhost", "path": "/"}]
    )
    page.reload()
    page.locator("#keys-help > summary").click()
    expect(said).to_be_visible()


@pytest.mark.parametrize("language", ["en", "nl"])
def test_on_a_tablet_upright_the_games_name_and_rules_link_are_whole(
    browser, live_server, language
):
    context, page = _new_page(browser, {"width": 768, "height": 1024})
    try:
        context.add_cookies(
            [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
        )
        # A deal played before: the header says so too, on a third line of words.
        open_deal(page, live_server, "forty-thieves", 123)
        page.wait_for_load_state()
        before = ply(page)
        page.keyboard.press("d")  # a game counts once a move is made
        expect(page.locator(STATE)).not_to_have_attribute("data-ply", str(before))
        page.on("dialog", lambda dialog: dialog.accept())
        page.locator("#more > summary").click()
        page.locator("#give-up").click()
        expect(page.locator(BOARD)).to_have_attribute("data-status", "given-up")
        open_deal(page, live_server, "forty-thieves", 123)
        page.wait_for_load_state()
        expect(page.locator(".play-area .deal-record")).to_be_visible()
        cut = page.evaluate(
            """() => [...document.querySelectorAll('.play-area .game-header > *')]
                .filter(e => e.checkVisibility() && e.scrollWidth > e.clientWidth + 1)
                .map(e => e.textContent.trim())"""
        )
        assert cut == [], f"cut short: {cut}"
    finally:
        _close(context, page)
