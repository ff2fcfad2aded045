"""Benchmark of the rules engine, per game: `make bench` prints the figures.

- replay: records of random legal games replayed from their text (parse + check + play);
- legal moves: positions per second for which every legal move is generated;
- random play with undo: random legal moves, every third one taken back (plays + undos / s).
Each figure is the best of several rounds, so a busy moment on the machine counts less.
"""

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.rules import VARIANTS, Move, Record, first_position, replay

GAMES_PER_VARIANT = 40
ROUNDS = 5


def random_record(game: str, number: int, rng: random.Random, limit: int = 400) -> Record:
    position = first_position(VARIANTS[game], number)
    moves = []
    for _ in range(limit):
        legal = position.legal_moves()
        if not legal:
            break
        move = rng.choice(legal)
        position.play(move)
        moves.append(str(move))
    return Record(game, number, moves)


def best_rate(work) -> float:
    """Operations per second of ``work`` (which returns how many it did), best of ROUNDS."""
    best = 0.0
    for _ in range(ROUNDS):
        start = time.perf_counter()
        count = work()
        best = max(best, count / (time.perf_counter() - start))
    return best


def bench_game(game: str, rng: random.Random) -> tuple[float, float, float]:
    records = [random_record(game, rng.randrange(1, 10**12), rng) for _ in range(GAMES_PER_VARIANT)]

    def replay_all() -> int:
        for record in records:
            replay(record)
        return sum(len(r.moves) for r in records)

    positions = []
    for record in records[:10]:
        position = first_position(VARIANTS[game], record.deal)
        for text in record.moves:
            position.play(Move.parse(text))
            positions.append(position.copy())

    def generate_all() -> int:
        for position in positions:
            position.legal_moves()
        return len(positions)

    def random_play() -> int:
        play_rng = random.Random(7)
        ops = 0
        for record in records[:10]:
            position = first_position(VARIANTS[game], record.deal)
            for n in range(300):
                legal = position.legal_moves()
                if not legal:
                    break
                position.play(play_rng.choice(legal))
                ops += 1
                if n % 3 == 2:
                    position.undo()
                    ops += 1
        return ops

    return best_rate(replay_all), best_rate(generate_all), best_rate(random_play)


def main() -> None:
    rng = random.Random(20261129)
    print(
        f"Python {sys.version.split()[0]}; {GAMES_PER_VARIANT} random games per game, "
        f"best of {ROUNDS} rounds"
    )
    print(
        f"{'game':<15}{'replay moves/s':>16}{'legal-move positions/s':>25}"
        f"{'random play+undo ops/s':>25}"
    )
    for game in VARIANTS:
        replay_rate, legal_rate, play_rate = bench_game(game, rng)
        print(f"{game:<15}{replay_rate:>16,.0f}{legal_rate:>25,.0f}{play_rate:>25,.0f}")


if __name__ == "__main__":
    main()
