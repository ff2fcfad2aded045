"""``manage.py deal GAME NUMBER``: print the first position of a deal (NOTATION.md).

A bad game or deal number is one line on standard error, in words: in the language the
environment names (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``, as gettext reads them)
when the site speaks it, else English; with ``--json``, the reason's code and parameters as
one JSON object, for scripts.
"""

import json
import os
import sys

from django.conf import settings
from django.core.management.base import BaseCommand
from django.utils import translation

from games.rules import (
    MAX_DEAL,
    MIN_DEAL,
    VARIANTS,
    Reason,
    RecordError,
    card_name,
    first_position,
    is_deal_number,
)
from games.words import record_error_words, sentence

#: The environment's variables that name a language, in the order gettext reads them.
LANGUAGE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


class Command(BaseCommand):
    help = "Print the first position of deal NUMBER of GAME, in the notation's position text."

    def add_arguments(self, parser):
        parser.add_argument("game", help="a game id: " + ", ".join(VARIANTS))
        parser.add_argument("number", help=f"a deal number from {MIN_DEAL} to {MAX_DEAL}")
        add_json_option(parser)

    def handle(self, *args, game: str, number: str, json: bool = False, **options):
        if game not in VARIANTS:
            fail(Reason("record-unknown-game", {"value": game}), as_json=json)
        deal = int(number) if number.isascii() and number.isdigit() else None
        if not is_deal_number(deal):
            params = {"value": number, "lowest": MIN_DEAL, "highest": MAX_DEAL}
            fail(Reason("record-bad-deal", params), as_json=json)
        self.stdout.write(first_position(VARIANTS[game], deal).text())


def add_json_option(parser) -> None:
    parser.add_argument(
        "--json",
        action="store_true",
        help="say a refusal as its code and parameters in JSON, not in words",
    )


def environment_language() -> str:
    """The site's language the environment names (``fr_FR.UTF-8`` is French), else the
    site's own."""
    known = {code for code, _name in settings.LANGUAGES}
    for variable in LANGUAGE_VARIABLES:
        for value in os.environ.get(variable, "").split(":"):
            code = value.split(".")[0].split("@")[0].replace("_", "-").lower()
            for candidate in (code, code.split("-")[0]):
                if candidate in known:
                    return candidate
    return settings.LANGUAGE_CODE


def reason_json(reason: Reason) -> dict:
    """A reason's code and parameters as JSON values: cards in the notation, a nested reason
    as an object."""
    params = {}
    for key, value in reason.params.items():
        if isinstance(value, Reason):
            value = reason_json(value)
        elif key in ("card", "on", "next") and isinstance(value, int):
            value = card_name(value)
        elif not isinstance(value, int | str):
            # An enum's value as the notation writes it: "alternate-colour".
            value = str(getattr(value, "value", value)).replace(" ", "-")
        params[key] = value
    return {"code": reason.code, **params}


def fail(reason: Reason | str, *, as_json: bool = False, say=None) -> None:
    """One line on standard error and exit status 1, as NOTATION.md asks of the commands:
    ``reason`` in words (``say(reason)``; by default a record's reason as a sentence; a text
    is said as it is), or with ``as_json`` its code and parameters."""
    if isinstance(reason, str):
        line = json.dumps({"error": reason}) if as_json else reason
    elif as_json:
        line = json.dumps(reason_json(reason), ensure_ascii=False)
    else:
        with translation.override(environment_language()):
            line = (say or _record_sentence)(reason)
    sys.stderr.write(line + "\n")
    sys.stderr.flush()
    raise SystemExit(1)


def _record_sentence(reason: Reason) -> str:
    return sentence(record_error_words(RecordError(reason)))
