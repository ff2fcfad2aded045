"""Lucas: the eight Aces start on the foundations; 13 columns of 3; build down in suit, one card
at a time."""

from collections import Counter

import pytest

from games.rules import VARIANTS, first_position
from games.rules.cards import card_name
from tests.rules.positions import LUCAS_ACES, allows, forbids, legal, pos

GAME = "lucas"


@pytest.mark.parametrize("number", [1, 2, 31999, 32000, 123456, 10**20 - 1])
def test_lucas_deals_with_the_aces_out_on_the_foundations(number):
    p = first_position(VARIANTS[GAME], number)
    assert [[card_name(c) for c in f] for f in p.foundations] == [
        ["AC"],
        ["AD"],
        ["AH"],
        ["AS"],
        ["AC"],
        ["AD"],
        ["AH"],
        ["AS"],
    ]
    assert len(p.stock) == 57
    assert [len(c) for c in p.columns] == [3] * 13
    assert p.down == [0] * 13
    rest = Counter(card_name(c) for pile in [p.stock, *p.columns] for c in pile)
    assert not any(name.startswith("A") for name in rest)
    assert len(rest) == 48
    assert set(rest.values()) == {2}


def test_lucas_twos_go_onto_the_aces_of_their_suit():
    p = pos(GAME, LUCAS_ACES, t1="2H", t2="KC")
    assert {m for m in legal(p) if "-f" in m} == {"t1-f3", "t1-f7"}
    forbids(p, "t1-f1")
    forbids(p, "t1-f4")
    allows(p, "t1-f7", t1="", f7="AH 2H")


def test_lucas_builds_down_in_the_same_suit():
    allows(pos(GAME, LUCAS_ACES, t1="9D", t13="8D"), "t13-t1", t1="9D 8D", t13="")


def test_lucas_builds_from_the_waste_in_the_same_suit():
    allows(pos(GAME, LUCAS_ACES, t13="QC", w="JC"), "w-t13", t13="QC JC", w="")


@pytest.mark.parametrize("card", ["8H", "8C", "8S"])
def test_lucas_refuses_another_suit(card):
    p = pos(GAME, LUCAS_ACES, t1="9D", t2=card, w=card)
    forbids(p, "t2-t1")
    forbids(p, "w-t1")


@pytest.mark.parametrize("card", ["7D", "TD"])
def test_lucas_refuses_a_card_not_one_rank_lower(card):
    forbids(pos(GAME, LUCAS_ACES, t1="9D", t2=card), "t2-t1")


def test_lucas_moves_only_the_top_card():
    p = pos(GAME, LUCAS_ACES, t1="TD", t2="KC 9D 8D", t3="9H")
    assert forbids(p, "t2:2-t1").code == "one-card-at-a-time"
    forbids(p, "t2:2-t4")
    allows(p, "t2-t4", t2="KC 9D", t4="8D")


def test_lucas_empty_column_takes_any_card():
    allows(pos(GAME, LUCAS_ACES, t5="3S KH"), "t5-t13", t5="3S", t13="KH")
    allows(pos(GAME, LUCAS_ACES, w="4C"), "w-t1", t1="4C", w="")


def test_lucas_has_thirteen_columns():
    p = pos(GAME, LUCAS_ACES, t1="9H")
    allows(p, "t1-t13", t1="", t13="9H")
    assert str(forbids(p, "t13-t14")) == "no-such-column pile=t14"
