"""Playing a game: start, move, send to a foundation, undo, redo, restart, give up, finish.

Every action names its game by owner and public id and reads it in one query, by the
ownership rule (a game of someone else's is ``Game.DoesNotExist``). It checks the board the
player saw (its ply and version), calls the engine once (``take_turn``, an undo's
``take_back``: games/rules/turn.py) with the moves to play and the automatic moves' setting
resolved before the call (``Game.autoplay_on``), and writes what the turn left, the game and
its log, only if the game is still at the version it read: one concurrency rule for every
write. A lost race, or a board another window moved on, raises ``StalePly`` with the game as
it now is; nothing is written. Each action returns facts (``Outcome``) or raises them (the
refusals of games/outcomes.py), which the web layer words and draws.

The move log plus the deal is the truth: the snapshot is rewritten from the turn's position
after every change, so it always equals replaying the log; every ``CHECKPOINT_EVERY``-th move
row keeps the position after it (the turn notes it as it plays), so that an undo starts from
there, not from the deal.

The clock (``Pace.gap``) adds every gap between two of the player's actions, to the millisecond,
from the later of the last action and the drawing of the board acted on, less the time the
page says it was hidden (``away``, sent by static/js/clock.js) down to a person's action at
least (games/pace.py), and at most ``IDLE`` a gap. After every change that leaves the game in
play, the turn tells the win that is certain from there, if one is known; the game keeps its
moves (``finish``) for the Finish button.
"""

from collections.abc import Mapping, Sequence
from dataclasses import replace

from django.db import transaction

from solitaire import clock

from .. import store
from ..models import Game, autoplay_setting
from ..models import Move as MoveRow
from ..outcomes import (
    Before,
    Event,
    GameOver,
    NothingToRedo,
    NothingToUndo,
    NotOnAFoundation,
    Outcome,
    StalePly,
    refusals,
)
from ..owners import Owner
from ..pace import NO_PACE, Gap, Pace
from ..rules import Kept, Move, Position, Record, first_position, get_variant, replay
from ..rules.certain import goes_home
from ..rules.played import split_move
from ..rules.turn import CHECKPOINT_EVERY, MAX_PLY, Turn, take_back, take_turn

#: The game's fields no action of play changes: who owns it and which deal it is (changed by
#: adopting a guest's games, services/players.py), and the hints (services/assist.py). A new
#: field that something else writes belongs here: every other field is written back by each
#: action as it was read (under the version check).
KEPT_FIELDS = frozenset(
    Game._meta.get_field(name).name  # a name the model lost fails at start-up
    for name in (
        "id",
        "public_id",
        "owner",
        "session_key",
        "variant",
        "deal",
        "created_at",
        "hint_count",
    )
)
#: The fields a move, an undo, a redo, a restart or giving up writes: every other field of the
#: model's, so that a new field is written as read unless it is named above.
PLAY_FIELDS = tuple(
    field.name for field in Game._meta.concrete_fields if field.name not in KEPT_FIELDS
)
#: The most moves one undo takes back: the player's move and every automatic move after it.
LONGEST_GROUP = 1 + 104
#: How far back an undo reads the log: far enough for its group and a checkpoint before it.
UNDO_READS = LONGEST_GROUP + CHECKPOINT_EVERY


# -- starting -------------------------------------------------------------------------------


@transaction.atomic
def start_game(
    owner: Owner, variant_id: str, deal: int, autoplay: Mapping[str, bool] | None = None
) -> Game:
    """A new game of deal ``deal``; KeyError for an unknown game, ValueError for a bad deal.

    When the player's ``autoplay`` settings (by game type; None: none) have the automatic
    moves on for this game, the cards dealt safe to go home go there at once (aces dealt face
    up): they are the log's first moves, automatic ones, and not the player's: the game has no
    first move yet, and undo and restart stop at them.
    """
    on = autoplay is not None and autoplay_setting(autoplay, variant_id)
    turn = take_turn(first_position(get_variant(variant_id), deal), (), autoplay=on)
    game = Game.objects.create(
        **_owned(owner),
        variant=variant_id,
        deal=str(deal),
        snapshot=turn.text,
        status=turn.status,
        ply=turn.ply,
        automatic_ply=turn.automatic,
        finish=turn.finish,
    )
    MoveRow.objects.bulk_create(_rows(game, turn, turn.played))
    return game


@transaction.atomic
def find_or_start_game(
    owner: Owner, variant_id: str, deal: int, autoplay: Mapping[str, bool] | None = None
) -> Game:
    """The owner's untouched game of this deal if there is one, else a new one (``autoplay``
    as for ``start_game``).

    A link to a deal starts a game when followed; following it twice (or a browser fetching it
    ahead) should not leave a trail of empty games.
    """
    untouched = (
        Game.objects.owned_by(owner)
        .filter(variant=variant_id, deal=str(deal), status=Game.Status.PLAYING, move_count=0)
        .order_by("-created_at")
        .first()
    )
    return untouched or start_game(owner, variant_id, deal, autoplay)


@transaction.atomic
def start_from_record(owner: Owner, record: Record) -> Game:
    """A game at the end of ``record``, every move checked by the engine (RecordError if not;
    ValueError past ``MAX_PLY`` moves), with what the record keeps of its game (``Kept``):
    which moves the automatic moves played, how many Finish played, the time played, the hints
    and undos. A mark the game could not have (``_kept``) is left out: those moves are the
    player's."""
    if len(record.moves) > MAX_PLY:
        raise ValueError(f"a game has at most {MAX_PLY} moves")
    final = replay(record)
    kept = _kept(record, final)
    automatic = set(kept.automatic)
    # The automatic moves the log starts with are the deal's: not the player's first move.
    dealt = next((n for n in range(len(record.moves)) if n + 1 not in automatic), len(record.moves))
    now = clock.now()
    position = first_position(get_variant(record.variant), record.deal)
    turn = take_turn(position, [Move.parse(text) for text in record.moves])
    game = Game.objects.create(
        **_owned(owner),
        variant=record.variant,
        deal=str(record.deal),
        snapshot=turn.text,
        status=turn.status,
        ply=turn.ply,
        automatic_ply=len(automatic),
        finish_ply=kept.finish,
        move_count=len(record.moves) - dealt,
        milliseconds_played=kept.milliseconds,
        hint_count=kept.hints,
        undo_count=kept.undos,
        # Every undo changed the game once: its version counts them.
        version=kept.undos,
        first_move_at=now if len(record.moves) > dealt else None,
        finished_at=None if turn.status == Game.Status.PLAYING else now,
        finish=turn.finish,
    )
    marked = [replace(p, automatic=ply in automatic) for ply, p in enumerate(turn.played, 1)]
    MoveRow.objects.bulk_create(_rows(game, turn, marked), batch_size=500)
    return game


def _rows(game: Game, turn: Turn, played: Sequence) -> list[MoveRow]:
    """The log's rows of a new ``game``: its ``played`` moves, from its first ply."""
    return [
        MoveRow(
            game=game,
            ply=ply,
            notation=str(p.move),
            automatic=p.automatic,
            checkpoint=turn.checkpoints.get(ply, ""),
        )
        for ply, p in enumerate(played, 1)
    ]


def _kept(record: Record, final: Position) -> Kept:
    """What ``record`` keeps of its game, less the marks its moves belie: an automatic move
    that does not go home (every automatic move does), moves of Finish in a game not won (Finish
    ends the game won)."""
    kept = record.kept
    if not all(goes_home(Move.parse(record.moves[n - 1])) for n in kept.automatic):
        kept = replace(kept, automatic=())
    if kept.finish and final.status != Game.Status.WON:
        kept = replace(kept, finish=0)
    return kept


def _owned(owner: Owner) -> dict:
    if not owner.is_known:
        raise ValueError("a game needs an owner")
    return {"owner": owner.user, "session_key": "" if owner.user is not None else owner.session_key}


# -- playing --------------------------------------------------------------------------------
#
# Each action reads its game (``read_for_play``), calls the engine once (``take_turn``, an
# undo's ``take_back``: games/rules/turn.py), writes what the turn left (``_save``) and
# returns the facts (``Outcome``).


def play_move(
    owner: Owner,
    public_id: str,
    ply: int,
    version: int | None,
    move: Move,
    autoplay: Mapping[str, bool],
    *,
    pace: Pace = NO_PACE,
) -> Outcome:
    """Play the player's ``move`` on the board they saw (``ply``, ``version``), then any
    automatic moves if the player's ``autoplay`` settings (by game type) say so. ``pace``:
    what the page says of the gap since the last action (games/pace.py)."""
    game = read_for_play(owner, public_id, ply, version)
    was = Before.of(game)
    position = game.position()
    with refusals(game):
        on = game.autoplay_on(autoplay)
        gap = pace.gap(game.updated_at)
        turn = take_turn(position, [move], autoplay=on)
    game.redo = []
    changed = _changed(turn)
    _save(owner, game, turn, gap)
    return Outcome(game, position, Event.MOVED, turn.played, changed, was)


def send_to_foundation(
    owner: Owner,
    public_id: str,
    ply: int,
    version: int | None,
    pick: str,
    autoplay: Mapping[str, bool],
    *,
    pace: Pace = NO_PACE,
) -> Outcome:
    """Play the first legal move of the picked cards (``w``, ``t3``, ``t3:13``) to a
    foundation. MoveSyntaxError when ``pick`` is not a pile's cards in the notation."""
    wanted = split_move(Move.parse(f"{pick}-f1"))[:2]
    game = read_for_play(owner, public_id, ply, version)
    position = game.position()
    home = [m for m in position.legal_moves() if _picked(m, wanted)]
    if not home:
        raise NotOnAFoundation(game, position.moving_card(*wanted))
    was = Before.of(game)
    with refusals(game):
        on = game.autoplay_on(autoplay)
        gap = pace.gap(game.updated_at)
        turn = take_turn(position, home[:1], autoplay=on)
    game.redo = []
    changed = _changed(turn)
    _save(owner, game, turn, gap)
    return Outcome(game, position, Event.MOVED, turn.played, changed, was)


def _picked(move: Move, wanted: tuple[str, int]) -> bool:
    """Whether ``move`` takes the ``wanted`` cards (a pile and a count) to a foundation."""
    source, count, target = split_move(move)
    return (source, count) == wanted and target.startswith("f")


def undo(
    owner: Owner, public_id: str, ply: int, version: int | None, *, pace: Pace = NO_PACE
) -> Outcome:
    """Take back the player's last move and the automatic moves that followed it (never the
    automatic moves of the deal: there is no move of the player's before them).

    Starts from the nearest checkpoint before them, so its cost does not grow with the log.
    """
    game = read_for_play(owner, public_id, ply, version)
    if game.player_moves == 0:
        raise NothingToUndo(game)
    tail = store.read_log_tail(game.pk, max(game.ply - UNDO_READS, 0))
    if not tail or tail[-1].ply != game.ply:
        # Another request changed the log since the game was read.
        raise StalePly(store.read_game(owner, public_id))
    start = len(tail) - 1
    while start > 0 and tail[start].automatic:
        start -= 1
    if tail[start].automatic:
        raise NothingToUndo(game)
    before = tail[start].ply - 1
    position = _position_at(game, before, tail[:start])
    group = [Move.parse(row.notation) for row in tail[start:]]
    was_playing = game.status == Game.Status.PLAYING
    was = Before.of(game)
    gap = pace.gap(game.updated_at)
    turn = take_back(position, group)
    game.redo = [*game.redo, [str(move) for move in group]]
    game.undo_count += 1
    game.automatic_ply -= turn.automatic
    changed = _changed(turn) if was_playing else None
    _save(owner, game, turn, gap, cut=before)
    return Outcome(game, position, Event.UNDONE, turn.played, changed, was)


def _position_at(game: Game, ply: int, rows: Sequence[store.LoggedMove]) -> Position:
    """The game's position after ``ply`` moves, from ``rows`` (its log read back from ``ply``):
    from their last checkpoint or the deal; else (a game stored before checkpoints) from
    its whole log."""
    position = game.position_after(rows)
    if position is None:
        position = game.position_after(r for r in store.read_log_tail(game.pk, 0) if r.ply <= ply)
    return position


def redo(
    owner: Owner, public_id: str, ply: int, version: int | None, *, pace: Pace = NO_PACE
) -> Outcome:
    """Play again the last group of moves undone (nothing else was played since): the
    player's move, then the automatic moves it set off then."""
    game = read_for_play(owner, public_id, ply, version)
    if not game.redo:
        raise NothingToRedo(game)
    first, *then = [Move.parse(text) for text in game.redo[-1]]
    was = Before.of(game)
    position = game.position()
    with refusals(game):
        gap = pace.gap(game.updated_at)
        turn = take_turn(position, [first], automatic=then)
    game.redo = game.redo[:-1]
    changed = _changed(turn)
    _save(owner, game, turn, gap)
    return Outcome(game, position, Event.REDONE, turn.played, changed, was)


def restart(
    owner: Owner, public_id: str, ply: int, version: int | None, *, pace: Pace = NO_PACE
) -> Outcome:
    """Back to the deal's first position, after the deal's automatic moves if it had some;
    the clock keeps running, and taking the player's moves back counts as one undo (a
    restart is no way round the undos a leaderboard shows)."""
    game = read_for_play(owner, public_id, ply, version)
    if game.player_moves:
        game.undo_count += 1
    dealt = []
    if game.automatic_ply:
        # The log's first moves, up to the player's first: the deal's automatic moves.
        head = game.log.filter(ply__lte=LONGEST_GROUP).order_by("ply")
        for notation, automatic in head.values_list("notation", "automatic"):
            if not automatic:
                break
            dealt.append(Move.parse(notation))
    gap = pace.gap(game.updated_at)
    position = first_position(game.rules, game.deal_number)
    turn = take_turn(position, (), automatic=dealt)
    game.redo = []
    game.automatic_ply = len(dealt)
    _save(owner, game, turn, gap, cut=len(dealt))
    return Outcome(game, position, Event.RESTARTED)


def give_up(
    owner: Owner, public_id: str, ply: int, version: int | None, *, pace: Pace = NO_PACE
) -> Outcome:
    """End the game as given up, where it stands."""
    game = read_for_play(owner, public_id, ply, version)
    gap = pace.gap(game.updated_at)
    game.status = Game.Status.GIVEN_UP
    game.finish = []
    _save(owner, game, None, gap)
    return Outcome(game, game.position(), Event.GIVEN_UP)


def finish_with(
    owner: Owner, game: Game, moves: Sequence[Move], *, pace: Pace = NO_PACE, hints: int = 0
) -> Outcome:
    """Play ``moves`` (each checked by the engine) on ``game`` as just read, all in one write
    conditional on its version: Finish (``assist.finish``). ``Refused`` if the engine refuses
    one. They are Finish's moves, not the player's: counted apart (``finish_ply``), and the
    win is one won with help. ``hints``: as many hints counted on the game, in the same write."""
    was = Before.of(game)
    position = game.position()
    with refusals(game):
        gap = pace.gap(game.updated_at)
        turn = take_turn(position, moves)
    game.finish_ply += len(moves)
    game.hint_count += hints
    game.redo = []
    changed = _changed(turn)
    _save(owner, game, turn, gap, fields=(*PLAY_FIELDS, "hint_count") if hints else PLAY_FIELDS)
    return Outcome(game, position, Event.FINISHED, turn.played, changed, was)


# -- reading and writing --------------------------------------------------------------------


def read_for_play(owner: Owner, public_id: str, ply: int | None, version: int | None) -> Game:
    """The owner's game as every action reads it (the assist services too): read now; refuses
    a finished game and a stale board.

    A board is stale when its ``ply`` is not the game's, or its ``version`` (when the request
    says it) is not: the same ply after an undo and another move is another board.
    """
    game = store.read_game(owner, public_id)
    if game.is_finished:
        raise GameOver(game)
    if (ply is not None and ply != game.ply) or (version is not None and version != game.version):
        raise StalePly(game)
    return game


def _changed(turn: Turn) -> frozenset[str] | None:
    """The piles the turn's moves touched, when the game stays in play (None otherwise: the
    answer draws the whole board)."""
    return turn.piles if turn.status == Game.Status.PLAYING else None


def _save(
    owner: Owner,
    game: Game,
    turn: Turn | None,
    gap: Gap,
    *,
    cut: int | None = None,
    fields: Sequence[str] = PLAY_FIELDS,
) -> None:
    """Store what ``turn`` left (None: the position as it was, the game given up) as the
    game's snapshot, ply, status and certain win, and the turn's moves as the log's next rows;
    or, after an undo or a restart, the log ``cut`` after that ply. With them, the clock run
    over the action's ``gap`` and the rest of the game's ``fields``; all of it if the game is
    still at the version it was read at, else nothing, and ``StalePly`` with the game as it
    is."""
    rows = []
    if turn is not None:
        game.status, game.snapshot, game.ply = turn.status, turn.text, turn.ply
        game.finish = turn.finish
        if cut is None:
            first = turn.ply - len(turn.played) + 1
            rows = [
                store.NewMove(ply, str(p.move), p.automatic, turn.checkpoints.get(ply, ""))
                for ply, p in enumerate(turn.played, first)
            ]
            game.move_count += len(rows)
            game.automatic_ply += turn.automatic
    read_at = game.version
    game.milliseconds_played += gap.milliseconds
    game.updated_at = gap.now
    if game.first_move_at is None and game.move_count:
        game.first_move_at = gap.now
    game.version += 1
    # A stuck game has finished until an undo or a restart brings it back to playing: the
    # statistics count it as lost, and its streaks run in the order games finished.
    game.finished_at = None if game.status == Game.Status.PLAYING else gap.now
    if not store.save_play(owner, game, fields, read_at, rows, cut):
        raise StalePly(store.read_game(owner, game.public_id))
