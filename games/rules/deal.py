"""Deal numbers to first positions, identical to PySolFC's deals (RULES.md, "Deals").

Below 32000 PySolFC shuffles with LCRandom31 (Microsoft's C ``rand()``), from 32000 on with its
Mersenne Twister. pysol-cards' own ``shuffle()`` switches at ``<= 32000`` and rearranges the
cards for FreeCell, so the generators are used directly here.
"""

from pysol_cards.random import LCRandom31, MTRandom

from .cards import ACE, CLUBS, DIAMONDS, HEARTS, SPADES, card, pysol_deck_order, rank_of
from .position import Position
from .variants import Variant

MIN_DEAL = 1
MAX_DEAL = 10**20 - 1
#: Lucas' foundations start with these Aces, f1 to f8.
LUCAS_ACES = [card(ACE, s) for s in (CLUBS, DIAMONDS, HEARTS, SPADES) * 2]


def is_deal_number(number: object) -> bool:
    return (type(number) is int) and MIN_DEAL <= number <= MAX_DEAL


def shuffled_cards(variant: Variant, number: int) -> list[int]:
    """The cards after PySolFC's shuffle; the end of the list is the top of the stock."""
    if not is_deal_number(number):
        raise ValueError(f"a deal number is a whole number from {MIN_DEAL} to {MAX_DEAL}")
    cards = pysol_deck_order()
    if variant.aces_out:
        cards = [c for c in cards if rank_of(c) != ACE]
    generator = LCRandom31() if number < 32000 else MTRandom()
    generator.setSeed(number)
    return generator.shuffle(cards)


def first_position(variant: Variant, number: int) -> Position:
    """Deal ``number`` of ``variant``, before any move."""
    stock = shuffled_cards(variant, number)
    columns: list[list[int]] = [[] for _ in range(variant.columns)]
    for _ in range(variant.cards_per_column):
        for col in columns:
            col.append(stock.pop())
    foundations = [[a] for a in LUCAS_ACES] if variant.aces_out else [[] for _ in range(8)]
    return Position(
        variant,
        number,
        stock,
        [],
        foundations,
        columns,
        [variant.face_down] * variant.columns,
        variant.redeals,
    )
