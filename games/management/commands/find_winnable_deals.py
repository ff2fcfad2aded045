"""``manage.py find_winnable_deals GAME [--start N] [--count C] [--seconds S] [--queue]``: top up
the winnable deals that "Only deals that can be won" deals from, by hand."""

import secrets

from django.core.management.base import BaseCommand, CommandError

from games.rules import VARIANTS
from games.services import assist, searches, winnability
from games.tasks import find_winnable_deals


class Command(BaseCommand):
    help = (
        "Search COUNT deals of GAME from START (default: a random deal) for wins, S seconds "
        "each, and store each win whose moves replay to a win. With --queue, leave the search "
        "to the background worker instead of running it here."
    )

    def add_arguments(self, parser):
        parser.add_argument("game", help="a game id: " + ", ".join(VARIANTS))
        parser.add_argument("--start", type=int, default=None, help="the first deal to try")
        parser.add_argument("--count", type=int, default=20, help="how many deals (default 20)")
        parser.add_argument("--seconds", type=float, default=2.0, help="per deal (default 2)")
        parser.add_argument("--queue", action="store_true", help="queue it for the worker")

    def handle(self, *args, game, start, count, seconds, queue, **options):
        if game not in VARIANTS:
            raise CommandError(f'unknown game "{game}" (games: {", ".join(VARIANTS)})')
        if count < 1 or seconds <= 0 or (start is not None and start < 1):
            raise CommandError("--count and --seconds must be above 0, --start at least 1")
        start = start if start is not None else secrets.randbelow(10**9 - count) + 1
        if queue:
            find_winnable_deals.using(priority=-10).enqueue(game, start, count, seconds)
            self.stdout.write(f"queued: {game} deals {start} to {start + count - 1}")
            return
        found = winnability.search_deals(game, start, count, seconds)  # each answer recorded
        stored = searches.store_winnable(game, found)
        known = len(assist.winnable_deals(game))
        self.stdout.write(
            f"{game}: tried deals {start} to {start + count - 1}, stored {len(stored)} new "
            f"winnable deals ({', '.join(map(str, stored)) or 'none'}); {known} known in all"
        )
