"""Maria: 9 columns of 4; build down in alternate colour, one card at a time."""

import pytest

from tests.rules.positions import allows, forbids, pos

GAME = "maria"


@pytest.mark.parametrize(
    ("upper", "lower"), [("9H", "8S"), ("9H", "8C"), ("9S", "8D"), ("9C", "8H")]
)
def test_maria_builds_down_in_alternate_colour(upper, lower):
    allows(pos(GAME, t1=upper, t9=f"KD {lower}"), "t9-t1", t1=f"{upper} {lower}", t9="KD")


def test_maria_builds_from_the_waste_in_alternate_colour():
    allows(pos(GAME, t9="TD", w="9C"), "w-t9", t9="TD 9C", w="")


@pytest.mark.parametrize(
    ("upper", "lower"), [("9H", "8H"), ("9H", "8D"), ("9S", "8C"), ("9S", "8S")]
)
def test_maria_refuses_same_colour(upper, lower):
    p = pos(GAME, t1=upper, t2=lower, w=lower)
    assert (
        str(forbids(p, "t2-t1")) == f"does-not-fit card={lower} on={upper} build=alternate-colour"
    )
    forbids(p, "w-t1")


@pytest.mark.parametrize("card", ["7S", "TS"])
def test_maria_refuses_a_card_not_one_rank_lower(card):
    forbids(pos(GAME, t1="9H", t2=card), "t2-t1")


def test_maria_moves_only_the_top_card():
    p = pos(GAME, t1="TC", t2="KC 9H 8S", t3="9D")
    assert forbids(p, "t2:2-t1").code == "one-card-at-a-time"
    allows(p, "t2-t3", t2="KC 9H", t3="9D 8S")


def test_maria_empty_column_takes_any_card():
    allows(pos(GAME, t2="5D QS"), "t2-t1", t1="QS", t2="5D")
    allows(pos(GAME, t1="5D", w="2H"), "w-t9", t9="2H", w="")


def test_maria_empty_column_refuses_a_run():
    forbids(pos(GAME, t2="KC 9H 8S"), "t2:2-t1")


def test_maria_has_nine_columns():
    p = pos(GAME, t1="9H")
    allows(p, "t1-t9", t1="", t9="9H")
    assert str(forbids(p, "t9-t10")) == "no-such-column pile=t10"
