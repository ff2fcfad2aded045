"""Indian: 10 columns of 3, the bottom card face down; build down in a different suit, one card
at a time."""

import pytest

from games.rules import Move
from tests.rules.positions import allows, forbids, legal, piles, pos

GAME = "indian"


@pytest.mark.parametrize("card", ["8S", "8C", "8D"])
def test_indian_builds_on_any_other_suit(card):
    # Colour does not matter: a red Eight goes on a red Nine of another suit.
    allows(pos(GAME, t1="9H", t2=f"KC {card}"), "t2-t1", t1=f"9H {card}", t2="KC")


def test_indian_builds_from_the_waste_on_any_other_suit():
    allows(pos(GAME, t1="9H", w="8D"), "w-t1", t1="9H 8D", w="")


def test_indian_refuses_the_same_suit():
    p = pos(GAME, t1="9H", t2="KC 8H", w="8H")
    assert str(forbids(p, "t2-t1")) == "does-not-fit card=8H on=9H build=different-suit"
    forbids(p, "w-t1")


@pytest.mark.parametrize("card", ["7S", "9S", "TS"])
def test_indian_refuses_a_card_not_one_rank_lower(card):
    forbids(pos(GAME, t1="9H", t2=card), "t2-t1")


def test_indian_moves_only_the_top_card():
    # 9S 8H would be a different-suit sequence, but Indian moves one card at a time.
    p = pos(GAME, t1="TD", t2="KC 9S 8H", t3="9C")
    assert forbids(p, "t2:2-t1").code == "one-card-at-a-time"
    allows(p, "t2-t3", t2="KC 9S", t3="9C 8H")


def test_indian_empty_column_takes_any_card():
    allows(pos(GAME, t2="4D KS"), "t2-t1", t1="KS", t2="4D")
    allows(pos(GAME, t1="4D", w="7C"), "w-t10", t10="7C", w="")


def test_indian_empty_column_refuses_a_run():
    forbids(pos(GAME, t2="KC 9S 8H"), "t2:2-t1")


def test_indian_turns_up_the_face_down_card_as_part_of_the_move():
    p = pos(GAME, t1="(4C) 9H", t2="TS", t3="5D")
    allows(p, "t1-t2", t1="4C", t2="TS 9H")
    assert p.down[0] == 0
    assert p.ply == 1
    assert "t1-t3" in legal(p)  # the card turned up is playable at once


def test_indian_turns_up_the_face_down_card_when_its_cover_goes_home():
    p = pos(GAME, t1="(4C) AH")
    allows(p, "t1-f1", t1="4C", f1="AH")


def test_indian_undo_turns_the_card_back_down():
    p = pos(GAME, t1="(4C) 9H", t2="TS")
    p.play(Move.parse("t1-t2"))
    assert piles(p)["t1"] == "4C"
    assert p.undo() == Move.parse("t1-t2")
    assert piles(p)["t1"] == "(4C) 9H"
    assert p.down[0] == 1
    assert p.ply == 0


def test_indian_face_down_card_cannot_move():
    p = pos(GAME, t1="(8S) 9H", t2="TS", t3="9D")
    assert str(forbids(p, "t1:2-t2")) == "too-few-face-up pile=t1 count=1"
    forbids(p, "t1:2-t4")
    assert not any(m.startswith("t1:") for m in legal(p))
