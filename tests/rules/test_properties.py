"""Properties of the engine over random deals and random legal play, in every game."""

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import (
    MAX_DEAL,
    VARIANTS,
    IllegalMove,
    Move,
    MoveSyntaxError,
    Record,
    first_position,
    position_from_text,
    replay,
)
from games.rules.moves import COLUMN, FOUNDATION, WASTE

games = st.sampled_from(sorted(VARIANTS))
deal_numbers = st.one_of(
    st.integers(1, 31999), st.integers(32000, 10**9), st.integers(10**19, MAX_DEAL)
)
common = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def every_conceivable_move(position) -> list[Move]:
    """Every move the notation can write for this game's piles, legal or not."""
    columns = [COLUMN + j for j in range(len(position.columns))]
    foundations = [FOUNDATION + i for i in range(8)]
    moves = [Move.parse("deal"), Move.parse("redeal")]
    for dst in foundations + columns:
        moves.append(Move(WASTE, dst))
        moves += [Move(f, dst) for f in foundations if f != dst]
        moves += [Move(t, dst, k) for t in columns if t != dst for k in range(1, 14)]
    return moves


def play_randomly(data, position, max_moves):
    """Play random legal moves, preferring moves other than deal so the tableau changes."""
    played = []
    for _ in range(max_moves):
        legal = position.legal_moves()
        if not legal:
            break
        move = legal[data.draw(st.integers(0, len(legal) - 1), label="move")]
        position.play(move)
        played.append(move)
    return played


def check_cards_present_once(position):
    piles = [position.stock, position.waste, *position.foundations, *position.columns]
    counts = Counter(c for pile in piles for c in pile)
    assert sum(len(p) for p in piles) == 104
    assert len(counts) == 52 and all(n == 2 for n in counts.values()), counts
    for j, col in enumerate(position.columns):
        assert 0 <= position.down[j] < len(col) or position.down[j] == len(col) == 0


@pytest.mark.slow
@common
@given(game=games, number=deal_numbers, data=st.data())
def test_all_104_cards_stay_present_once_each_and_undo_restores_exactly(game, number, data):
    position = first_position(VARIANTS[game], number)
    check_cards_present_once(position)
    for _ in range(120):
        legal = position.legal_moves()
        if not legal:
            break
        before = position.text()
        move = legal[data.draw(st.integers(0, len(legal) - 1))]
        position.play(move)
        check_cards_present_once(position)
        assert position.undo() == move
        assert position.text() == before
        position.play(move)


@pytest.mark.slow
@common
@given(game=games, number=deal_numbers, data=st.data())
def test_legal_moves_are_exactly_the_moves_play_accepts(game, number, data):
    position = first_position(VARIANTS[game], number)
    for step in range(100):
        if step % 20 == 0:
            legal = set(position.legal_moves())
            before = position.text()
            for move in every_conceivable_move(position):
                reason = position.check(move)
                assert (reason is None) == (move in legal), (str(move), reason)
                if reason is None:
                    position.play(move)
                    position.undo()
                else:
                    try:
                        position.play(move)
                    except IllegalMove:
                        pass
                    else:
                        raise AssertionError(f"play() accepted {move} that check() refused")
            assert position.text() == before
        if not play_randomly(data, position, 1):
            break


@pytest.mark.slow
@common
@given(game=games, number=deal_numbers, data=st.data())
def test_replaying_a_record_gives_the_position_playing_it_gave(game, number, data):
    position = first_position(VARIANTS[game], number)
    played = play_randomly(data, position, 200)
    record = Record(game, number, [str(m) for m in played])
    assert replay(record).text() == position.text()
    assert position_from_text(position.text()).text() == position.text()


@pytest.mark.slow
@common
@given(game=games, number=deal_numbers, data=st.data())
def test_stuck_means_not_won_with_no_legal_move(game, number, data):
    position = first_position(VARIANTS[game], number)
    play_randomly(data, position, 400)
    status = position.status
    if position.legal_moves():
        assert status == "playing"
    else:
        assert status in ("won", "stuck")
        assert (status == "won") == position.is_won()


@common
@given(game=games, number=deal_numbers, data=st.data())
def test_every_legal_move_round_trips_through_its_notation(game, number, data):
    position = first_position(VARIANTS[game], number)
    for _ in range(60):
        for move in position.legal_moves():
            assert Move.parse(str(move)) == move
        if not play_randomly(data, position, 1):
            break


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet="wtfdealr:-0123456789 sT", max_size=10))
def test_any_text_either_is_refused_or_round_trips(text):
    try:
        move = Move.parse(text)
    except MoveSyntaxError:
        return
    canonical = text.replace(":1-", "-")
    assert str(move) == canonical


@pytest.mark.slow
@common
@given(game=games, number=deal_numbers, data=st.data())
def test_movable_is_the_longest_run_any_legal_move_could_take(game, number, data):
    position = first_position(VARIANTS[game], number)
    play_randomly(data, position, 150)
    for j, col in enumerate(position.columns):
        movable = position.movable(j)
        assert movable <= len(col) - position.down[j]
        longest = max(
            (
                m.count
                for m in every_conceivable_move(position)
                if m.src == COLUMN + j and position.check(m) is None
            ),
            default=0,
        )
        # Every legal move from the column takes at most the movable run ...
        assert longest <= movable
        # ... and a longer pick is never a sequence the rules let move.
        if col:
            too_many = Move(COLUMN + j, COLUMN + (j + 1) % len(position.columns), movable + 1)
            assert position.check(too_many) is not None


@pytest.mark.slow
@common
@given(game=games, number=deal_numbers, data=st.data())
def test_the_legal_moves_kept_for_a_position_follow_every_change_to_it(game, number, data):
    """legal_moves is worked out once per position: after each play and each undo it is
    still what a fresh copy of the position (nothing kept) works out."""
    position = first_position(VARIANTS[game], number)
    for _ in range(60):
        legal = position.legal_moves()
        assert legal == position.copy().legal_moves()
        legal.clear()  # what a caller does to its list does not reach the position's
        assert position.legal_moves() == position.copy().legal_moves()
        if not position.legal_moves():
            break
        moves = position.legal_moves()
        position.play(moves[data.draw(st.integers(0, len(moves) - 1))])
        if data.draw(st.booleans(), label="undo"):
            position.undo()
            assert position.legal_moves() == position.copy().legal_moves()
            position.play(moves[data.draw(st.integers(0, len(moves) - 1))])
