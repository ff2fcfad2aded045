"""The solver: its wins replay, its losses are real, its shortcuts are safe, its budgets hold."""

import random
import tracemalloc

import pytest

from games.rules import VARIANTS, Move, Record, first_position, replay
from games.rules.cards import card_name
from games.rules.solver import (
    LOST,
    UNKNOWN,
    WON,
    find_winnable,
    heuristic_move,
    position_key,
    solutions,
    solve,
)
from games.rules.solver.search import CACHE_SHARE
from games.rules.solver.state import cache_bytes, game_for
from tests.rules.positions import ALL_GAMES, pos, up

RANKS = "A23456789TJQK"


def replays_to_won(position, moves: list[Move]) -> bool:
    """Play ``moves`` on a copy of ``position`` with the engine's checks; whether it is won."""
    check = position.copy()
    for move in moves:
        check.play(move)
    return check.is_won()


# Deals the solver wins within a fraction of a second (found with the solver itself).
QUICK_WINS = [
    ("forty-thieves", 2),
    ("indian", 27),
    ("limited", 8),
    ("little-forty", 9),
    ("lucas", 8),
    ("number-ten", 7),
    ("rank-and-file", 2),
]


@pytest.mark.parametrize(("game", "number"), QUICK_WINS)
def test_a_win_replays_from_the_deal_to_won(game, number):
    position = first_position(VARIANTS[game], number)
    result = solve(position, seconds=20)
    assert result.status == WON
    assert result.moves and result.nodes > 0
    record = Record(game, number, [str(m) for m in result.moves])
    assert replay(record).status == "won"


def test_a_nearly_won_position_is_won_quickly():
    # Everything home but the clubs from the Queen, each Queen under a King: one King must
    # first go to an empty column.
    position = pos(
        "forty-thieves",
        f1=up("C", "J"),
        f2=up("C", "J"),
        f3=up("D"),
        f4=up("D"),
        f5=up("H"),
        f6=up("H"),
        f7=up("S"),
        f8=up("S"),
        t1="QC KC",
        t2="QC KC",
    )
    result = solve(position, seconds=5)
    assert result.status == WON
    assert result.nodes < 50
    assert replays_to_won(position, result.moves)
    assert len(result.moves) == 5  # t1-t3 (a King to an empty column), then 4 cards home


def lost_forty_thieves():
    """A Forty Thieves position that is certainly lost, though it has moves.

    Both Twos of clubs lie under the Kings of clubs on t1 and t2, which could only leave for an
    empty column. No column can ever empty: every bottom card is stuck for good. KH (t1, t2)
    goes home only after QH, QH (t3, t4) only after JH, and both JH are buried; KD and KS (t5 to
    t8) wait for QD and QS, buried too; 3C (t9, t10) goes home after 2C or onto 4C, both buried.
    The clubs from 5 to Q can only shuffle between the tops.
    """
    return pos(
        "forty-thieves",
        f1="AC",
        f2="AC",
        f3=up("D", "J"),
        f4=up("D", "J"),
        f5=up("H", "T"),
        f6=up("H", "T"),
        f7=up("S", "J"),
        f8=up("S", "J"),
        t1="KH JH QD QS 4C 2C KC",
        t2="KH JH QD QS 4C 2C KC",
        t3="QH 5C 9C",
        t4="QH 5C 9C",
        t5="KD 6C TC",
        t6="KD 6C TC",
        t7="KS 7C JC",
        t8="KS 7C JC",
        t9="3C 8C QC",
        t10="3C 8C QC",
    )


@pytest.mark.parametrize("strategy", ["portfolio", "dfs"])
def test_a_position_that_cannot_be_won_is_lost(strategy):
    position = lost_forty_thieves()
    assert position.legal_moves()
    result = solve(position, seconds=20, strategy=strategy)
    assert result.status == LOST
    assert result.moves == [] and result.nodes > 1


@pytest.mark.slow
def test_a_real_deal_is_proved_lost():
    # Forty Thieves deal 9018: every position the depth-first search can reach (about 155,000
    # after its reductions) is searched, and none wins.
    result = solve(
        first_position(VARIANTS["forty-thieves"], 9018), seconds=None, max_nodes=2_000_000
    )
    assert result.status == LOST
    assert result.moves == [] and result.nodes > 100_000


def stuck_forty_thieves():
    position = lost_forty_thieves()
    for j in (2, 3, 4, 5, 6, 7, 8, 9):
        del position.columns[j][1:]  # only the stuck bottom cards are left on t3 to t10
    return position


def test_a_stuck_position_is_lost():
    position = stuck_forty_thieves()
    assert position.status == "stuck"
    result = solve(position, seconds=5)
    assert result.status == LOST and result.nodes <= 4  # one per search of the portfolio


def test_solve_leaves_its_position_unchanged():
    position = first_position(VARIANTS["forty-thieves"], 1009)
    position.play(Move.parse("deal"))
    before = (position.text(), position.key(), len(position.history), position.ply)
    result = solve(position, seconds=20)
    assert result.status == WON
    assert (position.text(), position.key(), len(position.history), position.ply) == before
    solve(lost_forty_thieves(), max_nodes=30)
    hard = first_position(VARIANTS["forty-thieves"], 1001)
    text = hard.text()
    solve(hard, seconds=None, max_nodes=200)
    assert hard.text() == text


@pytest.mark.parametrize("game", ["forty-thieves", "rank-and-file", "little-forty"])
def test_the_node_budget_is_respected(game):
    position = first_position(VARIANTS[game], 1001)
    for strategy in ("best-first", "dfs"):
        result = solve(position, seconds=None, max_nodes=300, strategy=strategy)
        assert result.status == UNKNOWN
        assert 0 < result.nodes <= 300
        assert result.moves == []


def test_the_time_budget_is_respected():
    result = solve(first_position(VARIANTS["forty-thieves"], 1001), seconds=0.3)
    assert result.status == UNKNOWN
    assert result.seconds < 3


def test_the_memory_budget_is_respected():
    # 1 MB holds a few thousand positions: the search gives up long before its time is up.
    result = solve(first_position(VARIANTS["forty-thieves"], 1001), seconds=60, max_memory_mb=1)
    assert result.status == UNKNOWN
    assert result.nodes < 30_000


@pytest.mark.parametrize(("game", "mb"), [("little-forty", 2), ("forty-thieves", 3)])
def test_everything_the_search_holds_stays_within_the_memory_budget(game, mb):
    # Measured by Python's own allocation tracer: the positions, the open lists, the score
    # caches, whatever the search allocates. The search stops (or forgets) before the budget.
    position = first_position(VARIANTS[game], 1001)
    solve(position, seconds=None, max_nodes=500)  # the tables made once, before measuring
    tracemalloc.start()
    try:
        result = solve(position, seconds=None, max_nodes=20_000, max_memory_mb=mb)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert result.status == UNKNOWN
    assert peak <= mb * 1024 * 1024
    assert cache_bytes() <= mb * 1024 * 1024 * CACHE_SHARE


def test_the_key_equates_swapped_columns_and_foundations():
    a = pos("maria", f1="AC", f2="AH", t1="9S 8H", t2="KD", t3="5C", w="7D", s="3S 4S")
    b = pos("maria", f5="AC", f8="AH", t9="9S 8H", t1="KD", t4="5C", w="7D", s="3S 4S")
    assert position_key(a) == position_key(b)
    # Other cards in a place, or the same cards in other places, are other keys.
    c = pos("maria", f1="AC", f2="AH", t1="9S 8H", t2="KD", t3="5C", w="7H", s="3S 4S")
    d = pos("maria", f1="AC", f2="AH", t1="9S", t2="KD 8H", t3="5C", w="7D", s="3S 4S")
    assert len({position_key(a), position_key(c), position_key(d)}) == 3
    # A face-down card is not the same as a face-up one.
    e = pos("indian", t1="(9S) 8H", t2="KD")
    f = pos("indian", t1="9S 8H", t2="KD")
    assert position_key(e) != position_key(f)


def test_the_key_of_two_copies_swapped_between_columns():
    # Copy 1 of 7H on t1 and copy 2 on t2, or the other way round: one position.
    deal = first_position(VARIANTS["forty-thieves"], 5)
    other = deal.copy()
    other.columns[0], other.columns[1] = other.columns[1], other.columns[0]
    assert position_key(deal) == position_key(other)
    assert position_key(deal) != position_key(first_position(VARIANTS["forty-thieves"], 6))


@pytest.mark.parametrize("game", ALL_GAMES)
def test_heuristic_move_is_legal(game):
    rng = random.Random(game)
    for number in (1, 2, 3):
        position = first_position(VARIANTS[game], number)
        for _ in range(30):
            move = heuristic_move(position)
            if move is None:
                assert not position.legal_moves()
                break
            assert position.check(move) is None, (str(move), position.text())
            position.play(move)
            if rng.random() < 0.3 and position.legal_moves():
                position.play(rng.choice(position.legal_moves()))


def test_heuristic_move_is_none_when_nothing_is_legal():
    position = stuck_forty_thieves()
    assert not position.legal_moves()
    assert heuristic_move(position) is None


def test_heuristic_move_gives_a_move_the_search_would_skip():
    # A lone King may only go to another empty column: pointless, but legal, so it is given.
    position = pos("forty-thieves", t1="KC")
    move = heuristic_move(position)
    assert move is not None and position.check(move) is None


# -- safe moves ------------------------------------------------------------------------------

SUIT_ORDER = "CDHS"


def small_position(game: str, rng: random.Random, pulled: int, crossed: bool = False):
    """All cards home but ``pulled`` taken back from the foundations and scattered (``crossed``:
    each column's cards in ascending order, so that low cards lie under high ones)."""
    v = VARIANTS[game]
    heights = [13] * 8
    lowest = 1 if v.aces_out else 0
    candidates = range(4) if v.devils else range(8)
    cards = []
    for _ in range(pulled):
        slots = [i for i in candidates if heights[i] > lowest]
        # Mostly from the clubs and diamonds, so that low cards come out too.
        deep = [i for i in slots if i % 4 < 2]
        i = rng.choice(deep if deep and rng.random() < 0.85 else slots)
        cards.append(RANKS[heights[i] - 1] + SUIT_ORDER[i % 4])
        heights[i] -= 1
    rng.shuffle(cards)
    piles = {f"f{i + 1}": up(SUIT_ORDER[i % 4], RANKS[heights[i] - 1]) for i in range(8)}
    # (Forty Devils: cards come back from the left foundations only; the right ones stay full.)
    piles = {k: val for k, val in piles.items() if heights[int(k[1:]) - 1] > 0}
    # No empty column, and low cards under high ones, to make the wins harder: the cards go
    # round the columns from the lowest, a few to the stock and the waste.
    columns = [[] for _ in range(v.columns)]
    stock, waste = [], []
    cards.sort(key=lambda c: RANKS.index(c[0]) + rng.random() * 6)
    j = 0
    for c in cards:
        where = rng.random()
        if where < 0.1 and j >= v.columns:
            stock.append(c)
        elif where < 0.2 and j >= v.columns:
            waste.append(c)
        else:
            columns[j % v.columns].append(c)
            j += 1
    if crossed:
        for col in columns:
            col.sort(key=lambda c: RANKS.index(c[0]))
    for j, col in enumerate(columns):
        if col:
            down = min(v.face_down, len(col) - 1, rng.randrange(3))
            text = [f"({c})" for c in col[:down]] + col[down:]
            piles[f"t{j + 1}"] = " ".join(text)
    piles["s"] = " ".join(stock)
    piles["w"] = " ".join(waste)
    redeals = rng.randrange(v.redeals + 1) if v.redeals else 0
    return pos(game, piles, redeals_left=redeals)


@pytest.mark.slow
@pytest.mark.parametrize(
    "game", ["forty-thieves", "maria", "indian", "little-forty", "lucas", "forty-devils"]
)
def test_safe_moves_never_lose_a_win(game):
    rng = random.Random(f"safe {game}")
    verdicts = []
    tried = 0
    for _ in range(25):
        position = small_position(game, rng, rng.randrange(16, 26))
        free = solve(position, seconds=None, max_nodes=40_000, strategy="dfs", safe_moves=False)
        if free.status == UNKNOWN:
            continue
        forced = solve(position, seconds=None, max_nodes=40_000, strategy="dfs")
        assert forced.status == free.status, position.text()
        verdicts.append(free.status)
        # Each safe move on its own keeps a winnable position winnable.
        if free.status == WON:
            game_ = game_for(position.variant)
            played = []
            game_.autos(game_.state_of(position), played)
            if played:
                tried += 1
                after = position.copy()
                after.play(played[0])
                again = solve(after, None, 40_000, strategy="dfs", safe_moves=False)
                assert again.status == WON, position.text()
    assert WON in verdicts and len(verdicts) >= 10 and tried >= 3


def engine_verdict(position, limit: int) -> str | None:
    """WON or LOST by the engine alone, no solver code: every legal move from every position
    reached, positions equal but for the order of their columns searched once; None past
    ``limit``."""

    def key(p):
        _, stock, waste, found, cols, down, redeals = p.key()
        return stock, waste, found, tuple(sorted(zip(cols, down, strict=True))), redeals

    if position.is_won():
        return WON
    seen = {key(position)}
    stack = [position]
    while stack:
        here = stack.pop()
        for move in here.legal_moves():
            child = here.copy()
            child.play(move)
            if child.is_won():
                return WON
            k = key(child)
            if k not in seen:
                if len(seen) >= limit:
                    return None
                seen.add(k)
                stack.append(child)
    return LOST


def locked_position(game: str, rng: random.Random):
    """The lost Forty Thieves position's piles in ``game`` (a game of ten columns), with up to
    two pairs of its tableau cards swapped: some are lost, some won."""
    position = lost_forty_thieves()
    piles = {"s": "", "w": ""}
    for i, f in enumerate(position.foundations):
        piles[f"f{i + 1}"] = " ".join(card_name(c) for c in f)
    cols = [[card_name(c) for c in col] for col in position.columns]
    cells = [(j, i) for j, col in enumerate(cols) for i in range(len(col))]
    for _ in range(rng.randrange(3)):
        (a, b), (x, y) = rng.sample(cells, 2)
        cols[a][b], cols[x][y] = cols[x][y], cols[a][b]
    for j, col in enumerate(cols):
        piles[f"t{j + 1}"] = " ".join(col)
    return pos(game, piles)


@pytest.mark.slow
@pytest.mark.parametrize("game", [g for g in ALL_GAMES if VARIANTS[g].columns == 10])
def test_every_loss_the_solver_proves_is_one_for_a_plain_exhaustive_search(game):
    # Positions the solver decides with its reductions (safe moves home, copies and columns as
    # sets, a depth-first search that forgets when short of memory), decided again by the
    # engine alone.
    rng = random.Random(f"plain {game}")
    verdicts = []
    for _ in range(12):
        position = locked_position(game, rng)
        plain = engine_verdict(position, 30_000)
        if plain is None:
            continue
        result = solve(position, seconds=None, max_nodes=100_000)
        assert result.status == plain, position.text()
        if result.status == WON:
            assert replays_to_won(position, result.moves)
        tight = solve(position, seconds=None, max_nodes=100_000, max_memory_mb=0.2)
        assert tight.status in (plain, UNKNOWN), position.text()
        verdicts.append(plain)
    assert LOST in verdicts and len(verdicts) >= 6, verdicts


@pytest.mark.slow
def test_safe_moves_agree_on_wins_and_losses_near_a_lost_position():
    # The lost position above with two of its tableau cards swapped: some swaps free a Two of
    # clubs (won), some do not (lost). Exhaustive search must say the same with and without
    # the safe moves played by themselves.
    rng = random.Random("one swap")
    verdicts = []
    for _ in range(12):
        position = lost_forty_thieves()
        cells = [(j, i) for j, col in enumerate(position.columns) for i in range(len(col))]
        (a, b), (x, y) = rng.sample(cells, 2)
        cols = position.columns
        cols[a][b], cols[x][y] = cols[x][y], cols[a][b]
        free = solve(position, seconds=None, max_nodes=40_000, strategy="dfs", safe_moves=False)
        forced = solve(position, seconds=None, max_nodes=40_000, strategy="dfs")
        assert UNKNOWN not in (free.status, forced.status)
        assert forced.status == free.status, position.text()
        verdicts.append(free.status)
    assert WON in verdicts and LOST in verdicts
    free = solve(lost_forty_thieves(), None, 100_000, strategy="dfs", safe_moves=False)
    assert free.status == LOST


# -- the winnable deals kept with the code -----------------------------------------------------


@pytest.mark.parametrize("game", ALL_GAMES)
def test_every_kept_solution_replays_to_won(game):
    kept = solutions(game)
    assert kept, f"no winnable deals kept for {game}"
    assert len({s["deal"] for s in kept}) == len(kept)
    for solution in kept:
        assert type(solution["deal"]) is int
        record = Record(game, solution["deal"], solution["moves"])
        assert replay(record).status == "won", (game, solution["deal"])


def test_find_winnable_gives_solutions_in_the_kept_format():
    found = find_winnable("forty-thieves", 2, 1, 20)
    assert [f["deal"] for f in found] == [2]
    assert replay(Record("forty-thieves", 2, found[0]["moves"])).status == "won"
    assert all(isinstance(m, str) for m in found[0]["moves"])


def test_solutions_of_an_unknown_game_is_an_error():
    with pytest.raises(KeyError):
        solutions("spider")
