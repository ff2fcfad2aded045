"""Position text and game records, as NOTATION.md writes them.

``parse_record`` and ``replay`` raise ``RecordError`` with a ``Reason`` that names the problem
(and, for a bad move, its 1-based number and text), never another exception, whatever the
input: a code of games/rules/reasons.py, its text one line.
"""

import json
from dataclasses import dataclass, field
from itertools import pairwise

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


#: The most hints or undos a record may give: a million, more than any game is played with.
#: A game counts on from them (every undo changes its version, which the page sends back with
#: each action), so a bound near the database's largest integer would leave the game unplayable.
MOST_COUNTED = 10**6
#: The most time played a record may give: a thousand years, in milliseconds.
MOST_MILLISECONDS = 1000 * 365 * 24 * 3600 * 1000


@dataclass(frozen=True)
class Kept:
    """What a record keeps of its game beside the moves, in optional keys (docs/notation.md,
    "What a record keeps"): the 1-based numbers of the moves the automatic moves played, how
    many of the last moves Finish played, the time played and the hints and undos asked for.

    NOTATION.md's rule holds: a record is valid or not by its moves alone. A key missing or
    not as written here is left out (read as none), never a refusal."""

    automatic: tuple[int, ...] = ()
    finish: int = 0
    milliseconds: int = 0
    hints: int = 0
    undos: int = 0

    def tags(self) -> dict[str, object]:
        """The keys a record writes for these (none for a zero or an empty list)."""
        tags: dict[str, object] = {}
        if self.automatic:
            tags["automatic_moves"] = list(self.automatic)
        if self.finish:
            tags["finish_moves"] = self.finish
        tags["milliseconds_played"] = self.milliseconds
        if self.hints:
            tags["hints"] = self.hints
        if self.undos:
            tags["undos"] = self.undos
        return tags

    @classmethod
    def read(cls, data: dict, moves: int) -> "Kept":
        """The keys of a record's JSON object ``data`` with ``moves`` moves, each one read when
        it is as written here, else left out."""
        automatic = data.get("automatic_moves")
        if not (
            isinstance(automatic, list)
            and all(_whole(n, 1, moves) for n in automatic)
            and all(a < b for a, b in pairwise(automatic))
        ):
            automatic = []
        finish = _count(data.get("finish_moves"), moves)
        if automatic and finish and automatic[-1] > moves - finish:
            # Finish's moves are its own, never automatic: the two keys disagree.
            automatic, finish = [], 0
        return cls(
            tuple(automatic),
            finish,
            _count(data.get("milliseconds_played"), MOST_MILLISECONDS),
            _count(data.get("hints"), MOST_COUNTED),
            _count(data.get("undos"), MOST_COUNTED),
        )


def _whole(value: object, lowest: int, highest: int) -> bool:
    return type(value) is int and lowest <= value <= highest


def _count(value: object, highest: int) -> int:
    return value if _whole(value, 0, highest) else 0


@dataclass
class Record:
    variant: str
    deal: int
    moves: list[str] = field(default_factory=list)
    kept: Kept = field(default_factory=Kept)

    def to_json(self, **extra: object) -> str:
        """The record as JSON: the required keys, what it keeps of its game (``kept``), then
        the ``extra`` keys (player, dates)."""
        data = {
            "version": RECORD_VERSION,
            "variant": self.variant,
            "deal": self.deal,
            "moves": list(self.moves),
        }
        data.update(self.kept.tags())
        data.update(extra)
        return json.dumps(data)


def parse_record(text: str | bytes) -> Record:
    """Read a JSON record; its moves are checked for syntax, not yet for legality, and what it
    keeps of its game is read where it is well formed (``Kept``)."""
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
    if variant is None and isinstance(data.get("games"), list):
        # The file of all a player's games (its records under "games"), not one record.
        raise RecordError(Reason("record-several-games", {"count": len(data["games"])}))
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
    return Record(variant, deal, moves, Kept.read(data, len(moves)))


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
        variant, deal, stock, waste, foundations, columns, down, redeals_left, base_ply=moves
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
