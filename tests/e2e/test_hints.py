"""Hints and "Can this still be won?" in a real browser: the answer arrives by itself (the page
asks until it is there) once the background worker has run, the move it names is highlighted on
the board (and no longer once the board has changed), and "Finish" wins the game. The live
server has no worker of its own: the test runs the real one, in batch, between its steps."""

import re

import pytest
from playwright.sync_api import expect

from games.rules import Record
from tests.web.conftest import stuck_record, won_record
from tests.web.solver_support import run_worker

from .conftest import BOARD, STATE

pytestmark = pytest.mark.django_db(transaction=True)

#: The page asks every half second; a few more for a slow machine.
ANSWER_MS = 8_000


def open_near_win(page, live_server, moves_left: int = 20) -> None:
    """Indian deal 1, ``moves_left`` moves before a real win, through "Start from a record"."""
    record = won_record()
    near = Record(record.variant, record.deal, record.moves[:-moves_left])
    page.goto(f"{live_server.url}/import/")
    page.locator("#id_text").fill(near.to_json())
    page.get_by_role("button", name="Start this game").click()
    expect(page.locator(BOARD)).to_have_attribute("data-variant", "indian")
    # The board is there before the page's scripts have run: a click sooner would post the
    # hint's form as a plain form (the page without JavaScript).
    page.wait_for_load_state()


def test_a_hint_is_highlighted_then_out_of_date_and_a_win_is_finished(
    page, live_server, screenshots
):
    open_near_win(page, live_server)
    board = page.locator(BOARD)
    assist = page.locator("#assist")

    page.locator("#hint").click()
    expect(assist).to_contain_text("Thinking")
    run_worker()
    expect(assist).to_contain_text("This move leads to a win:", timeout=ANSWER_MS)
    answer = assist.locator("[data-hint-source]")
    source = answer.get_attribute("data-hint-source")
    target = answer.get_attribute("data-hint-target")
    expect(board.locator(".hint-source")).to_have_count(1)
    expect(board.locator(f'a[data-pick="{source}"]')).to_have_class(re.compile(r"\bhint-source\b"))
    expect(board.locator(f'[data-pile="{target}"]')).to_have_class(re.compile(r"\bhint-target\b"))
    assert page.locator(STATE).get_attribute("data-ply") == str(
        len(won_record().moves) - 20
    )  # not played
    screenshots(page, "hint")

    # Undo changes the board: the hint says it is out of date and marks nothing.
    version = page.locator(STATE).get_attribute("data-version")
    page.locator("#undo").click()
    expect(page.locator(STATE)).not_to_have_attribute("data-version", version)
    expect(board.locator(".hint-source, .hint-target")).to_have_count(0)
    expect(assist.locator("[data-stale-note]")).to_be_visible()
    # Out of date, it says only that (the old answer no longer takes the table's room), and
    # its cross puts it away.
    expect(assist.locator("[data-answer]")).to_be_hidden()
    assist.get_by_role("button", name="Close this answer").click()
    expect(assist.locator(".assist-answer")).to_have_count(0)
    expect(assist).to_be_hidden()
    page.locator("#redo").click()
    expect(board).not_to_have_attribute("data-status", "won")

    page.locator("#can-win").click()
    expect(assist).to_contain_text("Thinking")
    run_worker()
    expect(assist).to_contain_text("Yes — next move:", timeout=ANSWER_MS)
    expect(board.locator(".hint-target")).to_have_count(1)
    screenshots(page, "can-this-still-be-won")
    page.locator("#finish").click()
    expect(board).to_have_attribute("data-status", "won")
    # The win is played out, then the cards cascade off the foundations (tests/e2e/test_motion.py),
    # then the won panel shows.
    expect(page.get_by_role("heading", name="You won!")).to_be_visible(timeout=30_000)
    expect(assist.locator("[data-answer]")).to_have_count(0)


def test_a_game_that_cannot_be_won_is_told_so(page, live_server):
    record = stuck_record()
    near = Record(record.variant, record.deal, record.moves[:-10])
    page.goto(f"{live_server.url}/import/")
    page.locator("#id_text").fill(near.to_json())
    page.get_by_role("button", name="Start this game").click()
    expect(page.locator(BOARD)).to_have_attribute("data-variant", record.variant)
    page.wait_for_load_state()  # the scripts have run (see open_near_win)
    page.locator("#can-win").click()
    expect(page.locator("#assist")).to_contain_text("Thinking")
    run_worker()
    expect(page.locator("#assist")).to_contain_text(
        "No: no sequence of moves wins from here.", timeout=ANSWER_MS
    )
    expect(page.locator("#finish")).to_have_count(0)


def test_without_javascript_the_hint_page_reloads_until_the_answer(nojs_page, live_server):
    page = nojs_page
    open_near_win(page, live_server, 5)
    page.locator("#hint").click()
    expect(page.get_by_role("heading", name="Hint")).to_be_visible()
    expect(page.locator("#assist")).to_contain_text("Thinking")
    run_worker()
    expect(page.locator("#assist")).to_contain_text("This move leads to a win:", timeout=ANSWER_MS)
    page.get_by_role("link", name="Back to the game").click()
    expect(page.locator(BOARD)).to_have_attribute("data-status", "playing")
