"""What a move did, as facts: which cards went where, what was dealt, what turned face up.

``Position.play`` answers them for each move it plays; the site words them in the player's
language (games/words.py). The engine only reports them.
"""

from dataclasses import dataclass

from .moves import REDEAL, Move


@dataclass(frozen=True, slots=True)
class Played:
    """A move played: ``source`` and ``target`` piles in the notation ("t3", "f1", "w"; both
    "" for a deal or a redeal), ``count`` the cards it moved (a deal: the cards dealt),
    ``card`` the lowest card moved (a deal: the waste's new top card; a redeal: None),
    ``turned_up`` the card it uncovered and turned face up, if any, and whether the automatic
    moves played it (``automatic``: a turn says so, games/rules/turn.py)."""

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
