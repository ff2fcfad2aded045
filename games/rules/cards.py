"""Cards, suits and colours, as small integers the engine can index tables with.

A card is ``(rank - 1) * 4 + suit``: 0..51, suits in notation order C D H S. The two copies
of a card in a two-deck game are the same value: nothing in the rules tells them apart.
"""

RANKS = "A23456789TJQK"
SUITS = "CDHS"
SUIT_NAMES = ("Clubs", "Diamonds", "Hearts", "Spades")
RANK_NAMES = (
    "Ace",
    "Two",
    "Three",
    "Four",
    "Five",
    "Six",
    "Seven",
    "Eight",
    "Nine",
    "Ten",
    "Jack",
    "Queen",
    "King",
)
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
ACE, KING = 1, 13

#: Every card value, in order.
ALL_CARDS = range(52)


def card(rank: int, suit: int) -> int:
    """The card of this rank (1..13) and suit (0..3)."""
    return (rank - 1) * 4 + suit


def rank_of(c: int) -> int:
    return (c >> 2) + 1


def suit_of(c: int) -> int:
    return c & 3


def is_red(c: int) -> bool:
    return (c & 3) in (DIAMONDS, HEARTS)


NAMES: tuple[str, ...] = tuple(RANKS[c >> 2] + SUITS[c & 3] for c in ALL_CARDS)
BY_NAME: dict[str, int] = {name: c for c, name in enumerate(NAMES)}


def card_name(c: int) -> str:
    """The notation of a card: ``TH``."""
    return NAMES[c]


def long_name(c: int) -> str:
    """The spoken name of a card: ``Ten of Hearts``."""
    return f"{RANK_NAMES[c >> 2]} of {SUIT_NAMES[c & 3]}"


def parse_card(text: str) -> int:
    """The card named ``text`` (``TH``); ValueError if it names none."""
    try:
        return BY_NAME[text]
    except KeyError:
        raise ValueError(f"not a card: {text!r}") from None


def pysol_deck_order(decks: int = 2) -> list[int]:
    """The cards in PySolFC's order before shuffling: deck by deck, suits C S H D, ranks A..K."""
    return [
        card(rank, suit)
        for _ in range(decks)
        for suit in (CLUBS, SPADES, HEARTS, DIAMONDS)
        for rank in range(ACE, KING + 1)
    ]
