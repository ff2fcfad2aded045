"""A move request's server time, this checkout beside an earlier version, in one run:

    .venv/bin/python tests/bench/side_by_side.py REV [--pairs N]

REV is a git revision (the code before a change, say ``0d81277``), or a folder holding another
checkout; a revision's tree is taken with ``git archive`` into
test-artifacts/side-by-side/<commit>/ (once). ``--now FOLDER`` puts another checkout in the
place of this one. Two processes run
tests/bench/move_request.py's harness (``--lockstep``), one on each version, each on its own
SQLite file, and play their moves in turn: one move here, one move there, the order swapped at
every step. A busy moment on the machine then falls on both versions alike, which separate
runs minutes apart cannot promise on a shared machine whose speed drifts by a tenth or more.

Each version plays the same games with the same seeds for three rounds after a warm-up
(move_request.py's rounds); the figures are each move's best of its rounds, as there. Printed:
the median and 95th percentile of both and the median of their CPU times (the request thread's
own), and the ratio of the medians, of the times and of the CPU times: when the two agree, the
difference is work done, not waiting. ``--pairs N`` repeats
the whole run N times (new processes, new databases) and prints each ratio and their median.

The same seeds give the same moves only while both versions offer the same legal moves after
the same automatic moves. Each run says whether the two played the same moves, or from which
move on they did not: versions whose automatic moves differ (the deal sends aces home since
commit 5dc59f1) play different games, and one may play more automatic moves per request.
``--no-autoplay`` turns the automatic moves off on both sides (move_request.py's option), so
that each request plays the one move it posts and both play the same games.

``--block N`` lets each side play N moves in its turn rather than one. With one, each request
runs on caches the other version's request has just filled with its own code and data, which
no server sees (its workers all run one version); with 20, each side runs on its own warm
caches, every request is faster on both sides, and the ratio stays where it was
(docs/performance.md).

``--postgres`` runs each side on a PostgreSQL database of its own (side_by_side_now and
side_by_side_before on 127.0.0.1:5432, made afresh each run, as loadtest.py makes its own)
rather than SQLite: every statement is then a round trip to another process, as in
production. ``--multipart`` posts the moves as multipart forms on both sides (move_request.py's
option), as this benchmark did until December 2026.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tarfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "side-by-side"
HARNESS = ROOT / "tests" / "bench" / "move_request.py"


def tree_of(revision: str) -> Path:
    """The project's files at ``revision``, unpacked once (its translations compiled)."""
    commit = subprocess.run(
        ["git", "rev-parse", "--verify", f"{revision}^{{commit}}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    folder = ARTIFACTS / commit[:12]
    if not (folder / "manage.py").is_file():
        folder.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(
            ["git", "archive", "--format=tar", commit], cwd=ROOT, capture_output=True, check=True
        ).stdout
        with tarfile.open(fileobj=BytesIO(archive)) as tar:
            tar.extractall(folder, filter="data")
        subprocess.run(
            [sys.executable, "manage.py", "compilemessages", "--ignore=.venv"],
            cwd=folder,
            capture_output=True,
            check=False,
        )
    return folder


class Side:
    """One version's harness process, playing a move each time it is asked."""

    def __init__(self, name: str, root: Path, options: list[str], postgres: bool = False) -> None:
        self.name = name
        env = dict(os.environ)
        env.pop("DATABASE_URL", None)
        if postgres:
            from loadtest import fresh_database  # this folder is on the path, as for any script

            env["DATABASE_URL"] = fresh_database(f"side_by_side_{name}")
        self.process = subprocess.Popen(
            [sys.executable, str(HARNESS), "--root", str(root), "--lockstep", *options],
            cwd=root,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.times: list[float] = []
        self.cpu: list[float] = []
        self.moves: list[str] = []
        while (line := self.process.stdout.readline()) and line.strip() != "ready":
            pass
        if not line:
            raise SystemExit(f"{name}: the harness stopped before it was ready")

    def move(self, count: int = 1) -> bool:
        """Play ``count`` moves; False when this side has played all its moves."""
        self.process.stdin.write("go\n" * count)
        self.process.stdin.flush()
        for _ in range(count):
            line = self.process.stdout.readline().strip()
            if line in ("", "done"):
                return False
            ms, cpu, move = line.split()
            self.times.append(float(ms))
            self.cpu.append(float(cpu))
            self.moves.append(move)
        return True

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=60)


def best_of_rounds(times: list[float], rounds: int = 3) -> list[float]:
    size = len(times) // rounds
    return [min(times[i + r * size] for r in range(rounds)) for i in range(size)]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def one_run(
    before: Path,
    now_root: Path = ROOT,
    options: list[str] = (),
    postgres: bool = False,
    block: int = 1,
) -> float:
    now = Side("now", now_root, options, postgres)
    then = Side("before", before, options, postgres)
    step, going = 0, {now, then}
    while going:
        order = [now, then] if step % 2 == 0 else [then, now]
        for side in order:
            if side in going and not side.move(block):
                going.discard(side)
        step += 1
    now.close()
    then.close()
    medians, cpu = {}, {}
    for side in (then, now):
        best = best_of_rounds(side.times)
        medians[side.name] = statistics.median(best)
        cpu[side.name] = statistics.median(best_of_rounds(side.cpu))
        print(
            f"  {side.name:7} {len(best)} moves   median {statistics.median(best):6.3f} ms   "
            f"95th percentile {percentile(best, 0.95):6.3f} ms   CPU {cpu[side.name]:6.3f} ms"
        )
    print(f"  {same_moves(now.moves, then.moves)}")
    ratio = medians["now"] / medians["before"]
    print(
        f"  ratio of the medians, now / before: {ratio:.3f} "
        f"(of the CPU times: {cpu['now'] / cpu['before']:.3f})"
    )
    return ratio


def same_moves(now: list[str], before: list[str]) -> str:
    """Whether both sides played the same moves, in words."""
    if now == before:
        return f"both played the same {len(now)} moves"
    pairs = enumerate(zip(now, before, strict=False))
    first = next((n for n, (a, b) in pairs if a != b), min(len(now), len(before)))
    return (
        f"the two played different moves from move {first + 1} of {len(now)} on "
        "(different games: compare with --no-autoplay)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("revision", help="the earlier version: a git revision")
    parser.add_argument("--pairs", type=int, default=1, help="whole runs, each afresh (1)")
    parser.add_argument(
        "--now", type=Path, default=ROOT, help="the later version's folder (this checkout)"
    )
    parser.add_argument(
        "--no-autoplay",
        action="store_true",
        help="automatic moves off on both sides, so that both play the same moves",
    )
    parser.add_argument(
        "--multipart",
        action="store_true",
        help="post the moves as multipart/form-data, the test Client's way (move_request.py)",
    )
    parser.add_argument(
        "--postgres",
        action="store_true",
        help="each side on a PostgreSQL database of its own (127.0.0.1:5432), not SQLite",
    )
    parser.add_argument(
        "--block",
        type=int,
        default=1,
        help="moves each side plays in its turn (1): more, and each plays on its own warm caches",
    )
    args = parser.parse_args()
    options = ["--no-autoplay"] if args.no_autoplay else []
    options += ["--multipart"] if args.multipart else []
    before = Path(args.revision) if Path(args.revision).is_dir() else tree_of(args.revision)
    ratios = []
    for n in range(args.pairs):
        print(f"Run {n + 1} of {args.pairs}: {args.now} beside {args.revision}")
        ratios.append(one_run(before, args.now.resolve(), options, args.postgres, args.block))
    if len(ratios) > 1:
        listed = ", ".join(f"{r:.3f}" for r in ratios)
        print(f"Ratios: {listed}; median {statistics.median(ratios):.3f}")


if __name__ == "__main__":
    main()
