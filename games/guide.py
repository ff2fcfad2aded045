"""The games in words: a one-line description of each and its rules page, from RULES.md."""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext_lazy

from .rules import Build, Variant

# Translators: the names of the ten games. Keep the English name where your language's players
# know the game by it; the rules page says what the name means.
GAME_NAMES = {
    "forty-thieves": pgettext_lazy("game name", "Forty Thieves"),
    "indian": pgettext_lazy("game name", "Indian"),
    "limited": pgettext_lazy("game name", "Limited"),
    "little-forty": pgettext_lazy("game name", "Little Forty"),
    "lucas": pgettext_lazy("game name", "Lucas"),
    "maria": pgettext_lazy("game name", "Maria"),
    "number-ten": pgettext_lazy("game name", "Number Ten"),
    "rank-and-file": pgettext_lazy("game name", "Rank and File"),
    "streets": pgettext_lazy("game name", "Streets"),
    "forty-devils": pgettext_lazy("game name", "Forty Devils"),
}


def game_name(variant: "Variant | str") -> str:
    """A game's name in the active language (``variant``: the game or its id)."""
    return str(GAME_NAMES[variant if isinstance(variant, str) else variant.id])


SUMMARIES = {
    "forty-thieves": _("The classic: ten columns of four, build down in suit, one card at a time."),
    "indian": _("Ten columns of three, one face down in each; build down in any other suit."),
    "limited": _("Forty Thieves with twelve columns of three: more room, fewer cards to a column."),
    "little-forty": _(
        "Build down in any other suit and move runs; the stock deals three, with three redeals."
    ),
    "lucas": _("The eight Aces start on the foundations; thirteen columns of three."),
    "maria": _("Nine columns of four, built down in alternate colours, one card at a time."),
    "number-ten": _("Two face-down cards in each column; alternate colours; runs move."),
    "rank-and-file": _("Three face-down cards in each column; alternate colours; runs move."),
    "streets": _("Forty Thieves built down in alternate colours, one card at a time."),
    "forty-devils": _(
        "Split foundations: Aces up on the left, whole King-to-Ace runs on the right."
    ),
}

#: What a game adds to, or changes in, the common rules.
DETAILS = {
    "forty-thieves": [
        _("Also known as Big Forty, Le Cadran, Napoleon at St. Helena and Roosevelt at San Juan."),
        _("The common rules, with no change."),
    ],
    "indian": [
        _("The bottom card of each column is dealt face down and turns up when it is uncovered."),
    ],
    "limited": [_("Twelve columns of three cards, all face up. Otherwise Forty Thieves.")],
    "little-forty": [
        _(
            "Sequences built down in different suits move as a unit, whole or in part, however "
            "few columns are empty."
        ),
        _(
            "The stock deals three cards at a time onto the waste (fewer when fewer are left); "
            "only the waste's top card is playable."
        ),
        _(
            "When the stock is empty you may redeal: the waste is turned over, without "
            "shuffling, to become the stock again, so the next pass deals the remaining cards in "
            "the same order. Three redeals: four passes in all."
        ),
    ],
    "lucas": [
        _(
            "Before the shuffle the eight Aces are taken out and placed on the foundations "
            "(clubs, diamonds, hearts, spades, twice). The other 96 cards are dealt into 13 "
            "columns of three; 57 stay in the stock."
        ),
    ],
    "maria": [
        _(
            "Nine columns of four. Build down in alternate colours (some translations say "
            "“different suit”; every implementation and the other translations say "
            "colour)."
        ),
    ],
    "number-ten": [
        _("The bottom two cards of each column are face down."),
        _("Sequences in alternate colours move as a unit, whole or in part."),
    ],
    "rank-and-file": [
        _("The bottom three cards of each column are face down."),
        _("Sequences in alternate colours move as a unit, whole or in part."),
    ],
    "streets": [_("Forty Thieves, but built down in alternate colours.")],
    "forty-devils": [
        _("A Thomas Warfield game, a cross between Rouge et Noir and Lady Cadogan."),
        _(
            "The left foundations (1 to 4) are built up in suit from Ace to King, no two of the "
            "same suit. The top card of a left foundation may be played back onto a column."
        ),
        _(
            "The right foundations (5 to 8) each take only a complete thirteen-card run of one "
            "suit, King down to Ace, moved in one move from the top of a column; no two of the "
            "same suit. A filled right foundation is closed."
        ),
        _(
            "An empty column takes a single card only, never a sequence, and is not filled by "
            "itself."
        ),
        _("You win with all 104 cards home: 52 on the left, 52 on the right."),
    ],
}

#: Where a game here differs from the game of the same name in PySolFC.
PYSOLFC = {
    "forty-thieves": _(
        "PySolFC also lets a foundation's top card come back to the tableau; here it cannot."
    ),
    "little-forty": _(
        "PySolFC's Little Forty builds regardless of suit, moves only same-suit runs and fills "
        "empty columns by itself; the rules documents say otherwise, and this site follows them."
    ),
    "lucas": _(
        "PySolFC's “Lucas” is a different game: thirteen columns of four, no Aces "
        "out, and runs move."
    ),
}

BUILD_WORDS = {
    Build.SAME_SUIT: _("in the same suit"),
    Build.ALTERNATE_COLOUR: _("in alternate colours (red on black, black on red)"),
    Build.DIFFERENT_SUIT: _("in any suit but the card's own (colour does not matter)"),
}


def layout(variant: Variant) -> str:
    """The deal of ``variant`` in one sentence."""
    text = _("%(columns)s columns of %(cards)s cards, %(stock)s cards in the stock.") % {
        "columns": variant.columns,
        "cards": variant.cards_per_column,
        "stock": variant.stock_size,
    }
    if variant.face_down:
        text += " " + ngettext(
            "The bottom card of each column is face down.",
            "The bottom %(count)d cards of each column are face down.",
            variant.face_down,
        ) % {"count": variant.face_down}
    return text
