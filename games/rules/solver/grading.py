"""How hard a winnable deal is: a grade (easy, medium, hard, expert) from what its win cost the
solver, calibrated per game.

A deal is graded by one search from its first position with a fixed number of positions and
no clock (``GRADE_NODES``), so the same deal always gets the same figures on any machine: the
positions the portfolio searched before its win (dead ends and all) and the length of the win
it found. Its *effort* is the positions plus ``LENGTH_WEIGHT`` per move of the win: two deals
won after as many positions differ by how long a line the player has to find.

Each game's cuts between the grades come from a sample of its deals (``grades.json``, beside
this module, written by ``manage.py grades --calibrate``): the efforts of the sample's wins,
cut at the shares ``SHARES`` (four in ten easy, three medium, two hard, one expert). A deal the
search did not win within ``GRADE_NODES`` but is known winnable otherwise (a longer search won
it) is expert.
"""

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ..deal import first_position
from ..variants import VARIANTS
from .search import WON, solve

#: The grades, easiest first.
GRADES = ("easy", "medium", "hard", "expert")
#: The share of a game's winnable deals each grade is cut to hold, in the order of ``GRADES``.
SHARES = (0.4, 0.3, 0.2, 0.1)
#: The positions one grading search may search: about two to four seconds of one core.
GRADE_NODES = 60_000
#: Positions a move of the win found counts for in a deal's effort.
LENGTH_WEIGHT = 20
#: The calibration: per game, the cuts and the sample they were taken from.
CALIBRATION = Path(__file__).resolve().parent / "grades.json"


@dataclass(frozen=True)
class Graded:
    """One deal's grading search: won or not within ``GRADE_NODES``, at what cost."""

    variant: str
    deal: int
    won: bool
    nodes: int
    length: int = 0
    moves: tuple[str, ...] = ()

    @property
    def effort(self) -> int:
        return self.nodes + LENGTH_WEIGHT * self.length


def measure(variant_id: str, deal: int, max_nodes: int = GRADE_NODES) -> Graded:
    """Search deal ``deal`` of a game from its first position with ``max_nodes`` positions and
    no clock: the same figures every time."""
    result = solve(first_position(VARIANTS[variant_id], deal), seconds=None, max_nodes=max_nodes)
    moves = tuple(str(m) for m in result.moves) if result.status == WON else ()
    return Graded(variant_id, deal, result.status == WON, result.nodes, len(moves), moves)


def cuts_of(efforts: list[int]) -> tuple[int, ...]:
    """The three efforts that cut ``efforts`` into the grades' shares: a deal whose effort is at
    most the first is easy, at most the second medium, at most the third hard."""
    ordered = sorted(efforts)
    if not ordered:
        return ()
    cuts, share = [], 0.0
    for part in SHARES[:-1]:
        share += part
        cuts.append(ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))])
    return tuple(cuts)


def grade_of(cuts: tuple[int, ...], effort: int | None) -> str:
    """The grade of a winnable deal of ``effort`` (None: not won within ``GRADE_NODES``)."""
    if effort is None or not cuts:
        return GRADES[-1]
    for grade, cut in zip(GRADES, cuts, strict=False):
        if effort <= cut:
            return grade
    return GRADES[-1]


@cache
def calibration() -> dict:
    """The committed calibration: {"nodes", "length_weight", "games": {game: {"cuts",
    "sample": [[deal, nodes, length or null when not won], ...]}}}."""
    if not CALIBRATION.exists():
        return {"nodes": GRADE_NODES, "length_weight": LENGTH_WEIGHT, "games": {}}
    with open(CALIBRATION, encoding="utf-8") as f:
        return json.load(f)


def cuts_for(variant_id: str) -> tuple[int, ...]:
    return tuple(calibration()["games"].get(variant_id, {}).get("cuts", ()))


def grade(graded: Graded) -> str:
    """The grade of a deal known winnable, from its grading search."""
    return grade_of(cuts_for(graded.variant), graded.effort if graded.won else None)


@cache
def sample_wins(variant_id: str) -> tuple[tuple[int, str], ...]:
    """The calibration sample's wins of a game with their grades: (deal, grade)."""
    cuts = cuts_for(variant_id)
    sample = calibration()["games"].get(variant_id, {}).get("sample", [])
    return tuple(
        (deal, grade_of(cuts, nodes + LENGTH_WEIGHT * length))
        for deal, nodes, length in sample
        if length is not None
    )


def sample_size(variant_id: str) -> int:
    """How many deals of a game the calibration sample holds, won or not."""
    return len(calibration()["games"].get(variant_id, {}).get("sample", []))


def shares(grades: list[str]) -> dict[str, float]:
    """The share of each grade among ``grades``."""
    total = len(grades) or 1
    return {g: grades.count(g) / total for g in GRADES}


def calibration_text(figures: dict) -> str:
    """The calibration as ``grades.json`` keeps it: one line per game's cuts and per sampled
    deal, so that a new calibration reads as a short diff."""
    lines = [
        "{",
        f' "nodes": {figures["nodes"]},',
        f' "length_weight": {figures["length_weight"]},',
    ]
    lines.append(' "games": {')
    games = list(figures["games"].items())
    for n, (game, data) in enumerate(games):
        sample = ",\n".join(f"   {json.dumps(entry)}" for entry in data["sample"])
        end = "," if n < len(games) - 1 else ""
        lines.append(f'  {json.dumps(game)}: {{"cuts": {json.dumps(data["cuts"])}, "sample": [')
        lines.append(sample)
        lines.append(f"  ]}}{end}")
    lines += [" }", "}"]
    return "\n".join(lines) + "\n"


def calibrate(variant_id: str, deals: list[int], max_nodes: int = GRADE_NODES) -> dict:
    """A game's calibration from a sample of deals: the grading search of each, and the cuts
    of the efforts of those it won."""
    sample = [measure(variant_id, deal, max_nodes) for deal in deals]
    return {
        "cuts": list(cuts_of([g.effort for g in sample if g.won])),
        "sample": [[g.deal, g.nodes, g.length if g.won else None] for g in sample],
    }
