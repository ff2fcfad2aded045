"""Number Ten: the bottom two cards of each column face down; build down in alternate colour;
sequences move whole or in part."""

import pytest

from games.rules import Move
from tests.rules.positions import allows, filler, forbids, legal, piles, pos

GAME = "number-ten"


@pytest.mark.parametrize(
    ("upper", "lower"), [("9H", "8S"), ("9D", "8C"), ("9S", "8H"), ("9C", "8D")]
)
def test_number_ten_builds_down_in_alternate_colour(upper, lower):
    allows(pos(GAME, t1=upper, t2=f"KD {lower}"), "t2-t1", t1=f"{upper} {lower}", t2="KD")


def test_number_ten_builds_from_the_waste_in_alternate_colour():
    allows(pos(GAME, t1="9H", w="8C"), "w-t1", t1="9H 8C", w="")


@pytest.mark.parametrize(
    ("upper", "lower"), [("9H", "8H"), ("9H", "8D"), ("9S", "8C"), ("9S", "8S")]
)
def test_number_ten_refuses_same_colour(upper, lower):
    p = pos(GAME, t1=upper, t2=lower, w=lower)
    assert (
        str(forbids(p, "t2-t1")) == f"does-not-fit card={lower} on={upper} build=alternate-colour"
    )
    forbids(p, "w-t1")


@pytest.mark.parametrize("card", ["7S", "TS"])
def test_number_ten_refuses_a_card_not_one_rank_lower(card):
    forbids(pos(GAME, t1="9H", t2=card), "t2-t1")


def test_number_ten_moves_a_whole_sequence():
    p = pos(GAME, t1="TS", t2="KD 9H 8S 7D")
    allows(p, "t2:3-t1", t1="TS 9H 8S 7D", t2="KD")


def test_number_ten_moves_part_of_a_sequence():
    p = pos(GAME, t1="9D", t2="KD 9H 8S 7D")
    allows(p, "t2:2-t1", t1="9D 8S 7D", t2="KD 9H")


def test_number_ten_refuses_a_run_that_is_not_a_sequence():
    p = pos(GAME, t1="TS", t2="9H 8D 7S", t3="9C")
    assert str(forbids(p, "t2:3-t1")) == "not-a-sequence pile=t2 count=3"  # 8D on 9H: same colour
    allows(p, "t2:2-t3", t2="9H", t3="9C 8D 7S")  # 8D 7S is one
    p = pos(GAME, t1="8S", t2="KC 7D 5S")
    assert str(forbids(p, "t2:2-t1")) == "not-a-sequence pile=t2 count=2"  # 5S on 7D: a gap


def test_number_ten_refuses_a_sequence_whose_bottom_card_does_not_build():
    p = pos(GAME, t1="TH", t2="9H 8S")
    assert str(forbids(p, "t2:2-t1")) == "does-not-fit card=9H on=TH build=alternate-colour"


def test_number_ten_sequence_length_is_not_limited_by_free_columns():
    p = pos(GAME, filler(GAME, 1, 2), t1="KH", t2="3D QS JH TS 9H 8S 7H 6S")
    allows(p, "t2:7-t1", t1="KH QS JH TS 9H 8S 7H 6S", t2="3D")


def test_number_ten_empty_column_takes_any_sequence():
    allows(pos(GAME, t2="KD 9H 8S 7D"), "t2:3-t1", t1="9H 8S 7D", t2="KD")
    allows(pos(GAME, t2="KD 9H 8S 7D"), "t2:2-t1", t1="8S 7D", t2="KD 9H")
    allows(pos(GAME, t2="KD", w="QC"), "w-t1", t1="QC", w="")


def test_number_ten_turns_up_a_face_down_card_as_part_of_the_move():
    p = pos(GAME, t1="(3C) (4D) 9H", t2="TS", t3="5C")
    allows(p, "t1-t2", t1="(3C) 4D", t2="TS 9H")
    assert p.down[0] == 1
    assert p.ply == 1
    assert "t1-t3" in legal(p)  # the card turned up is playable at once


def test_number_ten_turns_up_a_face_down_card_after_a_sequence_move():
    p = pos(GAME, t1="(3C) (4D) 9H 8S", t2="TS")
    allows(p, "t1:2-t2", t1="(3C) 4D", t2="TS 9H 8S")


def test_number_ten_turns_up_the_last_face_down_card():
    p = pos(GAME, t1="(3C) 4D", t2="5S")
    allows(p, "t1-t2", t1="3C", t2="5S 4D")
    assert p.down[0] == 0


def test_number_ten_undo_turns_the_card_back_down():
    p = pos(GAME, t1="(3C) (4D) 9H 8S", t2="TS")
    p.play(Move.parse("t1:2-t2"))
    assert piles(p)["t1"] == "(3C) 4D"
    assert p.undo() == Move.parse("t1:2-t2")
    assert piles(p)["t1"] == "(3C) (4D) 9H 8S"
    assert p.down[0] == 2


def test_number_ten_face_down_cards_are_not_part_of_a_sequence():
    # (9H) 8S would be a sequence face up; face down, only 8S can move.
    p = pos(GAME, t1="(3C) (9H) 8S", t2="TS", t3="9D")
    assert str(forbids(p, "t1:2-t2")) == "too-few-face-up pile=t1 count=1"
    assert str(forbids(p, "t1:2-t4")) == "too-few-face-up pile=t1 count=1"
    allows(p, "t1-t3", t1="(3C) 9H", t3="9D 8S")
