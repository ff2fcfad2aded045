"""The end of a game played without seeing the screen: only keys pressed, and only what a
screen reader says read, the accessibility tree's names and the live regions' words
(docs/accessibility.md). No CSS selector, no coordinates, no notation: the player asks for a
hint, reads it, plays it by its words with the keys, and hears what moved where, to the win.

A start: from a record 40 moves before the win, following the hints. A whole deal won
from its first card, moves chosen from the names of the piles and cards alone, is still to
come (issue 43, point 2)."""

import re

import pytest
from playwright.sync_api import expect

from games.rules import Record
from tests.web.conftest import won_record
from tests.web.solver_support import run_worker

pytestmark = pytest.mark.django_db(transaction=True)

ANSWER_MS = 8_000
#: The moves of the win left to play (the automatic moves play some of them).
LEFT = 40
#: A hint's move, as the hint says it: "Ten of Hearts from column 8 to column 4."
MOVE = re.compile(
    r"(?P<card>.+?) from (?:column (?P<column>\d+)|(?P<waste>the waste)) "
    r"to (?:column (?P<to>\d+)|(?P<home>foundation \d+))"
)


def key_of_column(number: str) -> str:
    return number[-1] if int(number) <= 10 else f"Shift+{int(number) - 10}"


def open_record_by_keyboard(page, live_server, record: Record) -> None:
    page.goto(f"{live_server.url}/import/")
    page.get_by_role("textbox", name="Paste a record").fill(record.to_json())
    page.get_by_role("button", name="Start this game").press("Enter")
    expect(page.get_by_role("region", name="The table")).to_be_visible()
    page.wait_for_load_state()


def heard(page, *sayings: str) -> str:
    """What the hint's live region says once it says one of ``sayings`` about this board (the
    last answer, once the board has changed, says it is out of date)."""
    hint = page.get_by_role("status").filter(has_text="Hint:")
    for _ in range(ANSWER_MS // 50):
        text = hint.inner_text() if hint.count() == 1 else ""
        if any(s in text for s in sayings) and "out of date" not in text:
            return text
        page.wait_for_timeout(50)
    raise AssertionError(f"the hint never said {sayings}")


def test_the_last_moves_by_keys_and_words_alone_to_the_win(page, live_server):
    page.emulate_media(reduced_motion="reduce")  # the won panel at once, with the last answer
    record = won_record()
    open_record_by_keyboard(
        page, live_server, Record(record.variant, record.deal, record.moves[:-LEFT])
    )
    # What happened: the live region that is not the hint's.
    said = page.get_by_role("status").filter(has_not_text="Hint:")
    played = []
    for _turn in range(40):
        if page.get_by_role("heading", name="You won!").count():
            break
        page.get_by_role("button", name="Hint").press("Enter")
        heard(page, "Thinking", "This move leads to a win:")  # its request is answered
        run_worker()
        words = heard(page, "This move leads to a win:").split("This move leads to a win:")[1]
        words = words.strip()
        played.append(words)
        if words.startswith("deal from the stock"):
            page.keyboard.press("d")
            expect(said.filter(has_text="Dealt")).to_have_count(1)
            continue
        move = MOVE.match(words)
        assert move, f"a hint the player cannot read: {words}"
        page.keyboard.press("w" if move["waste"] else key_of_column(move["column"]))
        expect(said.filter(has_text="Picked up")).to_have_count(1)
        page.keyboard.press(key_of_column(move["to"]) if move["to"] else "f")
        # What happened names the card and where it went, as the hint did (F sends the card to
        # a foundation that takes it, which may be another of the two of its suit).
        went = words.rstrip(".") if move["to"] else words.split(" foundation ")[0]
        expect(said.filter(has_text=went)).to_have_count(1)
    expect(page.get_by_role("heading", name="You won!")).to_be_visible()
    assert len(played) >= 3, f"the hints played only {played}"
