"""A game checked against the replay of its log: what ``manage.py check_games`` reports.

A game is its deal and its move log; everything else stored on its row, and the checkpoints on
its move rows, are derived from them or bounded by them. ``check_game`` replays the log from
the deal's first position and says, one line each, what disagrees (see check_games for the
list); every checkpoint must be the replayed position after its move.
"""

from collections import Counter

from .models import Game
from .rules import (
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
from .rules.turn import CHECKPOINT_EVERY

#: What Status the stored row must have for each status of the replayed position.
STORED_FOR = {WON: Game.Status.WON, STUCK: Game.Status.STUCK, PLAYING: Game.Status.PLAYING}


def check_game(game: Game, log: list[tuple]) -> list[str]:
    """What in ``game``'s row disagrees with replaying ``log`` from its deal, one line each.

    ``log``: the game's move rows in ply order, each (ply, notation, automatic) and optionally
    its checkpoint (the stored position after the move, or empty)."""
    problems: list[str] = []
    say = problems.append

    # The log itself: plies 1..n, each once, and n is the game's ply.
    plies = [entry[0] for entry in log]
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
    # The automatic moves the log starts with are the deal's (aces dealt face up sent home):
    # no action of the player's played them.
    dealt = next((n for n, entry in enumerate(log) if not entry[2]), len(log))
    for n, (ply, text, automatic, *stored) in enumerate(log, 1):
        try:
            move = Move.parse(text)
            position.play(move)
        except (MoveSyntaxError, IllegalMove) as e:
            say(f"move {n} (ply {ply}) {text!r}: illegal: {e}")
            legal = False
            break
        if automatic and not text.partition("-")[2].startswith("f"):
            say(f"move {n} (ply {ply}) {text!r}: marked automatic, but it does not go home")
        checkpoint = stored[0] if stored else ""
        if checkpoint and checkpoint != position.text():
            say(f"move {n} (ply {ply}): checkpoint is not the replayed position after it")
        elif checkpoint and ply % CHECKPOINT_EVERY:
            say(f"move {n} (ply {ply}): a checkpoint off the every-{CHECKPOINT_EVERY}th ply")
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
    played_at_least = len(log) - dealt + redo_moves
    if game.move_count < played_at_least:
        say(
            f"move_count: stored {game.move_count}, replayed at least {played_at_least} "
            f"({len(log) - dealt} in the log after the deal's + {redo_moves} to redo)"
        )
    automatic = sum(1 for entry in log if entry[2])
    if game.automatic_ply != automatic:
        say(f"automatic_ply: stored {game.automatic_ply}, replayed {automatic}")
    # Finish ends a game won: its moves are the log's last, none of them automatic.
    if game.finish_ply and (
        game.status != Game.Status.WON
        or game.finish_ply > len(log)
        or any(entry[2] for entry in log[len(log) - game.finish_ply :])
    ):
        say(
            f"finish_ply: stored {game.finish_ply}, not the last moves of a won game's log "
            "(none of them automatic)"
        )

    # The certain win kept for Finish: it must win from the replayed position.
    if game.finish:
        ahead = position.copy()
        try:
            for text in game.finish:
                ahead.play(Move.parse(text))
        except (MoveSyntaxError, IllegalMove, TypeError) as e:
            say(f"finish: stored moves do not play from the replayed position: {e}")
        else:
            if not ahead.is_won():
                say("finish: stored moves do not win from the replayed position")
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
