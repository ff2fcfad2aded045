"""The board fits the window and stays still, at a laptop's 1280 by 720 and a phone's 390 by 844.

- The whole table (stock, waste, foundations and every column, up to 20 cards in one) is in
  sight without scrolling, and the cards close up as a column grows.
- Nothing moves the table while a game is played: 30 moves, a hint, an answer to "Can this still
  be won?" and an automatic move shift nothing (the browser's own count of layout shifts, and the
  table's top edge).
- On a phone: one row of controls, the cards in the top quarter of the screen, no keys help.
- Screenshots of every game at both sizes, and in dark mode, in test-artifacts/screenshots/.
"""

import pytest
from django.conf import settings
from django.db import OperationalError
from playwright.sync_api import expect

from games.rules import VARIANTS, Record
from tests.web.conftest import won_record
from tests.web.solver_support import run_worker

from .conftest import BOARD, SCREENSHOTS, STATE, card, open_deal, ply, top_card

pytestmark = pytest.mark.django_db(transaction=True)

#: The answers come when the worker has run; the page asks every half second.
ANSWER_MS = 8_000


def in_window(page, selector: str) -> dict:
    """The bounding box of ``selector``, checked to be inside the window (no scrolling)."""
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    assert box["x"] >= 0 and box["y"] >= 0, f"{selector} starts off the window: {box}"
    assert box["x"] + box["width"] <= size["width"] + 0.5, f"{selector} is too wide: {box}"
    assert box["y"] + box["height"] <= size["height"] + 0.5, f"{selector} is too tall: {box}"
    return box


def no_page_scroll(page) -> None:
    sizes = page.evaluate(
        """() => { const e = document.scrollingElement;
        return [e.scrollWidth, e.clientWidth, e.scrollHeight, e.clientHeight]; }"""
    )
    assert sizes[0] <= sizes[1] + 1 and sizes[2] <= sizes[3] + 1, f"the page scrolls: {sizes}"


def grow_column(page, name: str, cards: int) -> None:
    """Lay copies of the column's cards on it until it holds ``cards``: no game grows a column
    this long (four dealt, a King on top and the Queen to the Ace on it make 16 at most)."""
    page.locator(f'{BOARD} [data-pile="{name}"]').evaluate(
        """(pile, cards) => {
            const faces = Array.from(pile.querySelectorAll(':scope > .card'));
            let i = 0;
            while (pile.querySelectorAll(':scope > .card').length < cards) {
                const copy = faces[i++ % faces.length].cloneNode(true);
                copy.classList.remove('picked');
                copy.removeAttribute('data-pick');
                copy.removeAttribute('href');
                pile.append(copy);
            }
        }""",
        cards,
    )


def assert_table_fits(page) -> None:
    no_page_scroll(page)
    in_window(page, BOARD)
    for pile in page.locator(f"{BOARD} [data-pile]").all():
        name = pile.get_attribute("data-pile")
        in_window(page, f'{BOARD} [data-pile="{name}"]')


@pytest.mark.parametrize("variant", ["forty-thieves", "lucas", "forty-devils"])
@pytest.mark.parametrize("size", ["laptop", "tall_phone"])
def test_the_whole_table_fits_with_a_20_card_column(request, variant, size, live_server):
    page = request.getfixturevalue(f"{size}_page")
    open_deal(page, live_server, variant)
    assert_table_fits(page)
    first = top_card(page, "t1").bounding_box()
    grow_column(page, "t1", 20)
    expect(page.locator(f'{BOARD} [data-pile="t1"] > .card')).to_have_count(20)
    assert_table_fits(page)
    # The column closed up to fit; its top card is still the size of the others, and the
    # covered cards' corners can still be read.
    last = top_card(page, "t1").bounding_box()
    assert abs(last["width"] - first["width"]) < 0.5
    strips = page.locator(f'{BOARD} [data-pile="t1"] > .card').evaluate_all(
        "cards => cards.slice(1).map((c, i) => c.getBoundingClientRect().top"
        " - cards[i].getBoundingClientRect().top)"
    )
    assert min(strips) > 0, "covered cards must show a strip"
    corners = page.locator(f'{BOARD} [data-pile="t1"] .corner').evaluate_all(
        "cs => cs.map(c => parseFloat(getComputedStyle(c).fontSize))"
    )
    assert min(corners) >= 6, f"corner text of {min(corners)}px"
    page.screenshot(path=str(SCREENSHOTS / f"layout-20-cards-{variant}-{size}.png"))


WATCH_SHIFTS = """() => {
    window.tableShifts = [];
    new PerformanceObserver(list => {
        for (const entry of list.getEntries()) {
            window.tableShifts.push({
                value: entry.value,
                sources: entry.sources.map(s => s.node && s.node.nodeType === 1
                    ? (s.node.id || s.node.className || s.node.tagName) : String(s.node)),
            });
        }
    }).observe({type: "layout-shift"});
}"""


def open_record(page, live_server, record: Record) -> None:
    """A game started from ``record`` ("Start from a record"), its scripts running."""
    page.goto(f"{live_server.url}/import/")
    page.locator("#id_text").fill(record.to_json())
    page.get_by_role("button", name="Start this game").click()
    expect(page.locator(BOARD)).to_have_attribute("data-variant", record.variant)
    page.wait_for_load_state()


def press_menu_button(page, selector: str) -> None:
    """Press a button of the toolbar, opening the "More" menu first where it is folded."""
    button = page.locator(selector)
    if not button.is_visible():
        page.locator("#more > summary").click()
    button.click()


def click_move(page, move: str) -> int:
    """Play ``move`` ("t5-f1", "w-t2", "deal") with the mouse or a finger: the card, then the
    pile. The ply after it."""
    before = ply(page)
    if move in ("deal", "redeal"):
        page.locator(f'{BOARD} [data-pile="s"] > .stock-button').click()
    else:
        source, _dash, target = move.partition("-")
        card(page, source).click()
        expect(page.locator(BOARD)).to_have_attribute("data-pick", source)
        top_card(page, target).click()
    expect(page.locator(STATE)).not_to_have_attribute("data-ply", str(before))
    return ply(page)


def answer(page) -> None:
    """Run the worker that answers hints and questions, once the page has no request on its
    way (the test database, SQLite in memory, locks a table that a request is reading)."""
    for _attempt in range(10):
        for _wait in range(100):
            if not page.in_flight:
                break
            page.wait_for_timeout(20)
        try:
            run_worker()
            return
        except OperationalError:
            page.wait_for_timeout(100)
    raise AssertionError("the worker found the database locked ten times")


def table_top(page) -> float:
    return page.locator(f"{BOARD} .table").bounding_box()["y"]


@pytest.mark.parametrize("size", ["laptop", "tall_phone"])
def test_nothing_moves_the_table_while_a_game_is_played(request, size, live_server, screenshot):
    """30 moves, a hint, "Can this still be won?" and an automatic move: the table's top edge
    stays where it was and the browser counts no layout shift of it (nor of anything but the
    cards and the notes over the table)."""
    page = request.getfixturevalue(f"{size}_page")
    record = won_record()
    start = len(record.moves) - 60
    open_record(page, live_server, Record(record.variant, record.deal, record.moves[:start]))
    # The record's moves one by one, without automatic moves between them.
    press_menu_button(page, "#autoplay")
    expect(page.locator("#autoplay")).to_have_attribute("aria-pressed", "false")
    top = table_top(page)
    page.evaluate(WATCH_SHIFTS)

    for move in record.moves[start : start + 30]:
        click_move(page, str(move))
    assert ply(page) == start + 30
    assert table_top(page) == top

    press_menu_button(page, "#hint")
    expect(page.locator("#assist")).to_contain_text("Thinking")
    answer(page)
    expect(page.locator("#assist")).to_contain_text("This move leads to a win:", timeout=ANSWER_MS)
    assert table_top(page) == top
    press_menu_button(page, "#can-win")
    answer(page)
    expect(page.locator("#assist")).to_contain_text("Yes — next move:", timeout=ANSWER_MS)
    assert table_top(page) == top
    screenshot(page, f"layout-answer-{size}")

    # Automatic moves on again: the next moves of the win bring cards home by themselves.
    press_menu_button(page, "#autoplay")
    expect(page.locator("#autoplay")).to_have_attribute("aria-pressed", "true")
    automatic = False
    for move in record.moves[start + 30 :]:
        before = ply(page)
        if click_move(page, str(move)) > before + 1:
            automatic = True
            break
    assert automatic, "no automatic move followed"
    expect(page.locator("#announce")).not_to_be_empty()
    assert table_top(page) == top
    page.wait_for_timeout(300)  # layout shifts are reported after the frame
    shifts = page.evaluate("window.tableShifts")
    # The cards travel, and the notes over the table's foot (what happened, the answers) grow
    # upwards with what they say (docs/phone.md): neither is the table moving.
    over = ("card", "notices", "announce", "assist", "message")
    moved = [s for s in shifts if any(not str(n).startswith(over) for n in s["sources"])]
    assert not moved, f"the table moved: {moved}"
    total = sum(
        s["value"] for s in shifts if not all(str(n).startswith(over[1:]) for n in s["sources"])
    )
    assert total == 0, f"layout shift of {total}: {shifts}"


def test_a_phone_has_one_row_of_controls_the_cards_high_up_and_no_keys_help(
    tall_phone_page, live_server
):
    page = tall_phone_page
    open_deal(page, live_server, "lucas")
    page.wait_for_load_state()
    height = page.viewport_size["height"]
    # The cards start in the top quarter of the screen.
    assert page.locator(f'{BOARD} [data-pile="s"]').bounding_box()["y"] < height / 4
    # One row: every control in sight shares its top, inside the screen's width.
    shown = page.locator("#controls :is(button, summary):visible")
    boxes = [b for b in shown.evaluate_all("es => es.map(e => e.getBoundingClientRect().toJSON())")]
    assert len({round(b["top"]) for b in boxes}) == 1, boxes
    assert max(b["right"] for b in boxes) <= page.viewport_size["width"]
    expect(page.locator("#give-up")).to_be_hidden()
    # The keys are for keyboards.
    expect(page.locator("#keys-help")).to_be_hidden()
    # The menu holds the rest, over the table, and closes once an action is chosen.
    top = table_top(page)
    page.locator("#more > summary").click()
    expect(page.locator("#give-up")).to_be_visible()
    in_window(page, "#more .more-menu")
    page.screenshot(path=str(SCREENSHOTS / "layout-phone-menu.png"))
    assert table_top(page) == top
    page.locator("#autoplay").click()
    expect(page.locator("#autoplay")).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#give-up")).to_be_hidden()
    assert table_top(page) == top


@pytest.mark.parametrize("size", ["laptop", "tall_phone"])
def test_every_game_fits_and_is_photographed(request, size, live_server):
    page = request.getfixturevalue(f"{size}_page")
    for variant in VARIANTS:
        open_deal(page, live_server, variant)
        assert_table_fits(page)
        page.screenshot(path=str(SCREENSHOTS / f"game-{variant}-{size}.png"))
    page.emulate_media(color_scheme="dark")
    open_deal(page, live_server, "forty-devils")
    assert_table_fits(page)
    page.screenshot(path=str(SCREENSHOTS / f"game-forty-devils-dark-{size}.png"))


@pytest.mark.parametrize("size", ["laptop", "tall_phone"])
def test_the_statistics_table_fits_a_laptop_and_scrolls_only_inside_itself_on_a_phone(
    request, size, live_server
):
    page = request.getfixturevalue(f"{size}_page")
    for variant in ("forty-thieves", "lucas", "rank-and-file"):
        open_deal(page, live_server, variant)
        click_move(page, "deal")  # a game counts from its first move
    page.goto(f"{live_server.url}/my/statistics/")
    expect(page.locator(".per-game tbody tr")).to_have_count(3)
    widths = page.evaluate(
        """() => [document.documentElement.scrollWidth, document.documentElement.clientWidth,
                  document.querySelector('.table-scroll').scrollWidth,
                  document.querySelector('.table-scroll').clientWidth]"""
    )
    assert widths[0] <= widths[1], f"the page scrolls sideways: {widths}"
    # The figures stand at least two to a row, not fifteen boxes one under the other.
    tops = page.locator(".figures > div").evaluate_all(
        "es => es.map(e => Math.round(e.getBoundingClientRect().top))"
    )
    assert len(set(tops)) <= (len(tops) + 1) // 2, f"{len(tops)} figures in {len(set(tops))} rows"
    if size == "laptop":
        assert widths[2] <= widths[3], f"the table scrolls at 1280 pixels: {widths}"
    page.screenshot(path=str(SCREENSHOTS / f"statistics-{size}.png"), full_page=True)


def luminance(rgb: str) -> float:
    """The relative luminance (WCAG) of a computed colour, "rgb(r, g, b)"."""
    channels = [int(float(c)) / 255 for c in rgb[rgb.index("(") + 1 : -1].split(",")[:3]]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("pressed", ["true", "false"])
def test_in_dark_mode_every_toolbar_button_reads_clearly(laptop_page, live_server, pressed):
    page = laptop_page
    page.emulate_media(color_scheme="dark")
    open_deal(page, live_server, "forty-thieves")
    page.wait_for_load_state()
    if page.locator("#autoplay").get_attribute("aria-pressed") != pressed:
        page.locator("#autoplay").click()
        expect(page.locator("#autoplay")).to_have_attribute("aria-pressed", pressed)
    colours = page.locator("#controls .button:visible").evaluate_all(
        """es => es.map(e => { const s = getComputedStyle(e);
            return [e.id, s.color, s.backgroundColor]; })"""
    )
    assert any(name == "autoplay" for name, _c, _b in colours)
    for name, colour, background in colours:
        assert contrast(colour, background) >= 4.5, (name, colour, background)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_finish_stands_out_on_every_table_colour(laptop_page, live_server, scheme):
    """Finish is the button a player has won: it must not take the table's own colour."""
    from .test_hints import open_near_win

    page = laptop_page
    page.emulate_media(color_scheme=scheme)
    open_near_win(page, live_server, moves_left=5)
    finish = page.locator("#finish-win")
    expect(finish).to_be_visible()
    for table in ["", "blue", "wine"]:
        colours = page.evaluate(
            """table => {
                if (table) document.documentElement.dataset.table = table;
                else delete document.documentElement.dataset.table;
                const button = getComputedStyle(document.getElementById('finish-win'));
                const board = getComputedStyle(document.querySelector('.board'));
                return [button.backgroundColor, button.color, board.backgroundColor];
            }""",
            table,
        )
        background, text, felt = colours
        # WCAG 1.4.11: a control stands at least 3:1 against what is around it.
        assert contrast(background, felt) >= 3, (table or "green", colours)
        assert contrast(text, background) >= 4.5, (table or "green", colours)


def open_site_menu(page) -> None:
    """Open the site's menu where the game page folds its header into one (a phone)."""
    menu = page.locator("#site-menu > summary")
    if menu.count() and menu.is_visible():
        menu.click()


def switch_language(page, code: str) -> None:
    open_site_menu(page)
    page.locator("#language-choice").select_option(code)
    page.locator(".language-form button").click()
    expect(page.locator("html")).to_have_attribute("lang", code)
    page.wait_for_load_state()


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("size", ["laptop", "tall_phone"])
def test_the_table_stays_put_when_a_game_ends(request, size, language, live_server):
    """Given up (as when won, the toolbar goes): its room stays, in French too, where the
    laptop's toolbar takes two rows."""
    page = request.getfixturevalue(f"{size}_page")
    open_deal(page, live_server, "forty-thieves")
    switch_language(page, language)
    top = table_top(page)
    stock = page.locator(f'{BOARD} [data-pile="s"]').bounding_box()
    page.once("dialog", lambda dialog: dialog.accept())
    press_menu_button(page, "#give-up")
    expect(page.locator(BOARD)).to_have_attribute("data-status", "given-up")
    expect(page.locator("#controls")).to_have_count(0)
    assert table_top(page) == top
    assert page.locator(f'{BOARD} [data-pile="s"]').bounding_box() == stock


def test_every_header_link_is_in_sight_on_a_phone_in_french(tall_phone_page, live_server):
    page = tall_phone_page
    open_deal(page, live_server, "forty-thieves")
    switch_language(page, "fr")
    open_site_menu(page)
    links = page.locator(".site-nav :is(a, button)")
    assert links.count() >= 5
    width = page.viewport_size["width"]
    for link in links.all():
        box = link.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= width, box


@pytest.mark.parametrize("language", ["en", "fr", "pl"])
def test_a_phone_shows_every_counter_whole(tall_phone_page, live_server, language):
    """The counters above the table (moves, time, deal, redeals left) are all in sight on a
    phone, none cut off, in the languages with the longest words; and their row keeps its
    height while the game is played."""
    page = tall_phone_page
    open_deal(page, live_server, "little-forty", 884638469)
    switch_language(page, language)
    info = page.locator("#game-info")
    expect(info.locator("[data-redeals]")).to_be_visible()

    def clipped() -> list:
        return info.evaluate(
            """bar => {
                const box = bar.getBoundingClientRect();
                return [...bar.querySelectorAll("dt, dd")]
                    .map(e => e.getBoundingClientRect())
                    .filter(r => r.right > box.right + 0.5 || r.bottom > box.bottom + 0.5)
                    .map(r => r.toJSON());
            }"""
        )

    assert clipped() == []
    height, top = info.bounding_box()["height"], table_top(page)
    page.locator(f'{BOARD} [data-pile="s"] button').click()
    expect(page.locator(f'{BOARD} [data-pile="w"] .card')).not_to_have_count(0)
    assert clipped() == []
    assert info.bounding_box()["height"] == height and table_top(page) == top


@pytest.mark.parametrize("size", ["laptop", "tall_phone"])
def test_the_note_of_a_held_card_is_not_under_the_announcement(request, size, live_server):
    """A card picked up through its link (without JavaScript, or a link opened as it is): the
    announcement says so and the note below says how to put it down, with its "Put it back"
    link; the one does not cover the other."""
    page = request.getfixturevalue(f"{size}_page")
    open_deal(page, live_server, "forty-thieves")
    switch_language(page, "fr")
    page.goto(page.url.split("?")[0] + "?pick=t1")
    note, said = page.locator(".pick-note"), page.locator("#announce .message")
    expect(note).to_be_visible()
    expect(said).to_be_visible()
    a, b = note.bounding_box(), said.bounding_box()
    apart = a["y"] >= b["y"] + b["height"] or b["y"] >= a["y"] + a["height"]
    assert apart, (a, b)
    note.locator("a").click()
    expect(page.locator(".pick-note")).to_have_count(0)


@pytest.mark.parametrize("language", ["nl", "pl", "fr"])
def test_no_heading_of_the_statistics_table_runs_into_the_next(laptop_page, live_server, language):
    page = laptop_page
    open_deal(page, live_server, "forty-thieves")
    switch_language(page, language)
    click_move(page, "deal")
    page.goto(f"{live_server.url}/my/statistics/")
    expect(page.locator(".per-game tbody tr")).to_have_count(1)
    over = page.locator(".per-game thead th").evaluate_all(
        """ths => ths.filter(th => th.scrollWidth > th.clientWidth + 1)
                     .map(th => [th.textContent.trim(), th.scrollWidth, th.clientWidth])"""
    )
    assert over == []


@pytest.mark.parametrize("language", ["pl", "fr", "vi"])
def test_every_button_of_the_phones_menu_holds_its_words(tall_phone_page, live_server, language):
    page = tall_phone_page
    open_deal(page, live_server, "forty-thieves")
    switch_language(page, language)
    page.locator("#more > summary").click()
    expect(page.locator("#give-up")).to_be_visible()
    menu = in_window(page, "#more .more-menu")
    over = page.locator("#more .more-menu .button:visible").evaluate_all(
        """bs => bs.filter(b => b.scrollWidth > b.clientWidth + 1)
                   .map(b => [b.textContent.trim(), b.scrollWidth, b.clientWidth])"""
    )
    assert over == [] and menu["width"] > 0


def test_in_dark_mode_the_charts_wins_and_the_won_panels_links_read_clearly(
    laptop_page, live_server
):
    from .test_hints import open_near_win

    page = laptop_page
    page.emulate_media(color_scheme="dark", reduced_motion="reduce")  # the won panel at once
    open_near_win(page, live_server, moves_left=5)
    page.locator("#finish-win").click()
    panel = page.locator("#won-panel")
    expect(panel.get_by_role("heading", name="You won!")).to_be_visible(timeout=30_000)
    links = panel.locator("a:not(.button)").evaluate_all(
        """es => es.map(e => [e.textContent, getComputedStyle(e).color,
            getComputedStyle(e.closest('.outcome')).backgroundColor])"""
    )
    for text, colour, background in links:
        assert contrast(colour, background) >= 4.5, (text, colour, background)
    page.goto(f"{live_server.url}/my/statistics/")
    won = page.evaluate(
        """() => { const chart = document.querySelector('svg.chart');
            const panel = getComputedStyle(chart).backgroundColor;
            const bar = document.querySelector('.legend .key.wins');
            const dot = document.querySelector('.chart circle.rate');
            return [getComputedStyle(bar).backgroundColor, getComputedStyle(dot).fill, panel]; }"""
    )
    bar, dot, panel = won
    assert contrast(bar, panel) >= 3 and contrast(dot, panel) >= 3, won


@pytest.mark.parametrize("language", ["en", "pl"])
def test_the_toolbar_is_reached_by_tab_in_the_order_it_is_seen(laptop_page, live_server, language):
    """WCAG 2.4.3: Tab goes through the toolbar left to right, row by row, as it is read;
    Give up and a coming Finish last."""
    from .test_hints import open_near_win

    page = laptop_page
    open_near_win(page, live_server, moves_left=5)
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.locator("#finish-win")).to_be_visible()
    boxes = page.locator("#controls").evaluate(
        """c => [...c.querySelectorAll('button, a[href], summary')]
            .filter(e => e.checkVisibility())
            .map(e => { const r = e.getBoundingClientRect();
                return [e.id || e.textContent.trim(), Math.round(r.top), Math.round(r.left)]; })"""
    )
    assert [b[0] for b in boxes][-2:] == ["give-up", "finish-win"]
    rows = sorted(boxes, key=lambda b: (b[1], b[2]))
    assert [b[0] for b in rows] == [b[0] for b in boxes], boxes
