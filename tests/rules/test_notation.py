"""The notation: moves, position text and game records, character for character."""

import json

import pytest

from games.rules import (
    DEAL,
    REDEAL,
    VARIANTS,
    Build,
    Move,
    MoveSyntaxError,
    Reason,
    RecordError,
    first_position,
    parse_card,
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
    assert position.ply == 2 and len(position.waste) == 1


BAD_DEAL = "lowest=1 highest=99999999999999999999"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "record-not-json line=1 column=1"),
        ("{", "record-not-json line=1 column=2"),
        ("[1, 2]", "record-not-object"),
        (record(version=...), "record-no-version"),
        (record(version=2), "record-bad-version value=2 supported=1"),
        (record(version="1"), 'record-bad-version value="1" supported=1'),
        (record(version=True), "record-bad-version value=true supported=1"),
        (record(variant="spider"), 'record-unknown-game value="spider"'),
        (record(variant=None), "record-unknown-game value=null"),
        ('{"version": 1, "games": [{}, {}, {}]}', "record-several-games count=3"),
        (record(deal=0), f"record-bad-deal value=0 {BAD_DEAL}"),
        (record(deal=10**20), f"record-bad-deal value=100000000000000000000 {BAD_DEAL}"),
        (record(deal=1.0), f"record-bad-deal value=1.0 {BAD_DEAL}"),
        (record(deal="1"), f'record-bad-deal value="1" {BAD_DEAL}'),
        (record(deal=True), f"record-bad-deal value=true {BAD_DEAL}"),
        (record(moves="deal"), "record-moves-not-list"),
        (record(moves=["deal", 5]), "record-move-not-string number=2 value=5"),
        (
            record(moves=["deal", "t1 - f1"]),
            'record-move-not-notation number=2 move="t1 - f1"',
        ),
        (
            record(moves=["t8-t4", "deal", "t1-f1"]),
            'record-move-illegal number=3 move="t1-f1" reason=(foundation-wants-ace card=7D)',
        ),
        (
            record(moves=["t8-t4", "t8-t4"]),
            'record-move-illegal number=2 move="t8-t4" '
            "reason=(does-not-fit card=AD on=TH build=same-suit)",
        ),
        (
            record(moves=["t11-t1"]),
            'record-move-illegal number=1 move="t11-t1" reason=(no-such-column pile=t11)',
        ),
        (
            record(moves=["redeal"]),
            'record-move-illegal number=1 move="redeal" reason=(no-redeal-in-this-game)',
        ),
    ],
)
def test_a_bad_record_gets_one_line_that_names_the_problem(text, message):
    with pytest.raises(RecordError) as error:
        replay(parse_record(text))
    assert str(error.value) == message
    assert error.value.reason.code == message.split()[0]
    assert "\n" not in str(error.value)


def test_an_illegal_move_of_a_record_keeps_the_rules_reason():
    with pytest.raises(RecordError) as error:
        replay(parse_record(record(moves=["t8-t4", "t8-t4"])))
    reason = error.value.reason
    assert reason.code == "record-move-illegal"
    assert reason.params["number"] == 2 and reason.params["move"] == "t8-t4"
    inner = reason.params["reason"]
    assert inner == Reason(
        "does-not-fit", {"card": parse_card("AD"), "on": parse_card("TH"), "build": Build.SAME_SUIT}
    )


def test_a_record_that_is_not_utf8_is_refused_in_one_line():
    with pytest.raises(RecordError) as error:
        parse_record(b'{"version": 1, "variant": "\xff"}')
    assert str(error.value) == "record-not-utf8"


def test_a_deeply_nested_record_is_refused_in_one_line():
    with pytest.raises(RecordError) as error:
        parse_record("[" * 100000 + "]" * 100000)
    assert str(error.value) == "record-not-json"
