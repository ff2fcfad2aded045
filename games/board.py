"""The board as the templates draw it: piles and cards with their labels, picks and targets.

Nothing here decides a move: which moves are legal comes from the engine's ``legal_moves``;
this only says which cards a player may pick up (a pile's top card, or in games with sequence
moves any face-up card with the cards above it) and where each pick may go.

How a pile is drawn depends on its own cards alone; where each pick may go depends on the whole
position, so it is kept apart, in one list (``BoardView.moves``). After a move only the piles it
touched need drawing again (``pile_views``), with the new list.
"""

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from html import escape
from urllib.parse import quote

from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from .rules import Position, card_name
from .rules.played import split_move
from .words import (
    RANK_MARKS,
    SUIT_MARKS,
    card_label,
    card_words,
    fill,
    pile_label,
    sentence,
)

#: How many of the waste's top cards Little Forty shows, fanned (the stock deals three).
FANNED_WASTE = 3


@dataclass(slots=True)
class CardView:
    """One card as drawn: face down (``card`` is None) or face up.

    What a card shows (its words, marks and classes) is worked out here, once, and written out by
    the ``card`` template tag (games/templatetags/cards.py): a board draws some fifty cards for
    every move, and the template engine's lookups cost more than this work in Python.
    """

    card: int | None
    #: The notation of the cards picked up by clicking this one ("t3:2"), if it can be picked.
    pick: str = ""
    picked: bool = False
    #: Its name in the notation ("TH"), or "down".
    name: str = field(init=False)
    #: Its name in words ("Ten of Hearts").
    label: str = field(init=False)
    #: What assistive technology says of it: the label, and whether it is picked up.
    spoken: str = field(init=False)
    #: The rank and suit marks in its corner ("10♥"), and the suit mark alone.
    corner: str = field(init=False)
    suit: str = field(init=False)
    #: Its HTML classes: "card", "card red", "card red picked".
    classes: str = field(init=False)
    #: The query of the link that picks it up ("?pick=t3%3A2"); "" once it is picked up.
    query: str = field(init=False)
    #: ``spoken``, escaped for an HTML attribute; its face's markup (none face down).
    spoken_html: str = field(init=False)
    face_html: str = field(init=False)
    #: Its name in running text, escaped, for the sentences the page builds ("Picked up the
    #: Ten of Hearts."): "le dix de cœur", "lá mười cơ" (none face down).
    words_html: str = field(init=False)

    def __post_init__(self) -> None:
        if self.card is None:
            self.name = "down"
            self.label, self.spoken_html = _face_down(get_language())
            self.corner = self.suit = self.face_html = self.words_html = ""
            self.classes = "card back"
        else:
            (
                self.name,
                self.label,
                self.corner,
                self.suit,
                self.classes,
                self.spoken_html,
                self.face_html,
                self.words_html,
            ) = _face(get_language(), self.card)
        self.spoken = self.label
        self.query = f"?pick={quote(self.pick, safe='')}" if self.pick else ""
        if self.picked:
            self.spoken = _("%(card)s, picked up") % {"card": self.label}
            self.spoken_html = escape(self.spoken)
            self.classes += " picked"
            self.query = ""

    @property
    def face_up(self) -> bool:
        return self.card is not None


#: A face-up card's face: its corner (rank and suit, which a narrow card's corner stacks: the
#: <wbr> between them is where it breaks) and its big suit mark.
FACE = (
    '<span class="corner" aria-hidden="true">{}<wbr>{}</span>'
    '<span class="pip" aria-hidden="true">{}</span>'
)


# A card's words and marks are the same on every board in a language: worked out once per
# (language, card) and kept. A move draws a dozen cards, each three translations and three
# escapes (see docs/performance.md); the tables hold at most 53 entries per language.
@lru_cache(maxsize=1024)
def _face(language: str | None, card: int) -> tuple[str, str, str, str, str, str, str, str]:
    """A face-up card's name, label, corner, suit and classes, then its label escaped, its
    face's markup (``FACE``) and its name in running text escaped, in ``language`` (the active
    one: the words are looked up in it)."""
    suit = SUIT_MARKS[card & 3]
    red = (card & 3) in (1, 2)
    label = card_label(card)
    rank = str(RANK_MARKS[card // 4])
    corner = rank + suit
    return (
        card_name(card),
        label,
        corner,
        suit,
        "card red" if red else "card",
        escape(label),
        FACE.format(escape(rank), escape(suit), escape(suit)),
        escape(card_words(card)),
    )


@lru_cache(maxsize=64)
def _face_down(language: str | None) -> tuple[str, str]:
    """A face-down card's label in ``language`` (the active one), and the label escaped."""
    label = _("face-down card")
    return label, escape(label)


def _pile_label(kind: str, number: int, count: int) -> str:
    """A pile's label: its kind, its ``number`` (foundations and columns) and how many cards
    it holds."""
    values = {"number": number, "count": count}
    if kind == "stock":
        return ngettext("Stock, %(count)d card", "Stock, %(count)d cards", count) % values
    if kind == "waste":
        return ngettext("Waste, %(count)d card", "Waste, %(count)d cards", count) % values
    if kind == "foundation":
        return (
            ngettext(
                "Foundation %(number)d, %(count)d card",
                "Foundation %(number)d, %(count)d cards",
                count,
            )
            % values
        )
    return (
        ngettext("Column %(number)d, %(count)d card", "Column %(number)d, %(count)d cards", count)
        % values
    )


@dataclass
class PileView:
    """A pile: its notation ("t3"), its kind, its label for assistive technology and its cards.

    ``kind`` is "stock", "waste", "foundation" or "column"; ``classes`` adds to ``pile {kind}``
    ("fanned": Little Forty's waste shows its top three cards).
    """

    pile: str
    kind: str
    label: str
    cards: list[CardView] = field(default_factory=list)
    count: int = 0
    classes: str = ""
    #: The stock only: "deal", "redeal" or "" (neither is possible): what clicking it does, and
    #: the redeals left.
    move: str = ""
    redeals_left: int = 0
    #: While cards are picked up: the move that puts them here, and whether it is legal.
    drop: str = ""
    drop_label: str = ""
    drop_legal: bool = False

    @property
    def top(self) -> CardView | None:
        return self.cards[-1] if self.cards else None


@dataclass
class BoardView:
    stock: PileView
    waste: PileView
    foundations: list[PileView]
    columns: list[PileView]
    redeals_left: int
    has_redeals: bool
    #: Every legal move of a card, in the notation, space-separated ("t3:2-t7 w-f1"): where each
    #: pick may go, for the scripts (empty on a board that is not playable).
    moves: str = ""
    pick: str = ""
    #: The held card's name as a sentence writes it ("Put the Queen of Diamonds on ...").
    pick_label: str = ""

    @property
    def redeals_shown(self) -> int | None:
        """As ``redeals_shown(position)``, for the templates."""
        return self.redeals_left if self.has_redeals else None

    @property
    def left_foundations(self) -> list[PileView]:
        return self.foundations[:4]

    @property
    def right_foundations(self) -> list[PileView]:
        return self.foundations[4:]


def legal_targets(position: Position) -> dict[str, list[str]]:
    """For each pick ("w", "t3", "t3:2", "f1"): the piles the engine lets it move to."""
    targets: dict[str, list[str]] = defaultdict(list)
    for move in position.legal_moves():
        source, count, target = split_move(move)
        if source:
            targets[source if count == 1 else f"{source}:{count}"].append(target)
    return targets


def redeals_shown(position: Position) -> int | None:
    """The redeals left, in a game with redeals (None in the others): what the counters show."""
    return position.redeals_left if position.variant.redeals else None


def card_moves(position: Position) -> str:
    """Every legal move of a card (not a deal or a redeal), space-separated, in the notation."""
    moves = position.legal_moves()
    return " ".join([str(move) for move in moves if not (move.is_deal or move.is_redeal)])


def build_board(position: Position, pick: str = "", *, playable: bool = True) -> BoardView:
    """The board of ``position``; ``pick`` (a pick from ``picks(position)``) is shown held.

    On a board that is not ``playable`` (a finished game) no card can be picked up.
    """
    piles = _Piles(position, pick, playable)
    board = BoardView(
        piles.stock(),
        piles.waste(),
        [piles.foundation(i) for i in range(len(position.foundations))],
        [piles.column(j) for j in range(len(position.columns))],
        position.redeals_left,
        redeals_shown(position) is not None,
        moves=card_moves(position) if playable else "",
    )
    if pick:
        pick_source = pick.partition(":")[0]
        board.pick = pick
        card = _held_card(board, pick_source)
        board.pick_label = card_words(card.card) if card and card.card is not None else ""
        held_object = card_words(card.card, "object") if card and card.card is not None else ""
        legal = legal_targets(position).get(pick, ())
        for view in [*board.foundations, *board.columns]:
            if view.pile == pick_source:
                continue
            view.drop = f"{pick}-{view.pile}"
            view.drop_legal = view.pile in legal
            view.drop_label = sentence(
                fill(
                    _("Put %(card)s on %(pile)s"),
                    {"card": held_object, "pile": pile_label(view.pile, "to")},
                )
            )
    return board


def pile_views(position: Position, names: Iterable[str]) -> list[PileView]:
    """The piles ``names`` ("s", "w", "f3", "t10") of a playable board with nothing picked up,
    drawn as ``build_board`` draws them, in the board's order (stock, waste, foundations,
    columns), and the stock with the waste. Unknown names are left out."""
    piles = _Piles(position, "", True)
    wanted = set(names)
    if "w" in wanted:
        # The stock's button depends on the waste too: a redeal needs cards there.
        wanted.add("s")
    views = []
    if "s" in wanted:
        views.append(piles.stock())
    if "w" in wanted:
        views.append(piles.waste())
    foundations, columns = len(position.foundations), len(position.columns)
    views += [piles.foundation(i) for i in range(foundations) if f"f{i + 1}" in wanted]
    views += [piles.column(j) for j in range(columns) if f"t{j + 1}" in wanted]
    return views


class _Piles:
    """Draws the piles of one position, one at a time, with ``pick`` (if any) held."""

    def __init__(self, position: Position, pick: str, playable: bool) -> None:
        self.position = position
        self.pick = pick
        self.playable = playable
        source, _sep, count = pick.partition(":")
        self.pick_source = source
        self.held = int(count or 1) if pick else 0

    def card(self, card: int, pick_text: str = "", picked: bool = False) -> CardView:
        if not self.playable:
            return CardView(card)
        return CardView(card, pick_text, picked)

    def stock_move(self) -> str:
        """What clicking the stock does: "deal", "redeal", or "" (neither is possible)."""
        position = self.position
        if not self.playable:
            return ""
        if position.stock:
            return "deal"
        if position.waste and position.redeals_left:
            return "redeal"
        return ""

    def stock(self) -> PileView:
        stock = self.position.stock
        view = PileView(
            "s",
            "stock",
            _pile_label("stock", 0, len(stock)),
            count=len(stock),
            move=self.stock_move(),
            redeals_left=self.position.redeals_left,
        )
        if stock:
            view.cards = [CardView(None)]
        return view

    def waste(self) -> PileView:
        waste = self.position.waste
        fanned = self.position.variant.stock_deal > 1
        shown = FANNED_WASTE if fanned else 1
        view = PileView(
            "w",
            "waste",
            _pile_label("waste", 0, len(waste)),
            count=len(waste),
            classes="fanned" if fanned else "",
        )
        for i, card in enumerate(waste[-shown:]):
            top = i == min(shown, len(waste)) - 1
            view.cards.append(self.card(card, "w" if top else "", top and self.pick == "w"))
        return view

    def foundation(self, i: int) -> PileView:
        cards = self.position.foundations[i]
        pile = f"f{i + 1}"
        view = PileView(
            pile,
            "foundation",
            _pile_label("foundation", i + 1, len(cards)),
            count=len(cards),
        )
        if cards:
            can_pick = self.position.variant.devils and i < 4
            view.cards = [self.card(cards[-1], pile if can_pick else "", self.pick == pile)]
        return view

    def column(self, j: int) -> PileView:
        position = self.position
        cards = position.columns[j]
        pile = f"t{j + 1}"
        down = position.down[j]
        view = PileView(
            pile,
            "column",
            _pile_label("column", j + 1, len(cards)),
            count=len(cards),
        )
        movable = position.movable(j)
        held_here = self.pick_source == pile
        for k, card in enumerate(cards):
            depth = len(cards) - k
            if k < down:
                view.cards.append(CardView(None))
                continue
            pick_text = "" if depth > movable else pile if depth == 1 else f"{pile}:{depth}"
            view.cards.append(self.card(card, pick_text, held_here and depth <= self.held))
        return view


def picks(position: Position) -> set[str]:
    """Every pick a player may make in ``position`` (the cards drawn as pickable)."""
    board = build_board(position)
    return {
        card.pick
        for pile in [board.waste, *board.foundations, *board.columns]
        for card in pile.cards
        if card.pick
    }


def _held_card(board: BoardView, source: str) -> CardView | None:
    for pile in [board.waste, *board.foundations, *board.columns]:
        if pile.pile == source:
            held = [c for c in pile.cards if c.picked]
            return held[0] if held else None
    return None
