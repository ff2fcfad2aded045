"""The proven-winnable deals kept with the code, one ``winnable/<game>.json`` per game, and the
search that finds more."""

import json
from pathlib import Path

from ..deal import first_position
from ..variants import VARIANTS
from .search import WON, solve

WINNABLE_DIR = Path(__file__).resolve().parent / "winnable"


def solutions(game_id: str) -> list[dict]:
    """The proven-winnable deals of a game kept in ``winnable/<game>.json``: {"deal", "moves"}."""
    if game_id not in VARIANTS:
        raise KeyError(game_id)
    path = WINNABLE_DIR / f"{game_id}.json"
    if not path.exists():
        return []
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def find_winnable(game_id: str, start: int, count: int, seconds: float) -> list[dict]:
    """Solve deals start..start+count-1 of a game, ``seconds`` each; the ones won, with moves."""
    variant = VARIANTS[game_id]
    found = []
    for number in range(start, start + count):
        result = solve(first_position(variant, number), seconds=seconds)
        if result.status == WON:
            found.append({"deal": number, "moves": [str(m) for m in result.moves]})
    return found
