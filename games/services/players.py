"""Players and their games: a guest's games becoming their account's, and an account's games
going with it."""

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from ..models import Game
from ..owners import Owner


def adopt_guest_games(session_key: str, user: AbstractBaseUser) -> int:
    """Make the games of the guest session ``session_key`` the games of ``user``; how many.

    Called as a guest signs up or logs in, with the session key they had as a guest (logging
    in gives the session a new key). The games keep their ids and move logs; one UPDATE moves
    them all, so a move on one of them waits for it (or it for the move) and neither is lost.
    """
    if not session_key:
        return 0
    return Game.objects.owned_by(Owner(session_key=session_key)).update(owner=user, session_key="")


@transaction.atomic
def delete_player(user: AbstractBaseUser) -> None:
    """Delete an account and every game and move in it."""
    Game.objects.owned_by(Owner(user=user)).delete()
    user.delete()
