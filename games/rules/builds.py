"""What may be built on what: the tables of the three builds, for the rules, the solver and the
automatic moves alike.

A card is built on a column's top card one rank higher: of the same suit, of the other colour,
or of a different suit, as the game's ``Build`` says. Every table here is indexed by build
first, then by card value (0..51).
"""

from .cards import is_red, rank_of, suit_of
from .variants import Build


def fits(build: Build, lower: int, upper: int) -> bool:
    """Whether card ``lower`` may be built on card ``upper`` (both 0..51)."""
    if rank_of(lower) != rank_of(upper) - 1:
        return False
    if build is Build.SAME_SUIT:
        return suit_of(lower) == suit_of(upper)
    if build is Build.ALTERNATE_COLOUR:
        return is_red(lower) != is_red(upper)
    return suit_of(lower) != suit_of(upper)


#: ACCEPTS[build][top]: the cards that may be built on ``top``.
ACCEPTS: dict[Build, tuple[frozenset[int], ...]] = {
    b: tuple(frozenset(c for c in range(52) if fits(b, c, top)) for top in range(52)) for b in Build
}

#: PARENTS[build][card]: the cards ``card`` may be built on, in order.
PARENTS: dict[Build, tuple[tuple[int, ...], ...]] = {
    b: tuple(tuple(p for p in range(52) if fits(b, c, p)) for c in range(52)) for b in Build
}

#: FITS[build][lower][upper]: ``fits`` as a table over the byte values 0..127, for searches
#: that mark cards with values past 51 (a face-down card as card + 64): such a value never
#: fits, nor takes a card.
FITS: dict[Build, tuple[tuple[bool, ...], ...]] = {
    b: tuple(
        tuple(lower < 52 and upper < 52 and fits(b, lower, upper) for upper in range(128))
        for lower in range(128)
    )
    for b in Build
}

#: SUITS_BUILT_ON[build][suit]: the suits whose cards may be built on a card of ``suit``.
SUITS_BUILT_ON: dict[Build, tuple[tuple[int, ...], ...]] = {
    b: tuple(tuple(t for t in range(4) if fits(b, 4 + t, 8 + s)) for s in range(4)) for b in Build
}
