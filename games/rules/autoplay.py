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


def safe_ranks(position: Position) -> tuple[int, int, int, int]:
    """By suit, the highest rank whose cards no card left in play could ever be built on.

    The cards built on one of rank r are the two copies of rank r - 1 of each suit that may
    be built on it; a foundation of such a suit holds its copy once it is at least r - 1
    long. So the rank is safe while the ``2 * len(suits)``-th longest of those foundations is
    at least r - 1 long; Aces and Twos always are. (A right foundation in Forty Devils is
    complete, so it holds every rank.)"""
    built_on = SUITS_BUILT_ON[position.variant.build]
    ranks = []
    for suit in range(4):
        suits = built_on[suit]
        lengths = sorted(len(f) for f in position.foundations if f and (f[0] & 3) in suits)
        wanted = 2 * len(suits)
        longest = lengths[-wanted] + 1 if len(lengths) >= wanted else 0
        ranks.append(max(2, longest) if wanted else 13)
    return ranks[0], ranks[1], ranks[2], ranks[3]


def is_safe(position: Position, card: int) -> bool:
    """Whether no card left in play could ever be built on ``card``."""
    return card // 4 + 1 <= safe_ranks(position)[card & 3]


def next_safe_move(position: Position) -> Move | None:
    """The first legal move of one card to a foundation that is safe (``safe_ranks``), or
    None."""
    safe = safe_ranks(position)
    for move in position.legal_moves():
        src, dst, count = move
        # One card from the waste or a column's top to a foundation.
        if not FOUNDATION <= dst < COLUMN or count != 1 or not (src == WASTE or src >= COLUMN):
            continue
        card = (position.waste if src == WASTE else position.columns[src - COLUMN])[-1]
        if card // 4 + 1 <= safe[card & 3]:
            return move
    return None
