"""What a move did, as facts: which cards went where, what was dealt, what turned face up.

The site words these facts in the player's language (games/words.py); the engine only
reports them.
"""

from dataclasses import dataclass

from .moves import REDEAL, Move
from .position import Position


@dataclass(frozen=True, slots=True)
class Played:
    """A move played: ``source`` and ``target`` piles in the notation ("t3", "f1", "w"; both
    "" for a deal or a redeal), ``count`` the cards it moved (a deal: the cards dealt),
    ``card`` the lowest card moved (a deal: the waste's new top card; a redeal: None), and
    ``turned_up`` the card it uncovered and turned face up, if any."""

    move: Move
    source: str
    target: str
    count: int
    card: int | None
    turned_up: int | None = None
    automatic: bool = False

    @property
    def is_redeal(self) -> bool:
        return self.move == REDEAL

    @property
    def is_deal(self) -> bool:
        return not self.source and not self.is_redeal


def split_move(move: Move) -> tuple[str, int, str]:
    """``t4:3-t7`` -> ``("t4", 3, "t7")``; a deal or a redeal has no piles: ``("", 0, "")``."""
    source, sep, target = str(move).partition("-")
    if not sep:
        return "", 0, ""
    pile, _colon, count = source.partition(":")
    return pile, int(count or 1), target


def moving_card(position: Position, pile: str, count: int) -> int | None:
    """The bottom card of the ``count`` cards at the top of ``pile``, if it has that many."""
    number = pile[1:]
    if pile == "w":
        cards = position.waste
    elif pile[:1] == "f" and number.isdigit() and 1 <= int(number) <= len(position.foundations):
        cards = position.foundations[int(number) - 1]
    elif pile[:1] == "t" and number.isdigit() and 1 <= int(number) <= len(position.columns):
        cards = position.columns[int(number) - 1]
    else:
        return None
    return cards[-count] if 0 < count <= len(cards) else None


def play(position: Position, move: Move, *, automatic: bool = False) -> Played:
    """Play ``move`` on ``position`` (IllegalMove if the rules refuse it) and say what it did."""
    if move == REDEAL:
        position.play(move)
        return Played(move, "", "", 0, None, automatic=automatic)
    source, count, target = split_move(move)
    if not source:
        before = len(position.stock)
        position.play(move)
        dealt = before - len(position.stock)
        return Played(move, "", "", dealt, position.waste[-1], automatic=automatic)
    card = moving_card(position, source, count)
    column = int(source[1:]) - 1 if source[0] == "t" else None
    down = position.down[column] if column is not None else 0
    position.play(move)
    turned_up = None
    if column is not None and position.down[column] < down:
        turned_up = position.columns[column][-1]
    return Played(move, source, target, count, card, turned_up, automatic)


def preview(position: Position, move: Move) -> Played:
    """What ``move`` would do, without playing it on ``position`` (and so without telling
    which card it would turn face up)."""
    source, count, target = split_move(move)
    card = moving_card(position, source, count) if source else None
    return Played(move, source, target, count, card)
