"""A daily deal's leaderboard: every player's won games of the day ranked, the reader's own
row, and why the reader's win does not rank, in words."""

from dataclasses import dataclass

from django.conf import settings
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from solitaire.accounts.models import Preferences

from ..days import day_bounds
from ..models import HELPED, PLAYER_MOVES, DailyDeal, Game, clock_text
from ..owners import Owner

#: Why a won daily game does not rank, in words.
HELPED_WORDS = _("Your win does not rank: it was won with help (a hint, an analysis or Finish).")


LATE = _("Your win does not rank: it came after the day was over.")


TOO_FAST = _("Your win does not rank: its moves were played faster than a person can play them.")


ELSEWHERE = _(
    "Your win of this deal does not rank: only a game opened from the daily page does, not an "
    "imported record or a game started another way."
)


#: The rows a leaderboard shows; the player's own row is shown besides, wherever it ranks.
TOP = 50


@dataclass(frozen=True)
class Row:
    """One ranked win: its place, the player's public name ("" for none), the player's own
    moves, time and undos, and whether it is the reader's own."""

    rank: int
    name: str
    moves: int
    milliseconds: int
    undos: int
    mine: bool
    public_id: str

    @property
    def clock(self) -> str:
        return clock_text(self.milliseconds)


@dataclass(frozen=True)
class Leaderboard:
    rows: list[Row]
    #: The reader's own row when it ranks below the top rows shown.
    own: Row | None
    total: int
    #: Why the reader's own game of the day does not rank ("" when it does, or they have none).
    unranked: str = ""


def ranked_games(deal: DailyDeal):
    """The wins that rank on ``deal``'s day, best first: games started from the daily page,
    won by play before the day ended (UTC) without help (no hint, no analysis, no Finish of
    either kind: ``models.HELPED``), in no less time than a person needs for its moves
    (``settings.HUMAN_ACTION_MS`` each: games/pace.py); fewest own moves first, then least
    time. Every player's: a leaderboard acts for no one."""
    _start, end = day_bounds(deal.day)
    return (
        Game.objects.filter(daily__daily=deal, status=Game.Status.WON, finished_at__lt=end)
        .exclude(HELPED)
        .annotate(own_moves=PLAYER_MOVES)
        .filter(milliseconds_played__gte=F("own_moves") * settings.HUMAN_ACTION_MS)
        .order_by("own_moves", "milliseconds_played", "finished_at", "pk")
    )


def public_names(user_ids) -> dict[int, str]:
    """The public names the players of ``user_ids`` chose (none: not in the answer)."""
    if not user_ids:
        return {}
    named = Preferences.objects.filter(user_id__in=user_ids).exclude(public_name="")
    return dict(named.values_list("user_id", "public_name"))


def leaderboard(deal: DailyDeal, owner: Owner) -> Leaderboard:
    """``deal``'s day ranked: the top ``TOP`` rows and the reader's own (marked, and shown
    apart when below them), in three queries whatever the number of rows."""
    fields = ("pk", "public_id", "owner_id", "own_moves", "milliseconds_played", "undo_count")
    ranked = ranked_games(deal)
    top = list(ranked.values(*fields)[:TOP])
    mine = game_of_day(owner, deal)
    own = None
    total = len(top) if len(top) < TOP else ranked.count()
    if mine is not None and mine.pk not in {g["pk"] for g in top}:
        placed = ranked.filter(pk=mine.pk).values(*fields, "finished_at").first()
        if placed is not None:
            own = placed | {"rank": place_of(ranked, placed)}
    names = public_names({g["owner_id"] for g in [*top, *([own] if own else [])] if g["owner_id"]})
    mine_pk = mine.pk if mine is not None else None

    def row(game: dict, rank: int) -> Row:
        return Row(
            rank,
            names.get(game["owner_id"], "") if game["owner_id"] else "",
            game["own_moves"],
            game["milliseconds_played"],
            game["undo_count"],
            game["pk"] == mine_pk,
            game["public_id"],
        )

    rows = [row(game, n) for n, game in enumerate(top, 1)]
    return Leaderboard(
        rows, row(own, own["rank"]) if own else None, total, unranked_reason(mine, deal, owner)
    )


def place_of(ranked, placed: dict) -> int:
    """The rank of the game ``placed`` (its ``pk``, ``own_moves``, ``milliseconds_played`` and
    ``finished_at``) among ``ranked``: one more than the wins ordered before it, ties broken
    as the leaderboard's order breaks them, so that it is the rank its row shows."""
    moves, milliseconds = placed["own_moves"], placed["milliseconds_played"]
    same = Q(own_moves=moves, milliseconds_played=milliseconds)
    ahead = ranked.filter(
        Q(own_moves__lt=moves)
        | Q(own_moves=moves, milliseconds_played__lt=milliseconds)
        | (same & Q(finished_at__lt=placed["finished_at"]))
        | (same & Q(finished_at=placed["finished_at"], pk__lt=placed["pk"]))
    )
    return ahead.count() + 1


def rank_of(game: Game, deal: DailyDeal) -> int | None:
    """``game``'s rank on ``deal``'s leaderboard (two queries), or None when it does not rank."""
    ranked = ranked_games(deal)
    fields = ("pk", "own_moves", "milliseconds_played", "finished_at")
    placed = ranked.filter(pk=game.pk).values(*fields).first()
    return None if placed is None else place_of(ranked, placed)


def game_of_day(owner: Owner, deal: DailyDeal) -> Game | None:
    """The reader's game of ``deal``, if they started one (by the ownership rule)."""
    return Game.objects.owned_by(owner).filter(daily__daily=deal).order_by("created_at").first()


def unranked_reason(game: Game | None, deal: DailyDeal, owner: Owner) -> str:
    """Why the reader's won game of the day does not rank, in words ("" when it does, or is not
    won): helped, won too late, or a win of the deal not opened from the daily page (an
    imported record, a deal's link)."""
    if game is None:
        elsewhere = Game.objects.owned_by(owner).filter(
            variant=deal.variant, deal=deal.deal, status=Game.Status.WON, daily__isnull=True
        )
        return str(ELSEWHERE) if elsewhere.exists() else ""
    if game.status != Game.Status.WON:
        return ""
    if game.helped:
        return str(HELPED_WORDS)
    if game.finished_at >= day_bounds(deal.day)[1]:
        return str(LATE)
    if game.milliseconds_played < game.player_moves * settings.HUMAN_ACTION_MS:
        return str(TOO_FAST)
    return ""
