"""The one place that changes games: start, play, undo, redo, restart, give up; and the games
a guest played becoming their account's, and an account's games going with it.

Two requests for the same game (two tabs, a double click, two devices) are applied one after
the other, never mixed: a move, an undo or a redo reads the game, works out the change, and
writes it all (the game's row and its move log) only if the game is still at the version it
read (games/store.py: one statement on PostgreSQL); otherwise nothing is written and the
player gets the board as it now is (``StalePly``). Restart and give up, rare, lock the game's
row in a transaction instead. The engine decides every move; a move that it refuses raises
``IllegalMove`` and changes nothing.
The move log plus the deal is the truth: the snapshot is rewritten from the engine's position
after every change, so it always equals replaying the log.
"""

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from . import store
from .autoplay import next_safe_move
from .describe import card_label, moving_card, play_and_describe, split_move
from .models import Game
from .models import Move as MoveRow
from .owners import Owner
from .rules import (
    IllegalMove,
    Move,
    Position,
    Record,
    first_position,
    get_variant,
    replay,
)
from .rules.moves import pile_name

#: The fields a move, an undo, a redo or a restart may change (the rest are left as they are).
PLAY_FIELDS = [
    "seconds_played",
    "updated_at",
    "first_move_at",
    "finished_at",
    "snapshot",
    "ply",
    "version",
    "status",
    "redo",
    "move_count",
    "undo_count",
]
#: A pause longer than this between two actions counts as this long: the player was away.
IDLE = timedelta(minutes=2)


class GameError(Exception):
    """An action the game's state does not allow; the message is for the player."""


class GameOver(GameError):
    def __init__(self) -> None:
        super().__init__(_("This game is over."))


class NothingToUndo(GameError):
    def __init__(self) -> None:
        super().__init__(_("There is no move to undo."))


class NothingToRedo(GameError):
    def __init__(self) -> None:
        super().__init__(_("There is no move to redo."))


class StalePly(GameError):
    """The request was made on an older board (another tab moved on); ``game`` is current."""

    def __init__(self, game: Game) -> None:
        super().__init__(_("The game had moved on (in another window?): here is where it is now."))
        self.game = game


@dataclass(frozen=True)
class GameRef:
    """A game named by its owner and public id, not yet read: the action's read is the only
    query for it (``Game.DoesNotExist`` when the owner has no such game); or with ``game``, the
    owner's game as the caller has just read it (without a lock), which an action that needs no
    lock takes as its read."""

    owner: Owner
    public_id: str
    game: Game | None = None


#: Whether automatic moves follow a move: a setting, or a function of the game type.
Autoplay = bool | Callable[[str], bool]


@dataclass
class Outcome:
    """What an action left: the saved game, its position and what happened, in words.

    ``changed``: the piles the action's moves touched (``s``, ``w``, ``f3``, ``t10``), when it
    was moves played or taken back on a game in play before and after (None otherwise): the
    rest of the board is as it was, so an answer may show only these.
    """

    game: Game
    position: Position
    said: list[str] = field(default_factory=list)
    changed: frozenset[str] | None = None


# -- starting -------------------------------------------------------------------------------


def start_game(owner: Owner, variant_id: str, deal: int) -> Game:
    """A new game of deal ``deal``; KeyError for an unknown game, ValueError for a bad deal."""
    position = first_position(get_variant(variant_id), deal)
    return Game.objects.create(
        owner=owner.user,
        session_key="" if owner.user is not None else owner.session_key,
        variant=variant_id,
        deal=str(deal),
        snapshot=position.text(),
        status=position.status,
    )


@transaction.atomic
def find_or_start_game(owner: Owner, variant_id: str, deal: int) -> Game:
    """The owner's untouched game of this deal if there is one, else a new one.

    A link to a deal starts a game when followed; following it twice (or a browser fetching it
    ahead) should not leave a trail of empty games.
    """
    untouched = (
        Game.objects.owned_by(owner)
        .filter(variant=variant_id, deal=str(deal), status=Game.Status.PLAYING, move_count=0)
        .order_by("-created_at")
        .first()
    )
    return untouched or start_game(owner, variant_id, deal)


@transaction.atomic
def start_from_record(owner: Owner, record: Record) -> Game:
    """A game at the end of ``record``, every move checked by the engine (RecordError if not)."""
    position = replay(record)
    now = timezone.now()
    status = position.status
    game = Game.objects.create(
        owner=owner.user,
        session_key="" if owner.user is not None else owner.session_key,
        variant=record.variant,
        deal=str(record.deal),
        snapshot=position.text(),
        status=status,
        ply=len(record.moves),
        move_count=len(record.moves),
        first_move_at=now if record.moves else None,
        finished_at=None if status == Game.Status.PLAYING else now,
    )
    MoveRow.objects.bulk_create(
        MoveRow(game=game, ply=n, notation=text) for n, text in enumerate(record.moves, 1)
    )
    return game


# -- playing --------------------------------------------------------------------------------


def play(
    game: Game | GameRef, ply: int, move: Move, *, autoplay: Autoplay, version: int | None = None
) -> Outcome:
    """Play the player's ``move`` on the board they saw at ``ply``, then any automatic moves.

    ``version``, when the request carries it, is the game's version on that board (see _read).
    """
    game = _read(game, ply, version)
    position = game.position()
    reason = position.check(move)
    if reason is not None:
        raise IllegalMove(reason)
    return _play_moves(game, position, [move], autoplay=autoplay)


def send_to_foundation(
    game: Game | GameRef, ply: int, pick: str, *, autoplay: Autoplay, version: int | None = None
) -> Outcome:
    """Play the first legal move of the picked cards (``w``, ``t3``, ``t3:13``) to a foundation.

    MoveSyntaxError when ``pick`` is not a pile's cards in the notation.
    """
    wanted = split_move(Move.parse(f"{pick}-f1"))[:2]
    game = _read(game, ply, version)
    position = game.position()
    for move in position.legal_moves():
        source, count, target = split_move(move)
        if (source, count) == wanted and target.startswith("f"):
            return _play_moves(game, position, [move], autoplay=autoplay)
    card = moving_card(position, *wanted)
    if card is None:
        raise IllegalMove(_("there is no such card to send to a foundation"))
    raise IllegalMove(_("no foundation takes %(card)s now") % {"card": card_label(card)})


def undo(game: Game | GameRef, ply: int, *, version: int | None = None) -> Outcome:
    """Take back the player's last move and the automatic moves that followed it.

    The log is read after the game. If another request changed the game between the two
    reads, either the log no longer holds the game's ply of moves (a stale board at once), or
    the write, conditional on the version read, does nothing (a stale board then).
    """
    game = _read(game, ply, version)
    if game.ply == 0:
        raise NothingToUndo
    log = store.read_log(game)
    if len(log) != game.ply:
        raise StalePly(store.read_game_by_pk(game.pk))
    start = len(log) - 1
    while start > 0 and log[start][1]:
        start -= 1
    group = [text for text, _automatic in log[start:]]
    position = replay(Record(game.variant, game.deal_number, [t for t, _a in log[:start]]))
    taken_back = play_and_describe(position.copy(), Move.parse(group[0]))
    was_playing = game.status == Game.Status.PLAYING
    game.redo = [*game.redo, group]
    game.undo_count += 1
    _save(game, position, after=start)
    said = [_("Undone: %(move)s") % {"move": taken_back}]
    changed = _piles(Move.parse(text) for text in group) if was_playing else None
    return Outcome(game, position, said, _still_playing(game, changed))


def redo(game: Game | GameRef, ply: int, *, version: int | None = None) -> Outcome:
    """Play again the last group of moves undone (nothing else was played since)."""
    game = _read(game, ply, version)
    if not game.redo:
        raise NothingToRedo
    group = [Move.parse(text) for text in game.redo[-1]]
    game.redo = game.redo[:-1]
    return _play_moves(game, game.position(), group, autoplay=False, keep_redo=True)


@transaction.atomic
def restart(game: Game) -> Outcome:
    """Back to the deal's first position; the clock and the counters keep running."""
    game = _lock(game, None)
    position = first_position(game.rules, game.deal_number)
    game.redo = []
    _save(game, position, after=0)
    return Outcome(game, position, [_("Restarted the deal.")])


@transaction.atomic
def give_up(game: Game) -> Outcome:
    game = _lock(game, None)
    game.status = Game.Status.GIVEN_UP
    now = timezone.now()
    _tick(game, now)
    game.finished_at = now
    game.version += 1
    game.save()
    return Outcome(game, game.position(), [_("Game given up.")])


# -- players --------------------------------------------------------------------------------


def adopt_guest_games(session_key: str, user: AbstractBaseUser) -> int:
    """Make the games of the guest session ``session_key`` the games of ``user``; how many.

    Called as a guest signs up or logs in, with the session key they had as a guest (logging
    in gives the session a new key). The games keep their ids and move logs; one UPDATE moves
    them all, so a move on one of them waits for it (or it for the move) and neither is lost.
    """
    if not session_key:
        return 0
    return Game.objects.filter(owner__isnull=True, session_key=session_key).update(
        owner=user, session_key=""
    )


@transaction.atomic
def delete_player(user: AbstractBaseUser) -> None:
    """Delete an account and every game and move in it."""
    Game.objects.filter(owner=user).delete()
    user.delete()


# -- helpers --------------------------------------------------------------------------------


def _read(
    game: Game | GameRef, ply: int | None, version: int | None = None, *, lock: bool = False
) -> Game:
    """The game, read afresh (``lock``: its row locked until the transaction ends); refuses a
    finished game and a stale board.

    A board is stale when its ``ply`` is not the game's, or its ``version`` (when the request
    says it) is not: the same ply after an undo and another move is another board.
    """
    if isinstance(game, GameRef):
        if game.game is not None and not lock:
            game = game.game
        else:
            game = store.read_game(game.owner, game.public_id, lock=lock)
    else:
        game = store.read_game_by_pk(game.pk, lock=lock)
    if game.is_finished:
        raise GameOver
    if (ply is not None and ply != game.ply) or (version is not None and version != game.version):
        raise StalePly(game)
    return game


def _lock(game: Game | GameRef, ply: int | None, version: int | None = None) -> Game:
    """The game's row, locked until the transaction ends, and fresh (see _read)."""
    return _read(game, ply, version, lock=True)


def _play_moves(
    game: Game, position: Position, moves: list[Move], *, autoplay: Autoplay, keep_redo=False
) -> Outcome:
    """Play ``moves`` (the first the player's, any others automatic), then safe moves home."""
    if callable(autoplay):
        autoplay = autoplay(game.variant)
    said: list[str] = []
    rows: list[store.NewMove] = []
    for n, move in enumerate(moves):
        said.append(play_and_describe(position, move))
        rows.append(store.NewMove(position.moves, str(move), automatic=n > 0))
    while autoplay and (move := next_safe_move(position)) is not None:
        said.append(play_and_describe(position, move))
        rows.append(store.NewMove(position.moves, str(move), automatic=True))
    if not keep_redo:
        game.redo = []
    game.move_count += len(rows)
    _save(game, position, rows)
    changed = _piles(Move.parse(row.notation) for row in rows)
    return Outcome(game, position, said, _still_playing(game, changed))


def _piles(moves: Iterable[Move]) -> frozenset[str]:
    """The piles ``moves`` take cards from and put them on (a deal: the stock and the waste)."""
    return frozenset(name for move in moves for name in (pile_name(move.src), pile_name(move.dst)))


def _still_playing(game: Game, changed: frozenset[str] | None) -> frozenset[str] | None:
    return changed if game.status == Game.Status.PLAYING else None


def _tick(game: Game, now: datetime) -> None:
    """Run the game's clock up to ``now``."""
    game.seconds_played += int(max(min(now - game.updated_at, IDLE), timedelta(0)).total_seconds())
    game.updated_at = now


def _save(
    game: Game, position: Position, rows: Sequence[store.NewMove] = (), *, after: int | None = None
) -> None:
    """Store ``position`` as the game's snapshot, with its ply, status and times, and ``rows``
    as its new moves (``after``: its moves past this ply deleted first), if the game is still
    at the version it was read at; else nothing, and ``StalePly`` with the game as it is."""
    read_at = game.version
    now = timezone.now()
    _tick(game, now)
    if game.first_move_at is None and position.moves:
        game.first_move_at = now
    # The status asks for the legal moves: once, for the snapshot and the game alike.
    game.status = position.status
    game.snapshot = position.text(status=game.status)
    game.ply = position.moves
    game.version += 1
    # A stuck game has finished until an undo or a restart brings it back to playing: the
    # statistics count it as lost, and its streaks run in the order games finished.
    game.finished_at = None if game.status == Game.Status.PLAYING else now
    if not store.save_play(game, rows, PLAY_FIELDS, version=read_at, after=after):
        raise StalePly(store.read_game_by_pk(game.pk))
