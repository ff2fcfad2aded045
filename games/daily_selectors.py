"""Read-only queries of the deals by difficulty, the daily deals and their leaderboards (the
part of the selectors that issue 29 brought; games/selectors.py holds the rest)."""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta

from django.conf import settings
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from solitaire.accounts.models import Preferences

from .days import day_bounds, today
from .models import HELPED, PLAYER_MOVES, DailyDeal, Game, GradedDeal, SharedGame, clock_text
from .owners import Owner
from .rules.solver.grading import sample_wins

#: Why a won daily game does not rank, in words.
HELPED_WORDS = _("Your win does not rank: it was won with help (a hint, an analysis or Finish).")
LATE = _("Your win does not rank: it came after the day was over.")
TOO_FAST = _("Your win does not rank: its moves were played faster than a person can play them.")
ELSEWHERE = _(
    "Your win of this deal does not rank: only a game opened from the daily page does, not an "
    "imported record or a game started another way."
)


def grades_of(deals: Iterable[tuple[str, str]]) -> dict[tuple[str, str], str]:
    """The known grade of each (game, deal number as text) of ``deals``, in one query."""
    deals = set(deals)
    known = {}
    for variant in {variant for variant, _deal in deals}:
        known.update({(variant, str(deal)): grade for deal, grade in sample_wins(variant)})
    found = {key: known[key] for key in deals if key in known}
    missing = deals - found.keys()
    if missing:
        rows = GradedDeal.objects.filter(
            variant__in={v for v, _d in missing}, deal__in={d for _v, d in missing}
        ).values_list("variant", "deal", "grade")
        found.update({(v, d): g for v, d, g in rows if (v, d) in missing})
    return found


def grade_known(variant: str, deal: int | str) -> str | None:
    """The grade of one deal, when it is known."""
    return grades_of([(variant, str(deal))]).get((variant, str(deal)))


def grade_words(grade: str | None) -> str:
    """A grade in the reader's words ("" for none)."""
    return str(GradedDeal.Grade(grade).label) if grade else ""


def grade_games(games) -> list:
    """``games`` (a page of them), each given ``grade``: its deal's grade in words, or "" (one
    query for them all)."""
    games = list(games)
    known = grades_of((game.variant, game.deal) for game in games)
    for game in games:
        game.grade = grade_words(known.get((game.variant, game.deal)))
    return games


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
        placed = ranked.filter(pk=mine.pk).values(*fields).first()
        if placed is not None:
            ahead = ranked.filter(
                Q(own_moves__lt=placed["own_moves"])
                | Q(
                    own_moves=placed["own_moves"],
                    milliseconds_played__lt=placed["milliseconds_played"],
                )
            ).count()
            own = placed | {"rank": ahead + 1}
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


@dataclass(frozen=True)
class DayOfGame:
    """The daily deal a game was opened for, as its page names it: the day (UTC) it belongs
    to, whatever the day is when it is played, and why its win does not rank ("" when it does,
    or is not won)."""

    variant: str
    day: date
    unranked: str


def day_of_game(owner: Owner, game: Game) -> DayOfGame | None:
    """The daily deal ``game`` (the reader's) was opened for from the daily page, if any."""
    deal = DailyDeal.objects.filter(games__game=game).first()
    if deal is None:
        return None
    return DayOfGame(deal.variant, deal.day, unranked_reason(game, deal, owner))


def day_not_over(game: Game) -> date | None:
    """The day of the daily deal ``game`` was opened for, while that day is not over (UTC):
    until then its moves are not shown to others (a shared link shows the deal, not the line
    that won it, which anyone could copy and rank with). None otherwise."""
    day = DailyDeal.objects.filter(games__game=game).values_list("day", flat=True).first()
    return day if day is not None and day >= today() else None


def results_of(owner: Owner, deals: list[DailyDeal]) -> dict[int, Game]:
    """The reader's game of each of ``deals`` that they started, by the deal's id (one query)."""
    games = (
        Game.objects.owned_by(owner)
        .filter(daily__daily__in=deals)
        .annotate(daily_id=F("daily__daily_id"))
        .order_by("-created_at")
    )
    return {game.daily_id: game for game in games}


def days_won(owner: Owner, variant: str, first: date, last: date) -> set[date]:
    """The days from ``first`` to ``last`` whose daily deal of ``variant`` the reader won."""
    return set(
        Game.objects.owned_by(owner)
        .filter(
            variant=variant,
            status=Game.Status.WON,
            daily__daily__day__gte=first,
            daily__daily__day__lte=last,
        )
        .values_list("daily__daily__day", flat=True)
    )


def daily_streak(owner: Owner) -> int:
    """Days in a row, up to today or yesterday (UTC), on which the reader won a daily deal of
    some game (one query)."""
    won = (
        Game.objects.owned_by(owner)
        .filter(status=Game.Status.WON, daily__isnull=False)
        .values_list("daily__daily__day", "finished_at")
    )
    # A day counts when its deal was won that day: past days played later make no streak.
    days = {day for day, finished in won if day_bounds(day)[0] <= finished < day_bounds(day)[1]}
    day = today()
    if day not in days:
        day -= timedelta(days=1)
    streak = 0
    while day in days:
        streak += 1
        day -= timedelta(days=1)
    return streak


def shared(token: str) -> SharedGame | None:
    """The shared link ``token`` with its game (one query): a link names one game, and this is
    the only game it shows. None for no such link (or a withdrawn one)."""
    return SharedGame.objects.select_related("game").filter(token=token).first()


def owner_name(game: Game) -> str:
    """The public name of ``game``'s player, when they chose one ("" for a guest, or none)."""
    if game.owner_id is None:
        return ""
    return public_names({game.owner_id}).get(game.owner_id, "")
