"""Small positions written compactly, and the two checks every rule test makes.

``pos("maria", t1="9S", t2="8H")`` (or ``pos("maria", {"t1": "9S", "t2": "8H"})``) writes the
whole position text of NOTATION.md, leaving every pile not named empty, and reads it back with
the 104-card check off. Piles are written bottom to top as in the notation; ``(KC)`` is a
face-down card.

``allows(position, "t2-t1", t1="9S 8H", t2="")`` checks that the rules allow the move: check()
gives no reason, legal_moves() lists it, play() succeeds and leaves the named piles as given,
undo() restores the position exactly, and the move is played again for the caller.

``forbids(position, "t2-t1")`` checks that the rules forbid it: check() gives a ``Reason``,
legal_moves() does not list it, play() raises IllegalMove with that reason, and the position
is unchanged; it returns the reason, for the test to check its code (and parameters).
"""

import pytest

from games.rules import VARIANTS, IllegalMove, Move, Position, Reason, position_from_text

#: The game ids of RULES.md's table, in its order.
ALL_GAMES = [
    "forty-thieves",
    "indian",
    "limited",
    "little-forty",
    "lucas",
    "maria",
    "number-ten",
    "rank-and-file",
    "streets",
    "forty-devils",
]
RANKS = "A23456789TJQK"
#: Lucas' foundations before any move: an Ace each, f1-f8 get C D H S C D H S.
LUCAS_ACES = {f"f{i}": "A" + suit for i, suit in enumerate("CDHSCDHS", 1)}


def run(suit: str, high: str = "K", low: str = "A") -> str:
    """A same-suit run from ``high`` down to ``low``, as written bottom to top: ``KC QC .. AC``."""
    ranks = RANKS[RANKS.index(low) : RANKS.index(high) + 1]
    return " ".join(r + suit for r in reversed(ranks))


def up(suit: str, high: str = "K", low: str = "A") -> str:
    """A foundation built from ``low`` up to ``high``, bottom to top: ``AC 2C .. KC``."""
    ranks = RANKS[RANKS.index(low) : RANKS.index(high) + 1]
    return " ".join(r + suit for r in ranks)


def pos(
    variant: str,
    piles: dict[str, str] | None = None,
    *,
    redeals_left: int | None = None,
    moves: int = 0,
    deal: int = 1,
    **more: str,
) -> Position:
    """The position of ``variant`` with these piles; every pile not named is empty."""
    v = VARIANTS[variant]
    given = {**(piles or {}), **more}
    keys = ["s", "w"] + [f"f{i}" for i in range(1, 9)] + [f"t{j}" for j in range(1, v.columns + 1)]
    unknown = set(given) - set(keys)
    assert not unknown, f"no such pile in {variant}: {sorted(unknown)}"
    if redeals_left is None:
        redeals_left = v.redeals
    lines = [
        f"variant: {variant}",
        f"deal: {deal}",
        "status: playing",
        f"moves: {moves}",
        f"redeals-left: {redeals_left}",
    ]
    for key in keys:
        cards = " ".join(given.get(key, "").split())
        lines.append(f"{key}: {cards}" if cards else f"{key}:")
    return position_from_text("\n".join(lines) + "\n", strict=False)


def piles(position: Position) -> dict[str, str]:
    """Every line of the position's text, as key -> value (``t1`` -> ``(4C) 9H``)."""
    return piles_of_text(position.text())


def piles_of_text(text: str) -> dict[str, str]:
    out = {}
    for line in text.split("\n"):
        key, _, value = line.partition(":")
        out[key] = value.strip()
    return out


def legal(position: Position) -> list[str]:
    """The legal moves, in notation."""
    return [str(m) for m in position.legal_moves()]


def allows(position: Position, move: str, **expected: str) -> Position:
    """Check that ``move`` is legal here and leaves the piles in ``expected``; play it."""
    m = Move.parse(move)
    assert str(m) == move
    before = position.text()
    assert position.check(m) is None, position.check(m)
    assert move in legal(position), f"{move} not in {legal(position)}"
    position.play(m)
    after = piles(position)
    for key, value in expected.items():
        key = key.replace("_", "-")
        want = " ".join(value.split())
        assert after[key] == want, f"{key} after {move}: {after[key]!r}, expected {want!r}"
    assert int(after["moves"]) == int(piles_of_text(before)["moves"]) + 1
    assert position.undo() == m
    assert position.text() == before, f"undo of {move} did not restore the position"
    position.play(m)
    return position


def forbids(position: Position, move: str) -> Reason:
    """Check that ``move`` is illegal here and changes nothing; return the reason."""
    m = Move.parse(move)
    before = position.text()
    reason = position.check(m)
    assert isinstance(reason, Reason) and reason.code, f"{move} should be refused:\n{before}"
    assert move not in legal(position), f"check() refuses {move} ({reason}), legal_moves() has it"
    with pytest.raises(IllegalMove) as refused:
        position.play(m)
    assert refused.value.reason == reason
    assert str(refused.value) == str(reason)
    assert position.text() == before
    return reason


def filler(variant: str, *skip: int, card: str = "5C") -> dict[str, str]:
    """Every column of ``variant`` but those in ``skip`` holding one dead card.

    Used to take away empty columns (and the moves to them) from a small position. Pass a card
    nothing in the test builds on (a Five, by default: keep Fours and Sixes out of the test).
    """
    return {f"t{j}": card for j in range(1, VARIANTS[variant].columns + 1) if j not in skip}
