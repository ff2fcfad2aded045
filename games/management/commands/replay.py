"""``manage.py replay FILE|-``: check a game record and print the position it leads to.

A record it cannot accept is one line on standard error naming the problem in words (the bad
move by its number), in the language the environment names (see ``deal``); ``--json`` gives
the reason's code and parameters instead, for scripts.
"""

import sys

from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _

from games.management.commands.deal import add_json_option, fail
from games.rules import Reason, RecordError, parse_record, replay
from games.words import record_error_words


class Command(BaseCommand):
    help = (
        "Check a game record (JSON, NOTATION.md) move by move and print the position "
        "after its last move. FILE '-' reads standard input."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the record's path, or - for standard input")
        add_json_option(parser)

    def handle(self, *args, file: str, json: bool = False, **options):
        try:
            if file == "-":
                data = sys.stdin.buffer.read()
            else:
                with open(file, "rb") as f:
                    data = f.read()
        except OSError as e:
            unread = Reason("file-unreadable", {"file": file, "error": e.strerror or str(e)})
            fail(unread, as_json=json, say=_unreadable_words)
        try:
            position = replay(parse_record(data))
        except RecordError as e:
            fail(e.reason, as_json=json, say=_refusal_words)
        self.stdout.write(position.text())


def _refusal_words(reason: Reason) -> str:
    clause = record_error_words(RecordError(reason))
    return _("This record cannot be played: %(reason)s.") % {"reason": clause}


def _unreadable_words(reason: Reason) -> str:
    # Translators: %(file)s is a path, %(error)s the system's reason ("No such file or
    # directory"), which stays in English.
    return _("Cannot read the file “%(file)s”: %(error)s.") % reason.params
