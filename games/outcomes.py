"""What an action on a game left, as facts: the services return them, the web words and draws
them. Plain data about a game, with no query and no word in it."""

from dataclasses import dataclass, field
from enum import StrEnum

from .models import Game
from .rules import Position
from .rules.played import Played


class Event(StrEnum):
    """What the action was. Its value is also told to the page (static/js/motion.js), which
    plays a Finish at its own pace."""

    MOVED = "moved"
    UNDONE = "undone"
    REDONE = "redone"
    RESTARTED = "restarted"
    GIVEN_UP = "given-up"
    FINISHED = "finished"

    @property
    def travels_forward(self) -> bool:
        """Whether its cards travel the way they were played (an undo's travel back)."""
        return self in (Event.MOVED, Event.REDONE, Event.FINISHED)


@dataclass(frozen=True)
class Before:
    """What was true of the game before the action, for an answer that sends only what
    changed: the player's own moves in the log, whether there were moves to redo, whether a
    win was certain (``Game.finish``)."""

    player_moves: int = 0
    redo: bool = False
    finish: bool = False

    @classmethod
    def of(cls, game: Game) -> "Before":
        return cls(game.player_moves, bool(game.redo), bool(game.finish))


@dataclass
class Outcome:
    """What an action left: the saved game, its position, and the facts.

    ``played``: the moves played (the player's, then any automatic ones), or for an undo the
    moves taken back. ``changed``: the piles those moves touched, when the game is in play
    before and after (None otherwise): the rest of the board is as it was, so an answer may
    show only these.
    """

    game: Game
    position: Position
    event: Event
    played: list[Played] = field(default_factory=list)
    changed: frozenset[str] | None = None
    before: Before = field(default_factory=Before)
