"""Limited: 12 columns of 3, all face up; otherwise Forty Thieves."""

import pytest

from tests.rules.positions import allows, forbids, pos

GAME = "limited"


def test_limited_builds_down_in_the_same_suit():
    allows(pos(GAME, t1="9S", t12="KC 8S"), "t12-t1", t1="9S 8S", t12="KC")


def test_limited_builds_from_the_waste_in_the_same_suit():
    allows(pos(GAME, t12="9S", w="8S"), "w-t12", t12="9S 8S", w="")


@pytest.mark.parametrize("card", ["8C", "8D", "8H"])
def test_limited_refuses_another_suit(card):
    p = pos(GAME, t1="9S", t12=card, w=card)
    forbids(p, "t12-t1")
    forbids(p, "w-t1")


@pytest.mark.parametrize("card", ["7S", "TS"])
def test_limited_refuses_a_card_not_one_rank_lower(card):
    forbids(pos(GAME, t1="9S", t2=card), "t2-t1")


def test_limited_moves_only_the_top_card():
    p = pos(GAME, t1="TS", t2="KD 9S 8S", t3="9S")
    assert forbids(p, "t2:2-t1").code == "one-card-at-a-time"
    allows(p, "t2-t3", t2="KD 9S", t3="9S 8S")


def test_limited_empty_column_takes_any_card():
    allows(pos(GAME, t12="2H QD"), "t12-t11", t11="QD", t12="2H")
    allows(pos(GAME, t1="2H", w="JC"), "w-t12", t12="JC", w="")


def test_limited_empty_column_refuses_a_run():
    forbids(pos(GAME, t12="KC 9S 8S"), "t12:2-t1")


def test_limited_has_twelve_columns():
    p = pos(GAME, t1="9H")
    allows(p, "t1-t12", t1="", t12="9H")
    assert str(forbids(p, "t12-t13")) == "no-such-column pile=t13"
