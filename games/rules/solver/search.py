"""The searches: a portfolio of greedy best-first searches, and a depth-first search.

``solve(position, seconds, max_nodes, max_memory_mb)`` answers "won" (with the moves, in the
engine's terms), "lost" (proved: no sequence of moves from this position wins) or "unknown"
(the budget ran out). ``heuristic_move(position)`` picks one good move at once. A win is
replayed with ``Position.play`` on a copy before it is returned.

Both searches work on the compact state of ``state``:

- a greedy best-first search ordered by a heuristic (``Weights``: cards home, cards buried
  above lower cards of their suit, cards out of sequence, face-down cards, empty columns, the
  waste, and a growing charge for moves in a row that gain nothing, which keeps it from
  wandering on a plateau). It takes shortcuts that only a heuristic search may take: a card that
  sits on a card it may be built on moves only home or to an empty column, and in games with
  sequence moves only whole runs move (or the part of a run whose removal lets the card under it
  go home). ``solve`` runs a portfolio of such searches with different weights side by side, a
  slice of positions each in turn: wins come early or not at all, and different weights win a
  few different deals;
- in Forty Devils, whose stock is dealt once, a beam search by stock depth (``_Layered``):
  the best positions found with a given number of cards dealt deal the next one, so it does
  not deal the stock into the waste before the tableau's play is tried;
- a depth-first search with a transposition table and none of the shortcuts, children in
  heuristic order. It is complete, so running out of positions proves a loss; short of memory
  it forgets the positions it has finished (keeping its current line), which costs time but
  keeps every proof sound. It runs in the portfolio beside the best-first searches, a slice in
  turn: it wins some deals their shortcuts miss, and proves the losses.

Everything a search holds counts in ``max_memory_mb``: its positions (estimated per position,
checked with tracemalloc in the tests) and the score caches (given ``CACHE_SHARE`` of it).
"""

import heapq
import random
import time
from dataclasses import dataclass, field

from ..moves import DEAL, Move
from ..position import Position
from .state import DEFAULT_WEIGHTS, Game, Weights, cache_budget, game_for, is_won

WON, LOST, UNKNOWN = "won", "lost", "unknown"

#: The best-first search skips moves between two copies of a card's parent.
PRUNE = True
#: Positions a search expands before the next search of the portfolio has its turn.
SLICE = 256
#: The depth-first search's slices per turn: as many as the best-first searches have together
#: (half the time). Run alone to 15,000 positions it wins 20 of the 109 deals of 9001-9030
#: that the best-first searches did not win in 10 s (13 of Indian's 16, a few in Lucas,
#: Limited, Maria, Streets); the best-first searches win most of theirs within a second.
DFS_SLICES = 3
#: Little Forty's columns and waste give the depth-first search many children a position, and
#: its best-first searches win every deal of 9001-9030: a quarter of the time there. In Forty
#: Devils a proof of loss is out of reach and the depth-first search wins only what it finds
#: at once: a quarter of the time there too (with the weights below, 10 wins of deals
#: 5001-5040 and 6001-6040 at 60,000 positions, against 7 with half the time).
DFS_SLICES_OF = {"little-forty": 1, "forty-devils": 1}
#: The searches run side by side: (weights, noise). Different weights win different deals.
DEFAULT_PORTFOLIO = (
    (DEFAULT_WEIGHTS, 0.0),
    (Weights(waste=2, unseq=4), 0.0),
    (DEFAULT_WEIGHTS, 12.0),
)
#: Indian's face-down cards weigh more: 10 wins of deals 5001-5030 at 90,000 positions, against
#: 3 with the default weights at 30,000 (and turning them up sooner no worse in Rank and File).
PORTFOLIO: dict[str, tuple] = {
    "indian": (
        (Weights(down=10), 0.0),
        (Weights(down=20), 0.0),
        (Weights(down=10, waste=2, unseq=4), 0.0),
    ),
    # Forty Devils: a credit for runs down from a King (the right foundations take them whole).
    # Its stock is dealt once, and a search that deals freely buries the cards it needs in the
    # waste: this search charges the waste twice as much. Deals 5001-5040 and 6001-6040 at
    # 60,000 positions (with three best-first searches, two charging the waste so, and the
    # depth-first search a quarter of the positions): 7 wins with a King-run
    # credit of 6 and the waste charged as elsewhere, 10 with the waste charged so, 11, 11, 12
    # and 6 with the credit raised to 10, 12 (kept: short of the fall at 20), 14 and 20.
    # Beside it, the beam search by stock depth of ``LAYERED`` (which took the place of a
    # best-first search with the credit alone and one with noise).
    "forty-devils": ((Weights(kings=12, waste=8, waste_block=12, unseq=4), 0.0),),
    # Maria: three weightings that each win other deals (8 of 5001-5030 against 7).
    "maria": (
        (DEFAULT_WEIGHTS, 0.0),
        (Weights(empty=16), 0.0),
        (Weights(unseq=4), 0.0),
    ),
}

#: Beam searches by stock depth (``_Layered``) beside the best-first ones: (weights, the beam's
#: widths pass after pass, positions searched per position of a layer, slices per turn).
#: Forty Devils: alone, to 40,000 positions, it won 23 of deals 5001-5040, 6001-6040 and
#: 7001-7040 (the portfolio before it 19 at 100,000): 20 with 20 positions a position of a
#: layer, 17 with 10, 14 with 80; 16 with the first weights (no double charge for the waste).
#: In the portfolio it has two slices a turn, and it replaced two of the three best-first
#: searches: 27 of those deals at 100,000 positions, against 19 (26 with them kept).
LAYERED: dict[str, tuple] = {
    "forty-devils": (
        (
            Weights(kings=12, waste=8, waste_block=12, unseq=4),
            tuple(4 << i for i in range(12)),
            40,
            2,
        ),
    ),
}

# A rough size of what the search keeps, for the memory budget (measured with RSS, with room
# to spare: a position seen ~60 bytes, an open one ~300).
BYTES_PER_SEEN = 200
BYTES_PER_OPEN = 700
#: The share of ``max_memory_mb`` the score caches may hold.
CACHE_SHARE = 0.25
#: The share of the rest left spare for what a search holds for a moment (a set or a heap
#: growing, a heap cut in half).
SPARE = 0.15


@dataclass
class SolveResult:
    status: str
    moves: list[Move] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0


class _Budget:
    def __init__(self, seconds: float | None, max_nodes: int | None, max_memory_mb: float | None):
        self.start = time.perf_counter()
        self.deadline = None if seconds is None else self.start + seconds
        self.max_nodes = max_nodes
        self.max_bytes = None if max_memory_mb is None else max_memory_mb * 1024 * 1024

    def time_up(self) -> bool:
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def elapsed(self) -> float:
        return time.perf_counter() - self.start


def _path_moves(path) -> list[Move]:
    chunks = []
    while path is not None:
        chunks.append(path[0])
        path = path[1]
    moves: list[Move] = []
    for chunk in reversed(chunks):
        moves.extend(chunk)
    return moves


class _BestFirst:
    """A greedy best-first search that can be run a slice at a time (for a portfolio)."""

    #: Slices of positions per turn in the portfolio.
    slices = 1

    def __init__(self, game: Game, start: tuple, first: list, noise: float = 0.0):
        self.game = game
        self.noise = noise
        self.rand = random.Random(int(noise * 1000) + 1).random
        self.seen = {game.key(start)}
        self.counter = 0
        self.stale = game.weights.stale
        raw = game.score(start)
        self.heap = [(raw, 0, start, (first, None), raw, 0)]
        #: False once open positions were dropped for memory: exhausting it proves nothing.
        self.complete = True
        self.moves: list[Move] = []

    def size(self) -> int:
        """The bytes this search holds, roughly."""
        return len(self.seen) * BYTES_PER_SEEN + len(self.heap) * BYTES_PER_OPEN

    def shrink(self) -> bool:
        """Drop the worse half of the open positions; False if that would not help."""
        if len(self.heap) < 1000:
            return False
        self.heap = heapq.nsmallest(len(self.heap) // 2, self.heap)
        heapq.heapify(self.heap)
        self.complete = False
        return True

    def run(self, quota: int) -> tuple[str | None, int]:
        """Expand up to ``quota`` positions: (WON / LOST / UNKNOWN or None to go on, expanded)."""
        game = self.game
        key = game.key
        score = game.score
        children = game.children
        seen = self.seen
        heap = self.heap
        heappop = heapq.heappop
        heappush = heapq.heappush
        noise = self.noise
        rand = self.rand
        stale_weight = self.stale
        done = 0
        while done < quota:
            if not heap:
                return (LOST if self.complete else UNKNOWN), done
            _, _, state, path, raw, stale = heappop(heap)
            done += 1
            for played, child in children(state):
                k = key(child)
                if k in seen:
                    continue
                seen.add(k)
                if is_won(child):
                    self.moves = _path_moves((played, path))
                    return WON, done
                self.counter -= 1
                child_raw = score(child)
                # Moves that bring no gain in a row cost more and more (plateaus).
                child_stale = stale + 1 if child_raw >= raw else 0
                priority = child_raw + stale_weight * child_stale
                if noise:
                    priority += noise * rand()
                heappush(
                    heap,
                    (priority, self.counter, child, (played, path), child_raw, child_stale),
                )
        return None, done


class _Layered:
    """A beam search by stock depth, for games whose stock is dealt once: every position of a
    layer has dealt the same number of cards. A layer's positions are searched best-first with
    no deal, up to ``per_state`` positions for each position the layer started from; then the
    ``width`` best positions it found deal the next card and make the next layer. So the search
    cannot race down the stock: it deals only from the best positions that play at this depth
    found. It is tried again with a wider beam when a pass ends without a win."""

    def __init__(
        self, game: Game, start: tuple, first: list, widths: tuple, per_state: int, slices: int = 1
    ):
        self.game = game
        #: Slices of positions per turn in the portfolio.
        self.slices = slices
        self.start = start
        self.first = first
        self.widths = widths
        self.per_state = per_state
        self.seen: set = set()
        self.pool: list = []
        self.moves: list[Move] = []
        self.steps = self._search()

    def size(self) -> int:
        return len(self.seen) * BYTES_PER_SEEN + len(self.pool) * BYTES_PER_OPEN

    def shrink(self) -> bool:
        """A layer cannot be cut short and go on: the portfolio drops this search instead."""
        return False

    def run(self, quota: int) -> tuple[str | None, int]:
        """Expand up to ``quota`` positions: (WON, UNKNOWN once every width was tried, or None
        to go on; expanded). Running out proves nothing: a beam leaves positions out."""
        steps = self.steps
        done = 0
        while done < quota:
            status = next(steps, UNKNOWN)
            if status is not None:
                return status, done
            done += 1
        return None, done

    def _deal(self, state: tuple, path) -> tuple:
        played = [DEAL]
        child = self.game.apply(state, DEAL)
        if self.game.safe_moves:
            child = self.game.autos(child, played)
        return child, (played, path)

    def _search(self):
        """Yields None for each position expanded, WON when one is won (``self.moves``)."""
        game = self.game
        key = game.key
        score = game.score
        children = game.children
        heappush = heapq.heappush
        heappop = heapq.heappop
        counter = 0
        for width in self.widths:
            beam = [(self.start, (self.first, None))]
            while beam:
                self.seen = seen = set()
                self.pool = pool = []
                for state, path in beam:
                    k = key(state)
                    if k not in seen:
                        seen.add(k)
                        counter += 1
                        pool.append((score(state), counter, state, path))
                heap = list(pool)
                heapq.heapify(heap)
                left = self.per_state * len(heap)
                while heap and left > 0:
                    _, _, state, path = heappop(heap)
                    left -= 1
                    yield None
                    for played, child in children(state):
                        if played[0] == DEAL:
                            continue  # the next layer deals, from the best of this one
                        k = key(child)
                        if k in seen:
                            continue
                        seen.add(k)
                        if is_won(child):
                            self.moves = _path_moves((played, path))
                            yield WON
                            return
                        counter += 1
                        entry = (score(child), counter, child, (played, path))
                        heappush(heap, entry)
                        pool.append(entry)
                # Every position of a layer has dealt the same cards: is the stock out?
                _cols, _found, stock, _waste, _redeals = pool[0][2]
                if not stock:
                    break  # this pass is over
                # The next layer: the best positions of this one, each with the next card dealt
                # (and the safe moves home after it).
                best = heapq.nsmallest(width, pool)
                beam = [self._deal(state, path) for _, _, state, path in best]
                for state, path in beam:
                    if is_won(state):
                        self.moves = _path_moves(path)
                        yield WON
                        return
        self.seen = set()
        self.pool = []


class _DepthFirst:
    """A depth-first search with a transposition table and none of the shortcuts, children in
    heuristic order, that can be run a slice at a time. It is complete: running out of positions
    proves a loss. Short of memory it forgets the positions it has finished (it may then search
    some again, which costs time but proves nothing wrong): only the current line is kept."""

    def __init__(self, game: Game, start: tuple, first: list):
        self.game = game
        k = game.key(start)
        self.seen = {k}
        #: Open children on the stack, for the memory estimate.
        self.pending = 0
        self.stack = [(first, k, self.ordered(start))]
        self.moves: list[Move] = []

    def ordered(self, state: tuple) -> list:
        key = self.game.key
        score = self.game.score
        seen = self.seen
        kids = []
        for played, child in self.game.children(state):
            k = key(child)
            if k not in seen:
                kids.append((score(child), played, child, k))
        kids.sort(key=lambda x: x[0], reverse=True)  # best last: popped first
        self.pending += len(kids)
        return kids

    def size(self) -> int:
        return len(self.seen) * BYTES_PER_SEEN + self.pending * BYTES_PER_OPEN

    def shrink(self) -> bool:
        """Forget every finished position (keep the current line); False if that would not help."""
        if len(self.seen) < 2 * len(self.stack) + 1000:
            return False
        self.seen = {k for _, k, _ in self.stack}
        return True

    def run(self, quota: int) -> tuple[str | None, int]:
        """Expand up to ``quota`` positions: (WON / LOST or None to go on, expanded)."""
        stack = self.stack
        seen = self.seen
        ordered = self.ordered
        done = 0
        while done < quota:
            if not stack:
                return LOST, done
            kids = stack[-1][2]
            if not kids:
                stack.pop()
                continue
            _, played, child, k = kids.pop()
            self.pending -= 1
            if k in seen:
                continue
            seen.add(k)
            if is_won(child):
                moves: list[Move] = []
                for chunk, _, _ in stack:
                    moves.extend(chunk)
                moves.extend(played)
                self.moves = moves
                return WON, done
            done += 1
            stack.append((played, k, ordered(child)))
        return None, done


def _verify(position: Position, moves: list[Move]) -> None:
    check = position.copy()
    for move in moves:
        check.play(move)
    if not check.is_won():
        raise AssertionError("the solver's moves do not win")


def solve(
    position: Position,
    seconds: float | None = 1.0,
    max_nodes: int | None = None,
    max_memory_mb: float | None = 512,
    *,
    strategy: str = "portfolio",
    safe_moves: bool = True,
) -> SolveResult:
    """Search for a win from ``position`` (left unchanged), within the budgets given.

    ``strategy`` is "portfolio" (best-first searches and a depth-first one side by side),
    "best-first" (the best-first searches alone, and Forty Devils' beam search: they find wins
    but prove nothing) or "dfs" (the depth-first search alone); ``safe_moves=False`` branches
    on every move to the foundations too (for tests of the safe moves). ``max_memory_mb``
    bounds everything the search keeps, its score caches included.
    """
    budget = _Budget(seconds, max_nodes, max_memory_mb)
    if position.is_won():
        return SolveResult(WON, [], 0, budget.elapsed())
    variant = position.variant
    game = game_for(variant, safe_moves)
    first: list[Move] = []
    start = game.state_of(position)
    if safe_moves:
        start = game.autos(start, first)
    searches: list = []
    portfolio = PORTFOLIO.get(variant.id, DEFAULT_PORTFOLIO)
    if strategy != "dfs":
        for weights, noise in portfolio:
            pruned = game_for(variant, safe_moves, PRUNE, weights)
            searches.append(_BestFirst(pruned, start, first, noise))
        for weights, widths, per_state, slices in LAYERED.get(variant.id, ()):
            pruned = game_for(variant, safe_moves, PRUNE, weights)
            searches.append(_Layered(pruned, start, first, widths, per_state, slices))
    if strategy != "best-first":
        # Its children in the order of the game's first weights: no cut, only an order.
        ordered = game_for(variant, safe_moves, False, portfolio[0][0])
        searches.append(_DepthFirst(ordered, start, first))
    if budget.max_bytes is not None:
        games = [s.game for s in searches]
        caches = cache_budget(games, budget.max_bytes * CACHE_SHARE)
        budget.max_bytes = (budget.max_bytes - caches) * (1 - SPARE)
    else:
        cache_budget([s.game for s in searches], None)
    if is_won(start):
        status, moves, nodes = WON, first, 0
    else:
        status, moves, nodes = _portfolio(searches, budget)
    if status == WON:
        _verify(position, moves)
    return SolveResult(status, moves, nodes, budget.elapsed())


def _portfolio(searches: list, budget: _Budget) -> tuple[str, list, int]:
    """Run the searches in turn, a slice each, until one wins, the depth-first search runs out
    of positions (a proof of loss) or the budget is spent. A best-first search that runs out
    of positions leaves the others the time (its shortcuts make that no proof)."""
    nodes = 0
    max_nodes = budget.max_nodes
    max_bytes = budget.max_bytes
    deep = SLICE * DFS_SLICES_OF.get(searches[0].game.variant.id, DFS_SLICES)
    while searches:
        for search in list(searches):
            quota = deep if isinstance(search, _DepthFirst) else SLICE * search.slices
            if max_nodes is not None:
                quota = min(quota, max_nodes - nodes)
                if quota <= 0:
                    return UNKNOWN, [], nodes
            if max_bytes is not None:
                # A slice may open up to ~40 positions per position expanded.
                room = max_bytes - sum(s.size() for s in searches)
                quota = max(1, min(quota, int(room // (40 * BYTES_PER_OPEN))))
            status, done = search.run(quota)
            nodes += done
            if status == WON:
                return WON, search.moves, nodes
            if status == LOST and isinstance(search, _DepthFirst):
                return LOST, [], nodes
            if status is not None:
                searches.remove(search)
            if budget.time_up():
                return UNKNOWN, [], nodes
            if max_bytes is not None:
                while searches and sum(s.size() for s in searches) > max_bytes:
                    biggest = max(searches, key=lambda s: s.size())
                    if not biggest.shrink():
                        searches.remove(biggest)
            if not searches:
                break
    return UNKNOWN, [], nodes


def heuristic_move(position: Position) -> Move | None:
    """The best single move by the heuristic (a safe move home first); None if none is legal."""
    if position.is_won():
        return None
    game = game_for(position.variant)
    state = game.state_of(position)
    played: list[Move] = []
    game.autos(state, played)
    if played:
        return played[0]
    best = None
    best_score = None
    for moves, child in game.children(state):
        s = game.score(child) - 4 * (len(moves) - 1)
        if moves[0] == DEAL:
            s += 3  # deal when nothing better is there
        if best_score is None or s < best_score:
            best, best_score = moves[0], s
    if best is None:
        legal = position.legal_moves()
        return legal[0] if legal else None
    return best
