"""Playing a game: start, move, send to a foundation, undo, redo, restart, give up, finish.

Every action names its game by owner and public id and reads it in one query, by the
ownership rule (a game of someone else's is ``Game.DoesNotExist``). It checks the board the
player saw (its ply and version), asks the engine, and writes the game and its log only if the
game is still at the version it read: one concurrency rule for every write. A lost race, or a
board another window moved on, raises ``StalePly`` with the game as it now is; nothing is
written. Each action returns facts (``Outcome``), which the web layer words and draws.

The move log plus the deal is the truth: the snapshot is rewritten from the engine's position
after every change, so it always equals replaying the log; every ``CHECKPOINT_EVERY``-th move
row keeps the position after it, so that an undo starts from there, not from the deal.

The clock (``_tick``) adds every gap between two of the player's actions, to the millisecond,
from the later of the last action and the drawing of the board acted on, less the time the
page says it was hidden (``away``, sent by static/js/clock.js) down to a person's action at
least (games/pace.py), and at most ``IDLE`` a gap. After every change that leaves the game in
play, the engine's ``sure_win`` looks for a win that is certain; the game keeps its moves
(``finish``) for the Finish button.
"""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime, timedelta

from django.db import transaction

from solitaire import clock

from .. import store
from ..models import CHECKPOINT_EVERY, IDLE, MAX_PLY, Game
from ..models import Move as MoveRow
from ..outcomes import (
    Before,
    Event,
    GameOver,
    NoSureWin,
    NothingToRedo,
    NothingToUndo,
    NotOnAFoundation,
    Outcome,
    Refused,
    StalePly,
    TooLong,
)
from ..owners import Owner
from ..pace import NO_PACE, Pace, counted_gap
from ..rules import (
    IllegalMove,
    Kept,
    Move,
    Position,
    Record,
    first_position,
    get_variant,
    replay,
)
from ..rules.autoplay import next_safe_move
from ..rules.certain import goes_home, sure_win
from ..rules.moves import pile_name
from ..rules.played import Played, moving_card, split_move
from ..rules.played import play as play_one

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
    variant = get_variant(variant_id)
    position = first_position(variant, deal)
    played = []
    if autoplay is not None and _autoplay_on(autoplay, variant_id, variant.devils):
        while move := next_safe_move(position):
            played.append(play_one(position, move, automatic=True))
    game = Game.objects.create(
        **_owned(owner),
        variant=variant_id,
        deal=str(deal),
        snapshot=position.text(),
        status=position.status,
        ply=len(played),
        automatic_ply=len(played),
        finish=sure_win(position),
    )
    if played:
        replayed = first_position(variant, deal)
        rows = []
        for ply, p in enumerate(played, 1):
            replayed.play(p.move)
            rows.append(
                MoveRow(
                    game=game,
                    ply=ply,
                    notation=str(p.move),
                    automatic=True,
                    checkpoint=_checkpoint(replayed),
                )
            )
        MoveRow.objects.bulk_create(rows)
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
    status = final.status
    game = Game.objects.create(
        **_owned(owner),
        variant=record.variant,
        deal=str(record.deal),
        snapshot=final.text(),
        status=status,
        ply=len(record.moves),
        automatic_ply=len(automatic),
        finish_ply=kept.finish,
        move_count=len(record.moves) - dealt,
        milliseconds_played=kept.milliseconds,
        hint_count=kept.hints,
        undo_count=kept.undos,
        # Every undo changed the game once: its version counts them.
        version=kept.undos,
        first_move_at=now if len(record.moves) > dealt else None,
        finished_at=None if status == Game.Status.PLAYING else now,
        finish=sure_win(final) if status == Game.Status.PLAYING else [],
    )
    position = first_position(get_variant(record.variant), record.deal)
    rows = []
    for ply, text in enumerate(record.moves, 1):
        position.play(Move.parse(text))
        rows.append(
            MoveRow(
                game=game,
                ply=ply,
                notation=text,
                automatic=ply in automatic,
                checkpoint=_checkpoint(position),
            )
        )
    MoveRow.objects.bulk_create(rows, batch_size=500)
    return game


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


def play(
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
    position = game.position()
    reason = position.check(move)
    if reason is not None:
        raise Refused(game, reason)
    on = autoplay_on(autoplay, game)
    return _play_moves(owner, game, position, [move], autoplay=on, pace=pace)


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
    for move in position.legal_moves():
        source, count, target = split_move(move)
        if (source, count) == wanted and target.startswith("f"):
            on = autoplay_on(autoplay, game)
            return _play_moves(owner, game, position, [move], autoplay=on, pace=pace)
    raise NotOnAFoundation(game, moving_card(position, *wanted))


def autoplay_on(settings: Mapping[str, bool], game: Game) -> bool:
    """Whether automatic moves follow a move in ``game``: the player's setting for its game
    type, on by default except in Forty Devils (whose left foundations play back)."""
    return _autoplay_on(settings, game.variant, game.rules.devils)


def _autoplay_on(settings: Mapping[str, bool], variant_id: str, devils: bool) -> bool:
    setting = settings.get(variant_id)
    return setting if isinstance(setting, bool) else not devils


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
    ahead = position.copy()
    taken_back = [play_one(ahead, move, automatic=n > 0) for n, move in enumerate(group)]
    game.redo = [*game.redo, [str(move) for move in group]]
    game.undo_count += 1
    game.automatic_ply -= len(group) - 1
    _save(owner, game, position, after=before, pace=pace)
    changed = _piles(group) if was_playing else None
    return Outcome(game, position, Event.UNDONE, taken_back, _still_playing(game, changed), was)


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
    """Play again the last group of moves undone (nothing else was played since)."""
    game = read_for_play(owner, public_id, ply, version)
    if not game.redo:
        raise NothingToRedo(game)
    group = [Move.parse(text) for text in game.redo[-1]]
    was = Before.of(game)
    game.redo = game.redo[:-1]
    return _play_moves(
        owner,
        game,
        game.position(),
        group,
        autoplay=False,
        event=Event.REDONE,
        before=was,
        pace=pace,
    )


def restart(
    owner: Owner, public_id: str, ply: int, version: int | None, *, pace: Pace = NO_PACE
) -> Outcome:
    """Back to the deal's first position, after the deal's automatic moves if it had some;
    the clock and the counters keep running."""
    game = read_for_play(owner, public_id, ply, version)
    position = first_position(game.rules, game.deal_number)
    dealt = 0
    if game.automatic_ply:
        # The log's first moves, up to the player's first: the deal's automatic moves.
        head = game.moves.filter(ply__lte=LONGEST_GROUP).order_by("ply")
        for notation, automatic in head.values_list("notation", "automatic"):
            if not automatic:
                break
            position.play(Move.parse(notation))
            dealt += 1
    game.redo = []
    game.automatic_ply = dealt
    _save(owner, game, position, after=dealt, pace=pace)
    return Outcome(game, position, Event.RESTARTED)


def give_up(
    owner: Owner, public_id: str, ply: int, version: int | None, *, pace: Pace = NO_PACE
) -> Outcome:
    """End the game as given up, where it stands."""
    game = read_for_play(owner, public_id, ply, version)
    position = game.position()
    _save(owner, game, position, pace=pace, ending=Game.Status.GIVEN_UP)
    return Outcome(game, position, Event.GIVEN_UP)


def play_out(
    owner: Owner, game: Game, moves: Sequence[Move], *, pace: Pace = NO_PACE, hints: int = 0
) -> Outcome:
    """Play ``moves`` (each checked by the engine) on ``game`` as just read, all in one write
    conditional on its version: ``play_certain_win`` and the assist services'
    ``play_found_win``. ``Refused`` if the engine refuses one. They are Finish's moves, not
    the player's: counted apart (``finish_ply``), and the win is one won with help.
    ``hints``: as many hints counted on the game, in the same write."""
    fields = PLAY_FIELDS
    game.finish_ply += len(moves)
    if hints:
        game.hint_count += hints
        fields += ("hint_count",)
    try:
        return _play_moves(
            owner,
            game,
            game.position(),
            list(moves),
            autoplay=False,
            event=Event.FINISHED,
            pace=pace,
            fields=fields,
        )
    except IllegalMove as e:
        raise Refused(game, e.reason) from None


def play_certain_win(
    owner: Owner, public_id: str, ply: int, version: int | None, *, pace: Pace = NO_PACE
) -> Outcome:
    """Play out the certain win found after the last change (``Game.finish``), from the board
    the player saw: the game ends won, or nothing changes (``NoSureWin`` when none is known)."""
    game = read_for_play(owner, public_id, ply, version)
    if not game.finish:
        raise NoSureWin(game)
    return play_out(owner, game, [Move.parse(text) for text in game.finish], pace=pace)


# -- helpers --------------------------------------------------------------------------------


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


def _play_moves(
    owner: Owner,
    game: Game,
    position: Position,
    moves: list[Move],
    *,
    autoplay: bool,
    event: Event = Event.MOVED,
    before: Before | None = None,
    pace: Pace = NO_PACE,
    fields: Sequence[str] = PLAY_FIELDS,
) -> Outcome:
    """Play ``moves`` (the first the player's; in a redo the rest are automatic), then safe
    moves home if ``autoplay``, as long as the log has room; store them all (the game's
    ``fields``). ``before``: what ``Outcome.before`` says, from before the action (if it
    changed it already)."""
    played: list[Played] = []
    was = before or Before.of(game)
    redone = event is Event.REDONE
    for n, move in enumerate(moves):
        played.append(play_one(position, move, automatic=redone and n > 0))
    while autoplay and position.moves < MAX_PLY and (move := next_safe_move(position)):
        played.append(play_one(position, move, automatic=True))
    if position.moves > MAX_PLY:
        raise TooLong(game)
    first = position.moves - len(played) + 1
    rows = [store.NewMove(first + n, str(p.move), p.automatic) for n, p in enumerate(played)]
    if position.moves // CHECKPOINT_EVERY > (first - 1) // CHECKPOINT_EVERY:
        # A checkpoint's ply is among these: its position is the one after it.
        rows = _with_checkpoints(game, position, rows)
    if not redone:
        game.redo = []
    game.move_count += len(rows)
    game.automatic_ply += sum(p.automatic for p in played)
    _save(owner, game, position, rows, pace=pace, fields=fields)
    changed = _piles(p.move for p in played)
    return Outcome(game, position, event, played, _still_playing(game, changed), was)


def _with_checkpoints(game: Game, after: Position, rows: list[store.NewMove]) -> list:
    """``rows`` with the position after each checkpoint's ply among them (replayed from the
    game's snapshot, which is the position before the first)."""
    position = game.position()
    out = []
    for row in rows:
        position.play(Move.parse(row.notation))
        out.append(row._replace(checkpoint=_checkpoint(position)))
    return out


def _checkpoint(position: Position) -> str:
    return position.text() if position.moves % CHECKPOINT_EVERY == 0 else ""


def _piles(moves: Iterable[Move]) -> frozenset[str]:
    """The piles ``moves`` take cards from and put them on (a deal: the stock and the waste)."""
    return frozenset(name for move in moves for name in (pile_name(move.src), pile_name(move.dst)))


def _still_playing(game: Game, changed: frozenset[str] | None) -> frozenset[str] | None:
    return changed if game.status == Game.Status.PLAYING else None


def _tick(game: Game, now: datetime, pace: Pace) -> None:
    """Run the game's clock up to ``now``: the gap since the last action (or since the board
    was drawn, if later), to the millisecond, less the milliseconds the page was hidden in it
    down to a person's action at least (games/pace.py), at most ``IDLE``."""
    since_drawn = None if pace.drawn is None else now - pace.drawn
    gap = counted_gap(now - game.updated_at, since_drawn, pace.away)
    game.milliseconds_played += min(gap, IDLE) // timedelta(milliseconds=1)
    game.updated_at = now


def _save(
    owner: Owner,
    game: Game,
    position: Position,
    rows: Sequence[store.NewMove] = (),
    *,
    after: int | None = None,
    pace: Pace = NO_PACE,
    fields: Sequence[str] = PLAY_FIELDS,
    ending: str | None = None,
) -> None:
    """Store ``position`` as the game's snapshot, with its ply, status, times and certain win
    (and the rest of its ``fields``), and ``rows`` as its new moves (``after``: its moves past
    this ply deleted first), if the game is still at the version it was read at; else nothing,
    and ``StalePly`` with the game as it is. ``ending``: the status the player gives the game
    (given up), rather than the position's."""
    read_at = game.version
    now = clock.now()
    _tick(game, now, pace)
    if game.first_move_at is None and game.move_count:
        game.first_move_at = now
    # The status asks for the legal moves: once, for the snapshot and the game alike.
    played_status = position.status
    game.status = ending or played_status
    game.snapshot = position.text(status=played_status)
    game.ply = position.moves
    game.version += 1
    game.finish = sure_win(position) if game.status == Game.Status.PLAYING else []
    # A stuck game has finished until an undo or a restart brings it back to playing: the
    # statistics count it as lost, and its streaks run in the order games finished.
    game.finished_at = None if game.status == Game.Status.PLAYING else now
    if not store.save_play(owner, game, fields, read_at, rows, after):
        raise StalePly(store.read_game(owner, game.public_id))
