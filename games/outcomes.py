"""What an action on a game left, as facts: the services return them (``Outcome``) or raise
them (``GameError`` and its kinds: what the game's state does not allow), the web words and
draws them. Plain data about a game, with no query and no word in it: the words
(games/words.py) and the drawing code read these, never the services.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import StrEnum

from .models import Game
from .rules import IllegalMove, Position, Reason
from .rules.played import Played
from .rules.turn import LogFull


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


# -- refusals -------------------------------------------------------------------------------


class GameError(Exception):
    """An action the game's state does not allow; ``game`` is the game as read."""

    def __init__(self, game: Game) -> None:
        super().__init__(type(self).__name__)
        self.game = game


class GameOver(GameError):
    """The game is won or given up: no action changes it any more."""


class NothingToUndo(GameError):
    pass


class NothingToRedo(GameError):
    pass


class NoWinKnown(GameError):
    """Finish was asked for, but no win is known from this board: neither a certain one nor
    one a search found."""


class TooLong(GameError):
    """The game's log has ``MAX_PLY`` moves, or the moves would take it past them: they are
    not stored."""


class StalePly(GameError):
    """The request was made on another board than the game's now (another tab moved on, or
    another request wrote first); ``game`` is the game as it is now."""


class Refused(GameError):
    """The rules refuse the move; ``reason`` is the engine's ``Reason`` (a code and its
    parameters, games/rules/reasons.py), which the web layer words."""

    def __init__(self, game: Game, reason: Reason) -> None:
        super().__init__(game)
        self.reason = reason


class NotOnAFoundation(GameError):
    """No foundation takes the picked card now (``card``; None: there is no such card)."""

    def __init__(self, game: Game, card: int | None) -> None:
        super().__init__(game)
        self.card = card


class SearchBusy(GameError):
    """The site's queue of searches is full: asked again in ``retry_after`` seconds, a search
    has room."""

    def __init__(self, game: Game, retry_after: int) -> None:
        super().__init__(game)
        self.retry_after = retry_after


class TooManySearches(GameError):
    """The client asked for more new searches than its limit lets through: asked again in
    ``retry_after`` seconds, one is let through."""

    def __init__(self, game: Game, retry_after: int) -> None:
        super().__init__(game)
        self.retry_after = retry_after


@contextmanager
def refusals(game: Game) -> Iterator[None]:
    """The engine's refusals of a turn on ``game`` (games/rules/turn.py) as the game's:
    ``Refused`` with the rules' reason, ``TooLong`` for a log that would be too long."""
    try:
        yield
    except IllegalMove as illegal:
        raise Refused(game, illegal.reason) from None
    except LogFull:
        raise TooLong(game) from None
