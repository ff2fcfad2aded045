"""``manage.py winnability GAME [--deals N] [--seconds T] [--start S]``: how winnable a game is,
in bulk: search N fresh deals at T seconds each and record each answer (the figures the rules
page and the game's winnability page show)."""

import math

from django.core.management.base import BaseCommand, CommandError

from games.models import DealSearch
from games.rules import MAX_DEAL, VARIANTS
from games.services import winnability

from ...selectors.deals import winnabilities


class Command(BaseCommand):
    help = (
        "Search N deals of GAME from START (default 1) at T seconds each and record what the "
        "solver answers: won, proved lost, or not decided. Deals already searched at T seconds "
        "are skipped, so running it again extends the figures."
    )

    def add_arguments(self, parser):
        parser.add_argument("game", help="a game id: " + ", ".join(VARIANTS))
        parser.add_argument("--deals", type=int, default=100, help="how many (default 100)")
        parser.add_argument("--seconds", type=float, default=10.0, help="per deal (default 10)")
        parser.add_argument("--start", type=int, default=1, help="the first deal (default 1)")

    def handle(self, *args, game: str, deals: int, seconds: float, start: int, **options):
        if game not in VARIANTS:
            raise CommandError(f'unknown game "{game}" (games: {", ".join(VARIANTS)})')
        if deals < 1 or not (math.isfinite(seconds) and seconds > 0):
            raise CommandError("--deals and --seconds must be above 0")
        if not 1 <= start <= MAX_DEAL:
            raise CommandError(f"--start must be a deal number from 1 to {MAX_DEAL}")
        done = set(
            DealSearch.objects.filter(variant=game, seconds=seconds).values_list("deal", flat=True)
        )
        number = start
        searched = 0
        while searched < deals and number <= MAX_DEAL:
            if str(number) not in done:
                result = winnability.search_deal(game, number, seconds)
                searched += 1
                self.stdout.write(
                    f"{game} {number}: {result.status} ({result.nodes} positions, "
                    f"{result.seconds:.1f} s)"
                )
            number += 1
        figures = winnabilities(game)
        for row in figures:
            if row.seconds == seconds:
                self.stdout.write(
                    f"{game} at {row.seconds:g} s: of {row.tried} deals tried, {row.won} won, "
                    f"{row.lost} proved lost, {row.unknown} not decided"
                )
