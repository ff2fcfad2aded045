"""Which cards the automatic moves send home: only cards no other card could still want."""

import pytest

from games.rules import parse_card, position_from_text
from games.rules.autoplay import is_safe, next_safe_move

PILES = ["s", "w"] + [f"f{i}" for i in range(1, 9)]


def position(variant: str, columns: int = 10, **piles: str):
    lines = [f"variant: {variant}", "deal: 1", "status: playing", "moves: 0", "redeals-left: 0"]
    for key in PILES + [f"t{j}" for j in range(1, columns + 1)]:
        cards = piles.get(key, "")
        lines.append(f"{key}: {cards}" if cards else f"{key}:")
    return position_from_text("\n".join(lines), strict=False)


@pytest.mark.parametrize("card", ["AS", "2H", "AD", "2C"])
def test_aces_and_twos_are_always_safe(card):
    assert is_safe(position("forty-thieves"), parse_card(card))


def test_same_suit_a_three_waits_for_both_twos_of_its_suit():
    one_two = position("forty-thieves", f1="AH 2H", f2="AH")
    both_twos = position("forty-thieves", f1="AH 2H", f2="AH 2H")
    assert not is_safe(one_two, parse_card("3H"))
    assert is_safe(both_twos, parse_card("3H"))


def test_same_suit_other_suits_do_not_count():
    p = position("forty-thieves", f1="AH 2H", f2="AD 2D", f3="AC 2C")
    assert not is_safe(p, parse_card("3H"))


def test_alternate_colour_a_card_waits_for_all_four_lower_cards_of_the_other_colour():
    three_of_four = position("streets", f1="AS 2S", f2="AS 2S", f3="AC 2C", f4="AC")
    all_four = position("streets", f1="AS 2S", f2="AS 2S", f3="AC 2C", f4="AC 2C")
    assert not is_safe(three_of_four, parse_card("3H"))
    assert is_safe(all_four, parse_card("3H"))


def test_different_suit_a_card_waits_for_all_six_lower_cards_of_the_other_suits():
    five = position("indian", f1="AS 2S", f2="AS 2S", f3="AC 2C", f4="AC 2C", f5="AD 2D", f6="AD")
    six = position("indian", f1="AS 2S", f2="AS 2S", f3="AC 2C", f4="AC 2C", f5="AD 2D", f6="AD 2D")
    assert not is_safe(five, parse_card("3H"))
    assert is_safe(six, parse_card("3H"))


def test_the_next_safe_move_is_a_legal_single_card_move_home():
    p = position("forty-thieves", t1="KS AH", t2="5C", w="9D")
    assert str(next_safe_move(p)) == "t1-f1"


def test_no_safe_move_when_the_card_may_still_be_wanted():
    p = position("forty-thieves", f1="AH 2H", f2="AH", t1="3H")
    assert next_safe_move(p) is None


def test_lucas_starts_with_aces_home_and_its_twos_go_up():
    p = position("lucas", 13, f1="AC", f2="AD", f3="AH", f4="AS", f5="AC", f6="AD", t1="2D")
    assert str(next_safe_move(p)) == "t1-f2"
