"""The deal and replay commands, run as a player runs them: exit status and output; a refusal
in words, in the environment's language, or as codes with ``--json``."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def manage(*args: str, stdin: bytes | None = None, lang: str = "C.UTF-8"):
    """The command run with ``LANG`` as given (and no other variable naming a language)."""
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        timeout=120,
        env={**env, "LANG": lang},
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
        (("spider", "1"), "Unknown game spider"),
        (("maria", "0"), "Bad deal number 0: a whole number from 1 to 99999999999999999999"),
        (("maria", "100000000000000000000"), "Bad deal number 100000000000000000000"),
        (("maria", "-5"), "Bad deal number -5"),
        (("maria", "12x"), "Bad deal number 12x"),
    ],
)
def test_deal_refuses_a_bad_game_or_number_in_one_line(args, message):
    result = manage("deal", *args)
    assert result.returncode == 1
    assert result.stdout == b""
    err = result.stderr.decode()
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_deal_gives_the_codes_with_json():
    result = manage("deal", "spider", "1", "--json")
    assert result.returncode == 1
    assert json.loads(result.stderr) == {"code": "record-unknown-game", "value": "spider"}


def test_deal_speaks_the_language_the_environment_names():
    assert (
        manage("deal", "spider", "1", lang="nl_NL.UTF-8")
        .stderr.decode()
        .startswith("Onbekende patience spider")
    )


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
        (b"not json", "the record is not valid JSON (line 1, character 1)."),
        (b"\xff\xfe", "the record is not UTF-8 text."),
        (
            json.dumps({"version": 1, "variant": "x", "deal": 1, "moves": []}).encode(),
            'unknown game "x".',
        ),
        (
            json.dumps({"version": 1, "variant": "indian", "deal": 0, "moves": []}).encode(),
            "bad deal number 0: a whole number from 1 to ",
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
            "move 3, “t3-t1”: Eight of Hearts does not go on Seven of Diamonds (build down",
        ),
        (
            json.dumps(
                {"version": 1, "variant": "forty-thieves", "deal": 1, "moves": ["deal", "t8-t4 "]}
            ).encode(),
            "move 2, “t8-t4 ”: not a move in the notation.",
        ),
    ],
)
def test_replay_refuses_a_bad_record_with_one_line_in_words_and_status_1(data, message):
    result = manage("replay", "-", stdin=data)
    assert result.returncode == 1
    assert result.stdout == b""
    err = result.stderr.decode()
    assert err.startswith("This record cannot be played: ")
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


ILLEGAL = {"version": 1, "variant": "forty-thieves", "deal": 1, "moves": ["t8-t4", "deal", "t3-t1"]}


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        (
            "fr_FR.UTF-8",
            "coup 3, «\u00a0t3-t1\u00a0»\u00a0: le huit de cœur ne se pose pas sur le sept de "
            "carreau",
        ),
        ("nl_NL.UTF-8", "zet 3, “t3-t1”: de hartenacht past niet op de ruitenzeven"),
        ("pl_PL.UTF-8", "ruch 3, „t3-t1”: ósemka kier nie pasuje"),
        ("vi_VN.UTF-8", "nước đi thứ 3, “t3-t1”: không đặt được lá tám cơ lên lá bảy rô"),
    ],
)
def test_replay_names_the_bad_move_by_its_number_in_the_environments_language(lang, words):
    result = manage("replay", "-", stdin=json.dumps(ILLEGAL).encode(), lang=lang)
    assert result.returncode == 1 and words in result.stderr.decode()


def test_replay_gives_the_codes_with_json():
    result = manage("replay", "-", "--json", stdin=json.dumps(ILLEGAL).encode())
    assert result.returncode == 1
    assert json.loads(result.stderr) == {
        "code": "record-move-illegal",
        "number": 3,
        "move": "t3-t1",
        "reason": {"code": "does-not-fit", "card": "8H", "on": "7D", "build": "same-suit"},
    }


def test_replay_of_a_missing_file_says_so_in_one_line(tmp_path):
    result = manage("replay", str(tmp_path / "nope.json"))
    assert result.returncode == 1
    assert "Cannot read the file" in result.stderr.decode() and result.stderr.count(b"\n") == 1


def test_replay_of_a_winning_record_says_won_with_every_card_home():
    result = manage("replay", str(ROOT / "tests" / "fixtures" / "indian-1-won.json"))
    assert result.returncode == 0
    lines = result.stdout.decode().splitlines()
    assert lines[2] == "status: won"
    assert lines[5:7] == ["s:", "w:"]
    for line in lines[7:15]:
        assert len(line.split(" ")) == 14  # "fN:" and thirteen cards, Ace to King
    assert all(line.endswith(":") for line in lines[15:])
