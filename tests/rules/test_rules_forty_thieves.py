"""Forty Thieves: the common rules exactly. Build down in suit, one card at a time."""

import pytest

from tests.rules.positions import allows, forbids, pos

GAME = "forty-thieves"


def test_forty_thieves_builds_down_in_the_same_suit():
    allows(pos(GAME, t1="9H", t2="KC 8H"), "t2-t1", t1="9H 8H", t2="KC")


def test_forty_thieves_builds_from_the_waste_in_the_same_suit():
    allows(pos(GAME, t1="9H", w="3D 8H"), "w-t1", t1="9H 8H", w="3D")


@pytest.mark.parametrize("card", ["8D", "8C", "8S"])
def test_forty_thieves_refuses_another_suit(card):
    p = pos(GAME, t1="9H", t2=f"KC {card}", w=card)
    assert str(forbids(p, "t2-t1")) == f"does-not-fit card={card} on=9H build=same-suit"
    forbids(p, "w-t1")


@pytest.mark.parametrize("card", ["7H", "9H", "TH"])
def test_forty_thieves_refuses_a_card_not_one_rank_lower(card):
    forbids(pos(GAME, t1="9H", t2=card), "t2-t1")


def test_forty_thieves_moves_only_the_top_card():
    p = pos(GAME, t1="TH", t2="KC 9H 8H", t3="9H")
    assert forbids(p, "t2:2-t1").code == "one-card-at-a-time"
    allows(p, "t2-t3", t2="KC 9H", t3="9H 8H")


def test_forty_thieves_empty_column_takes_any_card():
    p = pos(GAME, t1="", t2="5D KC", w="3S")
    allows(p, "t2-t1", t1="KC", t2="5D")
    p = pos(GAME, t1="", t2="5D KC", w="3S")
    allows(p, "w-t1", t1="3S", w="")


def test_forty_thieves_empty_column_refuses_a_run():
    p = pos(GAME, t1="", t2="KC 9H 8H")
    assert forbids(p, "t2:2-t1").code == "one-card-at-a-time"
    allows(p, "t2-t1", t1="8H", t2="KC 9H")


def test_forty_thieves_a_card_cannot_move_onto_its_own_column():
    forbids(pos(GAME, t1="9H 8H"), "t1-t1")


def test_forty_thieves_moving_from_an_empty_column_is_refused():
    assert str(forbids(pos(GAME, t1="", t2="9H"), "t1-t2")) == "column-empty pile=t1"
