"""A player's statistics, the best on a deal and the panel of a win. Every game is read
through ``Game.objects.owned_by``.

The definitions (the statistics page states them too):

- a game counts once its first move is made (``first_move_at`` is set);
- won: all 104 cards on the foundations;
- lost: given up, or stuck (no legal move left); undoing out of a stuck game, or restarting
  it, makes it unfinished again (``services`` clears its ``finished_at``);
- unfinished: every other game that counts;
- win rate: won / (won + lost);
- streaks run over the won and lost games in the order they finished (``finished_at``);
- a game's moves are the player's own moves of its record: moves taken back by undo do not
  count, nor the automatic moves to the foundations, nor the moves Finish played
  (``Game.player_moves``);
- a game's time is its clock (``Game.milliseconds_played``), to the millisecond;
- a win is won with help when the player asked for a hint or "can this still be won?" in its
  game, or Finish played its last moves (``models.HELPED``); wins with help and without are
  counted apart, and only wins without help count for the fastest win, the fewest moves, the
  averages and the best on a deal.

The number of queries does not grow with the number of games: the figures of every game type
come from one grouped aggregate, the fastest and shortest wins from one window query each, the
weekly charts from two grouped aggregates, and the streaks from one query of the finished
games' (game type, result) pairs in finish order.
"""

from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta

from django.db.models import Case, Count, IntegerField, Min, Q, QuerySet, Sum, Value, When
from django.utils import timezone

from solitaire import clock

from ..models import HELPED, PLAYER_MOVES, Game, clock_text
from ..owners import Owner
from ..rules import VARIANTS, Variant

WON = Game.Status.WON


LOST = (Game.Status.GIVEN_UP, Game.Status.STUCK)


#: How many weeks the charts show, this week last.
WEEKS = 26


@dataclass(frozen=True)
class GameRef:
    """One game that a figure belongs to, to link to: its time and the player's moves."""

    public_id: str
    milliseconds: int
    moves: int

    @property
    def clock(self) -> str:
        return clock_text(self.milliseconds)


@dataclass
class Figures:
    """The figures of one game type, or of all games together (``variant`` None)."""

    variant: Variant | None
    played: int = 0
    won: int = 0
    #: Of the wins, those won with help (``models.HELPED``).
    won_with_help: int = 0
    lost: int = 0
    #: The run of equal results at the end, and whether it is of wins.
    current_streak: int = 0
    current_streak_won: bool = False
    best_streak: int = 0
    fastest: GameRef | None = None
    fewest: GameRef | None = None
    #: The sums over wins without help, for the averages.
    win_milliseconds: int = 0
    win_moves: int = 0
    clean_wins: int = 0
    weeks: list["Week"] = field(default_factory=list)

    @property
    def unfinished(self) -> int:
        return self.played - self.won - self.lost

    @property
    def won_without_help(self) -> int:
        return self.won - self.won_with_help

    @property
    def win_rate(self) -> float | None:
        finished = self.won + self.lost
        return self.won / finished if finished else None

    @property
    def win_percent(self) -> int | None:
        rate = self.win_rate
        return None if rate is None else round(rate * 100)

    @property
    def average_milliseconds(self) -> float | None:
        wins = self.won_without_help
        return self.win_milliseconds / wins if wins else None

    @property
    def average_clock(self) -> str:
        """The average time of a win without help, to the nearest second."""
        average = self.average_milliseconds
        return "" if average is None else clock_text(round(average / 1000) * 1000)

    @property
    def average_moves(self) -> float | None:
        wins = self.won_without_help
        return self.win_moves / wins if wins else None

    @property
    def key(self) -> str:
        return self.variant.id if self.variant is not None else ""


@dataclass
class Week:
    """One week of a chart: games begun, won and lost in it, and the win rate at its end
    (over every game finished by then; None before the first)."""

    start: date
    games: int = 0
    wins: int = 0
    losses: int = 0
    rate: float | None = None

    @property
    def percent(self) -> int | None:
        return None if self.rate is None else round(self.rate * 100)


@dataclass
class Statistics:
    overall: Figures
    #: The game types played, in the usual order.
    games: list[Figures]

    def scope(self, variant_id: str) -> Figures | None:
        return next((f for f in self.games if f.key == variant_id), None)


def counted(owner: Owner) -> QuerySet:
    """The games of ``owner`` that count: those with a first move."""
    return Game.objects.owned_by(owner).filter(first_move_at__isnull=False)


def statistics(owner: Owner, *, today: date | None = None) -> Statistics:
    """Every figure of ``owner``, per game type and overall, in a fixed number of queries."""
    games = counted(owner)
    won = Q(status=WON)
    unhelped = won & ~HELPED
    scopes: dict[str, Figures] = {}
    overall = Figures(None)
    rows = (
        games.values("variant")
        .annotate(
            played=Count("pk"),
            won=Count("pk", filter=won),
            won_with_help=Count("pk", filter=won & HELPED),
            lost=Count("pk", filter=Q(status__in=LOST)),
            win_milliseconds=Sum("milliseconds_played", filter=unhelped, default=0),
            win_moves=Sum(PLAYER_MOVES, filter=unhelped, default=0),
            clean_wins=Count("pk", filter=unhelped & Q(undo_count=0)),
            least_milliseconds=Min("milliseconds_played", filter=unhelped),
            least_moves=Min(PLAYER_MOVES, filter=unhelped),
        )
        .order_by()
    )
    bests = {}
    summed = (
        "played",
        "won",
        "won_with_help",
        "lost",
        "win_milliseconds",
        "win_moves",
        "clean_wins",
    )
    for row in rows:
        if row["variant"] not in VARIANTS:
            continue
        figures = scopes[row["variant"]] = Figures(VARIANTS[row["variant"]])
        for name in summed:
            setattr(figures, name, row[name])
            setattr(overall, name, getattr(overall, name) + row[name])
        if row["least_moves"] is not None:
            bests[row["variant"]] = (row["least_milliseconds"], row["least_moves"])

    _best_wins(games, bests, scopes, overall)
    _streaks(games, scopes, overall)
    _weeks(games, scopes, overall, today or clock.localdate())
    ordered = [scopes[v] for v in VARIANTS if v in scopes]
    return Statistics(overall, ordered)


def _best_wins(
    games: QuerySet,
    bests: dict[str, tuple[int, int]],
    scopes: dict[str, Figures],
    overall: Figures,
) -> None:
    """The games of each type's fastest win and win in fewest moves without help (``bests``:
    the least milliseconds and player's moves of such a win), the first to reach it on a tie:
    one query for them all."""
    if not bests:
        return
    wanted = Q()
    for variant, (milliseconds, moves) in bests.items():
        wanted |= Q(variant=variant) & (Q(milliseconds_played=milliseconds) | Q(player_moves=moves))
    candidates = (
        games.annotate(player_moves=PLAYER_MOVES)
        .filter(wanted, ~HELPED, status=WON)
        .order_by("finished_at", "pk")
        .values_list("variant", "public_id", "milliseconds_played", "player_moves")
    )
    for variant, public_id, milliseconds, moves in candidates:
        figures = scopes[variant]
        least_milliseconds, least_moves = bests[variant]
        game = GameRef(public_id, milliseconds, moves)
        if milliseconds == least_milliseconds and (
            figures.fastest is None or moves < figures.fastest.moves
        ):
            figures.fastest = game
        if moves == least_moves and (
            figures.fewest is None or milliseconds < figures.fewest.milliseconds
        ):
            figures.fewest = game
    fastest = [f.fastest for f in scopes.values() if f.fastest]
    fewest = [f.fewest for f in scopes.values() if f.fewest]
    overall.fastest = min(fastest, key=lambda g: (g.milliseconds, g.moves), default=None)
    overall.fewest = min(fewest, key=lambda g: (g.moves, g.milliseconds), default=None)


def _streaks(games: QuerySet, scopes: dict[str, Figures], overall: Figures) -> None:
    """Current and best winning streaks, over finished games in the order they finished."""
    results = (
        games.filter(finished_at__isnull=False, status__in=[WON, *LOST])
        .order_by("finished_at", "pk")
        .values_list("variant", "status")
    )
    for variant, status in results.iterator(chunk_size=5000):
        for figures in (overall, scopes.get(variant)):
            if figures is None:
                continue
            won = status == WON
            if figures.current_streak and figures.current_streak_won == won:
                figures.current_streak += 1
            else:
                figures.current_streak, figures.current_streak_won = 1, won
            if won:
                figures.best_streak = max(figures.best_streak, figures.current_streak)


def week_starts(today: date, weeks: int = WEEKS) -> list[date]:
    """The Mondays of the last ``weeks`` ISO weeks, oldest first, this week's last."""
    monday = today - timedelta(days=today.weekday())
    return [monday - timedelta(weeks=n) for n in range(weeks - 1, -1, -1)]


def _weeks(games: QuerySet, scopes: dict[str, Figures], overall: Figures, today: date) -> None:
    """Games begun, won and lost per week, and the win rate at each week's end.

    Two grouped counts: by the week of the first move, and by the week of the finish. The
    weeks' bounds are worked out here, in the site's time zone, so each row's week is a few
    comparisons on any database.
    """
    starts = week_starts(today)
    bounds = [timezone.make_aware(datetime.combine(start, time.min)) for start in starts]
    for figures in (overall, *scopes.values()):
        figures.weeks = [Week(start) for start in starts]

    def week_of(moment: str) -> Case:
        latest_first = range(len(bounds) - 1, -1, -1)
        return Case(
            *(When(**{f"{moment}__gte": bounds[n]}, then=Value(n)) for n in latest_first),
            output_field=IntegerField(),
        )

    def weeks_of(variant: str):
        for figures in (overall, scopes.get(variant)):
            if figures is not None:
                yield figures.weeks

    begun = (
        games.filter(first_move_at__gte=bounds[0])
        .annotate(week=week_of("first_move_at"))
        .values("variant", "week")
        .annotate(count=Count("pk"))
        .order_by()
    )
    for row in begun:
        for weeks in weeks_of(row["variant"]):
            weeks[row["week"]].games += row["count"]
    ended = (
        games.filter(finished_at__gte=bounds[0], status__in=[WON, *LOST])
        .annotate(week=week_of("finished_at"))
        .values("variant", "week")
        .annotate(won=Count("pk", filter=Q(status=WON)), lost=Count("pk", filter=~Q(status=WON)))
        .order_by()
    )
    for row in ended:
        for weeks in weeks_of(row["variant"]):
            weeks[row["week"]].wins += row["won"]
            weeks[row["week"]].losses += row["lost"]

    for figures in (overall, *scopes.values()):
        # What finished before the charts' first week: the totals less what the weeks hold.
        won = figures.won - sum(w.wins for w in figures.weeks)
        lost = figures.lost - sum(w.losses for w in figures.weeks)
        for week in figures.weeks:
            won += week.wins
            lost += week.losses
            week.rate = won / (won + lost) if won + lost else None


@dataclass(frozen=True)
class DealRecord:
    """The player's other games of one deal: how many, and the best win without help (fewest
    moves, then fastest) if any."""

    played: int
    best: GameRef | None


def deal_record(owner: Owner, game: Game) -> DealRecord | None:
    """The player's record on ``game``'s deal from their other games of it; None if none."""
    others = list(
        counted(owner)
        .filter(variant=game.variant, deal=game.deal)
        .exclude(pk=game.pk)
        .only(
            "public_id",
            "status",
            "ply",
            "automatic_ply",
            "finish_ply",
            "hint_count",
            "milliseconds_played",
            "finished_at",
        )
    )
    if not others:
        return None
    won = [other for other in others if other.status == WON and not other.helped]
    best = min(
        won, key=lambda g: (g.player_moves, g.milliseconds_played, g.finished_at), default=None
    )
    return DealRecord(
        len(others),
        GameRef(best.public_id, best.milliseconds_played, best.player_moves) if best else None,
    )


@dataclass(frozen=True)
class WinPanel:
    """What the panel of a won game shows beside its own moves and time: the player's best
    win of its deal without help before it (fewest moves, then fastest; None if none), whether
    this win beats it (never, won with help), and the current run of wins at this game type
    (this win the last of it, once it is the last game of that type to finish)."""

    best: GameRef | None
    new_best: bool
    streak: int


def win_panel(owner: Owner, game: Game) -> WinPanel:
    """The panel of ``game``, won: three queries whatever the number of games."""
    record = deal_record(owner, game)
    best = record.best if record else None
    new_best = not game.helped and (
        best is None
        or (game.player_moves, game.milliseconds_played)
        < (
            best.moves,
            best.milliseconds,
        )
    )
    of_type = counted(owner).filter(variant=game.variant, finished_at__isnull=False)
    last_loss = (
        of_type.filter(status__in=LOST)
        .order_by("-finished_at")
        .values_list("finished_at", flat=True)
        .first()
    )
    wins = of_type.filter(status=WON)
    if last_loss is not None:
        wins = wins.filter(finished_at__gt=last_loss)
    return WinPanel(best, new_best, wins.count())
