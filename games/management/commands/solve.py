"""``manage.py solve GAME NUMBER [--seconds S] [--record PATH]``: search a deal for a win."""

import math
import os
from pathlib import Path

from django.core.management.base import BaseCommand

from games.management.commands.deal import fail
from games.rules import MAX_DEAL, MIN_DEAL, VARIANTS, Record, first_position, is_deal_number
from games.rules.solver import WON, solve


class Command(BaseCommand):
    help = (
        "Search deal NUMBER of GAME for a win within S seconds and print the result: won "
        "(with --record PATH, the winning game is written there as a game record), lost "
        "(proved) or unknown."
    )

    def add_arguments(self, parser):
        parser.add_argument("game", help="a game id: " + ", ".join(VARIANTS))
        parser.add_argument("number", help=f"a deal number from {MIN_DEAL} to {MAX_DEAL}")
        parser.add_argument("--seconds", default="10", help="the time budget (default 10)")
        parser.add_argument("--record", default=None, help="where to write the winning record")

    def handle(self, *args, game: str, number: str, seconds: str, record: str | None, **opts):
        if game not in VARIANTS:
            fail(f'unknown game "{game}" (games: {", ".join(VARIANTS)})')
        deal = int(number) if number.isascii() and number.isdigit() else None
        if not is_deal_number(deal):
            fail(f'bad deal number "{number}": a whole number from {MIN_DEAL} to {MAX_DEAL}')
        try:
            budget = float(seconds)
        except ValueError:
            budget = math.nan
        if not (math.isfinite(budget) and budget > 0):
            fail(f'bad seconds "{seconds}": a number of seconds above 0')
        if record is not None and not _writable(record):
            fail(f'cannot write "{record}": not a writable file path')
        result = solve(first_position(VARIANTS[game], deal), seconds=budget)
        if record is not None and result.status == WON:
            text = Record(game, deal, [str(m) for m in result.moves]).to_json() + "\n"
            try:
                Path(record).write_text(text, encoding="utf-8")
            except OSError as e:
                fail(f'cannot write "{record}": {e.strerror or e}')
        self.stdout.write(f"result: {result.status}")
        self.stdout.write(f"moves: {len(result.moves)}")
        self.stdout.write(f"nodes: {result.nodes}")
        self.stdout.write(f"seconds: {result.seconds:.2f}")


def _writable(path: str) -> bool:
    """Whether a file can be written at ``path`` (without creating it yet)."""
    p = Path(path)
    if p.is_dir():
        return False
    if p.exists():
        return os.access(p, os.W_OK)
    parent = p.parent if str(p.parent) else Path(".")
    return parent.is_dir() and os.access(parent, os.W_OK | os.X_OK)
