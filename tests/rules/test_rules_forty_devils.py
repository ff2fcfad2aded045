"""Forty Devils: build down in suit; same-suit sequences move whole or in part; an empty column
takes a single card only; left foundations f1-f4 build up from Ace and give their top card back;
right foundations f5-f8 take only a complete King-to-Ace run and close."""

import pytest

from tests.rules.positions import allows, filler, forbids, legal, pos, run, up

GAME = "forty-devils"


# -- the tableau ----------------------------------------------------------------------------


def test_forty_devils_builds_down_in_the_same_suit():
    allows(pos(GAME, t1="9H", t2="KC 8H"), "t2-t1", t1="9H 8H", t2="KC")
    allows(pos(GAME, t1="9H", w="8H"), "w-t1", t1="9H 8H", w="")


@pytest.mark.parametrize("card", ["8D", "8C", "8S", "7H", "TH"])
def test_forty_devils_refuses_another_suit_or_rank(card):
    p = pos(GAME, t1="9H", t2=card, w=card)
    forbids(p, "t2-t1")
    forbids(p, "w-t1")


def test_forty_devils_moves_a_whole_same_suit_sequence():
    p = pos(GAME, t1="JS", t2="4D TS 9S 8S")
    allows(p, "t2:3-t1", t1="JS TS 9S 8S", t2="4D")


def test_forty_devils_moves_part_of_a_same_suit_sequence():
    p = pos(GAME, t1="9S", t2="4D TS 9S 8S 7S")
    allows(p, "t2:2-t1", t1="9S 8S 7S", t2="4D TS 9S")


def test_forty_devils_refuses_a_run_that_is_not_a_same_suit_sequence():
    p = pos(GAME, t1="JS", t2="TS 9C 8C", t3="TS 8S")
    assert str(forbids(p, "t2:3-t1")) == "not-a-sequence pile=t2 count=3"  # 9C on TS: another suit
    assert str(forbids(p, "t3:2-t1")) == "not-a-sequence pile=t3 count=2"  # 8S on TS: a gap


def test_forty_devils_sequence_length_is_not_limited_by_free_columns():
    p = pos(GAME, filler(GAME, 1, 2), t1="KD", t2="3C " + run("D", "Q", "4"))
    allows(p, "t2:9-t1", t1=run("D", "K", "4"), t2="3C")


# -- empty columns --------------------------------------------------------------------------


def test_forty_devils_empty_column_takes_a_single_card_from_a_column():
    allows(pos(GAME, t2="4D TS 9S"), "t2-t1", t1="9S", t2="4D TS")


def test_forty_devils_empty_column_takes_the_waste_top_card():
    allows(pos(GAME, t2="4D", w="3H 7C"), "w-t1", t1="7C", w="3H")


def test_forty_devils_empty_column_takes_a_left_foundation_top_card():
    allows(pos(GAME, f1="AH 2H 3H", t2="4D"), "f1-t1", t1="3H", f1="AH 2H")


def test_forty_devils_empty_column_refuses_a_sequence():
    p = pos(GAME, t1="", t2="4D TS 9S 8S")
    assert forbids(p, "t2:2-t1").code == "empty-column-takes-one-card"
    assert forbids(p, "t2:3-t1").code == "empty-column-takes-one-card"
    assert not any(m.startswith("t2:") for m in legal(p))
    allows(p, "t2-t1", t1="8S", t2="4D TS 9S")


# -- left foundations f1-f4 -----------------------------------------------------------------


@pytest.mark.parametrize("left", ["f1", "f2", "f3", "f4"])
def test_forty_devils_left_foundation_builds_up_in_suit(left):
    p = pos(GAME, {left: "AD 2D"}, t1="3D", w="3C")
    allows(p, f"t1-{left}", **{left: "AD 2D 3D", "t1": ""})
    forbids(p, f"w-{left}")


def test_forty_devils_left_foundations_hold_distinct_suits():
    p = pos(GAME, f1="AC 2C", t1="AC", t2="AD")
    assert str(forbids(p, "t1-f2")) == "left-foundation-suit-taken suit=C"
    assert str(forbids(p, "t1-f4")) == "left-foundation-suit-taken suit=C"
    allows(p, "t2-f2", f2="AD", t2="")


def test_forty_devils_left_foundation_suit_is_free_again_once_emptied():
    p = pos(GAME, f1="AC", t1="AC", t2="9H")
    forbids(p, "t1-f2")
    allows(p, "f1-t3", f1="", t3="AC")
    allows(p, "t1-f2", f2="AC", t1="")


def test_forty_devils_left_foundations_ignore_the_suits_of_the_right_ones():
    p = pos(GAME, f5=run("C"), t1="AC")
    allows(p, "t1-f1", f1="AC", t1="")


# -- playing back from a left foundation ----------------------------------------------------


def test_forty_devils_left_foundation_top_card_goes_back_onto_one_higher_of_its_suit():
    p = pos(GAME, f2="AH 2H 3H", t7="9C 4H")
    allows(p, "f2-t7", f2="AH 2H", t7="9C 4H 3H")


@pytest.mark.parametrize("card", ["4D", "4S", "5H", "3H"])
def test_forty_devils_left_foundation_card_refuses_another_suit_or_rank(card):
    p = pos(GAME, f2="AH 2H 3H", t7=card)
    assert str(forbids(p, "f2-t7")) == f"does-not-fit card=3H on={card} build=same-suit"


def test_forty_devils_left_foundation_card_goes_back_to_an_empty_column():
    p = pos(GAME, f1=up("S"), t1="9H")
    allows(p, "f1-t10", f1=up("S", "Q"), t10="KS")


def test_forty_devils_left_foundation_card_never_goes_onto_another_foundation():
    p = pos(GAME, f1="AH", f2="AC", t1="9C")
    for dst in ["f2", "f3", "f4", "f5", "f8"]:
        assert forbids(p, f"f1-{dst}").code == "foundation-card-to-column-only"
    assert {m for m in legal(p) if m.startswith("f")} == {
        f"f{i}-t{j}" for i in (1, 2) for j in range(2, 11)
    }


def test_forty_devils_an_empty_left_foundation_gives_nothing_back():
    assert str(forbids(pos(GAME, t1="9C"), "f1-t2")) == "foundation-empty pile=f1"


# -- right foundations f5-f8 ----------------------------------------------------------------


@pytest.mark.parametrize("right", ["f5", "f6", "f7", "f8"])
def test_forty_devils_right_foundation_takes_a_complete_king_to_ace_run(right):
    p = pos(GAME, t3="9D 4H " + run("C"))
    allows(p, f"t3:13-{right}", t3="9D 4H", **{right: run("C")})


def test_forty_devils_right_foundation_run_is_listed_among_the_legal_moves():
    p = pos(GAME, filler(GAME, 3), f6=run("H"), t3="9D " + run("C"))
    assert {m for m in legal(p) if ":13-" in m} == {"t3:13-f5", "t3:13-f7", "t3:13-f8"}


@pytest.mark.parametrize("count", [12, 14])
def test_forty_devils_right_foundation_takes_thirteen_cards_exactly(count):
    p = pos(GAME, t3="KC " + run("C"))
    forbids(p, f"t3:{count}-f5")


def test_forty_devils_right_foundation_refuses_an_incomplete_run():
    p = pos(GAME, t3="9D " + run("C", "Q"), t4=run("C", "K", "2"))
    forbids(p, "t3:12-f5")
    forbids(p, "t3:13-f5")
    forbids(p, "t4:12-f5")
    forbids(p, "t4:13-f5")


def test_forty_devils_right_foundation_refuses_a_run_not_on_top_of_its_column():
    p = pos(GAME, t3=run("C") + " 9D")
    forbids(p, "t3:13-f5")
    forbids(p, "t3:14-f5")


def test_forty_devils_right_foundation_refuses_single_cards():
    p = pos(GAME, t1="AC", w="AD", f1="AH")
    assert forbids(p, "t1-f5").code == "right-foundation-takes-whole-suit"
    assert forbids(p, "w-f6").code == "right-foundation-takes-whole-suit"
    forbids(p, "f1-f7")
    allows(p, "t1-f2", f2="AC", t1="")


def test_forty_devils_left_foundation_refuses_a_complete_run():
    p = pos(GAME, t1=run("S"))
    forbids(p, "t1:13-f1")
    allows(p, "t1-f1", f1="AS", t1=run("S", "K", "2"))


def test_forty_devils_right_foundations_hold_distinct_suits():
    p = pos(GAME, f5=run("C"), t1=run("C"), t2=run("D"))
    assert str(forbids(p, "t1:13-f6")) == "right-foundation-suit-taken suit=C"
    allows(p, "t2:13-f6", f6=run("D"), t2="")


def test_forty_devils_right_foundations_ignore_the_suits_of_the_left_ones():
    p = pos(GAME, f1="AC 2C 3C", t1=run("C"))
    allows(p, "t1:13-f5", f5=run("C"), t1="")


def test_forty_devils_filled_right_foundation_is_closed():
    p = pos(GAME, f5=run("C"), t1=run("D"), t2="2C", t3="")
    assert str(forbids(p, "t1:13-f5")) == "right-foundation-filled pile=f5"
    assert forbids(p, "f5-t2").code == "right-foundation-cards-stay"
    assert forbids(p, "f5-t3").code == "right-foundation-cards-stay"
    assert forbids(p, "f5-f1").code == "right-foundation-cards-stay"
    assert not any(m.startswith("f5") for m in legal(p))


def test_forty_devils_wins_with_the_last_run_home():
    piles = {f"f{i}": up(s) for i, s in zip(range(1, 5), "CDHS", strict=True)}
    piles.update({f"f{i}": run(s) for i, s in zip(range(5, 8), "CDH", strict=True)})
    p = pos(GAME, piles, t6=run("S"))
    assert p.status == "playing"
    allows(p, "t6:13-f8", f8=run("S"), t6="")
    assert p.is_won()
    assert p.status == "won"
    assert p.legal_moves() == []


def test_forty_devils_movable_run_stops_at_a_card_of_another_suit():
    p = pos(GAME, t1="KH 6H 8S JH", t2="4D TS 9S 8S")
    assert p.movable(0) == 1
    assert p.movable(1) == 3
    assert p.movable(2) == 0
