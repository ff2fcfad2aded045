"""A solver for the ten games: search for a win from any position, within a budget.

``solve(position, seconds, max_nodes, max_memory_mb)`` answers "won" (with the moves, in the
engine's terms), "lost" (proved: no sequence of moves from this position wins) or "unknown"
(the budget ran out). ``heuristic_move(position)`` picks one good move at once.

- ``state``: the compact state the searches work on, its keys and scores, the moves worth
  trying and the safe moves home played without branching;
- ``search``: the portfolio of best-first searches beside a depth-first search without cuts
  (which wins what their cuts lose and proves losses), ``solve`` and ``heuristic_move``;
- ``winnable``: the proven-winnable deals kept in ``winnable/<game>.json``, and the search for
  more.

Measured (tests/bench/solver.py, this 2-core machine): Forty Thieves deals 1001-1100 at 10 s
each: 32 won, 68 unknown (median time to a win 0.45 s). At 2 s a deal, deals 1-50: Forty
Thieves 14 won, Indian 20, Limited 32, Little Forty 46, Lucas 49, Maria 12, Number Ten 42, Rank
and File 43, Streets 24, Forty Devils 4. Wins come early (most within 20,000 positions) or not
at all. Tuning on other deals (5001-5030, 6001-6024) showed: charging the waste like a column
doubled the Forty Thieves wins; the whole-run shortcut took Number Ten, Rank and File and
Little Forty from no wins to most deals; the charge for gainless moves added a few wins;
charging the depth of the next cards wanted home, or letting single cards of Forty Devils' runs
go to empty columns, lost wins; the depth-first search rarely wins a deal (it is for proofs).
The portfolio and its first search alone are close: on deals 1001-1100 at 10 s, 32 and 31 wins,
each winning two or three deals the other does not. The depth-first search beside them (half
the time) won 27 more of deals 9001-9030 of the ten games at 10 s, and proved Forty Thieves 9018
lost (docs/solver.md gives the table).
"""

from .search import (
    DEFAULT_PORTFOLIO,
    LOST,
    PORTFOLIO,
    UNKNOWN,
    WON,
    SolveResult,
    heuristic_move,
    solve,
)
from .state import DEFAULT_WEIGHTS, Weights, position_key
from .winnable import WINNABLE_DIR, find_winnable, solutions

__all__ = [
    "DEFAULT_PORTFOLIO",
    "DEFAULT_WEIGHTS",
    "LOST",
    "PORTFOLIO",
    "UNKNOWN",
    "WINNABLE_DIR",
    "WON",
    "SolveResult",
    "Weights",
    "find_winnable",
    "heuristic_move",
    "position_key",
    "solutions",
    "solve",
]
