"""The instructions a move request executes, counted, for this checkout and others:

    .venv/bin/python tests/bench/instructions.py [REV_OR_FOLDER ...] [--rounds N]

Valgrind's cachegrind (Debian's ``valgrind``) counts every instruction a run executes: the same
count on every run, whatever else the machine is doing, where a time drifts by a tenth. It runs
tests/bench/move_request.py's harness with the automatic moves off (``--no-autoplay``, so that
every version plays the same moves) twice for each version: a warm-up alone, then the warm-up
and ``--rounds`` (2) rounds of its 500 moves; the difference, divided by the moves, is what a
move costs, the harness's own work between requests (reading the game, choosing a move, the
test client) included. Each argument is a git revision (taken as side_by_side.py takes it) or a
folder holding a checkout; with none, this checkout alone.

A count is not a time: a request's time also follows how much distinct code and data it
touches (docs/performance.md), so compare times with side_by_side.py; this says where the
work is, without noise, when parts are taken out one at a time.
"""

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from side_by_side import ROOT, tree_of

HARNESS = ROOT / "tests" / "bench" / "move_request.py"
MOVES_PER_ROUND = 500


def instructions(root: Path, rounds: int) -> int:
    """The instructions of one run of the harness on ``root``, playing ``rounds`` rounds."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "cachegrind.out"
        command = [
            "valgrind",
            "--tool=cachegrind",
            "--cache-sim=no",
            f"--cachegrind-out-file={out}",
            sys.executable,
            str(HARNESS),
            "--root",
            str(root),
            "--no-autoplay",
            "--rounds",
            str(rounds),
        ]
        result = subprocess.run(command, cwd=root, capture_output=True, text=True, check=False)
    found = re.search(r"I\s+refs:\s+([\d,]+)", result.stderr)
    if result.returncode != 0 or not found:
        raise SystemExit(f"{root}: the harness failed under valgrind:\n{result.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("versions", nargs="*", help="git revisions or checkout folders")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of 500 moves (2)")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is needed (Debian: apt-get install valgrind)")
    roots = [("this checkout", ROOT)]
    for version in args.versions:
        roots.append((version, Path(version) if Path(version).is_dir() else tree_of(version)))
    counts = {}
    for name, root in roots:
        played = instructions(root, args.rounds) - instructions(root, 0)
        counts[name] = played / (args.rounds * MOVES_PER_ROUND)
        print(f"{name:>16}: {counts[name] / 1e6:6.3f} million instructions a move")
    for name, count in list(counts.items())[1:]:
        print(f"this checkout / {name}: {counts['this checkout'] / count:.3f}")


if __name__ == "__main__":
    main()
