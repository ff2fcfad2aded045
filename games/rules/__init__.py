"""The rules engine: the ten games of RULES.md, pure Python, importing nothing from Django."""

from .cards import card_name, long_name, parse_card
from .deal import MAX_DEAL, MIN_DEAL, first_position, is_deal_number
from .moves import DEAL, REDEAL, Move, MoveSyntaxError
from .notation import Kept, Record, RecordError, parse_record, position_from_text, replay
from .position import PLAYING, STUCK, WON, IllegalMove, Position
from .reasons import Reason
from .variants import VARIANTS, Build, Variant, get_variant

__all__ = [
    "DEAL",
    "MAX_DEAL",
    "MIN_DEAL",
    "PLAYING",
    "REDEAL",
    "STUCK",
    "VARIANTS",
    "WON",
    "Build",
    "IllegalMove",
    "Kept",
    "Move",
    "MoveSyntaxError",
    "Position",
    "Reason",
    "Record",
    "RecordError",
    "Variant",
    "card_name",
    "first_position",
    "get_variant",
    "is_deal_number",
    "long_name",
    "parse_card",
    "parse_record",
    "position_from_text",
    "replay",
]
