"""Moves, and the codes of the piles they join.

A move is ``Move(src, dst, count)``: ``count`` cards from the top of pile ``src`` to pile
``dst``. Piles are small integers so the engine can compare them cheaply; ``str(move)`` and
``Move.parse`` speak the notation of NOTATION.md and round-trip.
"""

import re
from typing import NamedTuple

STOCK = 0
WASTE = 1
#: Foundation ``i`` (0-based) is ``FOUNDATION + i``: f1 is 2, f8 is 9.
FOUNDATION = 2
FOUNDATIONS = 8
#: Column ``j`` (0-based) is ``COLUMN + j``: t1 is 10.
COLUMN = 10

_MOVE = re.compile(r"(w|f([1-8])|t([1-9][0-9]?)(?::([1-9][0-9]?))?)-(f([1-8])|t([1-9][0-9]?))")


class MoveSyntaxError(ValueError):
    """A text that is not a move in the notation."""


def pile_name(code: int) -> str:
    """The notation of a pile: ``s``, ``w``, ``f3``, ``t10``."""
    if code == STOCK:
        return "s"
    if code == WASTE:
        return "w"
    if code < COLUMN:
        return f"f{code - FOUNDATION + 1}"
    return f"t{code - COLUMN + 1}"


class Move(NamedTuple):
    src: int
    dst: int
    count: int = 1

    def __str__(self) -> str:
        return TEXTS.get(self) or _format(self)

    @staticmethod
    def parse(text: str) -> "Move":
        """The move ``text`` names; MoveSyntaxError if it is not written as NOTATION.md says."""
        if type(text) is not str:
            raise MoveSyntaxError("a move must be a string")
        return PARSED.get(text) or _parse(text)

    @property
    def is_deal(self) -> bool:
        return self.src == STOCK

    @property
    def is_redeal(self) -> bool:
        return self.dst == STOCK


DEAL = Move(STOCK, WASTE, 0)
REDEAL = Move(WASTE, STOCK, 0)

#: MOVE_TABLE[src][dst][count]: every move between piles, made once so that generating legal
#: moves in a search's inner loop only looks them up.
MOVE_TABLE = [
    [tuple(Move(src, dst, count) for count in range(14)) for dst in range(COLUMN + 13)]
    for src in range(COLUMN + 13)
]


def can_happen(move: Move) -> bool:
    """Whether some game can have ``move``: from the waste, a foundation or one of at most 13
    columns to another foundation or column, one card, or up to 13 from a column; or the
    stock's deal and redeal."""
    if move in (DEAL, REDEAL):
        return True
    piles = COLUMN + 13
    if not (WASTE <= move.src < piles and FOUNDATION <= move.dst < piles) or move.src == move.dst:
        return False
    return move.count == 1 or (move.src >= COLUMN and 1 <= move.count <= 13)


def _format(move: Move) -> str:
    if move == DEAL:
        return "deal"
    if move == REDEAL:
        return "redeal"
    src = pile_name(move.src)
    if move.count != 1:
        src += f":{move.count}"
    return f"{src}-{pile_name(move.dst)}"


#: The notation of every move some game can have (about 3,700), and back: made once, never
#: grown. The notation can write many more ("t99:99-t98", "t3:1-t4"), and a request can send
#: any of them: those are parsed or written each time, never kept, so what a client sends
#: cannot fill a process's memory.
TEXTS: dict[Move, str] = {
    move: _format(move) for row in MOVE_TABLE for moves in row for move in moves if can_happen(move)
} | {DEAL: "deal", REDEAL: "redeal"}
PARSED: dict[str, Move] = {text: move for move, text in TEXTS.items()}


def _parse(text: str) -> Move:
    if text == "deal":
        return DEAL
    if text == "redeal":
        return REDEAL
    m = _MOVE.fullmatch(text)
    if m is None:
        raise MoveSyntaxError("not a move in the notation")
    _, f_src, t_src, count, _, f_dst, t_dst = m.groups()
    if f_src:
        src = FOUNDATION + int(f_src) - 1
    elif t_src:
        src = COLUMN + int(t_src) - 1
    else:
        src = WASTE
    dst = FOUNDATION + int(f_dst) - 1 if f_dst else COLUMN + int(t_dst) - 1
    return Move(src, dst, int(count) if count else 1)
