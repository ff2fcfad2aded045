"""Who owns a game: a signed-in user, or a guest known by their session key."""

from dataclasses import dataclass

from django.http import HttpRequest


@dataclass(frozen=True)
class Owner:
    user: object | None = None
    session_key: str = ""

    @property
    def is_known(self) -> bool:
        return self.user is not None or bool(self.session_key)


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
