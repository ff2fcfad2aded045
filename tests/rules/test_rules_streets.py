"""Streets: 10 columns of 4; build down in alternate colour, one card at a time."""

import pytest

from tests.rules.positions import allows, forbids, pos

GAME = "streets"


@pytest.mark.parametrize(
    ("upper", "lower"), [("JD", "TS"), ("JD", "TC"), ("JS", "TH"), ("JC", "TD")]
)
def test_streets_builds_down_in_alternate_colour(upper, lower):
    allows(pos(GAME, t1=upper, t10=f"2H {lower}"), "t10-t1", t1=f"{upper} {lower}", t10="2H")


def test_streets_builds_from_the_waste_in_alternate_colour():
    allows(pos(GAME, t4="2S", w="AH"), "w-t4", t4="2S AH", w="")


@pytest.mark.parametrize(
    ("upper", "lower"), [("JD", "TD"), ("JD", "TH"), ("JS", "TC"), ("JC", "TC")]
)
def test_streets_refuses_same_colour(upper, lower):
    p = pos(GAME, t1=upper, t2=lower, w=lower)
    assert (
        str(forbids(p, "t2-t1")) == f"does-not-fit card={lower} on={upper} build=alternate-colour"
    )
    forbids(p, "w-t1")


@pytest.mark.parametrize("card", ["9S", "QS"])
def test_streets_refuses_a_card_not_one_rank_lower(card):
    forbids(pos(GAME, t1="JD", t2=card), "t2-t1")


def test_streets_moves_only_the_top_card():
    p = pos(GAME, t1="QS", t2="KC JD TS", t3="JH")
    assert forbids(p, "t2:2-t1").code == "one-card-at-a-time"
    allows(p, "t2-t3", t2="KC JD", t3="JH TS")


def test_streets_empty_column_takes_any_card():
    allows(pos(GAME, t3="KC 7D"), "t3-t10", t3="KC", t10="7D")
    allows(pos(GAME, t1="5D", w="KH"), "w-t2", t2="KH", w="")


def test_streets_empty_column_refuses_a_run():
    forbids(pos(GAME, t2="KC JD TS"), "t2:2-t1")
