"""A certain win (games/rules/certain.py): what the Finish button plays out."""

import pytest

from games.rules import Move, first_position, get_variant
from games.rules.certain import goes_home, sure_win
from tests.rules.positions import pos, up

GAME = "forty-thieves"
#: Every foundation built up to its Queen: eight Kings are left to go home.
UP_TO_QUEENS = {f"f{i}": up(suit, "Q") for i, suit in enumerate("CDHSCDHS", 1)}


@pytest.mark.parametrize(
    ("move", "home"),
    [("t1-f1", True), ("w-f3", True), ("t2:13-f5", True), ("t1-t2", False), ("f2-t7", False)],
)
def test_a_move_goes_home_from_the_waste_or_a_column_to_a_foundation(move, home):
    assert goes_home(Move.parse(move)) is home


def test_a_win_is_certain_when_the_stock_is_empty_and_every_card_left_goes_home_in_turn():
    position = pos(GAME, UP_TO_QUEENS, t1="KC KD", t2="KH KS", t3="KC KD", t4="KH KS")
    before = position.text()
    moves = sure_win(position)
    assert len(moves) == 8 and all(goes_home(Move.parse(m)) for m in moves)
    assert position.text() == before  # the position is left as it was
    for move in moves:
        position.play(Move.parse(move))
    assert position.is_won()


def test_a_quick_search_proves_a_win_near_the_end_with_cards_in_the_stock():
    position = pos(GAME, UP_TO_QUEENS, s="KC", t1="KD KH KS", t2="KC KD", t3="KH KS")
    moves = sure_win(position)
    assert moves and moves[0] in ("deal", "t1-f4", "t1-f8", "t2-f2", "t2-f6", "t3-f4", "t3-f8")
    for move in moves:
        position.play(Move.parse(move))
    assert position.is_won()


def test_no_win_is_known_far_from_the_end():
    assert sure_win(first_position(get_variant(GAME), 1)) == []


def test_a_won_game_has_no_win_left_to_play():
    full = {f"f{i}": up(suit) for i, suit in enumerate("CDHSCDHS", 1)}
    assert sure_win(pos(GAME, full)) == []
