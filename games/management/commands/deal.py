"""``manage.py deal GAME NUMBER``: print the first position of a deal (NOTATION.md)."""

import sys

from django.core.management.base import BaseCommand

from games.rules import MAX_DEAL, MIN_DEAL, VARIANTS, first_position, is_deal_number


class Command(BaseCommand):
    help = "Print the first position of deal NUMBER of GAME, in the notation's position text."

    def add_arguments(self, parser):
        parser.add_argument("game", help="a game id: " + ", ".join(VARIANTS))
        parser.add_argument("number", help=f"a deal number from {MIN_DEAL} to {MAX_DEAL}")

    def handle(self, *args, game: str, number: str, **options):
        if game not in VARIANTS:
            fail(f'unknown game "{game}" (games: {", ".join(VARIANTS)})')
        deal = int(number) if number.isascii() and number.isdigit() else None
        if not is_deal_number(deal):
            fail(f'bad deal number "{number}": a whole number from {MIN_DEAL} to {MAX_DEAL}')
        self.stdout.write(first_position(VARIANTS[game], deal).text())


def fail(message: str) -> None:
    """One line on standard error and exit status 1, as NOTATION.md asks of the commands."""
    sys.stderr.write(message + "\n")
    sys.stderr.flush()
    raise SystemExit(1)
