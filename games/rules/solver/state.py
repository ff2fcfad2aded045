"""The solver's compact state of a position, its keys and scores, and its move generator.

The search works on a state of its own, not on ``Position``:

- a column is a ``bytes`` of card values, bottom to top, a face-down card written as
  ``card + 64``; a foundation slot is one byte ``height << 2 | suit`` (0 when empty), which is
  also the card it takes next; the stock and the waste are ``bytes`` (top last);
- the state's key treats columns as a set (sorted) and foundation slots as a multiset, and the
  two copies of a card are the same value, so permuted or swapped-copy positions are one entry
  of the transposition table (which holds 64-bit hashes of the keys);
- moves to the foundations that can never hurt are played at once, without branching (see
  ``Game.safe``); only one empty column is tried as a target; a column's whole content is never
  moved into an empty column (it would give the same position);
- the piles are numbered as the engine numbers them, so the moves the search finds are the
  engine's moves.

What may be built on what comes from the engine's tables (``games.rules.builds``).
"""

from typing import NamedTuple

from ..builds import FITS, PARENTS, SUITS_BUILT_ON
from ..moves import COLUMN, DEAL, FOUNDATION, MOVE_TABLE, REDEAL, STOCK, WASTE, Move
from ..position import Position
from ..variants import Variant

DOWN = 64  # a face-down card is stored as card + DOWN
SEP = b"\xff"
#: The score caches of all games together never hold more than this many entries.
MAX_CACHED = 400_000
#: A rough size of one cache entry (its key, value and slot; measured with tracemalloc, with
#: room to spare), for the memory budget: ``solve`` gives the caches a share of it.
BYTES_PER_CACHED = 200
#: The score caches a ``Game`` keeps.
CACHES = 5


class Weights(NamedTuple):
    """The heuristic's weights (a lower score is better): what a position is charged for."""

    home: int = 12  # per card on the foundations (a credit)
    block: int = 6  # per card above a lower card of its suit in its column
    unseq: int = 2  # per face-up card not built on the card under it
    down: int = 5  # per face-down card
    empty: int = 8  # per empty column (a credit)
    waste_block: int = 6  # per waste card above a lower card of its suit in the waste
    waste: int = 4  # per waste card
    root: int = 0  # per card of a run built up from a King at a column's bottom (a credit)
    stale: int = 2  # per move in a row that lowers the score no further
    need: int = 0  # per card above the nearest copy of each card the foundations take next
    kings: int = 0  # per card of a run down from a King, anywhere in a column (a credit)


#: Measured on Forty Thieves deals 5001-5030 (tests/bench/solver.py gives the figures).
DEFAULT_WEIGHTS = Weights()


class Game:
    """The tables and the move generator of one variant, over the compact state.

    A state is ``(cols, found, stock, waste, redeals)``: a tuple of column bytes, a bytes of
    the 8 foundation slots, the stock and waste as bytes (top last), the redeals left.
    """

    def __init__(
        self,
        variant: Variant,
        safe_moves: bool = True,
        prune: bool = False,
        weights: Weights = DEFAULT_WEIGHTS,
    ):
        self.variant = variant
        self.weights = weights
        #: Skip moves that only take a card from one copy of its parent to the other (the
        #: heuristic search's shortcut: the positions it skips are not proved lost).
        self.prune = prune
        self.build = build = variant.build
        self.devils = variant.devils
        self.sequences = variant.sequence_moves
        self.stock_deal = variant.stock_deal
        self.safe_moves = safe_moves
        #: parents[c]: the cards c may be built on.
        self.parents = PARENTS[build]
        #: fits[lower][upper], over byte values: a face-down card (card + DOWN) never fits.
        self.fits = FITS[build]
        #: built_on[suit]: the suits whose cards may be built on a card of ``suit``.
        self.built_on = SUITS_BUILT_ON[build]
        self.nleft = 4 if self.devils else 8
        self._col_score: dict[bytes, int] = {}
        self._run: dict[bytes, int] = {}
        self._waste_score: dict[bytes, int] = {}
        self._needed: dict[bytes, tuple[int, ...]] = {}
        self._found_key: dict[bytes, tuple[bytes, int]] = {}
        #: Each cache is emptied once it holds more entries than this (see ``cache_budget``).
        self.cache_limit = MAX_CACHED // CACHES
        # Waste cards may go home by themselves unless taking one out of the waste changes how
        # later passes deal their threes (Little Forty with redeals left).
        self.waste_safe_always = self.stock_deal == 1

    def cache_size(self) -> int:
        return (
            len(self._col_score)
            + len(self._run)
            + len(self._waste_score)
            + len(self._needed)
            + len(self._found_key)
        )

    def largest_cache(self) -> int:
        return max(
            len(self._col_score),
            len(self._run),
            len(self._waste_score),
            len(self._needed),
            len(self._found_key),
        )

    def clear_caches(self) -> None:
        self._col_score.clear()
        self._run.clear()
        self._waste_score.clear()
        self._needed.clear()
        self._found_key.clear()

    # -- conversion -------------------------------------------------------------------------

    def state_of(self, position: Position) -> tuple:
        cols = []
        for col, d in zip(position.columns, position.down, strict=True):
            cols.append(bytes([c + DOWN for c in col[:d]] + col[d:]))
        found = bytes(((len(f) << 2) | (f[0] & 3)) if f else 0 for f in position.foundations)
        return (
            tuple(cols),
            found,
            bytes(position.stock),
            bytes(position.waste),
            position.redeals_left,
        )

    # -- keys and scores --------------------------------------------------------------------

    def found_key(self, found: bytes) -> tuple[bytes, int]:
        """The foundations as the key sees them (the slots of each side sorted), and the
        cards they hold."""
        known = self._found_key.get(found)
        if known is None:
            if self.devils:
                f = bytes(sorted(found[:4])) + bytes(sorted(found[4:]))
            else:
                f = bytes(sorted(found))
            if len(self._found_key) >= self.cache_limit:
                self._found_key.clear()
            known = self._found_key[found] = (f, sum(v >> 2 for v in found))
        return known

    def key(self, state: tuple) -> int:
        """A 64-bit hash of the state's key. The columns count as a set through the sum of
        their hashes (a ``bytes`` keeps its hash, and most columns are shared with the parent
        state), which spares sorting and joining them."""
        cols, found, stock, waste, redeals = state
        known = self._found_key.get(found)
        f = (known or self.found_key(found))[0]
        if self.stock_deal == 1:
            return hash((sum(map(hash, cols)), f, len(stock), waste))
        return hash((sum(map(hash, cols)), f, redeals, stock, waste))

    def col_score(self, col: bytes) -> int:
        score = self._col_score.get(col)
        if score is not None:
            return score
        fits = self.fits
        low = [99, 99, 99, 99]  # the lowest rank of each suit below, in this column
        blocks = unseq = down = 0
        prev = -1
        for c in col:
            if c >= DOWN:
                down += 1
                c -= DOWN
                prev = -1
            else:
                if prev >= 0 and not fits[c][prev]:
                    unseq += 1
                prev = c
            s = c & 3
            r = c >> 2
            if low[s] < r:
                blocks += 1
            else:
                low[s] = r
        w = self.weights
        score = w.block * blocks + w.unseq * unseq + w.down * down
        if w.root and col and (col[0] >> 2) == 12:
            # A run from a King at the bottom of a column never has to move again.
            i = 1
            while i < len(col) and fits[col[i]][col[i - 1]]:
                i += 1
            score -= w.root * i
        if w.kings:
            # Forty Devils: a run from a King grows into the thirteen a right foundation takes.
            i, n = 0, len(col)
            while i < n:
                if col[i] >> 2 == 12:  # a face-up King (a face-down card is 64 and more)
                    j = i + 1
                    while j < n and fits[col[j]][col[j - 1]]:
                        j += 1
                    score -= w.kings * (j - i)
                    i = j
                else:
                    i += 1
        if len(self._col_score) >= self.cache_limit:
            self._col_score.clear()
        self._col_score[col] = score
        return score

    def waste_score(self, waste: bytes) -> int:
        score = self._waste_score.get(waste)
        if score is not None:
            return score
        w = self.weights
        score = self.col_score(waste) * w.waste_block // max(w.block, 1) + w.waste * len(waste)
        if len(self._waste_score) >= self.cache_limit:
            self._waste_score.clear()
        self._waste_score[waste] = score
        return score

    def score(self, state: tuple) -> int:
        cols, found, stock, waste, _ = state
        w = self.weights
        cached = self._col_score.get
        colscore = self.col_score
        s = 0
        for col in cols:
            v = cached(col)
            s += colscore(col) if v is None else v
        v = self._waste_score.get(waste)
        s += self.waste_score(waste) if v is None else v
        s -= w.home * self.found_key(found)[1] + w.empty * cols.count(b"")
        if w.need:
            s += w.need * self.need_depth(cols, found, stock, waste)
        return s

    def needed(self, found: bytes) -> tuple[int, ...]:
        """The cards the foundations take next (an Ace for each slot a suit still lacks)."""
        need = self._needed.get(found)
        if need is None:
            left = found[: self.nleft]
            cards = {v for v in left if 4 <= v < 52}
            for suit in range(4):
                slots = sum(1 for v in left if v and (v & 3) == suit)
                if slots < (1 if self.devils else 2):
                    cards.add(suit)
            if len(self._needed) >= self.cache_limit:
                self._needed.clear()
            need = self._needed[found] = tuple(sorted(cards))
        return need

    def need_depth(self, cols: tuple, found: bytes, stock: bytes, waste: bytes) -> int:
        """How many cards lie on the nearest copy of each card the foundations take next."""
        total = 0
        for c in self.needed(found):
            best = 40
            hidden = c + DOWN
            for col in cols:
                i = col.rfind(c)
                if i < 0:
                    i = col.rfind(hidden)
                    if i < 0:
                        continue
                d = len(col) - 1 - i
                if d < best:
                    best = d
            i = waste.rfind(c)
            if i >= 0 and len(waste) - 1 - i < best:
                best = len(waste) - 1 - i
            i = stock.rfind(c)
            if i >= 0 and (len(stock) - 1 - i) // 2 < best:
                best = (len(stock) - 1 - i) // 2
            total += best
        return total

    def run_length(self, col: bytes) -> int:
        """How many cards at the top of ``col`` move as one unit (sequence games)."""
        n = self._run.get(col)
        if n is not None:
            return n
        fits = self.fits
        i = len(col) - 1
        while i > 0 and col[i - 1] < DOWN and fits[col[i]][col[i - 1]]:
            i -= 1
        n = len(col) - i
        if len(self._run) >= self.cache_limit:
            self._run.clear()
        self._run[col] = n
        return n

    # -- moves ------------------------------------------------------------------------------

    def ace_slot(self, found: bytes, ace: int) -> int:
        """The foundation slot an Ace goes to, or -1."""
        if self.devils:
            slot = -1
            for i in range(4):
                v = found[i]
                if v == 0:
                    if slot < 0:
                        slot = i
                elif (v & 3) == ace:
                    return -1
            return slot
        return found.find(0)

    def home_slot(self, found: bytes, c: int) -> int:
        """The foundation slot card ``c`` goes to next, or -1."""
        if c < 4:
            return self.ace_slot(found, c)
        i = found.find(c)
        if i < 0 or i >= self.nleft:
            return -1
        return i

    def safe(self, found: bytes, c: int) -> bool:
        """Whether sending ``c`` home can never lose a win: no card left in play could ever be
        built on it (both copies of the next lower rank of each suit that builds on it are
        home). In Forty Devils only once the suit's right foundation is filled (before that, a
        card may still be wanted in a King-to-Ace run, and a left foundation holds one suit)."""
        s = c & 3
        if self.devils:
            return any(v >= 52 and (v & 3) == s for v in found[4:])
        r = (c >> 2) + 1
        if r <= 2:
            return True
        need = r - 1
        for t in self.built_on[s]:
            n = 0
            for v in found:
                if v and (v & 3) == t and (v >> 2) >= need:
                    n += 1
            if n < 2:
                return False
        return True

    def autos(self, state: tuple, moves: list) -> tuple:
        """Play every safe move to the foundations, appending them to ``moves``."""
        cols, found, stock, waste, redeals = state
        waste_ok = self.waste_safe_always or redeals == 0
        nleft = self.nleft
        while True:
            done = False
            # A card goes home only if a slot's next card is its value, or it is an Ace.
            takes = found[:nleft]
            if waste and waste_ok and (waste[-1] in takes or waste[-1] < 4):
                c = waste[-1]
                i = self.home_slot(found, c)
                if i >= 0 and self.safe(found, c):
                    found = _put_home(found, i, c)
                    waste = waste[:-1]
                    moves.append(MOVE_TABLE[WASTE][FOUNDATION + i][1])
                    done = True
            for j, col in enumerate(cols):
                if not col:
                    continue
                c = col[-1]
                if c >= 4 and c not in takes:
                    continue
                i = self.home_slot(found, c)
                if i >= 0 and self.safe(found, c):
                    found = _put_home(found, i, c)
                    takes = found[:nleft]
                    cols = _replace(cols, j, _pop(col, 1))
                    moves.append(MOVE_TABLE[COLUMN + j][FOUNDATION + i][1])
                    done = True
            if not done:
                return (cols, found, stock, waste, redeals)

    def moves(self, state: tuple) -> list[Move]:
        """The moves worth trying: every legal move but the pointless symmetric ones."""
        cols, found, stock, waste, redeals = state
        out: list[Move] = []
        append = out.append
        tops: dict[int, tuple[int, ...]] = {}
        empty = -1
        for j, col in enumerate(cols):
            if col:
                c = col[-1]
                if c in tops:
                    tops[c] += (j,)
                else:
                    tops[c] = (j,)
            elif empty < 0:
                empty = j
        parents = self.parents
        home_slot = self.home_slot
        tget = tops.get
        takes = found[: self.nleft]
        if waste:
            row = MOVE_TABLE[WASTE]
            c = waste[-1]
            if c in takes or c < 4:
                i = home_slot(found, c)
                if i >= 0:
                    append(row[FOUNDATION + i][1])
            for p in parents[c]:
                for t in tget(p, ()):
                    append(row[COLUMN + t][1])
            if empty >= 0:
                append(row[COLUMN + empty][1])
        sequences = self.sequences
        devils = self.devils
        prune = self.prune
        fits = self.fits
        run_length = self.run_length
        for j, col in enumerate(cols):
            if not col:
                continue
            row = MOVE_TABLE[COLUMN + j]
            c = col[-1]
            if c in takes or c < 4:
                i = home_slot(found, c)
                if i >= 0:
                    append(row[FOUNDATION + i][1])
            n = len(col)
            # The card under the top one, when the top one is built on it (a face-down card
            # takes none).
            on = n > 1 and fits[c][col[-2]]
            if not (on and sequences):
                # The shortcut of the heuristic search: a card that sits on a card it may be
                # built on moves only to an empty column (to dig) or home. (A column's card is
                # never built on a card of its own column's top.)
                if not (prune and on):
                    for p in parents[c]:
                        for t in tget(p, ()):
                            append(row[COLUMN + t][1])
                if empty >= 0 and n > 1:
                    append(row[COLUMN + empty][1])
                continue
            run = run_length(col)
            if prune:
                # Whole runs only, or the part of a run that lets the card under it go home.
                ks = [run]
                for k in range(1, run):
                    under = col[-k - 1]
                    if (under in takes or under < 4) and home_slot(found, under) >= 0:
                        ks.append(k)
            else:
                ks = range(1, run + 1)
            for k in ks:
                for p in parents[col[-k]]:
                    for t in tget(p, ()):
                        append(row[COLUMN + t][k])
                if empty >= 0 and k < n and (k == 1 or not devils):
                    append(row[COLUMN + empty][k])
            if devils and run >= 13 and (col[-13] >> 2) == 12:
                s = col[-13] & 3
                slot = -1
                for k in range(4, 8):
                    v = found[k]
                    if v == 0:
                        if slot < 0:
                            slot = k
                    elif (v & 3) == s:
                        slot = -2
                        break
                if slot >= 0:
                    append(row[FOUNDATION + slot][13])
        if devils:
            for i in range(4):
                v = found[i]
                if v >= 4:
                    row = MOVE_TABLE[FOUNDATION + i]
                    for p in parents[v - 4]:
                        for t in tget(p, ()):
                            append(row[COLUMN + t][1])
                    if empty >= 0:
                        append(row[COLUMN + empty][1])
        if stock:
            append(DEAL)
        elif waste and redeals:
            append(REDEAL)
        return out

    def apply(self, state: tuple, move: tuple[int, int, int]) -> tuple:
        cols, found, stock, waste, redeals = state
        src, dst, count = move
        if src == STOCK:
            n = min(self.stock_deal, len(stock))
            return (cols, found, stock[:-n], waste + stock[: -n - 1 : -1], redeals)
        if dst == STOCK:
            return (cols, found, waste[::-1], b"", redeals - 1)
        if src >= COLUMN:
            j = src - COLUMN
            col = cols[j]
            moved = col[-count:]
            cols = _replace(cols, j, _pop(col, count))
        elif src == WASTE:
            moved = waste[-1:]
            waste = waste[:-1]
        else:
            i = src - FOUNDATION
            v = found[i] - 4
            moved = bytes((v,))
            found = found[:i] + bytes((v if v >= 4 else 0,)) + found[i + 1 :]
        if dst >= COLUMN:
            t = dst - COLUMN
            cols = _replace(cols, t, cols[t] + moved)
        else:
            i = dst - FOUNDATION
            v = (52 | (moved[0] & 3)) if count == 13 else moved[0] + 4
            found = found[:i] + bytes((v,)) + found[i + 1 :]
        return (cols, found, stock, waste, redeals)

    def children(self, state: tuple) -> list[tuple[list, tuple]]:
        """(moves, state) for each move worth trying, safe moves played after it.

        ``state`` has no safe move left to play (the search plays them all), so after a move
        only the cards it turns up or brings to a top may go home, unless the foundations
        changed: the full round of safe moves is played only then.
        """
        out = []
        cols, found, stock, waste, redeals = state
        safe_moves = self.safe_moves
        takes = found[: self.nleft]
        home_slot = self.home_slot
        safe = self.safe
        apply = self.apply
        autos = self.autos
        waste_ok = self.waste_safe_always
        for move in self.moves(state):
            src, dst, count = move
            if src >= COLUMN and dst >= COLUMN:
                j = src - COLUMN
                t = dst - COLUMN
                col = cols[j]
                rest = col[:-count]
                new = list(cols)
                new[t] = cols[t] + col[-count:]
                if rest:
                    c = rest[-1]
                    if c >= DOWN:
                        c -= DOWN
                        rest = rest[:-1] + _UP[c]
                    new[j] = rest
                    child = (tuple(new), found, stock, waste, redeals)
                    if (
                        safe_moves
                        and (c in takes or c < 4)
                        and home_slot(found, c) >= 0
                        and safe(found, c)
                    ):
                        played = [move]
                        out.append((played, autos(child, played)))
                        continue
                else:
                    new[j] = rest
                    child = (tuple(new), found, stock, waste, redeals)
                out.append(([move], child))
                continue
            child = apply(state, move)
            played = [move]
            if safe_moves:
                if FOUNDATION <= src < COLUMN or FOUNDATION <= dst < COLUMN:
                    # A foundation took a card (or gave one back, in Forty Devils): any card
                    # may go home now.
                    child = autos(child, played)
                else:
                    # The top of the waste, of the column the card left or of the column it
                    # went to may go home (a waste card may go to a column and on home).
                    ccols, cfound, _, cwaste, credeals = child
                    tops = [ccols[dst - COLUMN][-1]] if dst >= COLUMN else []
                    if src >= COLUMN and ccols[src - COLUMN]:
                        tops.append(ccols[src - COLUMN][-1])
                    if cwaste and (waste_ok or credeals == 0):
                        tops.append(cwaste[-1])
                    for c in tops:
                        if (c in takes or c < 4) and home_slot(cfound, c) >= 0 and safe(cfound, c):
                            child = autos(child, played)
                            break
            out.append((played, child))
        return out


def _pop(col: bytes, count: int) -> bytes:
    rest = col[:-count]
    if rest and rest[-1] >= DOWN:
        rest = rest[:-1] + bytes((rest[-1] - DOWN,))
    return rest


#: _UP[c]: card ``c`` face up, as a one-byte ``bytes``.
_UP = [bytes((c,)) for c in range(DOWN)]


def _replace(cols: tuple, j: int, col: bytes) -> tuple:
    return (*cols[:j], col, *cols[j + 1 :])


def _put_home(found: bytes, i: int, c: int) -> bytes:
    return found[:i] + bytes((c + 4,)) + found[i + 1 :]


def is_won(state: tuple) -> bool:
    """Whether every foundation slot of ``state`` holds all thirteen cards."""
    return min(state[1]) >= 52


_GAMES: dict[tuple, Game] = {}


def game_for(
    variant: Variant,
    safe_moves: bool = True,
    prune: bool = False,
    weights: Weights = DEFAULT_WEIGHTS,
) -> Game:
    """The ``Game`` of a variant with these settings, made once and kept (with its caches)."""
    key = (variant.id, safe_moves, prune, weights)
    game = _GAMES.get(key)
    if game is None:
        if len(_GAMES) > 64:
            _GAMES.clear()
        game = _GAMES[key] = Game(variant, safe_moves, prune, weights)
    return game


def cache_budget(games: list[Game], max_bytes: float | None) -> int:
    """Bound the score caches by ``max_bytes`` (all of them, of every game) for a search that
    uses ``games``: the caches of the other games are emptied, and each of the caches of these
    games is kept under an equal share. The most bytes the caches may then hold."""
    entries = MAX_CACHED
    if max_bytes is not None:
        entries = min(entries, int(max_bytes // BYTES_PER_CACHED))
    used = {id(g) for g in games}
    per_cache = max(1, entries // (CACHES * max(1, len(used))))
    for g in _GAMES.values():
        if id(g) not in used:
            g.clear_caches()
    for g in games:
        g.cache_limit = per_cache
        if g.largest_cache() > per_cache:
            g.clear_caches()
    return per_cache * CACHES * len(used) * BYTES_PER_CACHED


def cache_bytes() -> int:
    """The bytes the score caches of every game hold, roughly."""
    return sum(g.cache_size() for g in _GAMES.values()) * BYTES_PER_CACHED


def position_key(position: Position) -> int:
    """The solver's key of a position: equal for positions the search treats as one.

    Within one search the stock of a one-card-deal game is always a part of the same sequence,
    so the key counts its cards rather than naming them: compare keys of positions whose stocks
    come from the same deal.
    """
    game = game_for(position.variant)
    return game.key(game.state_of(position))
