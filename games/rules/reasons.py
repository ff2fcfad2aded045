"""Why the rules refuse a move or a record: a stable code and its facts, in no human language.

The site words a ``Reason`` in the player's language (games/words.py); ``str(reason)`` gives
the code and its parameters in the notation on one line, for the command line and the tests:
``does-not-fit card=7D on=9S build=same-suit``.

Parameters: ``card``, ``on`` and ``next`` are cards (0..51); ``pile`` is a pile in the notation
(``t3``, ``f2``); ``count`` and ``number`` are ints; ``build`` is a ``Build``; ``suit`` is a
suit's number (0..3, C D H S); ``move`` is a record's move text; ``value`` is a record's value
as JSON text, shortened; ``reason`` is a move's own ``Reason``.

A move (``Position.check``), in the order it checks:

=================================  ================  =========================================
code                               parameters        the rules refuse the move because
=================================  ================  =========================================
game-won                                             the game is already won
stock-empty                                          (deal) the stock is empty
no-redeal-in-this-game                               (redeal) the game has no redeal
stock-not-empty                                      (redeal) the stock is not empty yet
waste-empty                                          (redeal, or from w) the waste is empty
no-redeals-left                                      (redeal) every redeal is used
no-such-column                     pile              the game has no column ``pile``
not-a-move-of-this-game                              no game has such a move
same-pile                                            it goes onto its own pile
waste-top-only                                       more than the waste's top card
column-empty                       pile              the column it leaves is empty
too-few-face-up                    pile, count       ``pile`` has only ``count`` face-up cards
one-card-at-a-time                                   the game moves no sequences
not-a-sequence                     pile, count       the top ``count`` cards are no sequence
foundation-cards-stay                                cards never leave a foundation
right-foundation-cards-stay                          (Forty Devils) they never leave f5-f8
foundation-card-to-column-only                       (Forty Devils) f1-f4 give only to columns
foundation-empty                   pile              (Forty Devils) ``pile`` is empty
foundation-gives-one-card                            (Forty Devils) one card at a time
empty-column-takes-one-card                          (Forty Devils) one card to an empty column
does-not-fit                       card, on, build   ``card`` is not built on ``on`` by ``build``
right-foundation-takes-whole-suit                    (Forty Devils) only all 13, K to A, from a
                                                     column
right-foundation-filled            pile              (Forty Devils) ``pile`` is not empty
right-foundation-suit-taken        suit              (Forty Devils) another of f5-f8 holds it
foundation-takes-one-card                            a foundation takes one card at a time
foundation-wants-ace               card              an empty foundation takes an Ace
left-foundation-suit-taken         suit              (Forty Devils) another of f1-f4 holds it
foundation-complete                pile              ``pile`` is up to its King
foundation-wants-next              pile, next, card  ``pile`` takes ``next``, not ``card``
=================================  ================  =========================================

A record (``RecordError``, games/rules/notation.py):

=================================  ================  =========================================
code                               parameters        the record cannot be played because
=================================  ================  =========================================
record-not-utf8                                      its bytes are not UTF-8 text
record-not-json                    [line, column]    it is not JSON (where, when known)
record-not-object                                    it is not a JSON object
record-no-version                                    it has no "version"
record-bad-version                 value, supported  its version is not ``supported``
record-several-games               count             it is a list of ``count`` records under
                                                     "games" (all a player's games), not one
record-unknown-game                value             no game has the id ``value``
record-bad-deal                    value, lowest,    its deal is not a whole number from
                                   highest           ``lowest`` to ``highest``
record-moves-not-list                                its "moves" is not a list
record-move-not-string             number, value     move ``number`` is not a string
record-move-not-notation           number, move      move ``number`` is not in the notation
record-move-illegal                number, move,     the rules refuse move ``number`` for
                                   reason            ``reason``
=================================  ================  =========================================
"""

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from .cards import NAMES, SUITS

#: The parameters that hold a card, written by its notation name.
CARD_PARAMS = frozenset({"card", "on", "next"})


@dataclass(frozen=True, slots=True)
class Reason:
    """A code of the tables above and its parameters (a Reason is compared, not hashed)."""

    code: str
    params: Mapping[str, object] = field(default_factory=dict)

    def __str__(self) -> str:
        return " ".join([self.code] + [f"{k}={_show(k, v)}" for k, v in self.params.items()])


def _show(key: str, value: object) -> str:
    if isinstance(value, Reason):
        return f"({value})"
    if isinstance(value, Enum):
        return str(value.value).replace(" ", "-")
    if key in CARD_PARAMS:
        return NAMES[value]
    if key == "suit":
        return SUITS[value]
    if key == "move":
        return json.dumps(value)
    return str(value)
