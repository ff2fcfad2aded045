"""Playing on a phone (360 CSS pixels wide, touch): the widest games, 13 columns (Lucas) and 10
(Forty Thieves), fit the screen without sideways scrolling, the cards can be read, and taps,
a finger drag and a double tap play moves."""

import pytest
from playwright.sync_api import expect

from games.board import legal_targets
from games.models import Game
from games.rules import VARIANTS, first_position

from .conftest import (
    BOARD,
    card,
    drop_point,
    grab_point,
    layout,
    legal_picks,
    moved_on,
    no_horizontal_overflow,
    open_deal,
    pile,
    top_card,
    touch_drag,
)

pytestmark = pytest.mark.django_db(transaction=True)

#: The smallest text worth calling readable on a card's corner (CSS pixels).
READABLE = 9


def assert_readable(page, columns: int) -> None:
    board = page.locator(BOARD)
    expect(board.locator(".tableau [data-pile]")).to_have_count(columns)
    no_horizontal_overflow(page)
    board_box = board.bounding_box()
    assert board_box["x"] >= 0 and board_box["x"] + board_box["width"] <= 360 + 1
    sizes = board.locator(".card .corner").evaluate_all(
        "corners => corners.map(c => parseFloat(getComputedStyle(c).fontSize))"
    )
    assert sizes and min(sizes) >= READABLE, f"corner text of {min(sizes)}px"
    # Every column's top card is on the screen, not cut off.
    for j in range(1, columns + 1):
        box = top_card(page, f"t{j}").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 360 + 1


def tap_a_move(page) -> str:
    """Tap a card that can move, then its first legal column: the move played (``t9-t4``)."""
    picks = legal_picks(page)
    pick, target = next((p, t) for p, ts in picks.items() for t in ts if t.startswith("t"))
    card(page, pick).tap()
    expect(page.locator(BOARD)).to_have_attribute("data-pick", pick)
    top_card(page, target).tap()
    return f"{pick}-{target}"


def test_lucas_13_columns_fit_a_phone_and_play_by_touch(phone_page, live_server, screenshots):
    page = phone_page
    open_deal(page, live_server, "lucas", 1)
    assert_readable(page, 13)
    screenshots(page, "phone-lucas")

    before = layout(page)
    move = tap_a_move(page)
    played = moved_on(page, 0)
    pick, target = move.split("-")
    assert layout(page)[target][: len(before[target]) + 1] == [*before[target], before[pick][-1]]
    assert_readable(page, 13)

    # A finger drag plays the next move.
    picks = legal_picks(page)
    pick, target = next((p, t) for p, ts in picks.items() for t in ts if t.startswith("t"))
    touch_drag(page, grab_point(card(page, pick)), drop_point(page, target))
    moved_on(page, played)
    assert layout(page)[target][-1] != before[target][-1]
    screenshots(page, "phone-lucas-played")


def test_forty_thieves_10_columns_fit_a_phone_and_play_by_drag(
    phone_page, live_server, screenshots
):
    page = phone_page
    open_deal(page, live_server, "forty-thieves", 1)
    assert_readable(page, 10)
    before = layout(page)
    touch_drag(page, grab_point(card(page, "t8")), drop_point(page, "t4"))
    moved_on(page, 0)
    assert layout(page)["t4"] == [*before["t4"], "TH"]
    assert_readable(page, 10)
    screenshots(page, "phone-forty-thieves")


def test_a_double_tap_sends_a_card_to_a_foundation(phone_page, live_server, screenshots):
    deal, pick = next(
        (d, p)
        for d in range(1, 200)
        for p, t in legal_targets(first_position(VARIANTS["lucas"], d)).items()
        if p.startswith("t") and any(x.startswith("f") for x in t)
    )
    page = phone_page
    open_deal(page, live_server, "lucas", deal)
    # Two taps in quick succession, where the card is (no waiting between them).
    point = grab_point(card(page, pick))
    page.touchscreen.tap(*point)
    page.touchscreen.tap(*point)
    moved_on(page, 0)
    first = Game.objects.get().log.order_by("ply").first()
    assert first.notation.startswith(f"{pick}-f")
    expect(pile(page, pick).locator(".card.picked")).to_have_count(0)
    screenshots(page, "phone-double-tap")
