"""Who owns a game: a signed-in user, or a guest known by their session key."""

import copy
from dataclasses import dataclass
from functools import lru_cache

from django.contrib.sessions.backends import cached_db, db
from django.contrib.sessions.backends.base import SessionBase
from django.core import signing
from django.http import HttpRequest


@dataclass(frozen=True)
class Owner:
    user: object | None = None
    session_key: str = ""

    @property
    def is_known(self) -> bool:
        return self.user is not None or bool(self.session_key)

    def owns(self, game) -> bool:
        """Whether ``game`` is one of this owner's, as ``Game.objects.owned_by`` says."""
        if self.user is not None:
            return game.owner_id == self.user.pk
        return (
            bool(self.session_key)
            and game.owner_id is None
            and (game.session_key == self.session_key)
        )


def owner_of(request: HttpRequest, *, create: bool = False) -> Owner:
    """The player making ``request``.

    A guest's games hang on their session key; ``create`` makes sure one exists (a guest about
    to start a game), otherwise a guest without a session owns nothing.
    """
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return Owner(user=user)
    session = request.session
    if session.session_key is None and create:
        session.save()
    return Owner(session_key=session.session_key or "")


def session_to_read(request: HttpRequest) -> SessionBase | None:
    """The request's session, if it is still to be read and a read of the database can bring
    it along (the database engines: ``db``, ``cached_db``); else None."""
    session = getattr(request, "session", None)
    if type(session) in _DATABASE_ENGINES and not session.accessed and session.session_key:
        return session
    return None


#: The session engines whose ``load`` this replaces exactly: Django's own. (A subclass may load
#: with checks of its own, which a read with the game would skip.)
_DATABASE_ENGINES = (db.SessionStore, cached_db.SessionStore)


def preload_session(session: SessionBase, data: str | None) -> None:
    """Give ``session`` the data read for it with a game (``store.read_game_and_session``), as
    its engine's ``load`` would have read it: decoded, or when it is not stored (or expired)
    empty and without a key. Reading it afterwards costs no round trip to the cache or the
    database. (Django has no public way to do this: ``SessionBase._get_session`` keeps what
    ``load`` returned in ``_session_cache``.)

    With ``cached_db`` the database, which the engine writes first, is the one read here: a
    session deleted from the database but still in the cache is no session (``load`` would
    have found it in the cache), and the cache is not filled from the database.
    """
    session.accessed = True  # as reading it does: the answer then varies with the cookie
    if data is None:
        session._session_key = None
        session._session_cache = {}
        return
    try:
        session._session_cache = copy.deepcopy(_decoded(type(session), data))
    except Exception:
        # Corrupted or forged: decode says so (a security warning) and gives no data, as load.
        session._session_cache = session.decode(data)


@lru_cache(maxsize=4096)
def _decoded(engine: type[SessionBase], data: str) -> dict:
    """What ``engine().decode(data)`` gives for data that decodes, kept: a session's data
    changes seldom and each request reads it, and checking its signature cost a twentieth of
    a move. The same text always decodes to the same data (the signature has no age); callers
    get a copy. Data that does not decode raises (and is not kept)."""
    store = engine()
    return signing.loads(data, salt=store.key_salt, serializer=store.serializer)
