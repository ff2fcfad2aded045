"""``manage.py solve``: its four lines, its record (which ``replay`` reads as won), its refusals."""

import json
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from games.rules import Record, parse_record, replay

ROOT = Path(__file__).resolve().parents[1]


def manage(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        capture_output=True,
        timeout=120,
    )


@pytest.mark.slow
def test_solve_prints_four_lines_and_writes_a_record_that_replays_to_won(tmp_path):
    path = tmp_path / "win.json"
    result = manage("solve", "forty-thieves", "1009", "--seconds", "20", "--record", str(path))
    assert result.returncode == 0, result.stderr
    assert result.stderr == b""
    lines = result.stdout.decode().splitlines()
    assert [line.split(":")[0] for line in lines] == ["result", "moves", "nodes", "seconds"]
    assert lines[0] == "result: won"
    moves = int(lines[1].split(": ")[1])
    assert int(lines[2].split(": ")[1]) > 0
    assert float(lines[3].split(": ")[1]) >= 0 and len(lines[3].split(".")[1]) == 2
    data = json.loads(path.read_text())
    assert data["version"] == 1 and data["variant"] == "forty-thieves" and data["deal"] == 1009
    assert len(data["moves"]) == moves
    assert replay(parse_record(path.read_bytes())).status == "won"
    shown = manage("replay", str(path))
    assert shown.returncode == 0, shown.stderr
    assert "status: won" in shown.stdout.decode().splitlines()


def test_solve_through_call_command(tmp_path):
    out = StringIO()
    path = tmp_path / "lucas.json"
    call_command("solve", "lucas", "1", "--seconds", "20", "--record", str(path), stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0] == "result: won" and len(lines) == 4
    record = parse_record(path.read_text())
    assert record == Record("lucas", 1, record.moves)
    assert replay(record).is_won()


@pytest.mark.slow
def test_an_unknown_result_writes_no_record(tmp_path):
    path = tmp_path / "none.json"
    result = manage("solve", "forty-thieves", "1001", "--seconds", "0.2", "--record", str(path))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.decode().splitlines()
    assert lines[0] == "result: unknown" and lines[1] == "moves: 0"
    assert not path.exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("spider", "1"), 'unknown game "spider"'),
        (("maria", "0"), 'bad deal number "0"'),
        (("maria", "12x"), 'bad deal number "12x"'),
        (("maria", "100000000000000000000"), "bad deal number"),
        (("maria", "1", "--seconds", "abc"), 'bad seconds "abc"'),
        (("maria", "1", "--seconds", "0"), 'bad seconds "0"'),
        (("maria", "1", "--seconds", "-3"), 'bad seconds "-3"'),
        (("maria", "1", "--seconds", "nan"), 'bad seconds "nan"'),
        (("maria", "1", "--record", "/no/such/dir/x.json"), 'cannot write "/no/such/dir/x.json"'),
        (("maria", "1", "--record", "."), 'cannot write "."'),
    ],
)
def test_bad_arguments_get_one_line_and_status_1(args, message):
    result = manage("solve", *args)
    assert result.returncode == 1
    assert result.stdout == b""
    err = result.stderr.decode()
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
