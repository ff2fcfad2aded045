"""Where the served site's CPU goes under load: py-spy samples gunicorn's workers while
tests/bench/loadtest.py plays, and the top lines are printed:

    .venv/bin/python tests/bench/profile_load.py [--seconds 20] [--rate 100] [--root CHECKOUT]
        [-- LOADTEST OPTIONS]

The load test runs with the options given after ``--`` (by default 1,000 players pausing 2 s,
500 open pages, arriving over 10 s); once they have all arrived, ``py-spy record --gil
--subprocesses`` samples gunicorn's master and workers for ``--seconds`` (``--gil``: only the
thread holding the interpreter, so a sample is Python at work, not a thread waiting for the
database). Printed: the share of samples in each function's own code (self), and in each of the
site's and Django's functions with what they call (inclusive). The raw samples are kept in
test-artifacts/profile-load-<time>.txt (py-spy's collapsed stacks, for a flame graph).
``--root CHECKOUT`` serves another checkout (this load test copied into it), e.g. the code
before a change. Needs root (ptrace) and py-spy (the dev extras).
"""

import argparse
import collections
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LOADTEST = ROOT / "tests" / "bench" / "loadtest.py"
DEFAULT = "--players 1000 --idle 500 --think 2000 --seconds 40 --trivial-seconds 2 --arrival 10"


def summary(raw: Path, top: int = 25) -> str:
    own: collections.Counter = collections.Counter()
    inclusive: collections.Counter = collections.Counter()
    total = 0
    for line in raw.read_text().splitlines():
        stack, _sp, n = line.rpartition(" ")
        if not n.isdigit():
            continue
        count = int(n)
        frames = [re.sub(r":\d+\)$", ")", f) for f in stack.split(";")[1:]]  # not the process
        if not frames:
            continue
        total += count
        own[frames[-1]] += count
        for frame in set(frames):
            inclusive[frame] += count
    if not total:
        return "no samples"
    out = [f"{total} samples of Python at work", "", "self (the function's own code):"]
    out += [f"  {n / total:6.1%}  {name}" for name, n in own.most_common(top)]
    out += ["", "inclusive (the site's and Django's functions, with what they call):"]
    ours = [
        (name, n)
        for name, n in inclusive.most_common()
        if re.search(r"(^|[ (/])(games|solitaire|django)/", name)
    ]
    out += [f"  {n / total:6.1%}  {name}" for name, n in ours[:top]]
    return "\n".join(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--rate", type=int, default=100, help="samples per second (100)")
    parser.add_argument("--root", type=Path, default=ROOT)
    parser.add_argument("loadtest", nargs="*", help="the load test's options (after --)")
    args = parser.parse_args()
    root = args.root.resolve()
    if root != ROOT:
        shutil.copy(LOADTEST, root / "tests" / "bench" / "loadtest.py")
    options = args.loadtest or DEFAULT.split()
    arrival = float(options[options.index("--arrival") + 1]) if "--arrival" in options else 0.0
    artifacts = ROOT / "test-artifacts"
    artifacts.mkdir(exist_ok=True)
    raw = artifacts / f"profile-load-{time.strftime('%Y%m%d-%H%M%S')}.txt"
    load = subprocess.Popen(
        [sys.executable, str(root / "tests" / "bench" / "loadtest.py"), *options],
        cwd=root,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    report = []
    master = None
    port = ""
    assert load.stdout is not None
    for line in load.stdout:
        report.append(line)
        found = re.search(r"Starting bin/serve on [\d.]+:(\d+)", line)
        if found:
            port = found.group(1)
        if line.startswith("Players:"):
            break
    else:
        print("".join(report))
        return 2
    time.sleep(arrival + 3)
    for pid in subprocess.run(
        ["pgrep", "-f", "gunicorn"], capture_output=True, text=True
    ).stdout.split():
        environ = Path(f"/proc/{pid}/environ")
        try:
            if f"BIND=127.0.0.1:{port}".encode() in environ.read_bytes():
                parent = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
                if b"gunicorn" not in Path(f"/proc/{parent}/cmdline").read_bytes():
                    master = pid
                    break
        except OSError:
            continue
    if master is None:
        print("gunicorn's master was not found", file=sys.stderr)
        load.kill()
        return 2
    spy = ROOT / ".venv" / "bin" / "py-spy"
    subprocess.run(
        [
            str(spy),
            "record",
            "--gil",
            "--subprocesses",
            "--nonblocking",
            "-p",
            master,
            "-d",
            str(args.seconds),
            "-r",
            str(args.rate),
            "-f",
            "raw",
            "-o",
            str(raw),
        ],
        capture_output=True,
    )
    rest = load.stdout.read()
    load.wait()
    text = "".join(report) + rest
    start = text.find("\nLoad test:")
    print(text[start:] if start >= 0 else text[-3000:])
    print(f"\nThe profile ({raw.relative_to(ROOT)}):\n")
    print(summary(raw))
    return 0


if __name__ == "__main__":
    sys.exit(main())
