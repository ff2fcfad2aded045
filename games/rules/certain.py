"""A win that is certain from a position: the moves the Finish button plays out.

Two rules, the cheaper first. With the stock empty, the cards left may all go home without a
choice, each to a foundation as soon as one takes it. Else, near the end (few cards left), a
quick search bounded in time and positions may prove a win. Far from a win neither runs long:
the first stops at the first card that cannot go home, the second does not start.
"""

from .moves import COLUMN, FOUNDATION, Move
from .position import ALL_HOME, PLAYING, Position
from .solver import WON, solve

#: The quick search's budget: a few milliseconds, as it runs inside a move's request.
QUICK_SEARCH_SECONDS = 0.004
QUICK_SEARCH_NODES = 400
#: The quick search runs only with at most this many cards left to go home: before that it
#: would not prove a win within its budget.
QUICK_SEARCH_CARDS = 40


def goes_home(move: Move) -> bool:
    """Whether ``move`` takes cards to a foundation from the waste or a column (not from
    another foundation)."""
    return FOUNDATION <= move.dst < COLUMN and not FOUNDATION <= move.src < COLUMN


def sure_win(position: Position) -> list[str]:
    """The moves (notation) of a certain win from ``position``, or [] if none is known;
    ``position`` is left as it is."""
    if position.status != PLAYING:
        return []
    if not position.stock:
        moves = _all_home(position)
        if moves:
            return moves
    if ALL_HOME - position.home > QUICK_SEARCH_CARDS:
        return []
    result = solve(
        position, seconds=QUICK_SEARCH_SECONDS, max_nodes=QUICK_SEARCH_NODES, max_memory_mb=16
    )
    return [str(move) for move in result.moves] if result.status == WON else []


def _all_home(position: Position) -> list[str]:
    """Every card home, each as soon as a foundation takes it, or [] if one gets stuck. The
    copy is made only once a first card can go home: most positions stop before that."""
    legal = position.legal_moves()
    ahead, moves = None, []
    while home := next((m for m in legal if goes_home(m)), None):
        if ahead is None:
            ahead = position.copy()
        ahead.apply(home)  # one of the legal moves
        moves.append(str(home))
        if ahead.is_won():
            return moves
        legal = ahead.legal_moves()
    return []
