"""Automatic moves to the foundations: which cards are safe to send home by themselves.

With two decks a card may still be wanted in the tableau after it could go home: cards of the
next lower rank may need to be built on it. A card is sent home automatically only when no card
could ever want it there:
- its rank is at most 2 (an Ace is never built on a column; a Two only takes an Ace);
- or every card that could be built on it is already on a foundation. Those are the two
  copies of the next lower rank of its suit (same suit), of the two suits of the other colour
  (alternate colour), or of the three other suits (different suit).
The interface offers this as a convenience; the rules know nothing of it, and each such move
is recorded as an ordinary move.
"""

from .builds import SUITS_BUILT_ON
from .moves import COLUMN, FOUNDATION, WASTE, Move
from .position import Position


def is_safe(position: Position, card: int) -> bool:
    """Whether no card left in play could ever be built on ``card``."""
    rank, suit = card // 4 + 1, card & 3
    if rank <= 2:
        return True
    lower = rank - 1
    suits = SUITS_BUILT_ON[position.variant.build][suit]
    # A foundation holds one suit, Ace upwards; it holds the lower rank once it is that long.
    # (A right foundation in Forty Devils is complete, so it holds every rank.)
    home = sum(1 for f in position.foundations if f and (f[0] & 3) in suits and len(f) >= lower)
    return home >= 2 * len(suits)


def next_safe_move(position: Position) -> Move | None:
    """The first legal move of one card to a foundation that ``is_safe``, or None."""
    for move in position.legal_moves():
        src, dst, count = move
        # One card from the waste or a column's top to a foundation.
        if not FOUNDATION <= dst < COLUMN or count != 1 or not (src == WASTE or src >= COLUMN):
            continue
        pile = position.waste if src == WASTE else position.columns[src - COLUMN]
        if is_safe(position, pile[-1]):
            return move
    return None
