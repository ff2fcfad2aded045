"""The board as the templates draw it: piles and cards with their labels, picks and targets.

Nothing here decides a move: which moves are legal comes from the engine's ``legal_moves``;
this only says which cards a player may pick up (a pile's top card, or in games with sequence
moves any face-up card with the cards above it) and where each pick may go.
"""

from collections import defaultdict
from dataclasses import dataclass, field
from functools import cache
from urllib.parse import quote

from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from .describe import RANK_MARKS, SUIT_MARKS, card_label, pile_label, split_move
from .rules import Position, card_name

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
    #: Where that pick may legally go, as pile names ("f1 t7").
    targets: str = ""
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

    def __post_init__(self) -> None:
        if self.card is None:
            self.name, self.label, self.corner, self.suit = "down", _("face-down card"), "", ""
            self.classes = "card back"
        else:
            self.name, self.label, self.corner, self.suit, self.classes = _face(
                self.card, get_language()
            )
        self.spoken = self.label
        self.query = f"?pick={quote(self.pick, safe='')}" if self.pick else ""
        if self.picked:
            self.spoken = _("%(card)s, picked up") % {"card": self.label}
            self.classes += " picked"
            self.query = ""

    @property
    def face_up(self) -> bool:
        return self.card is not None


@cache
def _face(card: int, language: str) -> tuple[str, str, str, str, str]:
    """A face-up card's name, label (in ``language``, the active one), corner, suit and classes."""
    suit = SUIT_MARKS[card & 3]
    red = (card & 3) in (1, 2)
    return (
        card_name(card),
        card_label(card),
        RANK_MARKS[card // 4] + suit,
        suit,
        "card red" if red else "card",
    )


@dataclass
class PileView:
    """A pile: its notation ("t3"), its label for assistive technology and its cards."""

    pile: str
    label: str
    cards: list[CardView] = field(default_factory=list)
    count: int = 0
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
    #: "deal", "redeal" or "" (neither is possible): what clicking the stock does.
    stock_move: str
    redeals_left: int
    has_redeals: bool
    pick: str = ""
    pick_label: str = ""

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


def build_board(position: Position, pick: str = "", *, playable: bool = True) -> BoardView:
    """The board of ``position``; ``pick`` (a pick from ``picks(position)``) is shown held.

    On a board that is not ``playable`` (a finished game) no card can be picked up.
    """
    variant = position.variant
    targets = legal_targets(position) if playable else {}
    pick_source, _sep, pick_count = pick.partition(":")
    held = int(pick_count or 1) if pick else 0

    def card_view(card: int, pick_text: str = "", picked: bool = False) -> CardView:
        if not playable:
            return CardView(card)
        return CardView(card, pick_text, " ".join(targets.get(pick_text, ())), picked)

    stock = PileView(
        "s",
        ngettext("Stock, %(count)d card", "Stock, %(count)d cards", len(position.stock))
        % {"count": len(position.stock)},
        count=len(position.stock),
    )
    if position.stock:
        stock.cards = [CardView(None)]
    stock_move = "deal" if position.stock else ""
    if not position.stock and position.waste and position.redeals_left:
        stock_move = "redeal"
    if not playable:
        stock_move = ""

    shown = FANNED_WASTE if variant.stock_deal > 1 else 1
    waste = PileView(
        "w",
        ngettext("Waste, %(count)d card", "Waste, %(count)d cards", len(position.waste))
        % {"count": len(position.waste)},
        count=len(position.waste),
    )
    for i, card in enumerate(position.waste[-shown:]):
        top = i == min(shown, len(position.waste)) - 1
        waste.cards.append(card_view(card, "w" if top else "", top and pick == "w"))

    foundations = []
    for i, cards in enumerate(position.foundations):
        pile = f"f{i + 1}"
        view = PileView(
            pile,
            ngettext(
                "Foundation %(number)d, %(count)d card",
                "Foundation %(number)d, %(count)d cards",
                len(cards),
            )
            % {"number": i + 1, "count": len(cards)},
            count=len(cards),
        )
        if cards:
            can_pick = variant.devils and i < 4
            view.cards = [card_view(cards[-1], pile if can_pick else "", pick == pile)]
        foundations.append(view)

    columns = []
    for j, cards in enumerate(position.columns):
        pile = f"t{j + 1}"
        down = position.down[j]
        view = PileView(
            pile,
            ngettext(
                "Column %(number)d, %(count)d card",
                "Column %(number)d, %(count)d cards",
                len(cards),
            )
            % {"number": j + 1, "count": len(cards)},
            count=len(cards),
        )
        movable = position.movable(j)
        for k, card in enumerate(cards):
            depth = len(cards) - k
            if k < down:
                view.cards.append(CardView(None))
                continue
            can_pick = depth <= movable
            pick_text = "" if not can_pick else pile if depth == 1 else f"{pile}:{depth}"
            view.cards.append(card_view(card, pick_text, pick_source == pile and depth <= held))
        columns.append(view)

    board = BoardView(
        stock, waste, foundations, columns, stock_move, position.redeals_left, variant.redeals > 0
    )
    if pick:
        board.pick = pick
        card = _held_card(board, pick_source)
        board.pick_label = card.label if card else ""
        legal = targets.get(pick, ())
        for view in [*foundations, *columns]:
            if view.pile == pick_source:
                continue
            view.drop = f"{pick}-{view.pile}"
            view.drop_legal = view.pile in legal
            view.drop_label = _("Put %(card)s on %(pile)s") % {
                "card": board.pick_label,
                "pile": pile_label(view.pile),
            }
    return board


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
