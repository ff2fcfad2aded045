"""One game of a player as the pages read it (through ``Game.objects.owned_by``): the game,
its version, its log, the game a record is of, and the game at any ply for the replay viewer."""

from dataclasses import dataclass

from django.db.models import QuerySet

from ..models import Game
from ..models import Move as MoveRow
from ..owners import Owner
from ..rules import Position, Record
from ..rules.turn import CHECKPOINT_EVERY


def game_of(owner: Owner, public_id: str) -> Game:
    """The owner's game ``public_id`` (``Game.DoesNotExist`` if the owner has none)."""
    return Game.objects.owned_by(owner).get(public_id=public_id)


def version_of(owner: Owner, public_id: str) -> int:
    """The version of the owner's game ``public_id`` (``Game.DoesNotExist`` if the owner has
    none): what an open page's poll compares with the board it shows, read without the rest of
    the row (its snapshot, its JSON, a model to build)."""
    return Game.objects.owned_by(owner).values_list("version", flat=True).get(public_id=public_id)


def in_progress(owner: Owner, limit: int) -> QuerySet:
    """The owner's games in progress, last played first."""
    return Game.objects.owned_by(owner).in_progress().order_by("-updated_at")[:limit]


def finished(owner: Owner, limit: int) -> QuerySet:
    """The owner's finished games, newest first: a finished game is played no more, so the
    time it ended is the last time it was played (and an index holds that time)."""
    return Game.objects.owned_by(owner).finished().order_by("-finished_at", "-pk")[:limit]


def log_of(game: Game) -> list[tuple[str, bool]]:
    """The game's moves in order: each in the notation, and whether the automatic moves
    played it."""
    return list(game.log.order_by("ply").values_list("notation", "automatic"))


def logs_of(owner: Owner) -> tuple[list[Game], dict[int, list[tuple[str, bool]]]]:
    """Every game of the owner, oldest first, and each one's log (as ``log_of``): two
    queries."""
    games = Game.objects.owned_by(owner)
    logs: dict[int, list[tuple[str, bool]]] = {}
    rows = MoveRow.objects.filter(game__in=games).order_by("game_id", "ply")
    for game_id, notation, automatic in rows.values_list(
        "game_id", "notation", "automatic"
    ).iterator():
        logs.setdefault(game_id, []).append((notation, automatic))
    return list(games.select_related("owner").order_by("created_at", "pk")), logs


#: The most of the player's games of one deal and length whose logs a record is held against.
SAME_GAME_CANDIDATES = 10


def game_of_record(owner: Owner, record: Record) -> Game | None:
    """The owner's game that ``record`` is the record of: of its game and deal, its log
    exactly the record's moves (the last played if several); None if none. Importing a record
    of a game the player has opens that game rather than making it again."""
    candidates = (
        Game.objects.owned_by(owner)
        .filter(variant=record.variant, deal=str(record.deal), ply=len(record.moves))
        .order_by("-updated_at", "-pk")[:SAME_GAME_CANDIDATES]
    )
    for game in candidates:
        if list(game.log.order_by("ply").values_list("notation", flat=True)) == record.moves:
            return game
    return None


@dataclass(frozen=True)
class Replayed:
    """A game at one ply: the position before its last move, and that move (None at ply 0)."""

    before: Position
    move: str | None


def replayed_at(game: Game, ply: int) -> Replayed:
    """``game`` (the player's, already read) at ``ply`` (0 to ``game.ply``), from the nearest
    checkpoint: its cost does not grow with the game's length."""
    rows = list(
        game.log.filter(ply__gt=max(ply - CHECKPOINT_EVERY - 1, 0), ply__lte=ply)
        .order_by("ply")
        .only("ply", "notation", "checkpoint")
    )
    before = game.position_after(rows[:-1])
    if before is None:  # a game stored before checkpoints: from the deal
        rows = list(
            game.log.filter(ply__lte=ply).order_by("ply").only("ply", "notation", "checkpoint")
        )
        before = game.position_after(rows[:-1])
    return Replayed(before, rows[-1].notation if rows else None)
