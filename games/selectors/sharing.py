"""A shared link's game and the public name it shows."""

from django.db.models import OuterRef, Subquery

from solitaire.accounts.models import Preferences

from ..models import Game, GradedDeal, SharedGame
from .leaderboards import public_names


def shared(token: str) -> SharedGame | None:
    """The shared link ``token`` with its game (one query): a link names one game, and this is
    the only game it shows. None for no such link (or a withdrawn one).

    The same query reads what the link's page shows of other rows: ``owner_name``, the
    player's public name (None for none), and ``stored_grade``, the deal's grade when the
    grading stored one (None otherwise: ``selectors.deals.grade_known`` takes it)."""
    names = Preferences.objects.filter(user_id=OuterRef("game__owner_id")).exclude(public_name="")
    grades = GradedDeal.objects.filter(
        variant=OuterRef("game__variant"), deal=OuterRef("game__deal")
    )
    return (
        SharedGame.objects.select_related("game")
        .annotate(
            owner_name=Subquery(names.values("public_name")[:1]),
            stored_grade=Subquery(grades.values("grade")[:1]),
        )
        .filter(token=token)
        .first()
    )


def owner_name(game: Game) -> str:
    """The public name of ``game``'s player, when they chose one ("" for a guest, or none)."""
    if game.owner_id is None:
        return ""
    return public_names({game.owner_id}).get(game.owner_id, "")
