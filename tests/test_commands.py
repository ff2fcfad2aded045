"""The deal and replay commands, run as a player runs them: exit status and output."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def manage(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        timeout=120,
    )


def test_deal_prints_the_first_position():
    result = manage("deal", "forty-thieves", "123456")
    assert result.returncode == 0
    lines = result.stdout.decode().splitlines()
    assert lines[:5] == [
        "variant: forty-thieves",
        "deal: 123456",
        "status: playing",
        "moves: 0",
        "redeals-left: 0",
    ]
    assert "t1: 6H 7D 7H 9C" in lines and "t10: 9S QH 7C 5C" in lines
    assert lines[5].endswith(" 6C 2H 2C AC JS 6D 8S 9H 2S 2D")
    assert lines[6] == "w:" and result.stderr == b""


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("spider", "1"), 'unknown game "spider"'),
        (("maria", "0"), 'bad deal number "0"'),
        (("maria", "100000000000000000000"), "bad deal number"),
        (("maria", "-5"), 'bad deal number "-5"'),
        (("maria", "12x"), 'bad deal number "12x"'),
    ],
)
def test_deal_refuses_a_bad_game_or_number_in_one_line(args, message):
    result = manage("deal", *args)
    assert result.returncode == 1
    assert result.stdout == b""
    err = result.stderr.decode()
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_replay_reads_standard_input_and_prints_the_last_position():
    record = {"version": 1, "variant": "forty-thieves", "deal": 1, "moves": ["t8-t4", "deal"]}
    result = manage("replay", "-", stdin=json.dumps(record).encode())
    assert result.returncode == 0, result.stderr
    out = result.stdout.decode()
    assert "moves: 2\n" in out and "\nw: 3S\n" in out and "\nt4: KH 6H 8S JH TH\n" in out
    assert "\nt8: KC JS AD\n" in out


def test_replay_reads_a_file(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"version": 1, "variant": "lucas", "deal": 9, "moves": []}))
    result = manage("replay", str(path))
    assert result.returncode == 0
    assert result.stdout.decode().splitlines()[:2] == ["variant: lucas", "deal: 9"]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"not json", "record-not-json line=1 column=1"),
        (b"\xff\xfe", "record-not-utf8"),
        (
            json.dumps({"version": 1, "variant": "x", "deal": 1, "moves": []}).encode(),
            'record-unknown-game value="x"',
        ),
        (
            json.dumps({"version": 1, "variant": "indian", "deal": 0, "moves": []}).encode(),
            "record-bad-deal value=0 lowest=1 ",
        ),
        (
            json.dumps(
                {
                    "version": 1,
                    "variant": "forty-thieves",
                    "deal": 1,
                    "moves": ["t8-t4", "deal", "t3-t1"],
                }
            ).encode(),
            'record-move-illegal number=3 move="t3-t1" reason=(does-not-fit card=',
        ),
        (
            json.dumps(
                {"version": 1, "variant": "forty-thieves", "deal": 1, "moves": ["deal", "t8-t4 "]}
            ).encode(),
            'record-move-not-notation number=2 move="t8-t4 "',
        ),
    ],
)
def test_replay_refuses_a_bad_record_with_one_line_and_status_1(data, message):
    result = manage("replay", "-", stdin=data)
    assert result.returncode == 1
    assert result.stdout == b""
    err = result.stderr.decode()
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_replay_of_a_missing_file_says_so_in_one_line(tmp_path):
    result = manage("replay", str(tmp_path / "nope.json"))
    assert result.returncode == 1
    assert "cannot read" in result.stderr.decode() and result.stderr.count(b"\n") == 1


def test_replay_of_a_winning_record_says_won_with_every_card_home():
    result = manage("replay", str(ROOT / "tests" / "fixtures" / "indian-1-won.json"))
    assert result.returncode == 0
    lines = result.stdout.decode().splitlines()
    assert lines[2] == "status: won"
    assert lines[5:7] == ["s:", "w:"]
    for line in lines[7:15]:
        assert len(line.split(" ")) == 14  # "fN:" and thirteen cards, Ace to King
    assert all(line.endswith(":") for line in lines[15:])
