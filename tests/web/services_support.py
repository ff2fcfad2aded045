"""The play services called as the tests set games up: with a game as read, its ply (and
version) when they matter, and automatic moves as a flag. Each call goes through the real
service, which reads the game again by its owner and id."""

from games.models import Game
from games.outcomes import (  # noqa: F401 (what the tests name)
    GameError,
    GameOver,
    NothingToRedo,
    NothingToUndo,
    Outcome,
    Refused,
    StalePly,
)
from games.owners import Owner
from games.rules import Move
from games.services import play as services
from games.services.play import PLAY_FIELDS, start_from_record, start_game  # noqa: F401


def owner(game: Game) -> Owner:
    """The owner of ``game``."""
    if game.owner_id is not None:
        return Owner(user=game.owner)
    return Owner(session_key=game.session_key)


def play(game: Game, ply: int, move: Move, *, autoplay: bool = False, version=None) -> Outcome:
    return services.play_move(
        owner(game), game.public_id, ply, version, move, {game.variant: autoplay}
    )


def undo(game: Game, ply: int, *, version=None) -> Outcome:
    return services.undo(owner(game), game.public_id, ply, version)


def redo(game: Game, ply: int, *, version=None) -> Outcome:
    return services.redo(owner(game), game.public_id, ply, version)


def restart(game: Game) -> Outcome:
    return services.restart(owner(game), game.public_id, None, None)


def give_up(game: Game) -> Outcome:
    return services.give_up(owner(game), game.public_id, None, None)
