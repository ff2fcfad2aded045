"""The notation: moves, position text and game records, character for character."""

import json

import pytest

from games.rules import (
    DEAL,
    REDEAL,
    VARIANTS,
    Move,
    MoveSyntaxError,
    RecordError,
    first_position,
    parse_record,
    position_from_text,
    replay,
)
from games.rules.moves import COLUMN, FOUNDATION, WASTE


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("deal", DEAL),
        ("redeal", REDEAL),
        ("w-t3", Move(WASTE, COLUMN + 2)),
        ("w-f2", Move(WASTE, FOUNDATION + 1)),
        ("t4-t7", Move(COLUMN + 3, COLUMN + 6)),
        ("t4:3-t7", Move(COLUMN + 3, COLUMN + 6, 3)),
        ("t4-f1", Move(COLUMN + 3, FOUNDATION)),
        ("t4:13-f5", Move(COLUMN + 3, FOUNDATION + 4, 13)),
        ("f2-t7", Move(FOUNDATION + 1, COLUMN + 6)),
        ("t13-t12", Move(COLUMN + 12, COLUMN + 11)),
    ],
)
def test_moves_parse_and_format_as_the_notation_writes_them(text, move):
    assert Move.parse(text) == move
    assert str(move) == text


def test_a_one_card_sequence_is_read_as_a_plain_move_and_written_plain():
    assert Move.parse("t4:1-t7") == Move.parse("t4-t7")
    assert str(Move.parse("t4:1-t7")) == "t4-t7"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "Deal",
        "DEAL",
        " deal",
        "deal ",
        "w-t3 ",
        "W-T3",
        "t4 - t7",
        "t0-t1",
        "t4-t07",
        "t4:0-t7",
        "t4:03-t7",
        "w:1-t3",
        "w-w",
        "t3-w",
        "s-w",
        "t4-s",
        "f9-t1",
        "t1-f0",
        "f1",
        "t4-",
        "-t4",
        "t4t7",
        "t4->t7",
        "t4:3",
        "redeal!",
        "t1\u2013t2",
        None,
        3,
        ["deal"],
    ],
)
def test_anything_else_is_not_a_move(text):
    with pytest.raises(MoveSyntaxError):
        Move.parse(text)


def test_position_text_lists_every_pile_in_order_with_face_down_cards_in_parentheses():
    text = first_position(VARIANTS["rank-and-file"], 7).text()
    keys = [line.split(":")[0] for line in text.split("\n")]
    assert keys == (
        ["variant", "deal", "status", "moves", "redeals-left", "s", "w"]
        + [f"f{i}" for i in range(1, 9)]
        + [f"t{j}" for j in range(1, 11)]
    )
    lines = dict(
        line.split(": ", 1) if ": " in line else (line[:-1], "") for line in text.split("\n")
    )
    assert lines["variant"] == "rank-and-file" and lines["deal"] == "7"
    assert lines["status"] == "playing" and lines["moves"] == "0"
    assert lines["w"] == "" and "f1:" in text.split("\n")
    for j in range(1, 11):
        cards = lines[f"t{j}"].split(" ")
        assert [c.startswith("(") for c in cards] == [True, True, True, False]
    assert not any(line.endswith(" ") for line in text.split("\n"))


def test_little_forty_starts_with_three_redeals_left_and_others_with_none():
    assert "\nredeals-left: 3\n" in first_position(VARIANTS["little-forty"], 9).text()
    assert "\nredeals-left: 0\n" in first_position(VARIANTS["streets"], 9).text()


def test_position_text_reads_back_to_the_same_text():
    position = replay(
        parse_record(
            json.dumps({"version": 1, "variant": "indian", "deal": 77, "moves": ["deal", "deal"]})
        )
    )
    assert position_from_text(position.text()).text() == position.text()


def record(**fields):
    data = {"version": 1, "variant": "forty-thieves", "deal": 1, "moves": ["t8-t4", "deal"]}
    data.update(fields)
    return json.dumps({k: v for k, v in data.items() if v is not ...})


def test_a_record_ignores_other_keys_and_replays_to_its_last_position():
    text = record(player="ann", finished="2026-11-29")
    position = replay(parse_record(text))
    assert position.moves == 2 and len(position.waste) == 1


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "not valid JSON"),
        ("{", "not valid JSON"),
        ("[1, 2]", "must be a JSON object"),
        (record(version=...), 'no "version"'),
        (record(version=2), "unsupported record version 2"),
        (record(version="1"), "unsupported record version"),
        (record(version=True), "unsupported record version"),
        (record(variant="spider"), 'unknown game "spider"'),
        (record(variant=None), "unknown game null"),
        (record(deal=0), "bad deal number 0"),
        (record(deal=10**20), "bad deal number"),
        (record(deal=1.0), "bad deal number 1.0"),
        (record(deal="1"), 'bad deal number "1"'),
        (record(deal=True), "bad deal number true"),
        (record(moves="deal"), '"moves" must be a list'),
        (record(moves=["deal", 5]), "move 2 5: a move must be a string"),
        (record(moves=["deal", "t1 - f1"]), 'move 2 "t1 - f1": not a move in the notation'),
        (
            record(moves=["t8-t4", "deal", "t1-f1"]),
            'move 3 "t1-f1": an empty foundation takes an Ace, not 7D',
        ),
        (record(moves=["t8-t4", "t8-t4"]), 'move 2 "t8-t4": AD does not go on TH'),
        (record(moves=["t11-t1"]), 'move 1 "t11-t1": there is no column 11'),
        (record(moves=["redeal"]), 'move 1 "redeal": this game has no redeal'),
    ],
)
def test_a_bad_record_gets_one_line_that_names_the_problem(text, message):
    with pytest.raises(RecordError) as error:
        replay(parse_record(text))
    assert message in str(error.value)
    assert "\n" not in str(error.value)


def test_a_record_that_is_not_utf8_is_refused_in_one_line():
    with pytest.raises(RecordError, match="not UTF-8"):
        parse_record(b'{"version": 1, "variant": "\xff"}')


def test_a_deeply_nested_record_is_refused_in_one_line():
    with pytest.raises(RecordError):
        parse_record("[" * 100000 + "]" * 100000)
