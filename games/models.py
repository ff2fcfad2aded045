"""The stored games: a game's deal and move log are its truth, the snapshot a cache of them.

Only ``games.services`` writes these rows; everything else reads them.
"""

import secrets
from collections.abc import Mapping

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from solitaire import clock

from .guide import GAME_NAMES
from .owners import Owner
from .rules import Move as EngineMove
from .rules import Position, first_position, get_variant, position_from_text

#: A deal number is stored as its digits: 10^20 - 1 does not fit a 64-bit integer column.
DEAL_DIGITS = 20


def clock_text(milliseconds: int) -> str:
    """A time as a clock shows it: ``m:ss`` or ``h:mm:ss``, whole seconds rounded down."""
    minutes, seconds = divmod(milliseconds // 1000, 60)
    hours, minutes = divmod(minutes, 60)
    if hours:
        return f"{hours}:{minutes:02}:{seconds:02}"
    return f"{minutes}:{seconds:02}"


def autoplay_setting(settings: Mapping[str, bool], variant_id: str) -> bool:
    """Whether automatic moves follow a move in a game of ``variant_id``: the player's
    ``settings`` (by game type) say so, else they are on except in Forty Devils (whose left
    foundations play back)."""
    setting = settings.get(variant_id)
    return setting if isinstance(setting, bool) else not get_variant(variant_id).devils


def new_public_id() -> str:
    """A random, unguessable id for URLs (16 URL-safe characters, 96 bits)."""
    return secrets.token_urlsafe(12)


#: A game's own moves, the player's, in a query: the log's less the automatic ones and those
#: Finish played (``Game.player_moves``).
PLAYER_MOVES = F("ply") - F("automatic_ply") - F("finish_ply")
#: The games played with help: a hint or "can this still be won?" asked for, or Finish played.
#: Their wins are "won with help": never a best, never ranked (``Game.helped``).
HELPED = Q(hint_count__gt=0) | Q(finish_ply__gt=0)


class GameQuerySet(models.QuerySet):
    def owned_by(self, owner: Owner) -> "GameQuerySet":
        """The games of ``owner``, by the one ownership rule (``Owner.columns``); none for an
        owner without a key. Every read and write of a game goes through this, or through the
        hot path's SQL built from the same rule (games/store.py)."""
        columns = owner.columns()
        return self.none() if columns is None else self.filter(**columns)

    def in_progress(self) -> "GameQuerySet":
        return self.filter(status__in=[Game.Status.PLAYING, Game.Status.STUCK])

    def finished(self) -> "GameQuerySet":
        return self.filter(status__in=[Game.Status.WON, Game.Status.GIVEN_UP])


class Game(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", _("playing")
        WON = "won", _("won")
        # Not final: an undo may bring the game back to playing.
        STUCK = "stuck", _("stuck")
        GIVEN_UP = "given-up", _("given up")

    public_id = models.CharField(
        _("game id"), max_length=22, unique=True, default=new_public_id, editable=False
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("player"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="games",
    )
    #: A guest's session key; empty for a signed-in player's game.
    session_key = models.CharField(_("guest session"), max_length=40, blank=True, default="")
    variant = models.CharField(_("game"), max_length=20, choices=list(GAME_NAMES.items()))
    deal = models.CharField(_("deal number"), max_length=DEAL_DIGITS)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PLAYING
    )
    created_at = models.DateTimeField(_("created"), default=clock.now)
    first_move_at = models.DateTimeField(_("first move"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    #: The last time the player did something: the clock and "newest first" both use it.
    updated_at = models.DateTimeField(_("last played"), default=clock.now)
    #: Time played, to the millisecond: every gap between two of the player's actions, each
    #: counted at most ``IDLE`` (games/pace.py), less the time the page reported hidden.
    milliseconds_played = models.PositiveBigIntegerField(_("time played (ms)"), default=0)
    #: Every move played, including those later undone; ``ply`` counts the log.
    move_count = models.PositiveIntegerField(_("moves played"), default=0)
    #: How many of the log's ``ply`` moves the automatic moves played.
    automatic_ply = models.PositiveIntegerField(_("automatic moves"), default=0)
    #: How many of the log's moves Finish played (a certain win's or a search's): always its
    #: last ones, as Finish ends the game won. Neither the player's nor automatic: the
    #: player's own moves are ``ply - automatic_ply - finish_ply`` (``player_moves``).
    finish_ply = models.PositiveIntegerField(_("moves played by Finish"), default=0)
    undo_count = models.PositiveIntegerField(_("undos"), default=0)
    #: Hints and "can this still be won?" asked for, and the solver's Finish.
    hint_count = models.PositiveIntegerField(_("hints"), default=0)
    ply = models.PositiveIntegerField(_("ply"), default=0)
    #: Counts every change to the game (a move, an undo, a restart, giving up): a board drawn
    #: at one version is out of date at any other, even one at the same ply (after an undo and
    #: another move).
    version = models.PositiveIntegerField(_("version"), default=0)
    #: The position after the move log, as NOTATION.md's position text.
    snapshot = models.TextField(_("position"))
    #: Undone groups of moves, the next one to redo last; each group is the player's move
    #: followed by the automatic moves it set off.
    redo = models.JSONField(_("moves to redo"), default=list, blank=True)
    #: Moves (notation) proven to win from the snapshot, found after the last change: the
    #: Finish button plays them out; empty when no win is known for this board.
    finish = models.JSONField(_("moves that win from here"), default=list, blank=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        constraints = [
            models.CheckConstraint(
                condition=Q(owner__isnull=False) | ~Q(session_key=""), name="game_has_an_owner"
            ),
        ]
        # No index holds a column a move changes (updated_at, ply, ...): on PostgreSQL a move
        # then updates the row in place on its page (a HOT update, the table's fill factor
        # leaving room: migration 0006) and writes no index entry. The games in progress (the
        # home page, "My games") are found by status, which changes only as a game ends; the
        # history, every game last played first, finds the player's games by index and sorts
        # them.
        indexes = [
            models.Index(fields=["owner", "status"], name="game_owner_status"),
            models.Index(fields=["session_key", "status"], name="game_guest_status"),
            # The statistics: streaks read finished games in the order they finished; the
            # history filters by game, and a game page looks up the player's other games of
            # its deal.
            models.Index(fields=["owner", "finished_at"], name="game_owner_finished"),
            models.Index(fields=["session_key", "finished_at"], name="game_guest_finished"),
            models.Index(fields=["owner", "variant", "deal"], name="game_owner_deal"),
            models.Index(fields=["session_key", "variant", "deal"], name="game_guest_deal"),
        ]

    def __str__(self) -> str:
        return f"{self.variant} {self.deal} ({self.public_id})"

    @property
    def deal_number(self) -> int:
        return int(self.deal)

    @property
    def rules(self):
        """The game's ``Variant``."""
        return get_variant(self.variant)

    @property
    def is_finished(self) -> bool:
        return self.status in (self.Status.WON, self.Status.GIVEN_UP)

    @property
    def player_moves(self) -> int:
        """The player's own moves in the log (the automatic moves and Finish's left out)."""
        return self.ply - self.automatic_ply - self.finish_ply

    @property
    def helped(self) -> bool:
        """Whether the player had help in this game (``HELPED``)."""
        return bool(self.hint_count or self.finish_ply)

    @property
    def clock(self) -> str:
        """Time played as ``m:ss`` or ``h:mm:ss`` (whole seconds, rounded down)."""
        return clock_text(self.milliseconds_played)

    def autoplay_on(self, settings: Mapping[str, bool]) -> bool:
        """Whether automatic moves follow a move in this game, by the player's ``settings``
        (``autoplay_setting``): what a move plays, and what the game page shows."""
        return autoplay_setting(settings, self.variant)

    def position(self):
        """The current position, read from the snapshot."""
        return position_from_text(self.snapshot)

    def position_after(self, rows) -> "Position | None":
        """The position after the last of ``rows``: moves of this game's log in order, each
        with ``notation`` and ``checkpoint``, read back from the position they end at. Played
        from the last checkpoint among them, or from the deal when they start at ply 1 (or are
        none); None when neither (a log read from too late a ply, of a game stored before
        checkpoints)."""
        rows = list(rows)
        base = next((n for n in range(len(rows) - 1, -1, -1) if rows[n].checkpoint), None)
        if base is not None:
            position = position_from_text(rows[base].checkpoint)
            rows = rows[base + 1 :]
        elif not rows or rows[0].ply == 1:
            position = first_position(self.rules, self.deal_number)
        else:
            return None
        for row in rows:
            position.play(EngineMove.parse(row.notation))
        return position


class Move(models.Model):
    game = models.ForeignKey(
        Game, verbose_name=_("game"), on_delete=models.CASCADE, related_name="log"
    )
    #: 1-based: the game's first move has ply 1, and after a move ``game.ply == move.ply``.
    ply = models.PositiveIntegerField(_("ply"))
    notation = models.CharField(_("move"), max_length=12)
    #: Played by the automatic moves to the foundations, not by the player: undo takes such
    #: moves back together with the player's move before them.
    automatic = models.BooleanField(_("automatic"), default=False)
    #: On every ``CHECKPOINT_EVERY``-th ply: the position after this move, as NOTATION.md's
    #: position text (a cache of the log, like the game's snapshot); else empty.
    checkpoint = models.TextField(_("position after the move"), blank=True, default="")

    class Meta:
        verbose_name = _("move")
        verbose_name_plural = _("moves")
        ordering = ["game", "ply"]
        constraints = [
            models.UniqueConstraint(fields=["game", "ply"], name="move_unique_ply"),
        ]

    def __str__(self) -> str:
        return f"{self.ply}. {self.notation}"


class AnalysisQuerySet(models.QuerySet):
    def pending(self) -> "AnalysisQuerySet":
        return self.filter(status__in=[Analysis.Status.QUEUED, Analysis.Status.RUNNING])


class Analysis(models.Model):
    """A search of the solver from one board of a game: a hint, or "can this still be won?".

    Written by ``games.services.assist`` (asked for by the player) and ``games.tasks`` (answered
    by the background worker).
    One search per game, kind and version: asking again for the same board reuses it.
    """

    class Kind(models.TextChoices):
        HINT = "hint", _("hint")
        ANALYSIS = "analysis", _("can this still be won?")

    class Status(models.TextChoices):
        QUEUED = "queued", _("waiting for the worker")
        RUNNING = "running", _("searching")
        WON = "won", _("a win found")
        LOST = "lost", _("no win possible")
        UNKNOWN = "unknown", _("no win found in time")
        #: The board changed before the worker came to it: not searched.
        STALE = "stale", _("out of date")
        FAILED = "failed", _("failed")

    game = models.ForeignKey(
        Game, verbose_name=_("game"), on_delete=models.CASCADE, related_name="analyses"
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    ply = models.PositiveIntegerField(_("ply"))
    version = models.PositiveIntegerField(_("version"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.QUEUED
    )
    #: A win's moves (notation) from the board, all of them; for a hint that found no win, the
    #: heuristic's one move (or none).
    moves = models.JSONField(_("moves"), default=list, blank=True)
    nodes = models.PositiveIntegerField(_("positions searched"), default=0)
    seconds = models.FloatField(_("seconds searched"), default=0)
    created_at = models.DateTimeField(_("asked"), default=clock.now)
    finished_at = models.DateTimeField(_("answered"), null=True, blank=True)

    objects = AnalysisQuerySet.as_manager()

    class Meta:
        verbose_name = _("analysis")
        verbose_name_plural = _("analyses")
        constraints = [
            models.UniqueConstraint(
                fields=["game", "kind", "version"], name="analysis_one_per_board"
            ),
        ]
        indexes = [models.Index(fields=["status", "created_at"], name="analysis_pending")]

    def __str__(self) -> str:
        return f"{self.kind} of {self.game} at version {self.version}: {self.status}"


class WinnableDeal(models.Model):
    """A deal proven winnable by a search after the committed list (games/rules/solver/winnable/):
    its moves replay to a win, checked before it was stored."""

    variant = models.CharField(_("game"), max_length=20, choices=list(GAME_NAMES.items()))
    deal = models.CharField(_("deal number"), max_length=DEAL_DIGITS)
    moves = models.JSONField(_("moves"))
    found_at = models.DateTimeField(_("found"), default=clock.now)

    class Meta:
        verbose_name = _("winnable deal")
        verbose_name_plural = _("winnable deals")
        constraints = [
            models.UniqueConstraint(fields=["variant", "deal"], name="winnable_deal_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.variant} {self.deal}"


class DealSearch(models.Model):
    """The solver's answer for a fresh deal (from its first position), at a time budget: what the
    site learns of how winnable a game is, each time it searches a deal it has not seen played.

    Written by ``games.services.winnability`` alone (the winnable-deal top-up, "can this still
    be won?" asked at the deal, ``manage.py winnability``). One row per game, deal and budget:
    a later search at the same budget keeps a decided answer ("won", "lost") over "unknown".
    """

    class Status(models.TextChoices):
        WON = "won", _("won")
        # Translators: the solver proved that no sequence of moves wins this deal.
        LOST = "lost", _("proved lost")
        # Translators: the solver's time ran out before it found a win or proved there is none.
        UNKNOWN = "unknown", _("not decided")

    variant = models.CharField(_("game"), max_length=20, choices=list(GAME_NAMES.items()))
    deal = models.CharField(_("deal number"), max_length=DEAL_DIGITS)
    seconds = models.FloatField(_("seconds given"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices)
    nodes = models.PositiveBigIntegerField(_("positions searched"), default=0)
    searched_at = models.DateTimeField(_("searched"), default=clock.now)

    class Meta:
        verbose_name = _("deal search")
        verbose_name_plural = _("deal searches")
        constraints = [
            models.UniqueConstraint(
                fields=["variant", "seconds", "deal"], name="deal_search_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.variant} {self.deal} at {self.seconds:g} s: {self.status}"


class GradedDeal(models.Model):
    """A winnable deal with its grade (games/rules/solver/grading.py): the pool "New game" at a
    difficulty and the daily deals draw from, beside the calibration's sample.

    Written by ``games.services.daily`` alone, once the win the grading search found replays
    to a win."""

    class Grade(models.TextChoices):
        # Translators: a grade as a level of difficulty, after "Difficulty:" and in its list
        # of choices, agreeing with your word for difficulty (Polish "trudność: łatwa").
        EASY = "easy", _("easy")
        MEDIUM = "medium", _("medium")
        HARD = "hard", _("hard")
        EXPERT = "expert", _("expert")

    variant = models.CharField(_("game"), max_length=20, choices=list(GAME_NAMES.items()))
    deal = models.CharField(_("deal number"), max_length=DEAL_DIGITS)
    grade = models.CharField(_("grade"), max_length=10, choices=Grade.choices)
    #: The grading search's positions and the length of its win (its effort).
    nodes = models.PositiveIntegerField(_("positions searched"), default=0)
    length = models.PositiveIntegerField(_("moves of the win"), default=0)
    moves = models.JSONField(_("moves"), default=list)
    graded_at = models.DateTimeField(_("graded"), default=clock.now)

    class Meta:
        verbose_name = _("graded deal")
        verbose_name_plural = _("graded deals")
        constraints = [
            models.UniqueConstraint(fields=["variant", "deal"], name="graded_deal_unique"),
        ]
        indexes = [models.Index(fields=["variant", "grade"], name="graded_deal_grade")]

    def __str__(self) -> str:
        return f"{self.variant} {self.deal}: {self.grade}"


class DailyDeal(models.Model):
    """A game's deal of a day (UTC): the same for everyone, proven winnable, its grade that of
    the day of the week (games/services/daily.py). Made by the first player to ask for it."""

    variant = models.CharField(_("game"), max_length=20, choices=list(GAME_NAMES.items()))
    day = models.DateField(_("day"))
    deal = models.CharField(_("deal number"), max_length=DEAL_DIGITS)
    grade = models.CharField(_("grade"), max_length=10, choices=GradedDeal.Grade.choices)

    class Meta:
        verbose_name = _("daily deal")
        verbose_name_plural = _("daily deals")
        constraints = [
            models.UniqueConstraint(fields=["variant", "day"], name="daily_deal_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.variant} {self.day}: {self.deal}"


class DailyGame(models.Model):
    """A player's game of a daily deal, started from the daily page: the game that page
    resumes, and the one its leaderboard may rank."""

    daily = models.ForeignKey(
        DailyDeal, verbose_name=_("daily deal"), on_delete=models.CASCADE, related_name="games"
    )
    game = models.OneToOneField(
        Game, verbose_name=_("game"), on_delete=models.CASCADE, related_name="daily"
    )

    class Meta:
        verbose_name = _("game of a daily deal")
        verbose_name_plural = _("games of daily deals")

    def __str__(self) -> str:
        return f"{self.daily}: {self.game}"


def new_share_token() -> str:
    """A shared link's token: 128 random bits, URL-safe (22 characters)."""
    return secrets.token_urlsafe(16)


class SharedGame(models.Model):
    """A public, read-only link to one game (``/s/<token>/``), made by its owner, who may
    withdraw it (the row is deleted: the link is then a 404). The link shows that game alone."""

    token = models.CharField(
        _("token"), max_length=32, unique=True, default=new_share_token, editable=False
    )
    game = models.OneToOneField(
        Game, verbose_name=_("game"), on_delete=models.CASCADE, related_name="share"
    )
    created_at = models.DateTimeField(_("shared"), default=clock.now)

    class Meta:
        verbose_name = _("shared game")
        verbose_name_plural = _("shared games")

    def __str__(self) -> str:
        return f"{self.token}: {self.game}"
