"""``manage.py check_games [--game ID] [--batch-size N]``: replay every stored game and compare.

A game is its deal and its move log; everything else stored on its row is derived from them or
bounded by them. For each game this replays the Move rows, in ply order, from the deal's first
position (``first_position(variant, deal)``) and reports, one line each, what disagrees:

- the plies of the log are not exactly 1..``ply`` (a gap, a duplicate, a row past ``ply``);
- a logged move is not a move, or the rules refuse it where it stands;
- the snapshot (the position text) is not the replayed position's text, line by line;
- the status: ``won`` and ``stuck`` and ``playing`` must be the replayed position's own status,
  and a game given up must not be a won position;
- the counters: ``ply`` is the log's length; ``automatic_ply`` its automatic moves;
  ``finish_ply`` (the moves Finish played) the last of a won game's log, none automatic;
  ``move_count`` counts every move ever played after the deal's automatic moves, so it is at
  least the log (less those) plus the moves waiting to be redone; ``undo_count`` is at least
  the number of groups waiting to be redone; ``version`` counts every change, so at least every
  undo (and the giving up); the redo stack must replay, last group first, from the replayed
  position;
- the dates that follow from the counters: a first move time exactly when a move was ever
  played, a finish time exactly when the game is not being played;
- the automatic flags: an automatic move goes home (those the log starts with are the deal's);
- the certain win kept for Finish (``finish``) plays to a win from the replayed position.

A game started from a pasted record (``services.start_from_record``) has no other starting
point: its row keeps the deal and the record's moves are its first Move rows (the player's,
but for those the record marks automatic or played by Finish; ``version`` 0), so it is
checked from the deal like any other game.

The hint counter, the clock and the times of the other events are not derived from the log and
are not checked. Games are read ``--batch-size`` at a time in primary key order, each batch's
moves in one query, so a large table is never all in memory; the site may keep playing
meanwhile: a game that seems not to match is read again, row and log in one transaction,
before it is reported.

Each mismatch is one line on standard output: ``<game id>: <what>: stored <x>, replayed <y>``.
With any mismatch the command ends with an error (exit status 1); else it prints
``checked N games, no mismatch``.
"""

from collections import defaultdict
from collections.abc import Iterator

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from games.integrity import check_game
from games.models import Game
from games.models import Move as MoveRow


class Command(BaseCommand):
    help = (
        "Replay every game's move log from its deal and compare it with the stored game: the "
        "snapshot, ply, counters, status and the log itself. Prints one line per mismatch and "
        "exits 1 if there is any."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--game",
            metavar="ID",
            help="check only the game with this id (--game=ID when it starts with a dash)",
        )
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


def _batches(games, size: int) -> Iterator[tuple[Game, list[tuple]]]:
    """Each game with its log (ply, notation, automatic) in ply order, ``size`` games a query.

    Keyset pages on the primary key: each page is one query for its games and one for their
    moves, whatever the size of the table.
    """
    last = 0
    while True:
        page = list(games.filter(pk__gt=last).order_by("pk")[:size])
        if not page:
            return
        logs: dict[int, list[tuple]] = defaultdict(list)
        rows = (
            MoveRow.objects.filter(game_id__in=[g.pk for g in page])
            .order_by("game_id", "ply", "pk")
            .values_list("game_id", "ply", "notation", "automatic", "checkpoint")
        )
        for game_id, *row in rows.iterator(chunk_size=2000):
            logs[game_id].append(tuple(row))
        for game in page:
            yield game, logs.pop(game.pk, [])
        last = page[-1].pk


def _check_again(pk: int) -> list[str]:
    """The problems of game ``pk`` read afresh, its row and log in one transaction."""
    with transaction.atomic():
        game = Game.objects.filter(pk=pk).first()
        if game is None:  # deleted since: nothing to compare
            return []
        rows = game.log.order_by("ply", "pk").values_list(
            "ply", "notation", "automatic", "checkpoint"
        )
        return check_game(game, list(rows))
