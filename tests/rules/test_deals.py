"""Deal numbers give PySolFC's deals: RULES.md's check values, and an independent shuffle."""

import random

import pytest

from games.rules import MAX_DEAL, VARIANTS, first_position
from games.rules.cards import card_name

RANKS = "A23456789TJQK"


def pysol_order(aces: bool = True) -> list[str]:
    return [r + s for _ in range(2) for s in "CSHD" for r in RANKS if aces or r != "A"]


def ms_rand(seed: int):
    """Microsoft C rand(), as PySolFC's LCRandom31 draws it for deals below 32000."""
    while True:
        seed = (seed * 214013 + 2531011) & 0x1FFFFFFFF
        yield (seed >> 16) & 0x7FFF


def independent_shuffle(cards: list[str], number: int) -> list[str]:
    cards = cards[:]
    if number < 32000:
        draws = ms_rand(number)
        for n in range(len(cards) - 1, 0, -1):
            j = next(draws) % (n + 1)
            cards[n], cards[j] = cards[j], cards[n]
    else:
        rng = random.Random(number)
        for n in range(len(cards) - 1, 0, -1):
            j = int(rng.random() * (n + 1))
            cards[n], cards[j] = cards[j], cards[n]
    return cards


def names(cards: list[int]) -> str:
    return " ".join(card_name(c) for c in cards)


def first_from_stock(position, n: int = 10) -> str:
    return names(position.stock[::-1][:n])


def test_forty_thieves_deal_1_matches_pysolfc_check_values():
    p = first_position(VARIANTS["forty-thieves"], 1)
    assert names(p.columns[0]) == "3D AS KD 7D"
    assert names(p.columns[1]) == "5H 8C 2H 9S"
    assert names(p.columns[9]) == "JD 4H 8S 2S"
    assert first_from_stock(p) == "3S 9C 7D 4S 8H TH AH JC 4H 7H"


def test_forty_thieves_deal_123456_matches_pysolfc_check_values():
    p = first_position(VARIANTS["forty-thieves"], 123456)
    assert names(p.columns[0]) == "6H 7D 7H 9C"
    assert names(p.columns[1]) == "4H TD 6S 7C"
    assert names(p.columns[9]) == "9S QH 7C 5C"
    assert first_from_stock(p) == "2D 2S 9H 8S 6D JS AC 2C 2H 6C"


@pytest.mark.parametrize(
    ("game", "number", "column_1", "stock_top"),
    [
        # The last deal of the LCRandom31 range and the first of the Mersenne Twister one.
        ("forty-thieves", 31999, "3D 5S 2H 8D", "9H 2D 3H 5H AS AD KD TH QC 6S"),
        ("forty-thieves", 32000, "KH 3C 7C 7H", "5H JD 4S 8C 3S 5S 2C AC 5C 5S"),
        ("forty-thieves", MAX_DEAL, "QD 6D 8S KS", "7S 7H JS JD TS 2D TH QD TH 8H"),
        ("lucas", 1, "7D 3S QH", "9D 9H 9S 4C TS JD KS JC 8S 3D"),
        ("lucas", 123456, "7H QD 9C", "3C 2D QC KS 4C KD TS JD 9D 6D"),
        ("little-forty", MAX_DEAL - 1, "QC QS 9D 7S", "6S 9D JD JS TH 2C AH 9S 7S 7D"),
    ],
)
def test_deals_on_both_sides_of_the_generator_switch_stay_fixed(game, number, column_1, stock_top):
    p = first_position(VARIANTS[game], number)
    assert names(p.columns[0]) == column_1
    assert first_from_stock(p) == stock_top


DEAL_NUMBERS = [
    1,
    2,
    617,
    11982,
    31998,
    31999,
    32000,
    32001,
    65536,
    123456,
    2**31,
    2**32 + 5,
    10**12 + 39,
    10**19,
    10**20 - 12345,
    10**20 - 2,
    MAX_DEAL,
]


@pytest.mark.parametrize("game", list(VARIANTS))
@pytest.mark.parametrize("number", DEAL_NUMBERS)
def test_every_game_deals_like_an_independent_pysolfc_shuffle(game, number):
    variant = VARIANTS[game]
    stock = independent_shuffle(pysol_order(aces=not variant.aces_out), number)
    columns = [[] for _ in range(variant.columns)]
    for _ in range(variant.cards_per_column):
        for col in columns:
            col.append(stock.pop())
    p = first_position(variant, number)
    assert [names(c).split() for c in p.columns] == columns
    assert names(p.stock).split() == stock
    assert p.down == [variant.face_down] * variant.columns
    assert p.waste == []


@pytest.mark.parametrize("number", [0, -1, MAX_DEAL + 1, True, 3.0, "5"])
def test_deal_numbers_outside_one_to_ten_to_the_twenty_are_refused(number):
    with pytest.raises(ValueError):
        first_position(VARIANTS["forty-thieves"], number)
