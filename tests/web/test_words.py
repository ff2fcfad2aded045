"""The engine's reasons in words: every code it can give has its own sentence, with cards and
piles spelled out, never a card code."""

import re
from pathlib import Path

import pytest
from django.utils import translation

from games import rules
from games.models import Game
from games.outcomes import Refused, TooLong
from games.rules import VARIANTS, Build, Move, Reason, RecordError, first_position, parse_card
from games.rules import reasons as reasons_module
from games.rules.moves import COLUMN, DEAL, REDEAL
from games.rules.turn import MAX_PLY
from games.words import error_words, reason_words, record_error_words

RULES = Path(rules.__file__).resolve().parent
#: A card code of the notation, which the words never show: "7D", "TH".
CARD_CODE = re.compile(r"\b[A2-9TJQK][CDHS]\b")


def codes_in(source: str) -> set[str]:
    """Every code the module gives, read from its ``Reason("...")`` literals."""
    return set(re.findall(r'Reason\(\s*"([a-z0-9-]+)"', (RULES / source).read_text()))


MOVE_CODES = sorted(codes_in("position.py"))
RECORD_CODES = sorted(codes_in("notation.py"))

#: Parameters enough for any code (each code takes the ones it names).
SAMPLE = {
    "card": parse_card("7D"),
    "on": parse_card("9S"),
    "next": parse_card("3C"),
    "pile": "t3",
    "count": 2,
    "build": Build.SAME_SUIT,
    "suit": 0,
    "number": 3,
    "move": "t1-f1",
    "reason": Reason("foundation-wants-ace", {"card": parse_card("7D")}),
    "value": '"spider"',
    "supported": 1,
    "lowest": 1,
    "highest": 99,
    "line": 1,
    "column": 2,
}


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def test_the_codes_are_found_and_each_is_documented():
    assert {"game-won", "does-not-fit", "foundation-wants-next"} <= set(MOVE_CODES)
    assert {"record-not-utf8", "record-move-illegal"} <= set(RECORD_CODES)
    assert len(MOVE_CODES) >= 28 and len(RECORD_CODES) >= 10
    assert all(code.startswith("record-") for code in RECORD_CODES)
    assert not any(code.startswith("record-") for code in MOVE_CODES)
    for code in MOVE_CODES + RECORD_CODES:
        assert re.search(rf"^{re.escape(code)}\s", reasons_module.__doc__, re.M), code


@pytest.mark.parametrize("code", MOVE_CODES)
def test_every_code_of_a_move_has_its_own_sentence(code):
    text = reason_words(Reason(code, SAMPLE))
    assert text and text != reason_words(Reason("no-such-code"))
    assert "%(" not in text and not CARD_CODE.search(text), text


@pytest.mark.parametrize("code", RECORD_CODES)
def test_every_code_of_a_record_has_its_own_sentence(code):
    text = record_error_words(RecordError(Reason(code, SAMPLE)))
    assert text and text != record_error_words(RecordError(Reason("no-such-code")))
    assert "%(" not in text and not CARD_CODE.search(text), text


def test_the_sentences_of_different_codes_differ():
    sentences = {reason_words(Reason(code, SAMPLE)) for code in MOVE_CODES}
    # The empty column and the empty foundation read alike with the same pile.
    assert len(sentences) == len(MOVE_CODES) - 1


def test_a_card_that_does_not_fit_is_spelled_out_with_the_build_in_words():
    def fit(build: Build) -> str:
        reason = Reason("does-not-fit", {"card": 25, "on": 35, "build": build})
        return reason_words(reason)

    assert fit(Build.SAME_SUIT) == (
        "Seven of Diamonds does not go on Nine of Spades (build down by one rank in the same suit)"
    )
    assert fit(Build.ALTERNATE_COLOUR).endswith("(build down by one rank in alternate colours)")
    assert fit(Build.DIFFERENT_SUIT).endswith("(build down by one rank in any other suit)")


@pytest.mark.parametrize(
    ("reason", "text"),
    [
        (Reason("no-such-column", {"pile": "t11"}), "there is no column 11 in this game"),
        (Reason("column-empty", {"pile": "t1"}), "column 1 is empty"),
        (Reason("foundation-empty", {"pile": "f3"}), "foundation 3 is empty"),
        (
            Reason("too-few-face-up", {"pile": "t4", "count": 1}),
            "column 4 has only 1 face-up card",
        ),
        (
            Reason("too-few-face-up", {"pile": "t4", "count": 3}),
            "column 4 has only 3 face-up cards",
        ),
        (
            Reason("not-a-sequence", {"pile": "t2", "count": 3}),
            "the top 3 cards of column 2 are not a sequence",
        ),
        (
            Reason("foundation-wants-next", {"pile": "f2", "next": 8, "card": 16}),
            "foundation 2 takes Three of Clubs next, not Five of Clubs",
        ),
        (
            Reason("foundation-wants-ace", {"card": 25}),
            "an empty foundation takes an Ace, not Seven of Diamonds",
        ),
        (Reason("foundation-complete", {"pile": "f1"}), "foundation 1 is complete"),
        (Reason("right-foundation-filled", {"pile": "f5"}), "foundation 5 is already filled"),
        (
            Reason("right-foundation-suit-taken", {"suit": 2}),
            "another right foundation already holds the Hearts",
        ),
        (
            Reason("left-foundation-suit-taken", {"suit": 0}),
            "another left foundation already holds the Clubs",
        ),
    ],
)
def test_piles_cards_and_suits_are_spelled_out(reason, text):
    assert reason_words(reason) == text


def every_move(position) -> list[Move]:
    ends = range(COLUMN + len(position.columns) + 1)
    return [DEAL, REDEAL] + [
        Move(src, dst, count) for src in ends for dst in ends for count in (1, 2, 13)
    ]


@pytest.mark.parametrize("game", sorted(VARIANTS))
def test_every_refusal_of_a_real_position_reads_in_words(game):
    position = first_position(VARIANTS[game], 1)
    seen = set()
    for move in every_move(position):
        reason = position.check(move)
        if reason is None:
            continue
        seen.add(reason.code)
        text = reason_words(reason)
        assert text != reason_words(Reason("no-such-code")), reason
        assert not CARD_CODE.search(text) and "%(" not in text, (str(reason), text)
    assert {"does-not-fit", "no-such-column", "not-a-move-of-this-game", "same-pile"} <= seen


@pytest.mark.parametrize(
    ("record", "text"),
    [
        (b"\xff", "the record is not UTF-8 text"),
        ("{", "the record is not valid JSON (line 1, character 2)"),
        ("[1]", "the record must be a JSON object"),
        ('{"version": 1, "variant": "golf"}', 'unknown game "golf"'),
        (
            '{"version": 1, "variant": "maria", "deal": 0}',
            "bad deal number 0: a whole number from 1 to 99999999999999999999",
        ),
        (
            '{"version": 1, "variant": "maria", "deal": 1, "moves": ["deal", null]}',
            "move 2 is null: a move must be a string",
        ),
        (
            '{"version": 1, "variant": "maria", "deal": 1, "moves": ["zap"]}',
            "move 1, “zap”: not a move in the notation",
        ),
        (
            '{"version": 1, "variant": "forty-thieves", "deal": 1, "moves": ["t1-t2"]}',
            "move 1, “t1-t2”: Seven of Diamonds does not go on Nine of Spades "
            "(build down by one rank in the same suit)",
        ),
    ],
)
def test_a_record_error_reads_in_words(record, text):
    with pytest.raises(RecordError) as error:
        rules.replay(rules.parse_record(record))
    assert record_error_words(error.value) == text


def test_a_refused_move_is_worded_from_its_reason():
    reason = Reason("does-not-fit", {"card": 25, "on": 35, "build": Build.SAME_SUIT})
    text = error_words(Refused(None, reason))
    assert text == (
        "That move is not allowed: Seven of Diamonds does not go on Nine of Spades "
        "(build down by one rank in the same suit)."
    )


@pytest.mark.parametrize(
    ("ply", "said"),
    [
        (MAX_PLY, "This game has reached the longest log a game may have, 10000 moves"),
        # Finish (or a redo) whose moves would not all fit: the game is not at its limit yet.
        (MAX_PLY - 10, "These moves would take the game past the longest log"),
    ],
)
def test_a_move_past_the_longest_log_says_whether_the_game_is_at_it(ply, said):
    assert said in error_words(TooLong(Game(ply=ply)))
    with translation.override("fr"):
        assert "10000" in error_words(TooLong(Game(ply=ply)))
