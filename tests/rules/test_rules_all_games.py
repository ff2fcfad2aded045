"""RULES.md's common rules, checked in each of the ten games: first positions, foundations,
the stock, no redeal (but Little Forty), winning and being stuck.

Each game's own file checks its build rule, sequence moves, empty columns and face-down cards.
"""

from collections import Counter

import pytest

from games.rules import VARIANTS, Move, MoveSyntaxError, first_position
from games.rules.cards import card_name
from games.rules.notation import PositionTextError
from tests.rules.positions import (
    ALL_GAMES,
    LUCAS_ACES,
    allows,
    filler,
    forbids,
    legal,
    piles,
    pos,
    run,
    up,
)

#: RULES.md's table: columns, cards per column, face down per column, stock after the deal.
TABLE = {
    "forty-thieves": (10, 4, 0, 64),
    "indian": (10, 3, 1, 74),
    "limited": (12, 3, 0, 68),
    "little-forty": (10, 4, 0, 64),
    "lucas": (13, 3, 0, 57),
    "maria": (9, 4, 0, 68),
    "number-ten": (10, 4, 2, 64),
    "rank-and-file": (10, 4, 3, 64),
    "streets": (10, 4, 0, 64),
    "forty-devils": (10, 4, 0, 64),
}
NO_REDEAL = [g for g in ALL_GAMES if g != "little-forty"]
ONE_CARD_DEAL = NO_REDEAL


def with_aces(game: str) -> dict[str, str]:
    return dict(LUCAS_ACES) if game == "lucas" else {}


def test_the_ten_games_are_the_ten_of_rules_md():
    assert sorted(VARIANTS) == sorted(ALL_GAMES)


# -- first positions ------------------------------------------------------------------------


@pytest.mark.parametrize("number", [1, 123456])
@pytest.mark.parametrize("game", ALL_GAMES)
def test_first_position_has_the_columns_stock_and_face_down_cards_of_the_table(game, number):
    columns, per_column, down, stock = TABLE[game]
    p = first_position(VARIANTS[game], number)
    assert len(p.columns) == columns
    assert [len(c) for c in p.columns] == [per_column] * columns
    assert p.down == [down] * columns
    assert len(p.stock) == stock
    assert p.waste == []
    assert p.redeals_left == (3 if game == "little-forty" else 0)
    assert p.status == "playing"
    assert p.ply == 0
    text = piles(p)
    for j in range(1, columns + 1):
        cards = text[f"t{j}"].split()
        assert [c.startswith("(") for c in cards] == [True] * down + [False] * (per_column - down)
    every_card = Counter(
        card_name(c) for pile in [p.stock, *p.foundations, *p.columns] for c in pile
    )
    assert len(every_card) == 52
    assert set(every_card.values()) == {2}


@pytest.mark.parametrize("game", [g for g in ALL_GAMES if g != "lucas"])
def test_first_position_foundations_are_empty(game):
    p = first_position(VARIANTS[game], 77)
    assert p.foundations == [[]] * 8


@pytest.mark.parametrize("game", ALL_GAMES)
def test_columns_beyond_the_game_do_not_exist(game):
    n = TABLE[game][0]
    p = pos(game, t1="9H", w="8S")
    assert str(forbids(p, f"t1-t{n + 1}")) == f"no-such-column pile=t{n + 1}"
    assert str(forbids(p, f"w-t{n + 1}")) == f"no-such-column pile=t{n + 1}"
    assert str(forbids(p, f"t{n + 1}-f1")) == f"no-such-column pile=t{n + 1}"


# -- foundations ----------------------------------------------------------------------------


@pytest.mark.parametrize("game", ALL_GAMES)
def test_any_ace_starts_any_empty_foundation(game):
    # Forty Devils' right foundations f5-f8 take only complete runs: its own file checks them.
    last = 4 if game == "forty-devils" else 8
    p = pos(game, t1="5D AH", w="AS")
    for i in range(1, last + 1):
        assert p.check(Move.parse(f"t1-f{i}")) is None
        assert p.check(Move.parse(f"w-f{i}")) is None
    allows(p, f"t1-f{last}", t1="5D", **{f"f{last}": "AH"})
    allows(p, "w-f1", w="", f1="AS")


@pytest.mark.parametrize("game", ALL_GAMES)
def test_an_empty_foundation_takes_only_an_ace(game):
    p = pos(game, t1="2H", w="KS")
    assert str(forbids(p, "t1-f1")) == "foundation-wants-ace card=2H"
    forbids(p, "w-f2")


@pytest.mark.parametrize("game", ALL_GAMES)
def test_a_foundation_builds_up_in_suit(game):
    p = pos(game, {"f1": "AC 2C", "f2": "AD"}, t1="3C", w="2D")
    allows(p, "t1-f1", f1="AC 2C 3C", t1="")
    allows(p, "w-f2", f2="AD 2D", w="")


@pytest.mark.parametrize("game", ALL_GAMES)
@pytest.mark.parametrize("card", ["3S", "3D", "3H"])
def test_a_foundation_refuses_another_suit(game, card):
    p = pos(game, f1="AC 2C", t1=card, w=card)
    forbids(p, "t1-f1")
    forbids(p, "w-f1")


@pytest.mark.parametrize("game", ALL_GAMES)
@pytest.mark.parametrize("card", ["4C", "2C", "AC", "KC"])
def test_a_foundation_takes_nothing_but_the_next_card(game, card):
    p = pos(game, f1="AC 2C", t1=card)
    assert str(forbids(p, "t1-f1")) == f"foundation-wants-next pile=f1 next=3C card={card}"


@pytest.mark.parametrize("game", ALL_GAMES)
def test_a_complete_foundation_takes_nothing_more(game):
    p = pos(game, f1=up("C"), t1="AC")
    assert str(forbids(p, "t1-f1")) == "foundation-complete pile=f1"
    if game != "forty-devils":  # where f1 already holds the clubs
        allows(p, "t1-f2", f2="AC", t1="")


@pytest.mark.parametrize("game", [g for g in ALL_GAMES if g != "forty-devils"])
def test_cards_never_leave_a_foundation(game):
    p = pos(game, f1="AC 2C", t2="3D", t3="3C", t4="3H")
    for dst in ["t1", "t2", "t3", "t4", "f2"]:
        forbids(p, f"f1-{dst}")
    assert not any(m.startswith("f") for m in legal(p))


@pytest.mark.parametrize("game", ALL_GAMES)
def test_only_the_waste_top_card_is_playable(game):
    p = pos(game, f1="AC 2C", w="3C 9S")
    forbids(p, "w-f1")
    allows(p, "w-t1", w="3C", t1="9S")
    allows(p, "w-f1", w="", f1="AC 2C 3C")


# -- the stock ------------------------------------------------------------------------------


@pytest.mark.parametrize("game", ONE_CARD_DEAL)
def test_a_deal_turns_one_card_from_the_stock_onto_the_waste(game):
    p = pos(game, s="2C 3D 4H", w="9S")
    allows(p, "deal", s="2C 3D", w="9S 4H")
    allows(p, "deal", s="2C", w="9S 4H 3D")
    allows(p, "deal", s="", w="9S 4H 3D 2C")


@pytest.mark.parametrize("game", ALL_GAMES)
def test_no_deal_from_an_empty_stock(game):
    p = pos(game, s="", w="9S 4H")
    assert forbids(p, "deal").code == "stock-empty"


def test_no_card_is_played_straight_from_the_stock():
    for text in ["s-t1", "s-f1", "s-w"]:
        with pytest.raises(MoveSyntaxError):
            Move.parse(text)


@pytest.mark.parametrize("game", ALL_GAMES)
def test_a_card_dealt_to_the_waste_is_then_playable(game):
    p = pos(game, {**filler(game), **with_aces(game)}, f3="AH", s="2H")
    assert legal(p) == ["deal"]
    forbids(p, "w-f3")
    allows(p, "deal", s="", w="2H")
    allows(p, "w-f3", w="", f3="AH 2H")


@pytest.mark.parametrize("game", NO_REDEAL)
def test_no_redeal_in_games_other_than_little_forty(game):
    p = pos(game, s="", w="9S 4H")
    forbids(p, "redeal")


@pytest.mark.parametrize("game", ["forty-thieves", "forty-devils"])
def test_a_position_text_with_redeals_left_in_a_game_without_redeal_is_refused(game):
    with pytest.raises(PositionTextError, match="redeals left"):
        pos(game, filler(game), w="5H", redeals_left=1)


@pytest.mark.parametrize("redeals_left", [-1, 4])
def test_a_position_text_with_redeals_left_outside_little_fortys_three_is_refused(redeals_left):
    with pytest.raises(PositionTextError, match="redeals left"):
        pos("little-forty", w="5H", redeals_left=redeals_left)


def test_a_position_text_with_face_down_cards_in_a_game_without_them_is_refused():
    with pytest.raises(PositionTextError, match="face-down"):
        pos("forty-thieves", t1="(4D) 6S")


@pytest.mark.parametrize("game", ["little-forty", "number-ten", "rank-and-file", "forty-devils"])
def test_a_foundation_takes_one_card_at_a_time_even_in_games_with_sequence_moves(game):
    run_of_two = "3C 2C" if game == "forty-devils" else "3D 2C"
    p = pos(game, f1="AC", t1=run_of_two)
    assert forbids(p, "t1:2-f1").code == "foundation-takes-one-card"
    allows(p, "t1-f1", f1="AC 2C")


# -- winning and being stuck ----------------------------------------------------------------


def all_home_but_the_king_of_spades(game: str) -> dict[str, str]:
    """Every card on the foundations except one King of Spades."""
    if game == "forty-devils":
        piles = {f"f{i}": up(s) for i, s in zip(range(1, 5), "CDHS", strict=True)}
        piles.update({f"f{i}": run(s) for i, s in zip(range(5, 9), "CDHS", strict=True)})
        piles["f4"] = up("S", "Q")
    else:
        piles = {f"f{i}": up(s) for i, s in zip(range(1, 9), "CDHSCDHS", strict=True)}
        piles["f8"] = up("S", "Q")
    return piles


@pytest.mark.parametrize("game", ALL_GAMES)
@pytest.mark.parametrize("source", ["t1", "w"])
def test_the_last_card_home_wins_the_game(game, source):
    p = pos(game, all_home_but_the_king_of_spades(game), **{source: "KS"})
    assert p.status == "playing"
    assert not p.is_won()
    home = "f4" if game == "forty-devils" else "f8"
    allows(p, f"{source}-{home}", **{source: "", home: up("S")})
    assert p.is_won()
    assert p.status == "won"
    assert piles(p)["status"] == "won"


@pytest.mark.parametrize("game", ALL_GAMES)
def test_no_move_is_legal_once_the_game_is_won(game):
    p = pos(game, all_home_but_the_king_of_spades(game), t1="KS")
    p.play(Move.parse("t1-f4" if game == "forty-devils" else "t1-f8"))
    assert p.legal_moves() == []
    for move in ["deal", "redeal", "f1-t1", "f4-t1", "f8-t1"]:
        assert forbids(p, move).code == "game-won"


def dead_position(game: str, **more: str) -> dict[str, str]:
    """Every column a Five, a Five on the waste, no Ace anywhere: nothing can move."""
    piles = filler(game, card="5C")
    piles["t2"] = "KH 5D"
    piles["w"] = "5H"
    piles.update(with_aces(game))
    piles.update(more)
    return piles


@pytest.mark.parametrize("game", ALL_GAMES)
def test_no_legal_move_left_means_stuck(game):
    p = pos(game, dead_position(game), redeals_left=0)
    assert p.legal_moves() == []
    assert p.status == "stuck"
    assert p.is_stuck()
    assert not p.is_won()
    assert piles(p)["status"] == "stuck"


@pytest.mark.parametrize("game", ALL_GAMES)
def test_a_card_left_in_the_stock_is_not_stuck(game):
    p = pos(game, dead_position(game, s="9D"), redeals_left=0)
    assert legal(p) == ["deal"]
    assert p.status == "playing"
    p.play(Move.parse("deal"))
    assert p.status == "stuck"
