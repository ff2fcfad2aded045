"""``manage.py check_games [--game ID] [--batch-size N]``: replay every stored game and compare.

A game is its deal and its move log; everything else stored on its row is derived from them or
bounded by them. For each game this replays the Move rows, in ply order, from the deal's first
position (``first_position(variant, deal)``) and reports, one line each, what disagrees:

- the plies of the log are not exactly 1..``ply`` (a gap, a duplicate, a row past ``ply``);
- a logged move is not a move, or the rules refuse it where it stands;
- the snapshot (the position text) is not the replayed position's text, line by line;
- the status: ``won`` and ``stuck`` and ``playing`` must be the replayed position's own status,
  and a game given up must not be a won position;
- the counters: ``ply`` is the log's length; ``move_count`` counts every move ever played, so it
  is at least the log plus the moves waiting to be redone; ``undo_count`` is at least the number
  of groups waiting to be redone; ``version`` counts every change, so at least every undo (and
  the giving up); the redo stack must replay, last group first, from the replayed position;
- the dates that follow from the counters: a first move time exactly when a move was ever
  played, a finish time exactly when the game is not being played;
- the automatic flags: the first move is the player's, and an automatic move goes home.

A game started from a pasted record (``services.start_from_record``) has no other starting
point: its row keeps the deal and the record's moves are its first Move rows (all played by
the player, ``version`` 0), so it is checked from the deal like any other game.

The hint counter, the clock and the times of the other events are not derived from the log and
are not checked. Games are read ``--batch-size`` at a time in primary key order, each batch's
moves in one query, so a large table is never all in memory; the site may keep playing
meanwhile: a game that seems not to match is read again, row and log in one transaction,
before it is reported.

Each mismatch is one line on standard output: ``<game id>: <what>: stored <x>, replayed <y>``.
With any mismatch the command ends with an error (exit status 1); else it prints
``checked N games, no mismatch``.
"""

from collections import Counter, defaultdict
from collections.abc import Iterator

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from games.models import Game
from games.models import Move as MoveRow
from games.rules import (
    PLAYING,
    STUCK,
    VARIANTS,
    WON,
    IllegalMove,
    Move,
    MoveSyntaxError,
    first_position,
    is_deal_number,
)

#: What Status the stored row must have for each status of the replayed position.
STORED_FOR = {WON: Game.Status.WON, STUCK: Game.Status.STUCK, PLAYING: Game.Status.PLAYING}


class Command(BaseCommand):
    help = (
        "Replay every game's move log from its deal and compare it with the stored game: the "
        "snapshot, ply, counters, status and the log itself. Prints one line per mismatch and "
        "exits 1 if there is any."
    )

    def add_arguments(self, parser):
        parser.add_argument("--game", metavar="ID", help="check only the game with this id")
        parser.add_argument(
            "--batch-size",
            type=int,
            default=500,
            metavar="N",
            help="how many games to read at a time (default 500)",
        )

    def handle(self, *args, game: str | None = None, batch_size: int = 500, **options):
        if batch_size < 1:
            raise CommandError("--batch-size must be at least 1")
        games = Game.objects.all()
        if game is not None:
            games = games.filter(public_id=game)
            if not games.exists():
                raise CommandError(f'there is no game "{game}"')
        checked = mismatches = 0
        for row, log in _batches(games, batch_size):
            checked += 1
            problems = check_game(row, log)
            if problems:
                # The game's row and its moves were read by two queries: a move played in
                # between is no mismatch. Read both again in one transaction and look again.
                problems = _check_again(row.pk)
            for problem in problems:
                mismatches += 1
                self.stdout.write(f"{row.public_id}: {problem}")
        noun = "game" if checked == 1 else "games"
        if mismatches:
            raise CommandError(f"checked {checked} {noun}, {mismatches} mismatch(es)")
        self.stdout.write(f"checked {checked} {noun}, no mismatch")


def _batches(games, size: int) -> Iterator[tuple[Game, list[tuple[int, str, bool]]]]:
    """Each game with its log (ply, notation, automatic) in ply order, ``size`` games a query.

    Keyset pages on the primary key: each page is one query for its games and one for their
    moves, whatever the size of the table.
    """
    last = 0
    while True:
        page = list(games.filter(pk__gt=last).order_by("pk")[:size])
        if not page:
            return
        logs: dict[int, list[tuple[int, str, bool]]] = defaultdict(list)
        rows = (
            MoveRow.objects.filter(game_id__in=[g.pk for g in page])
            .order_by("game_id", "ply", "pk")
            .values_list("game_id", "ply", "notation", "automatic")
        )
        for game_id, ply, notation, automatic in rows.iterator(chunk_size=2000):
            logs[game_id].append((ply, notation, automatic))
        for game in page:
            yield game, logs.pop(game.pk, [])
        last = page[-1].pk


def _check_again(pk: int) -> list[str]:
    """The problems of game ``pk`` read afresh, its row and log in one transaction."""
    with transaction.atomic():
        game = Game.objects.filter(pk=pk).first()
        if game is None:  # deleted since: nothing to compare
            return []
        rows = game.moves.order_by("ply", "pk").values_list("ply", "notation", "automatic")
        return check_game(game, list(rows))


def check_game(game: Game, log: list[tuple[int, str, bool]]) -> list[str]:
    """What in ``game``'s row disagrees with replaying ``log`` from its deal, one line each."""
    problems: list[str] = []
    say = problems.append

    # The log itself: plies 1..n, each once, and n is the game's ply.
    plies = [ply for ply, _text, _auto in log]
    if plies != list(range(1, len(plies) + 1)):
        counts = Counter(plies)
        top = max([game.ply, *plies])
        missing = [p for p in range(1, top + 1) if p not in counts]
        twice = sorted(p for p, n in counts.items() if n > 1)
        if missing:
            say(f"log: plies missing {_list(missing)}: stored log has plies {_span(plies)}")
        if twice:
            say(f"log: plies logged more than once {_list(twice)}")
        if 0 in counts:
            say("log: a move has ply 0")
    if game.ply != len(log):
        say(f"ply: stored {game.ply}, replayed {len(log)} (moves in the log)")
    elif plies and plies[-1] != game.ply:
        say(f"ply: stored {game.ply}, replayed last logged ply {plies[-1]}")

    # The deal.
    variant = VARIANTS.get(game.variant)
    deal = int(game.deal) if game.deal.isascii() and game.deal.isdigit() else None
    if variant is None:
        say(f"variant: stored {game.variant!r} is not a game")
        return problems
    if not is_deal_number(deal):
        say(f"deal: stored {game.deal!r} is not a deal number")
        return problems

    # Replay the log.
    position = first_position(variant, deal)
    legal = True
    for n, (ply, text, automatic) in enumerate(log, 1):
        if automatic and n == 1:
            say(
                f"move {n} (ply {ply}) {text!r}: marked automatic, but a game's first move is "
                "the player's"
            )
        try:
            move = Move.parse(text)
            position.play(move)
        except (MoveSyntaxError, IllegalMove) as e:
            say(f"move {n} (ply {ply}) {text!r}: illegal: {e}")
            legal = False
            break
        if automatic and not text.partition("-")[2].startswith("f"):
            say(f"move {n} (ply {ply}) {text!r}: marked automatic, but it does not go home")
    if not legal:
        # Nothing after an illegal move can be compared.
        return problems

    # The snapshot, line by line.
    replayed_text = position.text()
    if game.snapshot != replayed_text:
        stored_lines = game.snapshot.split("\n")
        replayed_lines = replayed_text.split("\n")
        shown = 0
        for k in range(max(len(stored_lines), len(replayed_lines))):
            a = stored_lines[k] if k < len(stored_lines) else "(none)"
            b = replayed_lines[k] if k < len(replayed_lines) else "(none)"
            if a != b:
                key = (b if b != "(none)" else a).partition(":")[0]
                say(f"snapshot line {k + 1} ({key}): stored {a!r}, replayed {b!r}")
                shown += 1
        if not shown:  # differs only in trailing whitespace or line ends
            say(f"snapshot: stored {game.snapshot!r}, replayed {replayed_text!r}")

    # The status.
    status = position.status
    if game.status == Game.Status.GIVEN_UP:
        if status == WON:
            say(f"status: stored {game.status}, replayed {status} (a won game is not given up)")
    elif game.status != STORED_FOR[status]:
        say(f"status: stored {game.status}, replayed {status}")

    # The redo stack: the groups undone, the next to redo last, each playable in turn.
    redo_moves = 0
    groups = game.redo if isinstance(game.redo, list) else None
    if groups is None or not all(
        isinstance(g, list) and g and all(isinstance(t, str) for t in g) for g in groups
    ):
        say(f"redo: stored {game.redo!r} is not a list of lists of moves")
        groups = []
    ahead = position.copy()
    for depth, group in enumerate(reversed(groups), 1):
        try:
            for text in group:
                ahead.play(Move.parse(text))
        except (MoveSyntaxError, IllegalMove) as e:
            say(f"redo: group {depth} to redo {group!r} does not play after the log: {e}")
            break
        redo_moves += len(group)

    # The counters.
    played_at_least = len(log) + redo_moves
    if game.move_count < played_at_least:
        say(
            f"move_count: stored {game.move_count}, replayed at least {played_at_least} "
            f"({len(log)} in the log + {redo_moves} to redo)"
        )
    if game.undo_count < len(groups):
        say(
            f"undo_count: stored {game.undo_count}, "
            f"replayed at least {len(groups)} (groups to redo)"
        )
    changes = game.undo_count + (game.status == Game.Status.GIVEN_UP)
    if game.version < changes:
        say(f"version: stored {game.version}, replayed at least {changes} (undos and giving up)")

    # The dates the counters imply.
    if (game.first_move_at is None) != (game.move_count == 0):
        stored = "none" if game.first_move_at is None else game.first_move_at.isoformat()
        expected = "none" if game.move_count == 0 else "a time"
        say(f"first_move_at: stored {stored}, replayed {expected} ({game.move_count} moves played)")
    if (game.finished_at is None) != (game.status == Game.Status.PLAYING):
        stored = "none" if game.finished_at is None else game.finished_at.isoformat()
        expected = "none" if game.status == Game.Status.PLAYING else "a time"
        say(f"finished_at: stored {stored}, replayed {expected} (status {game.status})")
    return problems


def _list(plies: list[int], most: int = 10) -> str:
    shown = ", ".join(map(str, plies[:most]))
    return shown + (f" and {len(plies) - most} more" if len(plies) > most else "")


def _span(plies: list[int]) -> str:
    return f"{min(plies)}..{max(plies)} ({len(plies)} rows)" if plies else "none"
