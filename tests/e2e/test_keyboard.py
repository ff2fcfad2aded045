"""Playing with the keyboard only: no click, no pointer; the focus stays where it was after every
new board, and the keys are listed on the page."""

import re

import pytest
from playwright.sync_api import expect

from games.board import legal_targets
from games.models import Game
from games.rules import VARIANTS, first_position

from .conftest import (
    BOARD,
    STATE,
    automatic_moves_off,
    card,
    layout,
    legal_picks,
    moved_on,
    open_deal,
    pile,
    ply,
)

pytestmark = pytest.mark.django_db(transaction=True)

TOP_ROW = ["s", "w", *(f"f{i}" for i in range(1, 9))]


def focused_pile(page) -> str:
    return page.evaluate(
        "(document.activeElement.closest('#board [data-pile]') || {dataset: {}}).dataset.pile || ''"
    )


def tab_to_the_table(page) -> None:
    for _ in range(40):
        page.keyboard.press("Tab")
        if focused_pile(page):
            return
    raise AssertionError("Tab never reached the table")


def arrow_to(page, target: str) -> None:
    """Walk the focus with the arrow keys to the pile ``target``."""
    for _ in range(40):
        here = focused_pile(page)
        if here == target:
            return
        here_top, target_top = here in TOP_ROW, target in TOP_ROW
        if here_top != target_top:
            page.keyboard.press("ArrowUp" if target_top else "ArrowDown")
        else:
            row = TOP_ROW if here_top else [f"t{j}" for j in range(1, 14)]
            page.keyboard.press(
                "ArrowRight" if row.index(target) > row.index(here) else "ArrowLeft"
            )
    raise AssertionError(f"the arrow keys never reached {target}")


def test_a_game_is_played_with_the_keyboard_only(page, live_server, screenshots):
    board = open_deal(page, live_server)
    help_ = page.locator("#keys-help")
    expect(help_).to_be_visible()
    tab_to_the_table(page)

    # A number picks up a column's top card, another puts it on that column.
    page.keyboard.press("8")
    expect(card(page, "t8")).to_be_focused()
    expect(card(page, "t8")).to_have_class("card red picked")
    page.keyboard.press("4")
    played = moved_on(page, 0)
    assert layout(page)["t4"][-1] == "TH"
    expect(pile(page, "t4").locator("a[data-pick]").last).to_be_focused()

    # Undo and redo, by letter and by Ctrl: the focus stays on the column.
    page.keyboard.press("u")
    moved_on(page, played)
    assert ply(page) == 0
    expect(card(page, "t4")).to_be_focused()
    page.keyboard.press("Control+y")
    assert moved_on(page, 0) == played
    page.keyboard.press("Control+z")
    moved_on(page, played)
    page.keyboard.press("r")
    assert moved_on(page, 0) == played

    # D deals; the arrow keys and Enter play a move the board says is legal.
    picks = {}
    while not picks:
        before = ply(page)
        page.keyboard.press("d")
        moved_on(page, before)
        picks = {p: t for p, t in legal_picks(page).items() if any(x.startswith("t") for x in t)}
    pick, targets = next(iter(picks.items()))
    target = next(t for t in targets if t.startswith("t"))
    arrow_to(page, pick.split(":")[0])
    page.keyboard.press("Enter")
    expect(card(page, pick)).to_have_class(re.compile(r"\bpicked\b"))
    expect(board).to_have_attribute("data-pick", pick)
    arrow_to(page, target)
    screenshots(page, "keyboard-holding")
    before = ply(page)
    page.keyboard.press("Space")
    moved_on(page, before)
    assert focused_pile(page) == target

    # ? opens the list of keys.
    page.keyboard.press("?")
    expect(help_).to_have_attribute("open", "")
    expect(help_.get_by_text("undo", exact=True)).to_be_visible()
    screenshots(page, "keyboard")


def test_keys_send_to_a_foundation_and_put_back(page, live_server, screenshots):
    variant = "lucas"
    deal, pick = next(
        (d, p)
        for d in range(1, 200)
        for p, t in legal_targets(first_position(VARIANTS[variant], d)).items()
        if p.startswith("t") and any(x.startswith("f") for x in t)
    )
    automatic_moves_off(page, live_server, variant)  # else the deal's aces go home at once
    open_deal(page, live_server, variant, deal)
    tab_to_the_table(page)

    # Escape puts a picked card back.
    page.keyboard.press("5")
    expect(page.locator(BOARD)).to_have_attribute("data-pick", "t5")
    page.keyboard.press("Escape")
    expect(page.locator(BOARD)).to_have_attribute("data-pick", "")
    expect(page.locator(f"{BOARD} .card.picked")).to_have_count(0)

    # Shift+1 to Shift+3 reach columns 11 to 13.
    page.keyboard.press("Shift+Digit2")
    expect(page.locator(BOARD)).to_have_attribute("data-pick", "t12")
    expect(card(page, "t12")).to_be_focused()
    page.keyboard.press("Escape")

    # F sends the card in focus (or the one held) to a foundation.
    column = int(pick[1:])
    page.keyboard.press(str(column % 10) if column <= 10 else f"Shift+Digit{column - 10}")
    expect(page.locator(BOARD)).to_have_attribute("data-pick", pick)
    page.keyboard.press("f")
    moved_on(page, 0)
    first = Game.objects.get(deal=str(deal)).log.order_by("ply").first()
    assert first.notation.startswith(f"{pick}-f") and not first.automatic
    assert focused_pile(page) == pick
    screenshots(page, "keyboard-foundation")


def test_keys_pressed_faster_than_the_answers_are_each_played(page, live_server):
    """D four times, then U four times, each without waiting: four deals, then four undos,
    played one after another as the answers come (none dropped, none stale)."""
    open_deal(page, live_server)
    page.locator("h1").click()  # the focus on the page, outside the table
    for _ in range(4):
        page.keyboard.press("d")
    expect(page.locator(STATE)).to_have_attribute("data-ply", "4")
    expect(page.locator("#game-info [data-moves]")).to_have_text("4")
    for _ in range(4):
        page.keyboard.press("u")
    expect(page.locator(STATE)).to_have_attribute("data-ply", "0")
    expect(page.locator("#undo")).to_be_disabled()
    expect(page.locator("#announce")).not_to_contain_text("moved on")
    game = Game.objects.get()
    assert (game.ply, game.undo_count) == (0, 4)
