"""Rank and File: the bottom three cards of each column face down; build down in alternate
colour; sequences move whole or in part."""

import pytest

from games.rules import Move
from tests.rules.positions import allows, filler, forbids, legal, piles, pos

GAME = "rank-and-file"


@pytest.mark.parametrize(
    ("upper", "lower"), [("QH", "JS"), ("QD", "JC"), ("QS", "JH"), ("QC", "JD")]
)
def test_rank_and_file_builds_down_in_alternate_colour(upper, lower):
    allows(pos(GAME, t1=upper, t2=f"3D {lower}"), "t2-t1", t1=f"{upper} {lower}", t2="3D")


def test_rank_and_file_builds_from_the_waste_in_alternate_colour():
    allows(pos(GAME, t10="QS", w="JD"), "w-t10", t10="QS JD", w="")


@pytest.mark.parametrize(
    ("upper", "lower"), [("QH", "JH"), ("QH", "JD"), ("QS", "JC"), ("QC", "JC")]
)
def test_rank_and_file_refuses_same_colour(upper, lower):
    p = pos(GAME, t1=upper, t2=lower, w=lower)
    assert (
        str(forbids(p, "t2-t1")) == f"does-not-fit card={lower} on={upper} build=alternate-colour"
    )
    forbids(p, "w-t1")


@pytest.mark.parametrize("card", ["TS", "KS"])
def test_rank_and_file_refuses_a_card_not_one_rank_lower(card):
    forbids(pos(GAME, t1="QH", t2=card), "t2-t1")


def test_rank_and_file_moves_a_whole_sequence():
    p = pos(GAME, t1="8C", t2="(AS) (2S) (3S) 5D 7H 6S 5H 4C")
    allows(p, "t2:4-t1", t1="8C 7H 6S 5H 4C", t2="(AS) (2S) (3S) 5D")


def test_rank_and_file_moves_part_of_a_sequence():
    p = pos(GAME, t1="6C", t2="(AS) (2S) (3S) 5D 7H 6S 5H 4C")
    allows(p, "t2:2-t1", t1="6C 5H 4C", t2="(AS) (2S) (3S) 5D 7H 6S")
    allows(p, "t1:2-t2", t1="6C", t2="(AS) (2S) (3S) 5D 7H 6S 5H 4C")


def test_rank_and_file_refuses_a_run_that_is_not_a_sequence():
    p = pos(GAME, t1="8C", t2="7H 6D 5S", t3="7S 5C")
    assert str(forbids(p, "t2:3-t1")) == "not-a-sequence pile=t2 count=3"  # 6D on 7H: same colour
    assert str(forbids(p, "t3:2-t1")) == "not-a-sequence pile=t3 count=2"  # 5C on 7S: a gap
    allows(p, "t2:2-t4", t2="7H", t4="6D 5S")


def test_rank_and_file_refuses_a_sequence_whose_bottom_card_does_not_build():
    p = pos(GAME, t1="8H", t2="7H 6S")
    assert str(forbids(p, "t2:2-t1")) == "does-not-fit card=7H on=8H build=alternate-colour"


def test_rank_and_file_sequence_length_is_not_limited_by_free_columns():
    p = pos(GAME, filler(GAME, 1, 2), t1="KS", t2="(2D) QD JC TH 9S 8D 7C 6H 5C 4H 3S")
    allows(p, "t2:10-t1", t1="KS QD JC TH 9S 8D 7C 6H 5C 4H 3S", t2="2D")


def test_rank_and_file_empty_column_takes_any_sequence():
    allows(pos(GAME, t2="KD 9H 8S 7D"), "t2:3-t5", t5="9H 8S 7D", t2="KD")
    allows(pos(GAME, t2="KD 9H 8S 7D"), "t2:2-t5", t5="8S 7D", t2="KD 9H")
    allows(pos(GAME, t2="KD", w="QC"), "w-t1", t1="QC", w="")


def test_rank_and_file_turns_up_a_face_down_card_as_part_of_the_move():
    p = pos(GAME, t1="(2H) (3C) (4D) 9H", t2="TS", t3="5C")
    allows(p, "t1-t2", t1="(2H) (3C) 4D", t2="TS 9H")
    assert p.down[0] == 2
    assert p.ply == 1
    assert "t1-t3" in legal(p)  # the card turned up is playable at once


def test_rank_and_file_turns_up_a_face_down_card_after_a_sequence_move():
    p = pos(GAME, t1="(2H) (3C) (4D) 9H 8S", t2="TS")
    allows(p, "t1:2-t2", t1="(2H) (3C) 4D", t2="TS 9H 8S")


def test_rank_and_file_turns_up_a_face_down_card_when_its_cover_goes_home():
    p = pos(GAME, t1="(2H) (3C) (4D) AS")
    allows(p, "t1-f8", t1="(2H) (3C) 4D", f8="AS")


def test_rank_and_file_turns_up_each_face_down_card_in_turn():
    p = pos(GAME, t1="(2H) (3C) (4D) 5S", t2="6H")
    allows(p, "t1-t2", t1="(2H) (3C) 4D", t2="6H 5S")
    allows(p, "t1-t2", t1="(2H) 3C", t2="6H 5S 4D")
    allows(p, "t1-t2", t1="2H", t2="6H 5S 4D 3C")
    allows(p, "t1-t2", t1="", t2="6H 5S 4D 3C 2H")
    assert p.down[0] == 0


def test_rank_and_file_undo_turns_the_card_back_down():
    p = pos(GAME, t1="(2H) (3C) (4D) 9H 8S", t2="TS")
    p.play(Move.parse("t1:2-t2"))
    assert piles(p)["t1"] == "(2H) (3C) 4D"
    assert p.undo() == Move.parse("t1:2-t2")
    assert piles(p)["t1"] == "(2H) (3C) (4D) 9H 8S"
    assert p.down[0] == 3


def test_rank_and_file_face_down_cards_are_not_part_of_a_sequence():
    # (9H) 8S would be a sequence face up; face down, only 8S can move.
    p = pos(GAME, t1="(2H) (3C) (9H) 8S", t2="TS", t3="9D")
    assert str(forbids(p, "t1:2-t2")) == "too-few-face-up pile=t1 count=1"
    assert str(forbids(p, "t1:2-t4")) == "too-few-face-up pile=t1 count=1"
    allows(p, "t1-t3", t1="(2H) (3C) 9H", t3="9D 8S")
