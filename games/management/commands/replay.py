"""``manage.py replay FILE|-``: check a game record and print the position it leads to."""

import sys

from django.core.management.base import BaseCommand

from games.management.commands.deal import fail
from games.rules import RecordError, parse_record, replay


class Command(BaseCommand):
    help = (
        "Check a game record (JSON, NOTATION.md) move by move and print the position "
        "after its last move. FILE '-' reads standard input."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the record's path, or - for standard input")

    def handle(self, *args, file: str, **options):
        try:
            if file == "-":
                data = sys.stdin.buffer.read()
            else:
                with open(file, "rb") as f:
                    data = f.read()
        except OSError as e:
            fail(f'cannot read "{file}": {e.strerror or e}')
        try:
            position = replay(parse_record(data))
        except RecordError as e:
            fail(str(e))
        self.stdout.write(position.text())
