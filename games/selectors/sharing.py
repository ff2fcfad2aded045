"""A shared link's game and the public name it shows."""

from ..models import Game, SharedGame
from .leaderboards import public_names


def shared(token: str) -> SharedGame | None:
    """The shared link ``token`` with its game (one query): a link names one game, and this is
    the only game it shows. None for no such link (or a withdrawn one)."""
    return SharedGame.objects.select_related("game").filter(token=token).first()


def owner_name(game: Game) -> str:
    """The public name of ``game``'s player, when they chose one ("" for a guest, or none)."""
    if game.owner_id is None:
        return ""
    return public_names({game.owner_id}).get(game.owner_id, "")
