"""Faults through the cluster while players play: nothing acknowledged is lost, no 500s.

Run it as `make faults` (the cluster running: `make cluster`), or
`.venv/bin/python tests/bench/faults.py [--players 50] [--think MS] [--settle S] [--seed S]`.

The players of tests/bench/loadtest.py (each its own guest, its own address, playing legal
moves with undos and reloads, a pause of about --think ms before each request) play through the
cluster's balancer (http://10.77.0.10/) the whole time, while these faults come one after the
other, each followed by --settle seconds of play:

1. ``app server killed``: every process of the app1 host gets SIGKILL (its supervisor,
   gunicorn's master and workers: the machine is gone). The balancer's retries (a connection
   refused, or a server that died before answering) and health checks move the players to app2.
2. ``app server back``: app1's host is started again (bin/cluster start-host app1); the
   balancer takes it back once /readyz/ answers twice.
3. ``task worker killed``: one more player asks "can this still be won?" on a game of its own
   and, once a worker is running that search, the busy task worker gets SIGKILL. Its
   supervisor starts a new one; the search is queued again or answered as failed (the site
   notices the silent worker by its missing beats). It reports how long the player waited for
   an answer and whether any task is left RUNNING.
4. ``Redis stopped 10 s``: the cluster's Redis is shut down for 10 seconds, then started
   again (empty): sessions live in the database, and the cache and the limits' counts fall back.
5. ``PostgreSQL restarted``: the cluster's PostgreSQL is stopped (fast: connections cut) and
   started again. Requests during the gap get a 503 page; none a 500.

After each, the players pause (their requests under way answered), and it checks:

- ``manage.py check_games`` on the worker host: every game replays to what is stored;
- every move or undo that was answered 200 is in the database: for each game, the stored
  version is at least the last version a player was shown, and at that version the same ply.
  "acknowledged" counts the moves answered 200 during the fault and its settling, "stored"
  those of them the database still has (they must be equal);
- the answers by status during the fault: 5xx (must be none but the PostgreSQL gap's 503s), the
  requests that got no answer (a connection refused or cut: none should reach a player through
  the balancer), and other answers a correct client should not get.

The exit status is 1 when a check fails. The database keeps what was played.
"""

import argparse
import asyncio
import os
import re
import subprocess
import sys
import time
import urllib.parse
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent))

import loadtest
from loadtest import CLUSTER_DIR, ROOT, Http, HttpError, Player, Run

CLUSTER = str(ROOT / "bin" / "cluster")
DATABASE = "host=10.77.0.20 port=5432 user=postgres dbname=solitaire connect_timeout=5"
#: The address the searcher of fault 3 plays from (the players have 1 to 250 of 10.77.1.).
SEARCHER_ADDRESS = "10.77.1.251"
#: How long a search may take to be answered after its worker is killed, and how long a
#: service may take to come back.
ANSWER_TIMEOUT = 120.0
BACK_TIMEOUT = 60.0


@dataclass
class Ack:
    game: str
    version: int
    ply: int
    kind: str
    #: The fault during which it was answered.
    fault: int


@dataclass
class Ledger:
    """What the players were shown: every 200 to a move or an undo."""

    acks: list[Ack] = field(default_factory=list)
    fault: int = 0


class RecordingPlayer(Player):
    """A load-test player that notes every move and undo answered 200."""

    def __init__(self, number: int, ctx: Run, ledger: Ledger) -> None:
        super().__init__(number, ctx)
        self.ledger = ledger

    def note(self, kind: str) -> None:
        game = self.game.strip("/").split("/")[-1]
        self.ledger.acks.append(Ack(game, self.version, self.ply, kind, self.ledger.fault))

    async def move(self, move: str) -> bool:
        before = self.stats.counts["moves played"]
        done = await super().move(move)
        if self.stats.counts["moves played"] > before:
            self.note("move")
        return done

    async def undo(self) -> bool:
        done = await super().undo()
        if done:
            self.note("undo")
        return done


def cluster(*args: str, check: bool = True) -> str:
    result = subprocess.run([CLUSTER, *args], cwd=ROOT, capture_output=True, text=True, timeout=180)
    if check and result.returncode != 0:
        raise RuntimeError(f"bin/cluster {' '.join(args)}: {result.stderr.strip()[-800:]}")
    return result.stdout


def balancer_up(server: str) -> bool:
    """Whether the balancer sends players to ``server`` (app1, app2)."""
    state = loadtest.balancer_command("show servers state apps")
    for line in state.splitlines():
        fields = line.split()
        if len(fields) > 6 and fields[3] == server:
            return fields[5] == "2"  # srv_op_state 2: running
    return False


async def until(what: str, test, timeout: float = BACK_TIMEOUT) -> float:
    """Wait until ``test()`` is true; the seconds it took."""
    start = time.monotonic()
    while True:
        try:
            if await asyncio.to_thread(test):
                return time.monotonic() - start
        except (OSError, psycopg.Error):
            pass
        if time.monotonic() - start > timeout:
            raise RuntimeError(f"{what}: not within {timeout:.0f} s")
        await asyncio.sleep(0.2)


def query(sql: str, *params) -> list[tuple]:
    with psycopg.connect(DATABASE) as connection:
        return connection.execute(sql, params).fetchall()


# -- the faults -------------------------------------------------------------------------------


async def kill_app_server(notes: list[str]) -> None:
    await asyncio.to_thread(cluster, "kill-host", "app1")
    seconds = await until("the balancer taking app1 out", lambda: not balancer_up("app1"))
    notes.append(f"app1 killed; the balancer took it out after {seconds:.1f} s")


async def bring_app_server_back(notes: list[str]) -> None:
    start = time.monotonic()
    await asyncio.to_thread(cluster, "start-host", "app1")
    await until("the balancer taking app1 back", lambda: balancer_up("app1"))
    notes.append(f"app1 started again; in the balancer after {time.monotonic() - start:.1f} s")


def task_workers() -> dict[int, float]:
    """The worker host's task workers: process id and CPU seconds so far."""
    host = os.stat("/run/netns/sol-worker").st_ino
    found = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                command = f.read(300)
            if b"db_worker" not in command or os.stat(f"/proc/{entry}/ns/net").st_ino != host:
                continue
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        found[int(entry)] = (int(fields[11]) + int(fields[12])) / tick
    return found


async def kill_task_worker(notes: list[str]) -> None:
    """A search of its own, its worker killed mid-search, then the answer awaited."""
    http = Http(*loadtest.BALANCER, SEARCHER_ADDRESS)
    try:
        for attempt in range(1, 6):
            game, version = await start_search(http, attempt)
            if await kill_mid_search(http, game, version, notes):
                return
        raise RuntimeError("no search lasted long enough to kill its worker")
    finally:
        http.close()


async def kill_mid_search(http: Http, game: str, version: int, notes: list[str]) -> bool:
    """Kill the worker running the search once it has run a second; False when the search
    ended before."""

    def status() -> str:
        return search_status(game, version)

    try:
        await until("the search to start", lambda: status() == "running", timeout=30)
    except RuntimeError:
        return False
    before = task_workers()
    await asyncio.sleep(1.0)
    if status() != "running":
        return False  # answered within the second: another deal
    after = task_workers()
    busy = max(after, key=lambda pid: after[pid] - before.get(pid, after[pid]))
    os.kill(busy, 9)
    killed = time.monotonic()
    notes.append(f"task worker {busy} killed mid-search (game {game})")
    await until(
        "a new task worker", lambda: len(task_workers()) >= 2 and busy not in task_workers()
    )
    notes.append(f"its supervisor started another after {time.monotonic() - killed:.1f} s")
    # The player's page asks for the answer every half second, as the browser does (the site
    # notices a lost worker when someone asks).
    while (shown := await shown_answer(http, game, version)) and status() in (
        "queued",
        "running",
    ):
        if time.monotonic() - killed > ANSWER_TIMEOUT:
            raise RuntimeError(f"no answer {ANSWER_TIMEOUT:.0f} s after the kill")
        await asyncio.sleep(0.5)
    answered = time.monotonic() - killed
    notes.append(
        f"the search answered {status()!r} {answered:.1f} s after the kill; the player's "
        f"page: {shown}"
    )
    return True


async def start_search(http: Http, attempt: int) -> tuple[str, int]:
    """A new game for the searcher and "can this still be won?" asked on it."""
    if "csrftoken" not in http.cookies:
        await http.request("GET", loadtest.HOME)
    token = {"X-CSRFToken": http.cookies.get("csrftoken", "")}
    deal = str(900_000 + attempt)
    new = await http.request("POST", "/new/", {"variant": "forty-thieves", "deal": deal}, token)
    game_path = urllib.parse.urlsplit(new.headers.get("location", "")).path
    if new.status != 302 or not game_path.startswith("/g/"):
        raise RuntimeError(f"the searcher's new game: {new.status}")
    seen = loadtest.read_board((await http.request("GET", game_path)).text)
    form = {"ply": str(seen.ply), "version": str(seen.version)}
    asked = await http.request(
        "POST", game_path + "analysis/", form, {**token, "HX-Request": "true"}
    )
    if asked.status != 200:
        raise RuntimeError(f"the searcher's question: {asked.status} {loadtest._gist(asked)}")
    return game_path.strip("/").split("/")[-1], seen.version


def search_status(game: str, version: int) -> str:
    rows = query(
        "SELECT a.status FROM games_analysis a JOIN games_game g ON g.id = a.game_id "
        "WHERE g.public_id = %s AND a.kind = 'analysis' AND a.version = %s",
        game,
        version,
    )
    return rows[0][0] if rows else "none"


async def shown_answer(http: Http, game: str, version: int) -> str:
    answer = await http.request(
        "GET", f"/g/{game}/analysis/?version={version}", headers={"HX-Request": "true"}
    )
    return f"{answer.status}, {loadtest._gist(answer)!r}"


async def stop_redis(notes: list[str]) -> None:
    await asyncio.to_thread(cluster, "redis-stop")
    notes.append("Redis shut down")
    await asyncio.sleep(10)
    await asyncio.to_thread(cluster, "redis-start")
    notes.append("Redis started again after 10 s (empty)")


async def restart_postgresql(notes: list[str]) -> None:
    start = time.monotonic()
    await asyncio.to_thread(cluster, "postgresql-restart")
    notes.append(f"PostgreSQL stopped and started again in {time.monotonic() - start:.1f} s")
    await until("app1 and app2 ready", lambda: balancer_up("app1") and balancer_up("app2"))


FAULTS = [
    ("app server killed", kill_app_server),
    ("app server back", bring_app_server_back),
    ("task worker killed", kill_task_worker),
    ("Redis stopped 10 s", stop_redis),
    ("PostgreSQL restarted", restart_postgresql),
]


# -- the checks -------------------------------------------------------------------------------


def lost_moves(ledger: Ledger) -> tuple[list[Ack], list[str]]:
    """The acknowledged moves and undos the database does not have, and what disagrees."""
    last: dict[str, Ack] = {}
    for ack in ledger.acks:
        if ack.game not in last or ack.version >= last[ack.game].version:
            last[ack.game] = ack
    stored = {
        game: (version, ply)
        for game, version, ply in query(
            "SELECT public_id, version, ply FROM games_game WHERE public_id = ANY(%s)",
            list(last),
        )
    }
    lost, problems = [], []
    for game, ack in last.items():
        version, ply = stored.get(game, (-1, -1))
        if version < ack.version:
            lost += [a for a in ledger.acks if a.game == game and a.version > version]
            problems.append(f"{game}: shown version {ack.version}, stored {version}")
        elif version == ack.version and ply != ack.ply:
            problems.append(f"{game}: at version {version} shown ply {ack.ply}, stored {ply}")
    return lost, problems


def check_games() -> tuple[bool, str]:
    result = subprocess.run(
        [CLUSTER, "exec", "worker", sys.executable, "manage.py", "check_games"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "DJANGO_DEBUG": "0"},
    )
    lines = (result.stdout + result.stderr).strip().splitlines()
    return result.returncode == 0, (lines[-1] if lines else "(no output)")


def answers(stats, before_statuses: Counter, before_errors: int) -> dict[str, int]:
    statuses = stats.statuses - before_statuses
    errors = stats.errors[before_errors:]
    unanswered = sum(1 for e in errors if not re.search(r": \d{3}\b", e))
    return {
        "5xx": sum(n for code, n in statuses.items() if code >= 500),
        "503": statuses[503],
        "500": sum(n for code, n in statuses.items() if code >= 500 and code != 503),
        "unanswered": unanswered,
        "other": len(errors) - unanswered - sum(n for c, n in statuses.items() if c >= 500),
        "requests": sum(statuses.values()),
    }


# -- main -------------------------------------------------------------------------------------


async def run(args) -> int:
    ledger = Ledger()
    ctx = Run(
        *loadtest.BALANCER,
        args.seed,
        args.think / 1000,
        database=loadtest.CLUSTER_DATABASE,
        clients=loadtest.CLUSTER_CLIENTS,
    )
    stats = ctx.stats
    stats.began = time.monotonic()
    players = [
        asyncio.create_task(RecordingPlayer(i, ctx, ledger).run()) for i in range(args.players)
    ]
    ctx.go.set()
    print(f"{args.players} players playing through http://{loadtest.BALANCER[0]}/ ...")
    await asyncio.sleep(args.settle)
    rows, failed = [], False
    for number, (name, fault) in enumerate(FAULTS, start=1):
        ledger.fault = number
        before_statuses, before_errors = Counter(stats.statuses), len(stats.errors)
        notes: list[str] = []
        print(f"\n== {number}. {name}", flush=True)
        try:
            await fault(notes)
        except (RuntimeError, HttpError, OSError, psycopg.Error) as e:
            notes.append(f"FAILED: {e}")
            failed = True
        await asyncio.sleep(args.settle)
        ctx.go.clear()
        drain = time.monotonic() + loadtest.DRAIN
        while ctx.in_flight and time.monotonic() < drain:
            await asyncio.sleep(0.05)
        seen = answers(stats, before_statuses, before_errors)
        clean, summary = await asyncio.to_thread(check_games)
        lost, problems = await asyncio.to_thread(lost_moves, ledger)
        acked = sum(1 for a in ledger.acks if a.fault == number and a.kind == "move")
        kept = acked - sum(1 for a in lost if a.fault == number and a.kind == "move")
        running = query(
            "SELECT count(*) FROM django_tasks_database_dbtaskresult WHERE status = 'RUNNING'"
        )[0][0]
        for note in notes:
            print(f"   {note}")
        print(f"   check_games: {summary}")
        for problem in problems[:5]:
            print(f"   LOST: {problem}")
        for error in stats.errors[before_errors:][:4]:
            print(f"   error: {error[:150]}")
        print(f"   tasks RUNNING now: {running}")
        ok = (
            clean
            and not problems
            and acked == kept
            and seen["500"] == 0
            and (seen["503"] == 0 or "PostgreSQL" in name)
            and seen["unanswered"] == 0
            and not any(n.startswith("FAILED") for n in notes)
        )
        failed = failed or not ok
        rows.append((number, name, acked, kept, seen, clean, ok))
        ctx.go.set()
    ctx.done = True
    ctx.go.set()
    await asyncio.gather(*players, return_exceptions=True)
    print()
    print(f"Faults through the cluster, {args.players} players (think ~{args.think:g} ms)")
    print("-" * 96)
    print(
        f"{'fault':<24}{'requests':>9}{'moves acked':>12}{'stored':>8}{'5xx':>5}{'(503)':>6}"
        f"{'no answer':>10}{'other':>6}  check_games  result"
    )
    for number, name, acked, kept, seen, clean, ok in rows:
        print(
            f"{number}. {name:<21}{seen['requests']:>9}{acked:>12}{kept:>8}{seen['5xx']:>5}"
            f"{seen['503']:>6}{seen['unanswered']:>10}{seen['other']:>6}  "
            f"{'clean' if clean else 'MISMATCH':<11}  {'PASS' if ok else 'FAIL'}"
        )
    print("-" * 96)
    print(f"moves acknowledged in all: {sum(1 for a in ledger.acks if a.kind == 'move')}")
    return 1 if failed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=50, help="concurrent players (50)")
    parser.add_argument(
        "--think", type=float, default=500.0, help="ms a player pauses before a request (500)"
    )
    parser.add_argument(
        "--settle", type=float, default=15.0, help="seconds of play after each fault (15)"
    )
    parser.add_argument("--seed", type=int, default=20261201, help="the players' random seed")
    args = parser.parse_args()
    if not (CLUSTER_DIR / "lb" / "haproxy.sock").exists():
        print("The cluster is not running: start it with `make cluster`.", file=sys.stderr)
        return 2
    try:
        return asyncio.run(run(args))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
