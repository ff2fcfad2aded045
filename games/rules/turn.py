"""A turn: what one action does to a game's position, and the facts the site keeps of it.

The site calls the engine once per action (games/services/play.py). ``take_turn`` plays the
action's moves (a move, a redo's group, Finish's line), then, when the player has them on,
the safe moves home that follow (rules/autoplay.py) as long as the log has room; it keeps
the position after each checkpoint's ply while it plays, and looks for a win that is certain
from where it ends (rules/certain.py). ``take_back`` is an undo's: the moves of a group, said
as they were played, and the facts of the position before them.
"""

from collections.abc import Sequence
from dataclasses import dataclass, replace

from .autoplay import next_safe_move
from .certain import sure_win
from .moves import Move, pile_name
from .played import Played
from .position import PLAYING, Position

#: Every this many plies a move of the log keeps the position after it (a checkpoint): undo
#: and the replay viewer start from the nearest one instead of the deal.
CHECKPOINT_EVERY = 50
#: The longest move log a game may have, and a record may bring.
MAX_PLY = 10_000


class LogFull(Exception):
    """The moves would take the log past ``MAX_PLY`` moves."""


@dataclass(frozen=True, slots=True)
class Turn:
    """What a turn left. ``played``: its moves in order, each said as played and marked when
    the automatic moves played it (for an undo: the moves taken back). ``checkpoints``: the
    position's text after each ply among them that keeps one (``CHECKPOINT_EVERY``). ``ply``,
    ``status`` and ``text``: the position's at the end. ``finish``: the moves of a win
    certain from there, or [] if none is known."""

    played: list[Played]
    ply: int
    status: str
    text: str
    finish: list[str]
    checkpoints: dict[int, str]

    @property
    def automatic(self) -> int:
        """How many of its moves the automatic moves played."""
        return sum(p.automatic for p in self.played)

    @property
    def piles(self) -> frozenset[str]:
        """The piles its moves took cards from and put them on (a deal: the stock and the
        waste)."""
        return frozenset(
            name for p in self.played for name in (pile_name(p.move.src), pile_name(p.move.dst))
        )


def take_turn(
    position: Position,
    moves: Sequence[Move],
    *,
    automatic: Sequence[Move] = (),
    autoplay: bool = False,
) -> Turn:
    """Play ``moves`` on ``position``, then ``automatic`` (moves the automatic moves played
    once: a redo's), then, if ``autoplay``, every safe move home while the log has room.
    IllegalMove when the rules refuse one, LogFull when they would take the log past
    ``MAX_PLY``; ``position`` is then left part played."""
    played, checkpoints = [], {}
    for n, move in enumerate([*moves, *automatic]):
        done = position.play(move)
        played.append(done if n < len(moves) else replace(done, automatic=True))
        if position.ply % CHECKPOINT_EVERY == 0:
            checkpoints[position.ply] = position.text()
    while autoplay and position.ply < MAX_PLY and (move := next_safe_move(position)):
        played.append(replace(position.play(move), automatic=True))
        if position.ply % CHECKPOINT_EVERY == 0:
            checkpoints[position.ply] = position.text()
    if position.ply > MAX_PLY:
        raise LogFull
    # The status asks for the legal moves: once, for the text and the certain win alike.
    status = position.status
    finish = sure_win(position) if status == PLAYING else []
    return Turn(played, position.ply, status, position.text(status=status), finish, checkpoints)


def take_back(position: Position, group: Sequence[Move]) -> Turn:
    """An undo's turn: ``position`` is the one before ``group`` (the player's move and the
    automatic moves it set off) and stays so; ``played`` says what the group did."""
    ahead = position.copy()
    taken_back = [ahead.play(group[0])]
    taken_back += [replace(ahead.play(move), automatic=True) for move in group[1:]]
    status = position.status
    finish = sure_win(position) if status == PLAYING else []
    return Turn(taken_back, position.ply, status, position.text(status=status), finish, {})
