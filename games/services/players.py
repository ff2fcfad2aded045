"""Players and their games: a guest's games becoming their account's, an account's games
going with it, and the games of a guest whose session expired going too.

The accounts know nothing of games: they announce a guest becoming a player and a player
leaving (``solitaire/accounts/signals.py``), and ``GamesConfig.ready`` connects the two
receivers at the end of this module to those signals.
"""

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import F

from ..models import DailyGame, Game
from ..owners import Owner


@transaction.atomic
def adopt_guest_games(session_key: str, user: AbstractBaseUser) -> int:
    """Make the games of the guest session ``session_key`` the games of ``user``; how many.

    Called as a guest signs up or logs in, with the session key they had as a guest (logging
    in gives the session a new key). The games keep their ids and move logs; one UPDATE moves
    them all, so a move on one of them waits for it (or it for the move) and neither is lost.
    Each game's version goes up, as with every write to a game: a board read before it is
    stale after it. A guest's game of a daily deal the account already played stays, but no
    longer as its game of the day (the account's own is): one player ranks once a day.
    """
    if not session_key:
        return 0
    games = Game.objects.owned_by(Owner(session_key=session_key))
    # One player, one game of each daily deal: a guest's game of a day the account already
    # has a game of comes along as an ordinary game of that deal, not a second row to rank.
    DailyGame.objects.filter(
        game__in=games.values("pk"),
        daily__in=DailyGame.objects.filter(
            game__in=Game.objects.owned_by(Owner(user=user)).values("pk")
        ).values("daily"),
    ).delete()
    return games.update(owner=user, session_key="", version=F("version") + 1)


def delete_player_games(user: AbstractBaseUser) -> int:
    """Delete every game of ``user``'s, with its moves, analyses and links; how many games.
    The account deletes itself after (``player_leaving``), in the same transaction."""
    _total, deleted = Game.objects.owned_by(Owner(user=user)).delete()
    return deleted.get(Game._meta.label, 0)


def guest_became_player(sender, *, user, guest_key: str, **kwargs) -> int:
    """The receiver of the accounts' ``guest_became_player``: the guest's games come along."""
    return adopt_guest_games(guest_key, user)


def player_leaving(sender, *, user, **kwargs) -> None:
    """The receiver of the accounts' ``player_leaving``: the player's games go first."""
    delete_player_games(user)


def delete_guest_games(session_key: str) -> int:
    """Delete the games of the guest known by ``session_key`` (with their moves and analyses),
    whose session has expired: nobody can reach them any more. How many games."""
    _total, deleted = Game.objects.owned_by(Owner(session_key=session_key)).delete()
    return deleted.get(Game._meta.label, 0)
