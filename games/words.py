"""The one place that turns engine facts into words: cards, piles, moves played or taken
back, the answers of the services (refusals, stale boards), in the player's language.

A card has two written forms. In running text (``card_words``) it is written as the language
writes it in the middle of a sentence: "Queen of Diamonds" in English, "la dame de carreau" in
French (with the article the sentence needs before a card), "ruitenvrouw" in Dutch (one word),
"dama karo" in Polish ("damę karo" where a sentence acts on it), "lá đầm rô" in Vietnamese
(with its classifier). Standing alone, as a card's accessible name (``card_label``), it holds
what the card's corner shows ("7 of Hearts", "Queen of Hearts, Q") and starts with a capital
or that number. A sentence that starts with a card gets its capital here, once for every
language (``sentence``), never from the catalogue; the words that join a value to the one
before it ("de le roi" to "du roi") are mended here too (``fill``).
"""

import re
from datetime import date
from functools import lru_cache

from django.utils.formats import date_format
from django.utils.translation import get_language, gettext_lazy, ngettext, pgettext, pgettext_lazy
from django.utils.translation import gettext as _

from .outcomes import (
    Event,
    GameError,
    GameOver,
    NothingToRedo,
    NothingToUndo,
    NotOnAFoundation,
    NoWinKnown,
    Outcome,
    Refused,
    StalePly,
    TooLong,
)
from .rules import DEAL, REDEAL, Build, Move, Position, Reason, RecordError
from .rules.played import Played
from .rules.turn import MAX_PLY

#: The ranks as a card's name in running text begins with them, with the article your
#: language puts before a card there (French "la dame"; English none).
RANK_WORDS = (
    # Translators: a card's rank in running text, as in "an empty foundation takes an Ace, not
    # the Queen of Diamonds": lower case where your language writes it so, with the article a
    # card takes in a sentence if your language puts one (French "l'as", "la dame").
    pgettext_lazy("card in a sentence", "Ace"),
    pgettext_lazy("card in a sentence", "Two"),
    pgettext_lazy("card in a sentence", "Three"),
    pgettext_lazy("card in a sentence", "Four"),
    pgettext_lazy("card in a sentence", "Five"),
    pgettext_lazy("card in a sentence", "Six"),
    pgettext_lazy("card in a sentence", "Seven"),
    pgettext_lazy("card in a sentence", "Eight"),
    pgettext_lazy("card in a sentence", "Nine"),
    pgettext_lazy("card in a sentence", "Ten"),
    pgettext_lazy("card in a sentence", "Jack"),
    pgettext_lazy("card in a sentence", "Queen"),
    pgettext_lazy("card in a sentence", "King"),
)
#: The ranks as a card's name begins with them where the card is what a sentence acts on
#: ("Put the Queen of Diamonds on column 3"): Polish puts it in the accusative ("damę karo").
RANK_OBJECTS = (
    # Translators: a card's rank in running text where the card is the object of a verb ("Put
    # the Queen of Diamonds on column 3", "Turned up the Ace of Spades"), in the case your
    # language puts it in there (Polish accusative: "asa", "dwójkę", "damę", "króla"); else as
    # "card in a sentence".
    pgettext_lazy("card in a sentence, the object", "Ace"),
    pgettext_lazy("card in a sentence, the object", "Two"),
    pgettext_lazy("card in a sentence, the object", "Three"),
    pgettext_lazy("card in a sentence, the object", "Four"),
    pgettext_lazy("card in a sentence, the object", "Five"),
    pgettext_lazy("card in a sentence, the object", "Six"),
    pgettext_lazy("card in a sentence, the object", "Seven"),
    pgettext_lazy("card in a sentence, the object", "Eight"),
    pgettext_lazy("card in a sentence, the object", "Nine"),
    pgettext_lazy("card in a sentence, the object", "Ten"),
    pgettext_lazy("card in a sentence, the object", "Jack"),
    pgettext_lazy("card in a sentence, the object", "Queen"),
    pgettext_lazy("card in a sentence, the object", "King"),
)
#: The ranks as a card's name standing alone begins with them (its capital comes from code).
RANK_NAMES = (
    # Translators: a card's rank in its name standing alone ("Ace of Spades", a card's name
    # for screen readers), without an article; lower case where your language writes it so:
    # the capital at the start is added by the site.
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
#: The suits named on their own ("another left foundation already holds the Clubs").
SUIT_NAMES = (
    gettext_lazy("Clubs"),
    gettext_lazy("Diamonds"),
    gettext_lazy("Hearts"),
    gettext_lazy("Spades"),
)
#: The suits as they go into a card's name: Dutch writes them as the first part of one word
#: (*ruitenvrouw*), French and Polish lower case.
SUIT_IN_NAME = (
    # Translators: a suit as it goes into a card's name ("Queen of Diamonds"); in Dutch the
    # first part of one word (klaveren, as in klaverenheer).
    pgettext_lazy("suit in a card's name", "Clubs"),
    pgettext_lazy("suit in a card's name", "Diamonds"),
    pgettext_lazy("suit in a card's name", "Hearts"),
    pgettext_lazy("suit in a card's name", "Spades"),
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
    """A card's name standing alone (its accessible name), holding what the card's corner
    shows (WCAG 2.5.3: a player who speaks to the page names what they see): a rank that is a
    number as a number, "10 of Hearts" (a screen reader says the same words either way), a
    rank that is a letter followed by it, "Queen of Hearts, Q", "Dame de cœur, D"."""
    return _card_label(get_language(), card)


@lru_cache(maxsize=1024)
def _card_label(language: str | None, card: int) -> str:
    rank = card // 4
    if rank in (0, 10, 11, 12):
        # Translators: a card's name standing alone (for screen readers) when its rank is a
        # letter, followed by the letter its corner shows: "Queen of Hearts, Q".
        return pgettext("card with a letter", "%(name)s, %(letter)s") % {
            "name": _card_name(language, card, "alone"),
            "letter": RANK_MARKS[rank],
        }
    # Translators: a card's name standing alone (for screen readers) when its rank is a number,
    # the number as its corner shows it: "10 of Hearts". As your "%(rank)s of %(suit)s" with
    # the number in it (Dutch "%(suit)s %(number)s": harten 10).
    name = pgettext("card with a number", "%(number)s of %(suit)s") % {
        "number": RANK_MARKS[rank],
        "suit": SUIT_IN_NAME[card & 3],
    }
    # A capital where the name starts with a word ("Harten 7"), none after a number.
    return sentence(name)


def card_words(card: int, role: str = "subject") -> str:
    """A card's name in running text: "Ten of Hearts", "le dix de cœur", "hartentien", "lá
    mười cơ"; in the ``role`` "object" where a sentence acts on it (Polish "dziesiątkę kier")."""
    return _card_name(get_language(), card, role)


#: The ranks of a card's name in each of its forms.
_RANKS = {"subject": RANK_WORDS, "object": RANK_OBJECTS, "alone": RANK_NAMES}


# Three translations a card, and a move's words name several: looked up once per (language,
# card, form) and kept (at most 156 entries a language).
@lru_cache(maxsize=2048)
def _card_name(language: str | None, card: int, role: str) -> str:
    # Translators: a card's name from its rank and suit, as your language writes it: French
    # "%(rank)s de %(suit)s", Dutch one word "%(suit)s%(rank)s" (ruitenvrouw).
    name = _("%(rank)s of %(suit)s") % {
        "rank": _RANKS[role][card // 4],
        "suit": SUIT_IN_NAME[card & 3],
    }
    return sentence(name) if role == "alone" else name


def sentence(text: str) -> str:
    """``text`` with the capital a sentence starts with, on its first letter (after any
    opening quote or bracket): the catalogues write card names as they go mid-sentence. A
    sentence that starts with a number ("3 cartes distribuées") gets none: the case of every
    other word is the catalogue's."""
    for i, char in enumerate(text):
        if char.isalpha():
            return text[:i] + char.upper() + text[i + 1 :]
        if char.isdigit():
            return text
    return text


#: Marks where a value starts inside a sentence being filled (``fill``), so that the words
#: joining it to the word before are mended there and nowhere else; never left in the text.
JOIN = "\u2063"
#: How each language joins a small word to the value after it (``fill``): French contracts
#: "de le roi" to "du roi" and "à le" to "au", and elides "de avril" to "d'avril"; Polish says
#: "ze stycznia", "ze września" where "z" meets a cluster.
_JOINS = {
    "fr": (
        (re.compile(rf"\b([dD])e {JOIN}les "), r"\1es "),
        (re.compile(rf"\b([dD])e {JOIN}le "), r"\1u "),
        (re.compile(rf"\b([àÀ]) {JOIN}les "), "aux "),
        (re.compile(rf"\b([àÀ]) {JOIN}le "), "au "),
        (re.compile(rf"\b([dD])e {JOIN}(?=[aeiouyàâæéèêëîïôœùûü])", re.IGNORECASE), r"\1'"),
    ),
    "pl": (
        (
            re.compile(rf"\b([zZ]) {JOIN}(?=s[^aąeęioóuy]|[zźżś][^aąeęioóuy]|wrz|wsz)"),
            r"\1e ",
        ),
    ),
}


def joined(text: str) -> str:
    """``text`` with the words before each value it was filled with (marked by ``JOIN``)
    joined to it as the active language writes them, and the marks taken out."""
    if JOIN not in text:
        return text
    for pattern, replacement in _JOINS.get((get_language() or "")[:2], ()):
        text = pattern.sub(replacement, text)
    return text.replace(JOIN, "")


def fill(text: str, values: dict) -> str:
    """The catalogue's ``text`` with ``values`` put in, each joined to the word before it as
    the language writes them: French "de %(card)s" with "le roi de trèfle" gives "du roi de
    trèfle", "de %(month)s" with "août 2026" "d'août 2026"."""
    marked = {
        # A value that carries its mark already (a date in a sentence) is not marked twice.
        key: value if isinstance(value, int | float) else JOIN + str(value).removeprefix(JOIN)
        for key, value in values.items()
    }
    return joined(text % marked)


def day_in_text(day: date) -> str:
    """``day`` as a sentence names it, marked to be joined (``fill``, ``joined``): "August 1,
    2026", "1er août 2026", "15 kwietnia 2026" (the month's genitive), "ngày 15 tháng 4 năm
    2026" (no capital). The formats are the catalogue's: Django's own (``DATE_FORMAT``) are
    for headings and tables, and it has no named format for running text."""
    if day.day == 1:
        # Translators: a date in the middle of a sentence ("the daily deal of ..."), the first
        # day of a month, in Django's date format ("F j, Y"): French "1\\e\\r F Y" (1er août
        # 2026), Polish "j E Y" (the month's genitive), Vietnamese with each letter of its
        # words escaped: "\\n\\g\\à\\y j \\t\\h\\á\\n\\g n \\n\\ă\\m Y". No capital.
        words = pgettext("date in a sentence, the first of a month", "F j, Y")
    else:
        # Translators: a date in the middle of a sentence ("the daily deal of ..."), in Django's
        # date format ("F j, Y"): French "j F Y", Polish "j E Y" (the month's genitive),
        # Vietnamese "\\n\\g\\à\\y j \\t\\h\\á\\n\\g n \\n\\ă\\m Y". No capital.
        words = pgettext("date in a sentence", "F j, Y")
    return JOIN + date_format(day, words)


def month_in_text(day: date) -> str:
    """The month of ``day`` as a sentence names it ("daily deals of ..."), marked to be
    joined: "August 2026", "août 2026" (after "de": "d'août"), "sierpnia 2026", "tháng 8 năm
    2026"."""
    # Translators: a month and year in the middle of a sentence ("the daily deals of ..."), in
    # Django's date format ("F Y"): Polish "E Y" (the genitive, after "z"), Vietnamese
    # "\\t\\h\\á\\n\\g n \\n\\ă\\m Y". No capital.
    return JOIN + date_format(day, pgettext("month in a sentence", "F Y"))


# A pile's name in each role a sentence gives it, so that a language that inflects names can
# agree them: the pile a sentence is about ("column 3 is empty"), the one cards leave ("from
# column 3") and the one they go to ("to column 3", "Put the Ten of Hearts on column 3").
PILE_WORDS = {
    # Translators: a pile's name as the subject of a sentence ("... is empty").
    ("s", "subject"): pgettext_lazy("pile, the subject", "the stock"),
    # Translators: a pile's name as the place cards leave ("... from the stock").
    ("s", "from"): pgettext_lazy("pile, cards leave it", "the stock"),
    # Translators: a pile's name as the place cards go to ("... to the stock").
    ("s", "to"): pgettext_lazy("pile, cards go to it", "the stock"),
    # Translators: a pile's name as the subject of a sentence ("... is empty").
    ("w", "subject"): pgettext_lazy("pile, the subject", "the waste"),
    # Translators: a pile's name as the place cards leave ("... from the waste").
    ("w", "from"): pgettext_lazy("pile, cards leave it", "the waste"),
    # Translators: a pile's name as the place cards go to ("... to the waste").
    ("w", "to"): pgettext_lazy("pile, cards go to it", "the waste"),
    # Translators: a pile's name as the subject of a sentence ("... is complete").
    ("f", "subject"): pgettext_lazy("pile, the subject", "foundation %(number)s"),
    # Translators: a pile's name as the place cards leave ("... from foundation 2").
    ("f", "from"): pgettext_lazy("pile, cards leave it", "foundation %(number)s"),
    # Translators: a pile's name as the place cards go to ("... to foundation 2", "Put ... on").
    ("f", "to"): pgettext_lazy("pile, cards go to it", "foundation %(number)s"),
    # Translators: a pile's name as the subject of a sentence ("... is empty").
    ("t", "subject"): pgettext_lazy("pile, the subject", "column %(number)s"),
    # Translators: a pile's name as the place cards leave ("... from column 3").
    ("t", "from"): pgettext_lazy("pile, cards leave it", "column %(number)s"),
    # Translators: a pile's name as the place cards go to ("... to column 3", "Put ... on").
    ("t", "to"): pgettext_lazy("pile, cards go to it", "column %(number)s"),
}


def pile_label(pile: str, role: str = "subject") -> str:
    """A pile in words, from its notation, in ``role`` ("subject", "from", "to"): "column 3",
    "foundation 2", "the waste"."""
    words = str(PILE_WORDS[pile[:1], role])
    return words % {"number": pile[1:]} if "%(number)s" in words else words


def reason_words(reason: Reason) -> str:
    """Why the rules refuse a move (games/rules/reasons.py), as a clause that follows "That
    move is not allowed:": "Seven of Diamonds does not go on Nine of Spades (build down by one
    rank in the same suit)"."""
    code, params = reason.code, reason.params
    words = {
        key: card_words(value) if key in ("card", "on", "next") else value
        for key, value in params.items()
    }
    if "pile" in params:
        words["pile"] = pile_label(params["pile"])
    if "suit" in params:
        words["suit"] = SUIT_NAMES[params["suit"]]
    match code:
        case "game-won":
            return _("the game is already won")
        case "stock-empty":
            return _("the stock is empty")
        case "no-redeal-in-this-game":
            return _("this game has no redeal")
        case "stock-not-empty":
            return _("the stock is not empty yet")
        case "waste-empty":
            return _("the waste is empty")
        case "no-redeals-left":
            return _("no redeals are left")
        case "no-such-column":
            # Translators: %(pile)s is a column in words: "column 11".
            return _("there is no %(pile)s in this game") % words
        case "not-a-move-of-this-game":
            return _("that is not a move of this game")
        case "same-pile":
            return _("a card cannot move onto its own pile")
        case "waste-top-only":
            return _("only the waste's top card can move")
        case "column-empty":
            # Translators: %(pile)s is a column in words: "column 3".
            return pgettext("column", "%(pile)s is empty") % words
        case "too-few-face-up":
            return (
                ngettext(
                    "%(pile)s has only %(count)d face-up card",
                    "%(pile)s has only %(count)d face-up cards",
                    params["count"],
                )
                % words
            )
        case "one-card-at-a-time":
            return _("only one card moves at a time in this game")
        case "not-a-sequence":
            return (
                ngettext(
                    "the top %(count)d card of %(pile)s is not a sequence",
                    "the top %(count)d cards of %(pile)s are not a sequence",
                    params["count"],
                )
                % words
            )
        case "foundation-cards-stay":
            return _("cards never leave a foundation")
        case "right-foundation-cards-stay":
            return _("cards on a right foundation never move again")
        case "foundation-card-to-column-only":
            return _("a foundation's card may only go back to a column")
        case "foundation-empty":
            # Translators: %(pile)s is a foundation in words: "foundation 2".
            return pgettext("foundation", "%(pile)s is empty") % words
        case "foundation-gives-one-card":
            return _("a foundation gives back one card at a time")
        case "empty-column-takes-one-card":
            return _("an empty column takes a single card only")
        case "does-not-fit":
            return fill(str(_BUILD_WORDS[params["build"]]), words)
        case "right-foundation-takes-whole-suit":
            return _("a right foundation takes only a complete King-to-Ace sequence from a column")
        case "right-foundation-filled":
            # Translators: %(pile)s is a right foundation in words: "foundation 5".
            return _("%(pile)s is already filled") % words
        case "right-foundation-suit-taken":
            # Translators: %(suit)s is a suit's name: Clubs, Diamonds, Hearts or Spades.
            return _("another right foundation already holds the %(suit)s") % words
        case "foundation-takes-one-card":
            return _("a foundation takes one card at a time")
        case "foundation-wants-ace":
            return fill(_("an empty foundation takes an Ace, not %(card)s"), words)
        case "left-foundation-suit-taken":
            # Translators: %(suit)s is a suit's name: Clubs, Diamonds, Hearts or Spades.
            return _("another left foundation already holds the %(suit)s") % words
        case "foundation-complete":
            # Translators: %(pile)s is a foundation in words: "foundation 2".
            return _("%(pile)s is complete") % words
        case "foundation-wants-next":
            # Translators: %(pile)s is a foundation in words: "foundation 2".
            return fill(_("%(pile)s takes %(next)s next, not %(card)s"), words)
    return _("the rules do not allow it")


#: The sentence of a card that does not fit, one for each way of building.
_BUILD_WORDS = {
    Build.SAME_SUIT: gettext_lazy(
        "%(card)s does not go on %(on)s (build down by one rank in the same suit)"
    ),
    Build.ALTERNATE_COLOUR: gettext_lazy(
        "%(card)s does not go on %(on)s (build down by one rank in alternate colours)"
    ),
    Build.DIFFERENT_SUIT: gettext_lazy(
        "%(card)s does not go on %(on)s (build down by one rank in any other suit)"
    ),
}


def record_error_words(error: RecordError) -> str:
    """Why a record cannot be read or played, as a clause that follows "This record cannot be
    played:"."""
    reason = error.reason
    words = dict(reason.params)
    match reason.code:
        case "record-not-utf8":
            return _("the record is not UTF-8 text")
        case "record-not-json":
            if "line" in words:
                # Translators: where in the record's text reading stopped: a line, and a
                # character on it.
                return (
                    _("the record is not valid JSON (line %(line)d, character %(column)d)") % words
                )
            return _("the record is not valid JSON")
        case "record-not-object":
            return _("the record must be a JSON object")
        case "record-no-version":
            return _('the record has no "version"')
        case "record-bad-version":
            # Translators: %(value)s is the record's version as written, %(supported)d the one
            # this site reads.
            return _("unsupported record version %(value)s (this site reads %(supported)d)") % words
        case "record-several-games":
            said = ngettext(
                "this file holds %(count)d game, in a list of records: start from one record, "
                "the one a game's own download gives",
                "this file holds %(count)d games, in a list of records: start from one record, "
                "the one a game's own download gives",
                words["count"],
            )
            return said % words
        case "record-unknown-game":
            # Translators: %(value)s is the game's id as the record writes it: "spider".
            return _("unknown game %(value)s") % words
        case "record-bad-deal":
            return (
                _("bad deal number %(value)s: a whole number from %(lowest)d to %(highest)d")
                % words
            )
        case "record-moves-not-list":
            return _('the record\'s "moves" must be a list of moves')
        case "record-move-not-string":
            # Translators: %(value)s is what the record has in place of a move: 5, null.
            return _("move %(number)d is %(value)s: a move must be a string") % words
        case "record-move-not-notation":
            # Translators: %(move)s is the move's text as the record writes it.
            return _("move %(number)d, “%(move)s”: not a move in the notation") % words
        case "record-move-illegal":
            words["reason"] = reason_words(reason.params["reason"])
            # Translators: %(move)s is the move's text ("t1-f1"), %(reason)s why the rules
            # refuse it.
            return _("move %(number)d, “%(move)s”: %(reason)s") % words
    return _("the record cannot be read")


def played_words(played: Played) -> str:
    """What a move did, as the live region says it ("Ten of Hearts from column 3 to
    foundation 2. Turned up Four of Clubs.")."""
    if played.is_redeal:
        return _("Turned the waste over into the stock.")
    if played.is_deal:
        if played.count == 1:
            # Apart from the plural: in a language with one plural form (Vietnamese) the count
            # of one would read "1 card dealt, the top one is ...".
            dealt = pgettext("one card", "Dealt %(card)s.")
        else:
            dealt = ngettext(
                "Dealt %(card)s.", "Dealt %(count)d cards, %(card)s on top.", played.count
            )
        return sentence(fill(dealt, _dealt(played, "object")))
    # A move's words follow a colon in a hint; here they start a sentence.
    text = sentence(_move_words(played))
    if played.turned_up is not None:
        turned = {"card": card_words(played.turned_up, "object")}
        text += " " + sentence(fill(_("Turned up %(card)s."), turned))
    return text


def _dealt(played: Played, role: str = "subject") -> dict:
    """The values of a deal's sentence: the card on top, in ``role`` where a single card was
    dealt ("Dealt the Nine of Clubs": the object), and how many cards were dealt."""
    return {
        "card": card_words(played.card, role if played.count == 1 else "subject"),
        "count": played.count,
    }


def _move_words(played: Played) -> str:
    words = {
        "card": card_words(played.card),
        "from": pile_label(played.source, "from"),
        "to": pile_label(played.target, "to"),
    }
    if played.count > 1:
        words["others"] = played.count - 1
        return fill(
            ngettext(
                "%(card)s and the card on it from %(from)s to %(to)s.",
                "%(card)s and the %(others)d cards on it from %(from)s to %(to)s.",
                played.count - 1,
            ),
            words,
        )
    return fill(_("%(card)s from %(from)s to %(to)s."), words)


def undone_words(played: Played) -> str:
    """What an undo took back, as the live region says it: "Undone: Ten of Hearts from column
    3 to foundation 2." (the move in running text after the colon, no capital there)."""
    if played.is_redeal:
        return _("Undone: the redeal.")
    if played.is_deal:
        if played.count == 1:
            return fill(pgettext("one card", "Undone: dealt %(card)s."), _dealt(played))
        return fill(
            ngettext(
                "Undone: dealt %(card)s.",
                "Undone: dealt %(count)d cards, %(card)s on top.",
                played.count,
            ),
            _dealt(played),
        )
    # Translators: %(move)s is a move in running text, as after a colon: "Ten of Hearts from
    # column 3 to foundation 2." (with its full stop), starting with no capital.
    return fill(_("Undone: %(move)s"), {"move": _move_words(played)})


def move_words(position: Position, move: Move) -> str:
    """``move`` in words, without playing it (so without telling what a face-down card is)."""
    if move == DEAL:
        return _("deal from the stock.")
    if move == REDEAL:
        return _("turn the waste over into the stock (redeal).")
    return _move_words(position.preview(move))


def outcome_words(outcome: Outcome) -> str:
    """What an action did, for the live region."""
    if outcome.event is Event.UNDONE:
        return undone_words(outcome.played[0])
    if outcome.event is Event.RESTARTED:
        return _("Restarted the deal.")
    if outcome.event is Event.GIVEN_UP:
        return _("Game given up.")
    if outcome.event is Event.FINISHED:
        count = len(outcome.played)
        return ngettext(
            "Finished: played the %(count)d move of the win.",
            "Finished: played the %(count)d moves of the win.",
            count,
        ) % {"count": count}
    return " ".join(played_words(p) for p in outcome.played)


def error_words(error: GameError) -> str:
    """Why an action was refused, or (a stale board) what the player now sees."""
    if isinstance(error, Refused):
        return _("That move is not allowed: %(reason)s.") % {"reason": reason_words(error.reason)}
    if isinstance(error, NotOnAFoundation):
        if error.card is None:
            reason = _("there is no such card to send to a foundation")
        else:
            reason = fill(_("no foundation takes %(card)s now"), {"card": card_words(error.card)})
        return _("That move is not allowed: %(reason)s.") % {"reason": reason}
    if isinstance(error, StalePly):
        return _("The game had moved on (in another window?): here is where it is now.")
    if isinstance(error, GameOver):
        return _("This game is over.")
    if isinstance(error, NothingToUndo):
        return _("There is no move to undo.")
    if isinstance(error, NothingToRedo):
        return _("There is no move to redo.")
    if isinstance(error, TooLong) and error.game.ply < MAX_PLY:
        # Finish or a redo whose moves would not all fit.
        return ngettext(
            "These moves would take the game past the longest log a game may have, %(count)d move.",
            "These moves would take the game past the longest log a game may have, "
            "%(count)d moves.",
            MAX_PLY,
        ) % {"count": MAX_PLY}
    if isinstance(error, TooLong):
        return ngettext(
            "This game has reached the longest log a game may have, %(count)d move: "
            "undo, restart or give up.",
            "This game has reached the longest log a game may have, %(count)d moves: "
            "undo, restart or give up.",
            MAX_PLY,
        ) % {"count": MAX_PLY}
    if isinstance(error, NoWinKnown):
        return _("No win is known from this board: ask “Can this still be won?” first.")
    return _("That cannot be done now.")


#: Said when "Only deals that can be won" finds none known: a random deal is dealt instead.
NO_WINNABLE_DEAL = gettext_lazy(
    "No deal of this game is known to be winnable yet (a search for some has started): "
    "this is a random deal."
)
