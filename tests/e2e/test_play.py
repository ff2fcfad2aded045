"""Playing in a real browser with a mouse: dealing a game, moves by click and by drag, undo and
redo, a reload, and a move the rules refuse.

Forty Thieves deal 1 starts with one move besides dealing: t8-t4 (the Ten of Hearts onto the
Jack of Hearts); other moves are found by reading the legal moves the board lists (#table-state).
"""

import pytest
from playwright.sync_api import expect

from games.board import legal_targets
from games.models import Game
from games.rules import VARIANTS, card_name, first_position

from .conftest import (
    BOARD,
    STATE,
    automatic_moves_off,
    card,
    drop_point,
    grab_point,
    layout,
    legal_picks,
    mouse_drag,
    moved_on,
    open_deal,
    pile,
    ply,
    top_card,
)

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_game_is_dealt_from_the_home_page(page, live_server, screenshots):
    page.goto(live_server.url)
    indian = page.locator(".variant").filter(has=page.get_by_role("heading", name="Indian"))
    indian.get_by_role("button", name="New game").click()
    board = page.locator(BOARD)
    expect(board).to_have_attribute("data-variant", "indian")
    expect(board.locator(".tableau [data-pile]")).to_have_count(10)
    # No move of the player's yet (aces dealt face up may have gone home by themselves).
    expect(board.locator("[data-moves]")).to_have_text("0")

    page.goto(live_server.url)
    page.get_by_label("Game:", exact=True).select_option("forty-thieves")
    page.get_by_label("Deal number:", exact=True).fill("1")
    page.get_by_role("button", name="Play this deal").click()
    expect(page.locator(BOARD)).to_have_attribute("data-variant", "forty-thieves")
    first = first_position(VARIANTS["forty-thieves"], 1)
    drawn = layout(page)
    for j, column in enumerate(first.columns, 1):
        assert drawn[f"t{j}"] == [card_name(c) for c in column]
    screenshots(page, "home-deal")


def test_a_click_picks_a_card_up_and_a_click_puts_it_down(page, live_server, screenshots):
    open_deal(page, live_server)
    before = layout(page)
    card(page, "t8").click()
    expect(card(page, "t8")).to_have_class("card red picked")
    expect(pile(page, "t4")).to_have_class("pile column target")
    expect(page.locator("#announce")).to_contain_text("Picked up Ten of Hearts.")
    top_card(page, "t4").click()
    moved_on(page, 0)
    after = layout(page)
    assert after["t4"] == [*before["t4"], "TH"]
    assert after["t8"][:2] == before["t8"][:2] and "TH" not in after["t8"]
    expect(page.locator("#announce")).to_contain_text("Ten of Hearts")
    screenshots(page, "click-move")


def test_a_click_on_the_held_card_puts_it_back(page, live_server, screenshots):
    open_deal(page, live_server)
    card(page, "t8").click()
    expect(card(page, "t8")).to_have_class("card red picked")
    screenshots(page, "click-held")
    card(page, "t8").click()
    expect(card(page, "t8")).to_have_class("card red")
    expect(page.locator(f"{BOARD} .pile.target")).to_have_count(0)
    expect(page.locator("#announce")).to_have_text("Put back.")
    assert ply(page) == 0


def test_a_double_click_sends_a_card_to_a_foundation(page, live_server, screenshots):
    deal, pick = next(
        (d, p)
        for d in range(1, 200)
        for p, t in legal_targets(first_position(VARIANTS["lucas"], d)).items()
        if p.startswith("t") and any(x.startswith("f") for x in t)
    )
    automatic_moves_off(page, live_server, "lucas")  # else the deal's aces go home at once
    open_deal(page, live_server, "lucas", deal)
    card(page, pick).dblclick()
    moved_on(page, 0)
    first = Game.objects.get(deal=str(deal)).log.order_by("ply").first()
    assert first.notation.startswith(f"{pick}-f") and not first.automatic
    expect(page.locator(f"{BOARD} .card.picked")).to_have_count(0)
    screenshots(page, "double-click")


def test_a_card_dragged_onto_a_legal_pile_moves_there(page, live_server, screenshot, screenshots):
    open_deal(page, live_server)
    before = layout(page)
    start = grab_point(card(page, "t8"))
    end = drop_point(page, "t4")
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=10)
    # While dragging: the card follows the pointer, the legal pile is lit, the original hidden.
    ghost = page.locator(".drag-ghost")
    expect(ghost.locator('[data-card="TH"]')).to_be_visible()
    expect(pile(page, "t4")).to_have_class("pile column target over")
    expect(card(page, "t8")).to_have_class("card red drag-source")
    box = ghost.bounding_box()
    assert abs(box["x"] + box["width"] / 2 - end[0]) < 4
    screenshot(page, "drag-during-desktop")
    page.mouse.up()
    moved_on(page, 0)
    expect(ghost).to_have_count(0)
    assert layout(page)["t4"] == [*before["t4"], "TH"]
    screenshots(page, "drag-done")


def test_a_drag_carries_the_card_and_the_cards_above_it(page, live_server, screenshot, screenshots):
    variant = "number-ten"
    deal, pick, target = next(
        (d, p, t[0])
        for d in range(1, 500)
        for p, t in legal_targets(first_position(VARIANTS[variant], d)).items()
        if ":" in p
    )
    open_deal(page, live_server, variant, deal)
    assert target in legal_picks(page)[pick]
    source, count = pick.split(":")
    before = layout(page)
    page.mouse.move(*grab_point(card(page, pick)))
    page.mouse.down()
    page.mouse.move(*drop_point(page, target), steps=10)
    expect(page.locator(".drag-ghost .card")).to_have_count(int(count))
    screenshot(page, "drag-sequence-during-desktop")
    page.mouse.up()
    moved_on(page, 0)
    after = layout(page)
    assert after[target][: len(before[target])] == before[target]
    assert after[target][len(before[target]) :][: int(count)] == before[source][-int(count) :]
    screenshots(page, "drag-sequence")


def test_cards_dropped_off_the_table_go_back(page, live_server, screenshots):
    open_deal(page, live_server)
    before = layout(page)
    heading = page.get_by_role("heading", name="Forty Thieves").bounding_box()
    mouse_drag(page, grab_point(card(page, "t8")), (heading["x"] + 5, heading["y"] + 5))
    expect(page.locator(".drag-ghost")).to_have_count(0)
    expect(card(page, "t8")).to_be_visible()
    expect(card(page, "t8")).to_have_class("card red")
    expect(page.locator(f"{BOARD} .pile.target")).to_have_count(0)
    assert ply(page) == 0 and layout(page) == before
    screenshots(page, "drag-outside")


def test_an_illegal_move_shows_the_reason_and_changes_nothing(page, live_server, screenshots):
    open_deal(page, live_server)
    before = layout(page)
    assert "t2" not in legal_picks(page).get("t1", [])
    # By click: the Seven of Diamonds onto the Nine of Spades.
    card(page, "t1").click()
    top_card(page, "t2").click()
    announce = page.locator("#announce")
    expect(announce).to_contain_text("That move is not allowed")
    expect(announce.locator(".message.error")).to_be_visible()
    assert ply(page) == 0 and layout(page) == before
    screenshots(page, "illegal-click")
    # By drag: the cards go back and the server says why.
    page.evaluate("document.getElementById('announce').textContent = ''")
    mouse_drag(page, grab_point(card(page, "t1")), drop_point(page, "t2"))
    expect(announce).to_contain_text("That move is not allowed")
    expect(page.locator(".drag-ghost")).to_have_count(0)
    expect(card(page, "t1")).to_be_visible()
    assert ply(page) == 0 and layout(page) == before


def test_undo_takes_a_move_back_and_redo_plays_it_again(page, live_server, screenshots):
    open_deal(page, live_server)
    start = layout(page)
    expect(page.locator("#undo")).to_be_disabled()
    card(page, "t8").click()
    top_card(page, "t4").click()
    played = moved_on(page, 0)
    after = layout(page)
    page.locator("#undo").click()
    moved_on(page, played)
    assert ply(page) == 0 and layout(page) == start
    expect(page.locator("#announce")).to_contain_text("Undone")
    expect(page.locator("#redo")).to_be_enabled()
    screenshots(page, "undo")
    page.locator("#redo").click()
    assert moved_on(page, 0) == played
    assert layout(page) == after
    expect(page.locator("#redo")).to_be_disabled()
    expect(page.locator("#undo")).to_be_enabled()
    # After an undo, a different move: only the table comes back, and the buttons follow it
    # (nothing left to redo; undo takes back the new move).
    page.locator("#undo").click()
    moved_on(page, played)
    expect(page.locator("#redo")).to_be_enabled()
    pile(page, "s").get_by_role("button").click()
    dealt = moved_on(page, 0)
    expect(page.locator("#redo")).to_be_disabled()
    expect(page.locator("#undo")).to_be_enabled()
    expect(page.locator("#restart")).to_be_enabled()
    page.locator("#undo").click()
    moved_on(page, dealt)
    assert layout(page) == start


def test_a_reload_shows_the_same_board(page, live_server, screenshots):
    open_deal(page, live_server)
    card(page, "t8").click()
    top_card(page, "t4").click()
    played = moved_on(page, 0)
    pile(page, "s").get_by_role("button").click()
    played = moved_on(page, played)
    board = layout(page)
    url = page.url
    page.reload()
    assert page.url == url
    expect(page.locator(STATE)).to_have_attribute("data-ply", str(played))
    assert layout(page) == board
    screenshots(page, "reload")


def test_a_card_dropped_on_any_foundation_goes_to_one_that_takes_it(page, live_server, screenshots):
    deal, pick, targets = next(
        (d, p, t)
        for d in range(1, 200)
        for p, t in legal_targets(first_position(VARIANTS["lucas"], d)).items()
        if p.startswith("t") and any(x.startswith("f") for x in t)
    )
    elsewhere = next(f"f{i}" for i in range(1, 9) if f"f{i}" not in targets)
    open_deal(page, live_server, "lucas", deal)
    mouse_drag(page, grab_point(card(page, pick)), drop_point(page, elsewhere))
    moved_on(page, 0)
    first = Game.objects.get().log.order_by("ply").first()
    assert first.notation in {f"{pick}-{t}" for t in targets}
    screenshots(page, "drag-foundation")
