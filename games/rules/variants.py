"""The ten games as data: one frozen ``Variant`` each, as RULES.md tabulates them."""

from dataclasses import dataclass
from enum import Enum


class Build(Enum):
    """How a card may be built on a column's top card (always one rank lower)."""

    SAME_SUIT = "same suit"
    ALTERNATE_COLOUR = "alternate colour"
    DIFFERENT_SUIT = "different suit"


@dataclass(frozen=True, slots=True)
class Variant:
    id: str
    name: str
    columns: int
    cards_per_column: int
    face_down: int
    build: Build
    sequence_moves: bool
    stock_deal: int = 1
    redeals: int = 0
    aces_out: bool = False
    #: Forty Devils: split foundations, play-back, complete-sequence moves.
    devils: bool = False

    @property
    def stock_size(self) -> int:
        return (96 if self.aces_out else 104) - self.columns * self.cards_per_column


VARIANTS: dict[str, Variant] = {
    v.id: v
    for v in (
        Variant("forty-thieves", "Forty Thieves", 10, 4, 0, Build.SAME_SUIT, False),
        Variant("indian", "Indian", 10, 3, 1, Build.DIFFERENT_SUIT, False),
        Variant("limited", "Limited", 12, 3, 0, Build.SAME_SUIT, False),
        Variant(
            "little-forty",
            "Little Forty",
            10,
            4,
            0,
            Build.DIFFERENT_SUIT,
            True,
            stock_deal=3,
            redeals=3,
        ),
        Variant("lucas", "Lucas", 13, 3, 0, Build.SAME_SUIT, False, aces_out=True),
        Variant("maria", "Maria", 9, 4, 0, Build.ALTERNATE_COLOUR, False),
        Variant("number-ten", "Number Ten", 10, 4, 2, Build.ALTERNATE_COLOUR, True),
        Variant("rank-and-file", "Rank and File", 10, 4, 3, Build.ALTERNATE_COLOUR, True),
        Variant("streets", "Streets", 10, 4, 0, Build.ALTERNATE_COLOUR, False),
        Variant("forty-devils", "Forty Devils", 10, 4, 0, Build.SAME_SUIT, True, devils=True),
    )
}


def get_variant(game_id: str) -> Variant:
    """The game with this id; KeyError names it if there is none."""
    try:
        return VARIANTS[game_id]
    except (KeyError, TypeError):
        raise KeyError(game_id) from None
