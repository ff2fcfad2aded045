"""The end of a game played without seeing the screen: only keys pressed, and only what a
screen reader says read, the accessibility tree's names and the live regions' words
(docs/accessibility.md). No CSS selector, no coordinates, no notation: the player asks for a
hint, reads it, plays it by its words with the keys, and hears what moved where, to the win.

Two ways: the end of a game from a record 40 moves before the win, following the hints; and
a whole deal of Forty Thieves won from its first card, in English and in Polish, the player
finding each card by its name on the pile the tree names and learning the keys from the
page's own list of keys."""

import re

import pytest
from django.utils import translation
from django.utils.translation import gettext as _
from playwright.sync_api import expect

from games.board import pile_views
from games.rules import WON, Move, Position, Record, first_position, get_variant
from games.rules.moves import pile_name
from games.rules.solver import solutions, solve
from games.rules.turn import Turn, take_turn
from games.words import played_words
from tests.web.conftest import won_record
from tests.web.solver_support import run_worker

from .conftest import DESKTOP, _close, _new_page

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


#: The words of an element as a screen reader has them: its text without what is hidden from
#: it (the cross that closes an answer is read by its name, not as a sign).
WORDS = """e => { let text = e.innerText;
    e.querySelectorAll('[aria-hidden="true"]')
        .forEach(x => { text = text.replace(x.innerText, ''); });
    return text.trim(); }"""


def heard(page, *sayings: str) -> str:
    """What the hint's live region says once it says one of ``sayings`` about this board (the
    last answer, once the board has changed, says it is out of date)."""
    hint = page.get_by_role("status").filter(has_text="Hint:")
    for _attempt in range(ANSWER_MS // 50):
        text = hint.evaluate(WORDS) if hint.count() == 1 else ""
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


# -- a whole deal, from its first card ---------------------------------------------------------

#: A deal of Forty Thieves (one card moved at a time) the solver has won (its file of winnable
#: deals): the player's plan, which the words of the page must be enough to carry out.
WHOLE_DEAL = ("forty-thieves", 2)


def winnable_line(variant: str, deal: int) -> list[Move]:
    entry = next(e for e in solutions(variant) if int(e["deal"]) == deal)
    return [Move.parse(text) for text in entry["moves"]]


def player_turns(variant: str, deal: int) -> list[tuple[Position, Move, Turn]]:
    """The player's moves of a win of the deal as the site plays it, automatic moves on: each
    with the board it is played on and the turn it makes. The solver's line, less the moves
    the automatic moves play first (a card they sent home), searched again from the board
    where the line no longer holds; a move to a foundation is the one F plays (the first
    foundation that takes the card)."""
    position = first_position(get_variant(variant), deal)
    take_turn(position, (), autoplay=True)  # the deal, as a new game plays it
    line, turns = winnable_line(variant, deal), []
    while not position.is_won():
        assert len(turns) < 1000, "no win found along the line"
        legal = position.legal_moves()
        while line and line[0] not in legal and pile_name(line[0].dst).startswith("f"):
            line.pop(0)
        if not line or line[0] not in legal:
            found = solve(position, seconds=30)
            assert found.status == WON, f"no win from the board after {len(turns)} moves"
            line = list(found.moves)
        move = line.pop(0)
        if pile_name(move.dst).startswith("f") and not move.is_deal:
            move = next(m for m in legal if m.src == move.src and pile_name(m.dst).startswith("f"))
        before = position.copy()
        turns.append((before, move, take_turn(position, [move], autoplay=True)))
    return turns


def statuses(page) -> list[str]:
    """What the live regions say."""
    return page.get_by_role("status").all_inner_texts()


def keys_said(page) -> dict[str, str]:
    """The keys as the page's list of keys says them (? shows and hides it), by what they do:
    the letters are the language's own (W in English, O in Polish for the waste)."""
    page.keyboard.press("?")
    waste = _("pick up the waste's top card")
    # The list is a group named as its summary says ("Keys"), as a screen reader announces it.
    keys = page.get_by_role("group", name=_("Keys"), exact=True)
    expect(keys.get_by_role("definition").filter(has_text=waste)).to_be_visible()
    # Each term and the definition after it.
    said = dict(
        zip(
            keys.get_by_role("definition").all_inner_texts(),
            keys.get_by_role("term").all_inner_texts(),
            strict=True,
        )
    )
    page.keyboard.press("?")
    return {
        "waste": said[waste].lower(),
        "foundation": said[
            _("send the cards you hold, or the card in focus, to a foundation")
        ].lower(),
        "deal": said[_("deal from the stock (Enter or Space on the stock does the same)")].lower(),
    }


def column_key(pile: str) -> str:
    return key_of_column(pile[1:])


@pytest.mark.parametrize("language", ["en", "pl"])
def test_a_whole_deal_won_by_keys_and_words_alone(browser, live_server, language):
    """From the deal's first card to the win: before each move the player finds the card by
    its name on the pile the accessibility tree names, presses the keys, and hears what
    happened (the card, where it went, the automatic moves after it, the card dealt); the
    heading says the game is won. In English and in Polish."""
    variant, deal = WHOLE_DEAL
    turns = player_turns(variant, deal)
    context, page = _new_page(browser, DESKTOP, locale=language, reduced_motion="reduce")
    try:
        page.goto(f"{live_server.url}/play/{variant}/{deal}/")
        with translation.override(language):
            table = page.get_by_role("region", name=_("The table"))
            expect(table).to_be_visible()
            keys = keys_said(page)
            for n, (before, move, turn) in enumerate(turns):
                heard = " ".join(played_words(p) for p in turn.played)
                if move.is_deal:
                    stock = next(v for v in pile_views(before, ["s"]) if v.pile == "s")
                    expect(table.get_by_role("group", name=stock.label, exact=True)).to_have_count(
                        1
                    )
                    page.keyboard.press(keys["deal"])
                else:
                    source = pile_name(move.src)
                    view = next(v for v in pile_views(before, [source]) if v.pile == source)
                    card = view.cards[-1]
                    # The player hears which card is on top of the pile before taking it.
                    pile = table.get_by_role("group", name=view.label, exact=True)
                    expect(pile.get_by_role("link").last).to_have_accessible_name(card.spoken)
                    page.keyboard.press(keys["waste"] if source == "w" else column_key(source))
                    target = pile_name(move.dst)
                    page.keyboard.press(
                        keys["foundation"] if target.startswith("f") else column_key(target)
                    )
                said = page.get_by_role("status").filter(has_text=heard)
                expect(said, f"move {n + 1}: {move}: {statuses(page)}").to_have_count(1)
            expect(page.get_by_role("heading", name=_("You won!"))).to_be_visible()
    finally:
        _close(context, page)
