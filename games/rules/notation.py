"""Position text and game records, as NOTATION.md writes them.

``parse_record`` and ``replay`` raise ``RecordError`` with a ``Reason`` that names the problem
(and, for a bad move, its 1-based number and text), never another exception, whatever the
input: a code of games/rules/reasons.py, its text one line.
"""

import json
from dataclasses import dataclass, field

from .cards import BY_NAME
from .deal import MAX_DEAL, MIN_DEAL, first_position, is_deal_number
from .moves import Move, MoveSyntaxError
from .position import IllegalMove, Position
from .reasons import Reason
from .variants import VARIANTS

RECORD_VERSION = 1


class RecordError(ValueError):
    """A record that cannot be read or replayed; ``reason`` says why (its text: the code and
    parameters on one line)."""

    def __init__(self, reason: Reason) -> None:
        super().__init__(reason)
        self.reason = reason

    def __str__(self) -> str:
        return str(self.reason)


class PositionTextError(ValueError):
    """A position text that NOTATION.md would not write."""


@dataclass
class Record:
    variant: str
    deal: int
    moves: list[str] = field(default_factory=list)

    def to_json(self, **extra: object) -> str:
        """The record as JSON; ``extra`` keys (player, dates) come after the required ones."""
        data = {
            "version": RECORD_VERSION,
            "variant": self.variant,
            "deal": self.deal,
            "moves": list(self.moves),
        }
        data.update(extra)
        return json.dumps(data)


def parse_record(text: str | bytes) -> Record:
    """Read a JSON record; its moves are checked for syntax, not yet for legality."""
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        data = json.loads(text)
    except UnicodeDecodeError:
        raise RecordError(Reason("record-not-utf8")) from None
    except json.JSONDecodeError as e:
        raise RecordError(
            Reason("record-not-json", {"line": e.lineno, "column": e.colno})
        ) from None
    except (ValueError, RecursionError):
        raise RecordError(Reason("record-not-json")) from None
    if not isinstance(data, dict):
        raise RecordError(Reason("record-not-object"))
    version = data.get("version")
    if "version" not in data:
        raise RecordError(Reason("record-no-version"))
    if type(version) is not int or version != RECORD_VERSION:
        raise RecordError(
            Reason("record-bad-version", {"value": _show(version), "supported": RECORD_VERSION})
        )
    variant = data.get("variant")
    if not isinstance(variant, str) or variant not in VARIANTS:
        raise RecordError(Reason("record-unknown-game", {"value": _show(variant)}))
    deal = data.get("deal")
    if not is_deal_number(deal):
        raise RecordError(
            Reason(
                "record-bad-deal", {"value": _show(deal), "lowest": MIN_DEAL, "highest": MAX_DEAL}
            )
        )
    moves = data.get("moves")
    if not isinstance(moves, list):
        raise RecordError(Reason("record-moves-not-list"))
    for n, text in enumerate(moves, 1):
        if not isinstance(text, str):
            raise RecordError(Reason("record-move-not-string", {"number": n, "value": _show(text)}))
    return Record(variant, deal, moves)


#: The most characters of a record's value that a refusal quotes.
SHOWN = 40


def replay(record: Record) -> Position:
    """The position after every move of ``record``, each checked in turn."""
    position = first_position(VARIANTS[record.variant], record.deal)
    play = position.play
    parse = Move.parse
    for n, text in enumerate(record.moves, 1):
        try:
            play(parse(text))
        except MoveSyntaxError:
            if not isinstance(text, str):
                reason = Reason("record-move-not-string", {"number": n, "value": _show(text)})
            else:
                reason = Reason("record-move-not-notation", {"number": n, "move": _cut(text)})
            raise RecordError(reason) from None
        except IllegalMove as e:
            reason = Reason(
                "record-move-illegal", {"number": n, "move": _cut(text), "reason": e.reason}
            )
            raise RecordError(reason) from None
    return position


def position_from_text(text: str, *, strict: bool = True) -> Position:
    """Read a position written by ``Position.text()``.

    With ``strict`` (the default) all 104 cards must be there, twice each card; tests turn it
    off to write small positions that show one rule.
    """
    lines = text.strip("\n").split("\n")
    values: dict[str, str] = {}
    for line in lines:
        key, sep, value = line.partition(":")
        if not sep or key in values:
            raise PositionTextError(f"bad line {line!r}")
        values[key] = value
    try:
        variant = VARIANTS[values.pop("variant").strip()]
        deal = int(values.pop("deal"))
        values.pop("status")
        moves = int(values.pop("moves"))
        redeals_left = int(values.pop("redeals-left"))
        stock, _ = _cards(values.pop("s"), allow_down=False)
        waste, _ = _cards(values.pop("w"), allow_down=False)
        foundations = [_cards(values.pop(f"f{i}"), allow_down=False)[0] for i in range(1, 9)]
        columns, down = [], []
        for j in range(1, variant.columns + 1):
            cards, d = _cards(values.pop(f"t{j}"), allow_down=True)
            columns.append(cards)
            down.append(d)
    except (KeyError, ValueError) as e:
        raise PositionTextError(f"missing or bad line: {e}") from None
    if values:
        raise PositionTextError(f"unexpected lines: {', '.join(values)}")
    if not 0 <= redeals_left <= variant.redeals:
        raise PositionTextError(f"{variant.name} allows 0 to {variant.redeals} redeals left")
    if any(d > variant.face_down for d in down):
        raise PositionTextError(
            f"{variant.name} has at most {variant.face_down} face-down cards in a column"
        )
    if strict:
        counts = [0] * 52
        for pile in [stock, waste, *foundations, *columns]:
            for c in pile:
                counts[c] += 1
        if any(n != 2 for n in counts):
            raise PositionTextError("every card must be there exactly twice")
    return Position(
        variant, deal, stock, waste, foundations, columns, down, redeals_left, base_moves=moves
    )


def _cards(value: str, *, allow_down: bool) -> tuple[list[int], int]:
    if value == "":
        return [], 0
    if not value.startswith(" "):
        raise ValueError(value)
    if "(" not in value:
        # No face-down card: each name looked up at once (a KeyError for a bad one).
        return [BY_NAME[token] for token in value[1:].split(" ")], 0
    cards, down = [], 0
    for token in value[1:].split(" "):
        if token.startswith("(") and token.endswith(")") and allow_down:
            if down != len(cards):
                raise ValueError(f"face-down card {token} above a face-up one")
            token = token[1:-1]
            down += 1
        cards.append(BY_NAME[token])
    if cards and down == len(cards):
        raise ValueError("a column's top card is face up")
    return cards, down


def _show(value: object) -> str:
    text = json.dumps(value)
    return text if len(text) <= SHOWN else text[: SHOWN - 3] + "..."


def _cut(text: str) -> str:
    """A move's text as a refusal quotes it: whole (every move of the notation is short), or
    its start and an ellipsis, so that a garbled record is not sent back in full."""
    return text if len(text) <= SHOWN else text[: SHOWN - 1] + "\u2026"
