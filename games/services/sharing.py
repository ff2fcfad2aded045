"""Shared games: a public, unguessable, read-only link to one game, made and withdrawn by the
game's owner alone (both through the ownership rule). The link names its game: it shows that
game and nothing else of the owner's."""

from django.db import IntegrityError, transaction

from ..models import Game, SharedGame
from ..owners import Owner


def share(owner: Owner, public_id: str) -> SharedGame:
    """The link to the owner's game ``public_id``: the one made before, or a new one.
    ``Game.DoesNotExist`` when the owner has no such game."""
    game = Game.objects.owned_by(owner).get(public_id=public_id)
    found = SharedGame.objects.filter(game=game).first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            return SharedGame.objects.create(game=game)
    except IntegrityError:
        # The same game shared from another tab at the same moment: that link is the one.
        return SharedGame.objects.get(game=game)


def withdraw(owner: Owner, token: str) -> Game | None:
    """Delete the link ``token`` if it is to one of the owner's games: from then on it is a
    404. The game it named; None when it is no link of the owner's (nothing is deleted)."""
    link = (
        SharedGame.objects.select_related("game")
        .filter(token=token, game__in=Game.objects.owned_by(owner))
        .first()
    )
    if link is None:
        return None
    link.delete()
    return link.game
