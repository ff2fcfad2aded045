"""A turn (games/rules/turn.py): the moves of one action, the safe moves home after them, and
the facts the site keeps (each move said as played and marked automatic or not, the
checkpoints, the position's text and the certain win)."""

import pytest

from games.rules import IllegalMove, Move, parse_card
from games.rules.turn import CHECKPOINT_EVERY, MAX_PLY, LogFull, take_back, take_turn
from tests.rules.positions import pos, up

GAME = "forty-thieves"
#: Every foundation built up to its Queen: eight Kings are left to go home.
UP_TO_QUEENS = {f"f{i}": up(suit, "Q") for i, suit in enumerate("CDHSCDHS", 1)}


def moves(*texts: str) -> list[Move]:
    return [Move.parse(text) for text in texts]


def test_a_move_turns_up_the_card_it_uncovers_and_says_so():
    position = pos("indian", t1="(5C) 9H", t2="TS")
    played = position.play(Move.parse("t1-t2"))
    assert (played.source, played.target, played.count) == ("t1", "t2", 1)
    assert played.card == parse_card("9H") and played.turned_up == parse_card("5C")
    assert not played.automatic


def test_the_safe_moves_home_follow_the_players_move_marked_automatic():
    position = pos(GAME, t1="AH 5D", t2="6D", t3="AS")
    turn = take_turn(position, moves("t1-t2"), autoplay=True)
    assert [str(p.move) for p in turn.played] == ["t1-t2", "t1-f1", "t3-f2"]
    assert [p.automatic for p in turn.played] == [False, True, True]
    assert turn.automatic == 2 and turn.ply == 3
    assert turn.piles == {"t1", "t2", "t3", "f1", "f2"}


def test_with_the_automatic_moves_off_only_the_players_move_is_played():
    position = pos(GAME, t1="AH 5D", t2="6D")
    turn = take_turn(position, moves("t1-t2"), autoplay=False)
    assert [str(p.move) for p in turn.played] == ["t1-t2"]
    assert position.columns[0] == [parse_card("AH")]


def test_a_redo_plays_its_group_again_the_first_move_the_players():
    position = pos(GAME, t1="AH 5D", t2="6D")
    turn = take_turn(position, moves("t1-t2"), automatic=moves("t1-f1"))
    assert [(str(p.move), p.automatic) for p in turn.played] == [
        ("t1-t2", False),
        ("t1-f1", True),
    ]


def test_the_turn_tells_the_position_it_ends_at_and_the_win_certain_from_there():
    position = pos(GAME, UP_TO_QUEENS, t1="KC KD", t2="KH KS", t3="KC KD", t4="KH", t5="KS")
    turn = take_turn(position, moves("t5-t6"))
    assert turn.text == position.text() and turn.status == "playing"
    assert len(turn.finish) == 8


def test_a_checkpoint_is_kept_on_every_checkpoint_ply_with_the_position_after_it():
    position = pos(GAME, t1="AH 5D", t2="6D", t3="AS", moves=CHECKPOINT_EVERY - 2)
    turn = take_turn(position, moves("t1-t2"), autoplay=True)
    assert list(turn.checkpoints) == [CHECKPOINT_EVERY]
    again = pos(GAME, t1="AH 5D", t2="6D", t3="AS", moves=CHECKPOINT_EVERY - 2)
    again.play(Move.parse("t1-t2"))
    again.play(Move.parse("t1-f1"))
    assert turn.checkpoints[CHECKPOINT_EVERY] == again.text()


def test_a_move_the_rules_refuse_raises_its_reason():
    with pytest.raises(IllegalMove) as refused:
        take_turn(pos(GAME, t1="5C", t2="6D"), moves("t2-t1"))
    assert refused.value.reason.code == "does-not-fit"


def test_no_move_past_the_longest_log_and_no_automatic_move_at_it():
    with pytest.raises(LogFull):
        take_turn(pos(GAME, t1="5D", t2="6D", moves=MAX_PLY), moves("t1-t2"))
    full = take_turn(
        pos(GAME, t1="AH 5D", t2="6D", moves=MAX_PLY - 1), moves("t1-t2"), autoplay=True
    )
    assert full.ply == MAX_PLY and [str(p.move) for p in full.played] == ["t1-t2"]


def test_an_undo_says_what_its_group_did_and_leaves_the_position_before_it():
    position = pos(GAME, t1="AH 5D", t2="6D")
    before = position.text()
    turn = take_back(position, moves("t1-t2", "t1-f1"))
    assert [(str(p.move), p.automatic) for p in turn.played] == [
        ("t1-t2", False),
        ("t1-f1", True),
    ]
    assert position.text() == before and turn.text == before and turn.ply == 0
