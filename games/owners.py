"""Who owns a game: a signed-in user, or a guest known by their session key.

The ownership rule is written here once, as the columns a game of the owner has
(``Owner.columns``). The ORM's ``Game.objects.owned_by`` filters by them and the hot path's
SQL (``games/store.py``) writes its predicate from them, so both always agree.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Owner:
    user: object | None = None
    session_key: str = ""

    @property
    def is_known(self) -> bool:
        return self.user is not None or bool(self.session_key)

    def columns(self) -> dict[str, object] | None:
        """The values a game's columns hold when the game is this owner's: an account's games
        by their owner, a guest's by their session key and no owner (``None`` is SQL's NULL).
        None when the owner has neither, and so owns nothing."""
        if self.user is not None:
            return {"owner_id": self.user.pk}
        if self.session_key:
            return {"owner_id": None, "session_key": self.session_key}
        return None

    def owns(self, game) -> bool:
        """Whether ``game`` (already read) is this owner's, by the same rule as ``columns``:
        no query."""
        columns = self.columns()
        return columns is not None and all(getattr(game, c) == v for c, v in columns.items())
