"""``manage.py grades [GAME ...] [--calibrate --deals N --start S] [--fill N]``: the deals by
difficulty. Prints, per game, the share of each grade among the calibration sample's wins
(what the cuts were made to give) and among the pool the site deals from; ``--calibrate``
grades a sample again and writes games/rules/solver/grades.json; ``--fill N`` grades N more
deals of each game into the pool, as the workers do."""

from django.core.management.base import BaseCommand, CommandError

from games.models import GradedDeal
from games.rules import MAX_DEAL, VARIANTS
from games.rules.solver import grading
from games.services import graded


class Command(BaseCommand):
    help = (
        "Print each game's shares of easy, medium, hard and expert deals; --calibrate grades a "
        "sample of deals and writes the cuts, --fill grades more deals into the pool."
    )

    def add_arguments(self, parser):
        parser.add_argument("games", nargs="*", help="game ids (default: all ten)")
        parser.add_argument("--calibrate", action="store_true", help="grade a sample, write")
        parser.add_argument("--deals", type=int, default=60, help="the sample (default 60)")
        parser.add_argument("--start", type=int, default=1, help="its first deal (default 1)")
        parser.add_argument("--fill", type=int, default=0, help="deals to grade into the pool")

    def handle(self, *args, games, calibrate, deals, start, fill, **options):
        unknown = [g for g in games if g not in VARIANTS]
        if unknown:
            raise CommandError(f"unknown game {unknown[0]!r} (games: {', '.join(VARIANTS)})")
        if deals < 1 or fill < 0 or not 1 <= start <= MAX_DEAL - deals:
            raise CommandError("--deals must be above 0, --fill at least 0, --start a deal")
        games = games or list(VARIANTS)
        if calibrate:
            self.calibrate(games, start, deals)
        for game in games:
            if fill:
                first = graded.FIRST_GRADED + GradedDeal.objects.filter(variant=game).count()
                kept = graded.grade_deals(game, first, fill)
                self.stdout.write(f"{game}: graded {fill} deals from {first}, {len(kept)} kept")
            self.print_shares(game)

    def calibrate(self, games: list[str], start: int, deals: int) -> None:
        figures = dict(grading.calibration())
        figures["games"] = dict(figures["games"])
        figures.update(nodes=grading.GRADE_NODES, length_weight=grading.LENGTH_WEIGHT)
        for game in games:
            figures["games"][game] = grading.calibrate(game, list(range(start, start + deals)))
            grading.CALIBRATION.write_text(grading.calibration_text(figures), encoding="utf-8")
        grading.calibration.cache_clear()
        grading.sample_wins.cache_clear()

    def print_shares(self, game: str) -> None:
        sample = grading.calibration()["games"].get(game, {}).get("sample", [])
        wins = [graded for _deal, graded in grading.sample_wins(game)]
        pooled = list(GradedDeal.objects.filter(variant=game).values_list("grade", flat=True))
        cuts = grading.cuts_for(game)
        self.stdout.write(
            f"{game}: {len(wins)} of {len(sample)} sample deals won within "
            f"{grading.GRADE_NODES} positions; cuts {list(cuts)}"
        )
        for name, grades in (("sample", wins), ("pool", wins + pooled)):
            shares = grading.shares(grades)
            self.stdout.write(
                f"  {name} ({len(grades)}): "
                + ", ".join(f"{g} {shares[g]:.0%}" for g in grading.GRADES)
            )
