"""The one place that turns engine facts into words: cards, piles, moves played or taken
back, the answers of the services (refusals, stale boards), in the player's language."""

import re

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from .models import MAX_PLY
from .rules import DEAL, REDEAL, Move, Position, parse_card
from .rules.played import Played, preview
from .services import assist, play

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
RANK_MARKS = (
    # Translators: the letter in a card's corner for an Ace (French A, Dutch A, Polish A).
    pgettext_lazy("card corner", "A"),
    *["2", "3", "4", "5", "6", "7", "8", "9", "10"],
    # Translators: the letter in a card's corner for a Jack (French V, Dutch B, Polish W).
    pgettext_lazy("card corner", "J"),
    # Translators: the letter in a card's corner for a Queen (French D, Dutch V, Polish D).
    pgettext_lazy("card corner", "Q"),
    # Translators: the letter in a card's corner for a King (French R, Dutch H, Polish K).
    pgettext_lazy("card corner", "K"),
)
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


def played_words(played: Played) -> str:
    """What a move did, as the live region says it ("Ten of Hearts from column 3 to
    foundation 2. Turned up Four of Clubs.")."""
    if played.is_redeal:
        return _("Turned the waste over into the stock.")
    if played.is_deal:
        return ngettext(
            "Dealt %(card)s.", "Dealt %(count)d cards, %(card)s on top.", played.count
        ) % {
            "card": card_label(played.card),
            "count": played.count,
        }
    text = _move_words(played)
    if played.turned_up is not None:
        text += " " + _("Turned up %(card)s.") % {"card": card_label(played.turned_up)}
    return text


def _move_words(played: Played) -> str:
    words = {
        "card": card_label(played.card),
        "from": pile_label(played.source),
        "to": pile_label(played.target),
    }
    if played.count > 1:
        words["others"] = played.count - 1
        return (
            ngettext(
                "%(card)s and the card on it from %(from)s to %(to)s.",
                "%(card)s and the %(others)d cards on it from %(from)s to %(to)s.",
                played.count - 1,
            )
            % words
        )
    return _("%(card)s from %(from)s to %(to)s.") % words


def move_words(position: Position, move: Move) -> str:
    """``move`` in words, without playing it (so without telling what a face-down card is)."""
    if move == DEAL:
        return _("deal from the stock.")
    if move == REDEAL:
        return _("turn the waste over into the stock (redeal).")
    return _move_words(preview(position, move))


def outcome_words(outcome: play.Outcome) -> str:
    """What an action did, for the live region."""
    if outcome.event == "undone":
        return _("Undone: %(move)s") % {"move": played_words(outcome.played[0])}
    if outcome.event == "restarted":
        return _("Restarted the deal.")
    if outcome.event == "given-up":
        return _("Game given up.")
    if outcome.event == "finished":
        count = len(outcome.played)
        return ngettext(
            "Finished: played the %(count)d move of the win.",
            "Finished: played the %(count)d moves of the win.",
            count,
        ) % {"count": count}
    return " ".join(played_words(p) for p in outcome.played)


def error_words(error: play.GameError) -> str:
    """Why an action was refused, or (a stale board) what the player now sees."""
    if isinstance(error, play.Refused):
        return _("That move is not allowed: %(reason)s.") % {"reason": spell_cards(error.reason)}
    if isinstance(error, play.NotOnAFoundation):
        if error.card is None:
            reason = _("there is no such card to send to a foundation")
        else:
            reason = _("no foundation takes %(card)s now") % {"card": card_label(error.card)}
        return _("That move is not allowed: %(reason)s.") % {"reason": reason}
    if isinstance(error, play.StalePly):
        return _("The game had moved on (in another window?): here is where it is now.")
    if isinstance(error, play.GameOver):
        return _("This game is over.")
    if isinstance(error, play.NothingToUndo):
        return _("There is no move to undo.")
    if isinstance(error, play.NothingToRedo):
        return _("There is no move to redo.")
    if isinstance(error, play.TooLong):
        return ngettext(
            "This game has reached the longest log a game may have, %(count)d move: "
            "undo, restart or give up.",
            "This game has reached the longest log a game may have, %(count)d moves: "
            "undo, restart or give up.",
            MAX_PLY,
        ) % {"count": MAX_PLY}
    if isinstance(error, assist.SearchBusy):
        return _("A search you asked for is still under way: wait for its answer, then ask again.")
    if isinstance(error, assist.NoWinKnown):
        return _("No win is known from this board: ask “Can this still be won?” first.")
    return _("That cannot be done now.")


#: Said when "Only deals that can be won" finds none known: a random deal is dealt instead.
NO_WINNABLE_DEAL = gettext_lazy(
    "No deal of this game is known to be winnable yet (a search for some has started): "
    "this is a random deal."
)
