"""A position of any of the ten games: legal moves, play, undo, won and stuck.

One ``Position`` class serves every game; the ``Variant`` supplies what differs. A position is
mutable and changes in place: ``play`` and ``undo`` touch only the piles a move joins, so a
search can walk millions of positions without copying any.
"""

from .builds import ACCEPTS, PARENTS
from .cards import ACE, KING, NAMES, SUITS, rank_of, suit_of
from .moves import COLUMN, DEAL, FOUNDATION, MOVE_TABLE, REDEAL, STOCK, WASTE, Move, pile_name
from .played import Played, split_move
from .reasons import Reason
from .variants import Variant

WON, STUCK, PLAYING = "won", "stuck", "playing"
ALL_HOME = 104


class IllegalMove(ValueError):
    """A move the rules do not allow here; ``reason`` says why (and so does its text, in
    codes: games/rules/reasons.py)."""

    def __init__(self, reason: Reason) -> None:
        super().__init__(reason)
        self.reason = reason

    def __str__(self) -> str:
        return str(self.reason)


class Position:
    """The piles of one game, with the moves that led there (for undo)."""

    __slots__ = (
        "_accepts",
        "_legal",
        "_parents",
        "base_ply",
        "columns",
        "deal",
        "down",
        "foundations",
        "history",
        "home",
        "redeals_left",
        "stock",
        "variant",
        "waste",
    )

    def __init__(
        self,
        variant: Variant,
        deal: int,
        stock: list[int],
        waste: list[int],
        foundations: list[list[int]],
        columns: list[list[int]],
        down: list[int],
        redeals_left: int,
        base_ply: int = 0,
    ):
        self.variant = variant
        self.deal = deal
        self.stock = stock
        self.waste = waste
        self.foundations = foundations
        self.columns = columns
        #: down[j]: how many cards at the bottom of column j are face down.
        self.down = down
        self.redeals_left = redeals_left
        #: Moves counted before this object's history began (a position read from text).
        self.base_ply = base_ply
        self.history: list[tuple[Move, int]] = []
        self.home = sum(len(f) for f in foundations)
        self._accepts = ACCEPTS[variant.build]
        self._parents = PARENTS[variant.build]
        #: The legal moves, once asked for, until the position changes (apply, undo).
        self._legal: tuple[Move, ...] | None = None

    # -- reading ----------------------------------------------------------------------------

    @property
    def ply(self) -> int:
        """How many moves have been applied since the deal (the ply of a game's log)."""
        return self.base_ply + len(self.history)

    def is_won(self) -> bool:
        return self.home == ALL_HOME

    def is_stuck(self) -> bool:
        return self.home != ALL_HOME and not self.legal_moves()

    @property
    def status(self) -> str:
        if self.home == ALL_HOME:
            return WON
        return PLAYING if self.legal_moves() else STUCK

    def face_up(self, j: int) -> list[int]:
        """The face-up cards of column ``j`` (0-based), bottom to top."""
        return self.columns[j][self.down[j] :]

    def movable(self, j: int) -> int:
        """How many cards from the top of column ``j`` (0-based) may move as one unit.

        0 for an empty column, 1 in games without sequence moves, else the length of the
        sequence at the top of the column (RULES.md: any part of it may move).
        """
        col = self.columns[j]
        if not col:
            return 0
        if not self.variant.sequence_moves:
            return 1
        accepts = self._accepts
        i = len(col) - 1
        lowest = self.down[j]
        while i > lowest and col[i] in accepts[col[i - 1]]:
            i -= 1
        return len(col) - i

    def moving_card(self, pile: str, count: int) -> int | None:
        """The bottom card of the ``count`` cards at the top of ``pile`` (the notation's
        name: "w", "f2", "t3"), if it has that many."""
        number = pile[1:]
        if pile == "w":
            cards = self.waste
        elif pile[:1] == "f" and number.isdigit() and 1 <= int(number) <= len(self.foundations):
            cards = self.foundations[int(number) - 1]
        elif pile[:1] == "t" and number.isdigit() and 1 <= int(number) <= len(self.columns):
            cards = self.columns[int(number) - 1]
        else:
            return None
        return cards[-count] if 0 < count <= len(cards) else None

    def preview(self, move: Move) -> Played:
        """What ``move`` would do, without playing it (and so without telling which card it
        would turn face up)."""
        source, count, target = split_move(move)
        card = self.moving_card(source, count) if source else None
        return Played(move, source, target, count, card)

    def last_move(self) -> Move | None:
        return self.history[-1][0] if self.history else None

    def copy(self) -> "Position":
        """An independent position with the same piles (its history starts empty)."""
        return Position(
            self.variant,
            self.deal,
            self.stock[:],
            self.waste[:],
            [f[:] for f in self.foundations],
            [c[:] for c in self.columns],
            self.down[:],
            self.redeals_left,
            self.ply,
        )

    def key(self) -> tuple:
        """What makes two positions the same (not the way they were reached)."""
        return (
            self.variant.id,
            tuple(self.stock),
            tuple(self.waste),
            tuple(map(tuple, self.foundations)),
            tuple(map(tuple, self.columns)),
            tuple(self.down),
            self.redeals_left,
        )

    # -- legality ---------------------------------------------------------------------------

    def check(self, move: Move) -> Reason | None:
        """Why ``move`` is illegal here (games/rules/reasons.py), or None when the rules
        allow it."""
        src, dst, count = move
        variant = self.variant
        if self.home == ALL_HOME:
            return Reason("game-won")
        if move == DEAL:
            return None if self.stock else Reason("stock-empty")
        if move == REDEAL:
            if not variant.redeals:
                return Reason("no-redeal-in-this-game")
            if self.stock:
                return Reason("stock-not-empty")
            if not self.waste:
                return Reason("waste-empty")
            if not self.redeals_left:
                return Reason("no-redeals-left")
            return None
        ncols = len(self.columns)
        if dst >= COLUMN + ncols or src >= COLUMN + ncols:
            return Reason("no-such-column", {"pile": pile_name(max(src, dst))})
        if src == STOCK or dst <= WASTE or count < 1:
            return Reason("not-a-move-of-this-game")
        if src == dst:
            return Reason("same-pile")

        if src == WASTE:
            if not self.waste:
                return Reason("waste-empty")
            if count != 1:
                return Reason("waste-top-only")
            c = self.waste[-1]
        elif src >= COLUMN:
            j = src - COLUMN
            col = self.columns[j]
            if not col:
                return Reason("column-empty", {"pile": pile_name(src)})
            if count > len(col) - self.down[j]:
                return Reason(
                    "too-few-face-up", {"pile": pile_name(src), "count": len(col) - self.down[j]}
                )
            if count > 1:
                if not variant.sequence_moves:
                    return Reason("one-card-at-a-time")
                accepts = self._accepts
                for i in range(len(col) - count, len(col) - 1):
                    if col[i + 1] not in accepts[col[i]]:
                        return Reason("not-a-sequence", {"pile": pile_name(src), "count": count})
            c = col[-count]
        else:
            i = src - FOUNDATION
            if not variant.devils:
                return Reason("foundation-cards-stay")
            if i >= 4:
                return Reason("right-foundation-cards-stay")
            if dst < COLUMN:
                return Reason("foundation-card-to-column-only")
            f = self.foundations[i]
            if not f:
                return Reason("foundation-empty", {"pile": pile_name(src)})
            if count != 1:
                return Reason("foundation-gives-one-card")
            c = f[-1]

        if dst >= COLUMN:
            j = dst - COLUMN
            col = self.columns[j]
            if not col:
                if count > 1 and variant.devils:
                    return Reason("empty-column-takes-one-card")
                return None
            if c not in self._accepts[col[-1]]:
                return Reason("does-not-fit", {"card": c, "on": col[-1], "build": variant.build})
            return None

        i = dst - FOUNDATION
        if variant.devils and i >= 4:
            if src < COLUMN or count != 13:
                return Reason("right-foundation-takes-whole-suit")
            if self.foundations[i]:
                return Reason("right-foundation-filled", {"pile": pile_name(dst)})
            if any(f and suit_of(f[0]) == suit_of(c) for f in self.foundations[4:]):
                return Reason("right-foundation-suit-taken", {"suit": suit_of(c)})
            return None
        if count != 1:
            return Reason("foundation-takes-one-card")
        f = self.foundations[i]
        if not f:
            if rank_of(c) != ACE:
                return Reason("foundation-wants-ace", {"card": c})
            if variant.devils and any(
                g and suit_of(g[0]) == suit_of(c) for g in self.foundations[:4]
            ):
                return Reason("left-foundation-suit-taken", {"suit": suit_of(c)})
            return None
        top = f[-1]
        if rank_of(top) == KING:
            return Reason("foundation-complete", {"pile": pile_name(dst)})
        if c != top + 4:
            return Reason(
                "foundation-wants-next", {"pile": pile_name(dst), "next": top + 4, "card": c}
            )
        return None

    def legal_moves(self) -> list[Move]:
        """Every legal move, in a stable order.

        Worked out once for a position, however often it is asked for (its status, the moves
        the board offers and the automatic moves all ask) until the position changes.
        """
        legal = self._legal
        if legal is None:
            legal = self._legal = tuple(self._legal_moves())
        return list(legal)

    def _legal_moves(self) -> list[Move]:
        if self.home == ALL_HOME:
            return []
        variant = self.variant
        devils = variant.devils
        moves: list[Move] = []
        append = moves.append
        if self.stock:
            append(DEAL)
        elif self.waste and self.redeals_left:
            append(REDEAL)

        # needs[card]: the foundations that take ``card`` next.
        foundations = self.foundations
        needs: dict[int, list[int]] = {}
        empty_foundations: list[int] = []
        for i in range(4 if devils else 8):
            f = foundations[i]
            if not f:
                empty_foundations.append(FOUNDATION + i)
            elif len(f) < 13:
                needs.setdefault(f[-1] + 4, []).append(FOUNDATION + i)
        if empty_foundations:
            # An Ace's value is its suit; Forty Devils' left foundations hold distinct suits.
            held = {f[0] for f in foundations[:4] if f} if devils else ()
            for ace in range(4):
                if ace not in held:
                    needs[ace] = empty_foundations

        # tops[card]: the columns whose top card is ``card``.
        tops: dict[int, list[int]] = {}
        empties: list[int] = []
        columns = self.columns
        for j, col in enumerate(columns):
            if col:
                tops.setdefault(col[-1], []).append(COLUMN + j)
            else:
                empties.append(COLUMN + j)

        # The single-card targets are written out for the waste, each column and (Forty Devils)
        # each left foundation rather than shared in a helper: this is a search's inner loop.
        parents = self._parents
        nget = needs.get
        tget = tops.get
        if self.waste:
            c = self.waste[-1]
            row = MOVE_TABLE[WASTE]
            for d in nget(c, ()):
                append(row[d][1])
            for p in parents[c]:
                for d in tget(p, ()):
                    append(row[d][1])
            for d in empties:
                append(row[d][1])

        accepts = self._accepts
        sequences = variant.sequence_moves
        down = self.down
        for j, col in enumerate(columns):
            if not col:
                continue
            src = COLUMN + j
            row = MOVE_TABLE[src]
            c = col[-1]
            for d in nget(c, ()):
                append(row[d][1])
            for p in parents[c]:
                for d in tget(p, ()):
                    append(row[d][1])
            for d in empties:
                append(row[d][1])
            if not sequences:
                continue
            i = len(col) - 1
            lowest = down[j]
            while i > lowest and col[i] in accepts[col[i - 1]]:
                i -= 1
                count = len(col) - i
                for p in parents[col[i]]:
                    for d in tget(p, ()):
                        append(row[d][count])
                if not devils:
                    for d in empties:
                        append(row[d][count])
            if devils and len(col) - i >= 13 and rank_of(col[-13]) == KING:
                suit = suit_of(col[-13])
                if not any(f and suit_of(f[0]) == suit for f in foundations[4:]):
                    for k in range(4, 8):
                        if not foundations[k]:
                            append(row[FOUNDATION + k][13])

        if devils:
            for i in range(4):
                f = foundations[i]
                if f:
                    row = MOVE_TABLE[FOUNDATION + i]
                    for p in parents[f[-1]]:
                        for d in tget(p, ()):
                            append(row[d][1])
                    for d in empties:
                        append(row[d][1])
        return moves

    # -- changing ---------------------------------------------------------------------------

    def play(self, move: Move) -> Played:
        """Apply ``move``, turning up a face-down card it uncovers, and say what it did;
        IllegalMove says why not."""
        reason = self.check(move)
        if reason is not None:
            raise IllegalMove(reason)
        src, dst, count = move
        if src == STOCK:
            before = len(self.stock)
            self.apply(move)
            return Played(move, "", "", before - len(self.stock), self.waste[-1])
        if dst == STOCK:
            self.apply(move)
            return Played(move, "", "", 0, None)
        if src >= COLUMN:
            column = self.columns[src - COLUMN]
            card, down = column[-count], self.down[src - COLUMN]
        else:
            card = (self.waste if src == WASTE else self.foundations[src - FOUNDATION])[-1]
        self.apply(move)
        turned_up = None
        if src >= COLUMN and self.down[src - COLUMN] < down:
            turned_up = column[-1]
        return Played(move, pile_name(src), pile_name(dst), count, card, turned_up)

    def apply(self, move: Move) -> None:
        """Apply a move already known to be legal (a search's inner loop)."""
        self._legal = None
        src, dst, count = move
        if src == STOCK:
            stock, waste = self.stock, self.waste
            n = min(self.variant.stock_deal, len(stock))
            for _ in range(n):
                waste.append(stock.pop())
            self.history.append((move, n))
            return
        if dst == STOCK:
            self.stock = self.waste[::-1]
            self.waste = []
            self.redeals_left -= 1
            self.history.append((move, 0))
            return
        flipped = 0
        if src >= COLUMN:
            j = src - COLUMN
            col = self.columns[j]
            if count == 1:
                cards = (col.pop(),)
            else:
                cards = col[-count:]
                del col[-count:]
            if col and len(col) == self.down[j]:
                self.down[j] -= 1
                flipped = 1
        elif src == WASTE:
            cards = (self.waste.pop(),)
        else:
            cards = (self.foundations[src - FOUNDATION].pop(),)
            self.home -= 1
        if dst >= COLUMN:
            self.columns[dst - COLUMN].extend(cards)
        else:
            self.foundations[dst - FOUNDATION].extend(cards)
            self.home += count
        self.history.append((move, flipped))

    def undo(self) -> Move:
        """Take back the last move and return it; IndexError when there is none."""
        move, extra = self.history.pop()
        self._legal = None
        src, dst, count = move
        if src == STOCK:
            stock, waste = self.stock, self.waste
            for _ in range(extra):
                stock.append(waste.pop())
            return move
        if dst == STOCK:
            self.waste = self.stock[::-1]
            self.stock = []
            self.redeals_left += 1
            return move
        if dst >= COLUMN:
            pile = self.columns[dst - COLUMN]
        else:
            pile = self.foundations[dst - FOUNDATION]
            self.home -= count
        cards = pile[-count:]
        del pile[-count:]
        if src >= COLUMN:
            j = src - COLUMN
            if extra:
                self.down[j] += 1
            self.columns[j].extend(cards)
        elif src == WASTE:
            self.waste.extend(cards)
        else:
            self.foundations[src - FOUNDATION].extend(cards)
            self.home += 1
        return move

    # -- text -------------------------------------------------------------------------------

    def text(self, *, status: str | None = None) -> str:
        """The position in NOTATION.md's text form (no trailing newline); ``status``: its
        status, when the caller has just worked it out."""
        lines = [
            f"variant: {self.variant.id}",
            f"deal: {self.deal}",
            f"status: {status or self.status}",
            f"moves: {self.ply}",
            f"redeals-left: {self.redeals_left}",
            _pile_line("s", self.stock),
            _pile_line("w", self.waste),
        ]
        lines += [_pile_line(f"f{i + 1}", f) for i, f in enumerate(self.foundations)]
        for j, col in enumerate(self.columns):
            d = self.down[j]
            if d:
                names = [f"({NAMES[c]})" for c in col[:d]] + [NAMES[c] for c in col[d:]]
                lines.append(f"t{j + 1}: " + " ".join(names))
            else:
                lines.append(_pile_line(f"t{j + 1}", col))
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<Position {self.variant.id} deal {self.deal}, {self.ply} moves>"


def _pile_line(key: str, cards: list[int]) -> str:
    if not cards:
        return f"{key}:"
    return f"{key}: " + " ".join([NAMES[c] for c in cards])


__all__ = ["PLAYING", "STUCK", "SUITS", "WON", "IllegalMove", "Position", "pile_name"]
