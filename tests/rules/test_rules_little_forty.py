"""Little Forty: build down in a different suit; sequences move whole or in part; the stock deals
three cards at a time; three redeals."""

import pytest

from games.rules import Move
from tests.rules.positions import allows, filler, forbids, legal, piles, pos

GAME = "little-forty"


@pytest.mark.parametrize("card", ["8S", "8C", "8D"])
def test_little_forty_builds_on_any_other_suit(card):
    allows(pos(GAME, t1="9H", t2=f"KC {card}"), "t2-t1", t1=f"9H {card}", t2="KC")


def test_little_forty_builds_from_the_waste_on_any_other_suit():
    allows(pos(GAME, t1="9H", w="8D"), "w-t1", t1="9H 8D", w="")


def test_little_forty_refuses_the_same_suit():
    p = pos(GAME, t1="9H", t2="KC 8H", w="8H")
    assert str(forbids(p, "t2-t1")) == "does-not-fit card=8H on=9H build=different-suit"
    forbids(p, "w-t1")


@pytest.mark.parametrize("card", ["7S", "TS"])
def test_little_forty_refuses_a_card_not_one_rank_lower(card):
    forbids(pos(GAME, t1="9H", t2=card), "t2-t1")


def test_little_forty_moves_a_whole_sequence():
    p = pos(GAME, t1="JD", t2="5C TS 9H 8S")
    allows(p, "t2:3-t1", t1="JD TS 9H 8S", t2="5C")


def test_little_forty_moves_part_of_a_sequence():
    p = pos(GAME, t1="JD", t2="5C TS 9H 8S", t3="TC")
    allows(p, "t2:2-t3", t2="5C TS", t3="TC 9H 8S")


def test_little_forty_sequences_ignore_colour():
    p = pos(GAME, t1="JC", t2="TD 9H 8D")
    allows(p, "t2:3-t1", t1="JC TD 9H 8D", t2="")


def test_little_forty_refuses_a_same_suit_run_as_a_sequence():
    # PySolFC's Little Forty moves same-suit runs; these rules build and move by different suit.
    p = pos(GAME, t1="JD", t2="TS 9S 8H", t3="")
    assert str(forbids(p, "t2:3-t1")) == "not-a-sequence pile=t2 count=3"
    assert str(forbids(p, "t2:3-t3")) == "not-a-sequence pile=t2 count=3"
    allows(p, "t2:2-t3", t2="TS", t3="9S 8H")


def test_little_forty_refuses_a_run_with_a_gap():
    forbids(pos(GAME, t1="JD", t2="TS 8H"), "t2:2-t1")


def test_little_forty_refuses_a_sequence_whose_bottom_card_does_not_build():
    p = pos(GAME, t1="JS", t2="TS 9H")
    assert str(forbids(p, "t2:2-t1")) == "does-not-fit card=TS on=JS build=different-suit"


def test_little_forty_sequence_length_is_not_limited_by_free_columns():
    p = pos(GAME, filler(GAME, 1, 2), t1="KH", t2="3D QS JH TS 9H 8S 7H 6S")
    allows(p, "t2:7-t1", t1="KH QS JH TS 9H 8S 7H 6S", t2="3D")


def test_little_forty_empty_column_takes_any_sequence():
    allows(pos(GAME, t2="5C TS 9H 8S"), "t2:3-t1", t1="TS 9H 8S", t2="5C")
    allows(pos(GAME, t2="5C TS 9H 8S"), "t2:2-t1", t1="9H 8S", t2="5C TS")
    allows(pos(GAME, t2="5C", w="KD"), "w-t1", t1="KD", w="")


def test_little_forty_deals_three_cards_and_fewer_when_fewer_are_left():
    p = pos(GAME, s="2C 3D 4H 5S 6C", w="KH")
    allows(p, "deal", s="2C 3D", w="KH 6C 5S 4H")
    allows(p, "deal", s="", w="KH 6C 5S 4H 3D 2C")
    assert forbids(p, "deal").code == "stock-empty"


def test_little_forty_plays_only_the_waste_top_card():
    p = pos(GAME, s="2C 5S 6C", t1="7D", t2="6H")
    p.play(Move.parse("deal"))
    assert piles(p)["w"] == "6C 5S 2C"
    forbids(p, "w-t1")  # 6C is under 5S and 2C
    forbids(p, "w-t2")
    allows(pos(GAME, w="6C 5S 2C", t3="3D"), "w-t3", w="6C 5S", t3="3D 2C")


def test_little_forty_redeals_when_the_stock_is_empty_and_the_waste_is_not():
    p = pos(GAME, s="", w="7C 6C 5C 4C 3C 2C AD")
    allows(p, "redeal", s="AD 2C 3C 4C 5C 6C 7C", w="", redeals_left="2")


def test_little_forty_refuses_a_redeal_while_the_stock_has_cards():
    p = pos(GAME, s="2C", w="7C 6C")
    assert forbids(p, "redeal").code == "stock-not-empty"


def test_little_forty_refuses_a_redeal_of_an_empty_waste():
    p = pos(GAME, s="", w="", t1="9H")
    assert forbids(p, "redeal").code == "waste-empty"


def test_little_forty_redeal_deals_the_next_pass_in_the_same_order():
    stock = "AC 2C 3C 4C 5C 6C 7C"
    p = pos(GAME, filler(GAME, 1), s=stock, t1="6D")
    allows(p, "deal", w="7C 6C 5C")
    allows(p, "w-t1", w="7C 6C", t1="6D 5C")
    allows(p, "deal", w="7C 6C 4C 3C 2C")
    allows(p, "deal", s="", w="7C 6C 4C 3C 2C AC")
    allows(p, "redeal", s="AC 2C 3C 4C 6C 7C", w="")
    allows(p, "deal", w="7C 6C 4C", s="AC 2C 3C")
    allows(p, "deal", w="7C 6C 4C 3C 2C AC", s="")


def test_little_forty_has_three_redeals_then_none():
    p = pos(GAME, filler(GAME), s="2H 3H 4H 5H")
    for left in (2, 1, 0):
        while p.stock:
            p.play(Move.parse("deal"))
        assert legal(p) == ["redeal"]
        assert p.status == "playing"
        allows(p, "redeal", s="2H 3H 4H 5H", w="", redeals_left=str(left))
    while p.stock:
        p.play(Move.parse("deal"))
    assert piles(p)["w"] == "5H 4H 3H 2H"
    assert forbids(p, "redeal").code == "no-redeals-left"
    assert p.status == "stuck"
    assert p.ply == 4 * 2 + 3  # four passes of two deals (three cards, then one), three redeals
