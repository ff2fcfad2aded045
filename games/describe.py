"""Words for cards, piles and moves, for labels and for announcing what a move did."""

import re

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from .rules import REDEAL, Move, Position, parse_card

RANK_NAMES = (
    gettext_lazy("Ace"),
    gettext_lazy("Two"),
    gettext_lazy("Three"),
    gettext_lazy("Four"),
    gettext_lazy("Five"),
    gettext_lazy("Six"),
    gettext_lazy("Seven"),
    gettext_lazy("Eight"),
    gettext_lazy("Nine"),
    gettext_lazy("Ten"),
    gettext_lazy("Jack"),
    gettext_lazy("Queen"),
    gettext_lazy("King"),
)
SUIT_NAMES = (
    gettext_lazy("Clubs"),
    gettext_lazy("Diamonds"),
    gettext_lazy("Hearts"),
    gettext_lazy("Spades"),
)
#: What a card shows in its corner: rank and suit symbol.
RANK_MARKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUIT_MARKS = ("♣", "♦", "♥", "♠")


def card_label(card: int) -> str:
    """A card's spoken name: "Ten of Hearts"."""
    return _("%(rank)s of %(suit)s") % {
        "rank": RANK_NAMES[card // 4],
        "suit": SUIT_NAMES[card & 3],
    }


_CARD_CODE = re.compile(r"\b([A2-9TJQK][CDHS])\b")


def spell_cards(text: str) -> str:
    """``text`` with every card code spelled out: "7D does not go on 9S" reads
    "Seven of Diamonds does not go on Nine of Spades"."""
    return _CARD_CODE.sub(lambda m: card_label(parse_card(m.group(1))), text)


def pile_label(pile: str) -> str:
    """A pile in words, from its notation: "column 3", "foundation 2", "the waste"."""
    if pile == "s":
        return _("the stock")
    if pile == "w":
        return _("the waste")
    if pile.startswith("f"):
        return _("foundation %(number)s") % {"number": pile[1:]}
    return _("column %(number)s") % {"number": pile[1:]}


def split_move(move: Move) -> tuple[str, int, str]:
    """``t4:3-t7`` -> ``("t4", 3, "t7")``; a deal or a redeal has no piles: ``("", 0, "")``."""
    source, sep, target = str(move).partition("-")
    if not sep:
        return "", 0, ""
    pile, _colon, count = source.partition(":")
    return pile, int(count or 1), target


def moving_card(position: Position, pile: str, count: int) -> int | None:
    """The bottom card of the ``count`` cards at the top of ``pile``, if it has that many."""
    if pile == "w":
        cards = position.waste
    elif pile.startswith("f") and pile[1:].isdigit() and 1 <= int(pile[1:]) <= 8:
        cards = position.foundations[int(pile[1:]) - 1]
    elif (
        pile.startswith("t") and pile[1:].isdigit() and 1 <= int(pile[1:]) <= len(position.columns)
    ):
        cards = position.columns[int(pile[1:]) - 1]
    else:
        return None
    return cards[-count] if 0 < count <= len(cards) else None


def play_and_describe(position: Position, move: Move) -> str:
    """Play ``move`` (it must be legal) on ``position`` and say what it did."""
    if move == REDEAL:
        position.play(move)
        return _("Turned the waste over into the stock.")
    source, count, target = split_move(move)
    if not source:
        before = len(position.stock)
        position.play(move)
        dealt = before - len(position.stock)
        return ngettext("Dealt %(card)s.", "Dealt %(count)d cards, %(card)s on top.", dealt) % {
            "card": card_label(position.waste[-1]),
            "count": dealt,
        }
    card = moving_card(position, source, count)
    down = position.down[int(source[1:]) - 1] if source.startswith("t") else 0
    position.play(move)
    words = {"card": card_label(card), "from": pile_label(source), "to": pile_label(target)}
    if count > 1:
        words["others"] = count - 1
        text = (
            ngettext(
                "%(card)s and the card on it from %(from)s to %(to)s.",
                "%(card)s and the %(others)d cards on it from %(from)s to %(to)s.",
                count - 1,
            )
            % words
        )
    else:
        text = _("%(card)s from %(from)s to %(to)s.") % words
    if source.startswith("t") and position.down[int(source[1:]) - 1] < down:
        column = position.columns[int(source[1:]) - 1]
        text += " " + _("Turned up %(card)s.") % {"card": card_label(column[-1])}
    return text
