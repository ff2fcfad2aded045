"""A task worker killed mid-search (SIGKILL: no chance to say so) is found out within seconds:
the page waiting for the answer sees the search queued once more (and answered by the next
worker) or, lost a second time, told it stopped; no task row stays RUNNING.

Real `manage.py db_worker` processes, on a database of their own that the scenario shares with
them (a SQLite file, or with DATABASE_URL a PostgreSQL database made for the test; the other
web tests' SQLite database lives in memory, out of another process's reach): the test runs the
scenario in a process of its own (this module, run as a script) and checks the JSON report it
prints. The figures (seconds from the kill to what the page shows) are printed
too.

    SQLITE_PATH=/tmp/death.sqlite3 python -m tests.web.test_worker_death
"""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: Seconds the page may keep asking before the scenario gives up on an answer.
PATIENCE = 30
#: The lease the scenario runs with: a running search unheard for this long is lost.
LEASE = "2"


#: Every worker the scenario started, stopped at its end whatever happened.
STARTED: list[subprocess.Popen] = []


def worker(env: dict, analysis_seconds: str, log: Path) -> subprocess.Popen:
    """A real worker process (as the supervisor starts it), its searches given
    ``analysis_seconds`` each."""
    env = {**env, "SOLVER_ANALYSIS_SECONDS": analysis_seconds}
    command = [sys.executable, "manage.py", "db_worker", "--no-startup-delay", "--no-reload"]
    command += ["--interval", "0.1", "-v", "2"]
    with log.open("a") as out:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=out)
    STARTED.append(process)
    return process


def until(check, seconds: float = PATIENCE, step: float = 0.1):
    """Ask ``check()`` until it gives something true (that is returned) or ``seconds`` pass."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(step)
    return None


def scenario(env: dict, log: Path) -> dict:
    """Two searches, each with its worker killed mid-search: the first answered by the next
    worker, the second lost twice and told so. What the page showed, and when."""
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client
    from django.test.utils import setup_test_environment
    from django.urls import reverse
    from django_tasks_db.models import DBTaskResult

    from games.models import Analysis, Game

    setup_test_environment()
    call_command("migrate", verbosity=0)
    player = Client(REMOTE_ADDR="10.0.0.1")
    response = player.post(reverse("games:new"), {"variant": "forty-thieves", "deal": "1"})
    game = Game.objects.get(public_id=response["Location"].split("/")[2])
    htmx = {"HX-Request": "true"}
    search_url = reverse("games:analysis", args=[game.public_id])
    report: dict = {"rounds": []}

    def ask() -> int:
        game.refresh_from_db()
        board = {"ply": game.ply, "version": game.version}
        player.post(search_url, board, headers=htmx)
        return game.version

    def shown(version: int) -> str:
        """What the waiting page shows now (it asks as the page does)."""
        text = player.get(search_url, {"version": version}, headers=htmx).content.decode()
        return text.split("<span data-answer>", 1)[1].split("</span>", 1)[0].strip()

    def running(version: int):
        return game.analyses.filter(version=version, status=Analysis.Status.RUNNING).first()

    def kill_mid_search(version: int, process: subprocess.Popen) -> float:
        if not until(lambda: running(version)):
            raise SystemExit("the worker never started the search")
        time.sleep(1.5)  # well into the search, past its first beat
        if not running(version):
            raise SystemExit("the search ended before the worker could be killed")
        process.send_signal(signal.SIGKILL)
        process.wait()
        return time.monotonic()

    def requeued(version: int) -> bool:
        # The page keeps asking; once the lost run is found out, its search waits again.
        shown(version)
        # It was running when its worker was killed: waiting again means it was queued again.
        return game.analyses.get(version=version).status == Analysis.Status.QUEUED

    def settled(version: int) -> str | None:
        text = shown(version)
        return None if text == "Thinking…" else text

    # Round 1: killed once, the next worker (a quick one) answers.
    version = ask()
    killed_at = kill_mid_search(version, worker(env, "60", log))
    found = until(lambda: requeued(version))
    found_after = time.monotonic() - killed_at
    while_waiting = shown(version)
    retried = worker(env, "1", log)
    text = until(lambda: settled(version))
    answered_after = time.monotonic() - killed_at
    retried.send_signal(signal.SIGTERM)
    retried.wait()
    report["rounds"].append(
        {
            "found_out": bool(found),
            "seconds_to_found_out": round(found_after, 2),
            "shown_while_retried": while_waiting,
            "shown": text,
            "seconds_to_answer": round(answered_after, 2),
        }
    )

    # Round 2: a new board, its search lost with its worker twice: the page says it stopped.
    game.refresh_from_db()
    move = str(game.position().legal_moves()[0])
    move_url = reverse("games:move", args=[game.public_id])
    player.post(move_url, {"move": move, "ply": game.ply, "version": game.version})
    version = ask()
    killed_at = kill_mid_search(version, worker(env, "60", log))
    until(lambda: requeued(version))
    killed_at = kill_mid_search(version, worker(env, "60", log))
    text = until(lambda: settled(version))
    report["rounds"].append(
        {"shown": text, "seconds_to_shown": round(time.monotonic() - killed_at, 2)}
    )
    report["running_tasks"] = DBTaskResult.objects.running().count()
    report["task_statuses"] = sorted(DBTaskResult.objects.values_list("status", flat=True))
    return report


@pytest.fixture
def database(tmp_path):
    """The scenario's own database: a SQLite file, or with DATABASE_URL a PostgreSQL database
    of its own on the same server, dropped after."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        yield {"SQLITE_PATH": str(tmp_path / "death.sqlite3"), "DATABASE_URL": ""}
        return
    import psycopg

    server = urlsplit(url)
    name = f"worker_death_{os.getpid()}"
    with psycopg.connect(server._replace(path="/postgres").geturl(), autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield {"DATABASE_URL": server._replace(path=f"/{name}").geturl()}
    finally:
        with psycopg.connect(server._replace(path="/postgres").geturl(), autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.mark.slow
def test_a_search_whose_worker_is_killed_is_retried_then_reported_and_never_left_running(
    tmp_path, database
):
    env = {
        **os.environ,
        **database,
        "DJANGO_DEBUG": "1",
        "SOLVER_LEASE_SECONDS": LEASE,
        "SOLVER_HINT_SECONDS": "1",
    }
    if not env["DATABASE_URL"]:
        env.pop("DATABASE_URL")
    log = tmp_path / "workers.log"
    result = subprocess.run(
        [sys.executable, "-m", "tests.web.test_worker_death", str(log)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:] + log.read_text()[-3000:]
    report = json.loads(result.stdout)
    print(json.dumps(report, indent=2))
    retried, failed = report["rounds"]
    # Killed once: found out while the page waits, queued again, answered by the next worker.
    assert retried["found_out"]
    assert retried["shown_while_retried"] == "Thinking…"
    assert retried["shown"] and "stopped" not in retried["shown"]
    assert retried["shown"].startswith(("Yes", "No", "Not sure"))
    # Killed twice: the page says so, and asking again is the way on.
    assert failed["shown"] == "The search stopped before it had an answer: ask again."
    # No task row is left RUNNING: the lost runs are marked failed.
    assert report["running_tasks"] == 0
    assert report["task_statuses"].count("FAILED") == 3


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "solitaire.settings")
    try:
        print(json.dumps(scenario(dict(os.environ), Path(sys.argv[1]))))
    finally:
        for process in STARTED:
            process.kill()
            process.wait()
