"""The SQL of a move's hot path, written out: read the player's game, store what a move did.

Why: the ORM spends more CPU building a query and reading its row than the driver spends
running it, and a move is little else: with the answer of only the changed piles, these
statements make a move about 2.5 times cheaper than the ORM's locked transaction
(docs/performance.md). Everything else reads and writes through the ORM.

A move is written without a lock: read (one statement), then written only if the game is still
at the version it was read at. On PostgreSQL the write is one statement, an UPDATE whose
result the INSERT (or an undo's DELETE) of the log depends on; elsewhere the statements run in
one transaction. What it guarantees, each held against the ORM by tests/web/test_store.py:

- ``read_game`` reads the row ``Game.objects.owned_by(owner).get(public_id=...)`` reads, by the
  same ownership rule (``Owner.columns``), and returns the instance the ORM would;
- ``save_play`` stores what ``save(update_fields=...)`` and ``bulk_create`` would, all or
  nothing, and only if the game still has the version it was read at and is still the
  owner's, by the same rule (else False);
- ``read_log_tail`` reads a game's moves past a ply, with their checkpoints.

Only ``games.services`` calls these. Tables, columns and their order are the model's own
(``Game._meta``), so a new field needs no change here; values go in through each field's
``get_db_prep_save`` and come out as the ORM reads them (``READERS``: documented APIs only).
Each function looks the default database's connection up once (``connections``) rather than
through the ``connection`` proxy at every use: on a move's path the proxy's lookups are a
measurable share of the work (docs/performance.md).
"""

import datetime
from collections.abc import Sequence
from typing import NamedTuple

from django.conf import settings
from django.core import checks
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from .models import Game, Move
from .owners import Owner

#: Game's fields, and their columns in the order ``Game.from_db`` takes them: the model's own.
GAME_FIELDS = tuple(Game._meta.concrete_fields)
GAME_COLUMNS = tuple(field.column for field in GAME_FIELDS)
COLUMN_OF = {field.name: field.column for field in GAME_FIELDS}
SELECT_GAME = (
    f"SELECT {', '.join(GAME_COLUMNS)} FROM {Game._meta.db_table} WHERE public_id = %s AND "
)


class NewMove(NamedTuple):
    """A move row to insert: the ply it brings the game to, its notation, whether the
    automatic moves played it, and the position after it on a checkpoint's ply (else "")."""

    ply: int
    notation: str
    automatic: bool
    checkpoint: str = ""


class LoggedMove(NamedTuple):
    """A move of a game's log as stored."""

    ply: int
    notation: str
    automatic: bool
    checkpoint: str


def owner_predicate(owner: Owner) -> tuple[str, list]:
    """The SQL condition (on games_game's columns) and parameters of ``Owner.columns``: the
    ownership rule as ``Game.objects.owned_by`` filters by it. ValueError for an owner who
    owns nothing."""
    columns = owner.columns()
    if columns is None:
        raise ValueError("this owner owns no game")
    terms = [
        f"{name} IS NULL" if value is None else f"{name} = %s" for name, value in columns.items()
    ]
    return " AND ".join(terms), [value for value in columns.values() if value is not None]


def read_game(owner: Owner, public_id: str) -> Game:
    """The game ``public_id`` of ``owner``, in one statement; ``Game.DoesNotExist`` when the
    owner has no such game (or owns nothing: then without a query)."""
    if owner.columns() is None:
        raise Game.DoesNotExist("Game matching query does not exist.")
    predicate, params = owner_predicate(owner)
    connection = connections[DEFAULT_DB_ALIAS]
    with connection.cursor() as cursor:
        cursor.execute(SELECT_GAME + predicate, [public_id, *params])
        row = cursor.fetchone()
    if row is None:
        raise Game.DoesNotExist("Game matching query does not exist.")
    values = list(row)
    for i, read in READERS:
        if values[i] is not None:
            values[i] = read(GAME_FIELDS[i], values[i], connection)
    return Game.from_db(connection.alias, GAME_COLUMNS, values)


def _datetime(field, value, connection):
    # SQLite hands back text; PostgreSQL an aware datetime. Django stores UTC (USE_TZ, and no
    # TIME_ZONE of the database's own: the start-up check holds both).
    if isinstance(value, str):
        value = parse_datetime(value)
    if timezone.is_naive(value):
        value = timezone.make_aware(value, datetime.UTC)
    return value


def _boolean(field, value, connection):
    return bool(value)


def _from_db_value(field, value, connection):
    return field.from_db_value(value, None, connection)


#: How a column's value becomes the field's, by the field's type: what ``Game.objects.raw``
#: does, through documented APIs only (``Field.from_db_value``, ``parse_datetime``):
#: reading the row through ``raw`` makes a whole move 13 % slower (docs/performance.md).
#: Types that the drivers already hand back as Python's own need nothing; ``check_readers``
#: refuses to start on any other.
PLAIN_TYPES = frozenset(
    {
        "AutoField",
        "BigAutoField",
        "BigIntegerField",
        "CharField",
        "ForeignKey",
        "IntegerField",
        "PositiveBigIntegerField",
        "PositiveIntegerField",
        "PositiveSmallIntegerField",
        "SmallIntegerField",
        "TextField",
    }
)
READ_BY_TYPE = {"DateTimeField": _datetime, "BooleanField": _boolean}


def _reader(field):
    if hasattr(field, "from_db_value"):
        return _from_db_value
    return READ_BY_TYPE.get(field.get_internal_type())


READERS = tuple(
    (i, _reader(field)) for i, field in enumerate(GAME_FIELDS) if _reader(field) is not None
)


def unreadable(fields) -> list:
    """The fields among ``fields`` that ``read_game`` would not know how to read."""
    return [f for f in fields if _reader(f) is None and f.get_internal_type() not in PLAIN_TYPES]


@checks.register()
def check_readers(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    """Every column of Game is one ``read_game`` knows how to read (run at start-up)."""
    errors = [
        checks.Error(
            f"games/store.py cannot read Game.{field.name} ({field.get_internal_type()}): "
            "add its type to READ_BY_TYPE",
            id="games.E001",
        )
        for field in unreadable(GAME_FIELDS)
    ]
    if not settings.USE_TZ or any(db.get("TIME_ZONE") for db in settings.DATABASES.values()):
        errors.append(
            checks.Error(
                "games/store.py reads datetimes as UTC: USE_TZ on, no database TIME_ZONE",
                id="games.E002",
            )
        )
    return errors


def read_log_tail(game_pk: int, after: int) -> list[LoggedMove]:
    """The game's moves past ply ``after``, in order."""
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute(
            "SELECT ply, notation, automatic, checkpoint FROM games_move "
            "WHERE game_id = %s AND ply > %s ORDER BY ply",
            [game_pk, after],
        )
        return [
            LoggedMove(ply, notation, bool(automatic), checkpoint)
            for ply, notation, automatic, checkpoint in cursor.fetchall()
        ]


def save_play(
    owner: Owner,
    game: Game,
    fields: Sequence[str],
    version: int,
    rows: Sequence[NewMove] = (),
    after=None,
) -> bool:
    """Store the game's ``fields``, delete its moves past ply ``after`` (an undo) or insert
    ``rows`` as its new moves (a move): all of it if the stored game still has ``version``
    and is still ``owner``'s (True), else none of it (False). A ply the game already has
    raises ``IntegrityError``."""
    # In one PostgreSQL statement a DELETE and an INSERT run in no set order: a ply deleted
    # and inserted again could clash. No action does both.
    assert not (rows and after is not None), "an action deletes moves or adds them, not both"
    sets = ", ".join(f"{COLUMN_OF[name]} = %s" for name in fields)
    owned, owners = owner_predicate(owner)
    update = f"UPDATE games_game SET {sets} WHERE id = %s AND version = %s AND {owned}"
    connection = connections[DEFAULT_DB_ALIAS]
    params = [_prepared(Game, name, getattr(game, name), connection) for name in fields]
    params += [game.pk, version, *owners]
    if connection.vendor == "postgresql" and (rows or after is not None):
        sql = [f"WITH updated AS ({update} RETURNING id)"]
        if after is not None:
            sql.append(
                ", gone AS (DELETE FROM games_move WHERE game_id IN (SELECT id FROM updated) "
                "AND ply > %s)"
            )
            params.append(after)
        if rows:
            values = ", ".join(["(%s, %s, %s, %s)"] * len(rows))
            sql.append(
                ", moved AS (INSERT INTO games_move (game_id, ply, notation, automatic, "
                "checkpoint) SELECT updated.id, played.ply, played.notation, played.automatic, "
                f"played.checkpoint FROM updated, (VALUES {values}) "
                "AS played (ply, notation, automatic, checkpoint))"
            )
            params += [value for row in rows for value in _move_values(row, connection)]
        sql.append(" SELECT count(*) FROM updated")
        with connection.cursor() as cursor:
            cursor.execute("".join(sql), params)
            return cursor.fetchone()[0] == 1
    with transaction.atomic(using=connection.alias), connection.cursor() as cursor:
        cursor.execute(update, params)
        if cursor.rowcount != 1:
            return False
        if after is not None:
            cursor.execute(
                "DELETE FROM games_move WHERE game_id = %s AND ply > %s", [game.pk, after]
            )
        if rows:
            values = ", ".join(["(%s, %s, %s, %s, %s)"] * len(rows))
            cursor.execute(
                "INSERT INTO games_move (game_id, ply, notation, automatic, checkpoint) "
                f"VALUES {values}",
                [value for row in rows for value in (game.pk, *_move_values(row, connection))],
            )
    return True


def _move_values(row: NewMove, connection) -> list:
    return [
        _prepared(Move, name, value, connection)
        for name, value in zip(NewMove._fields, row, strict=True)
    ]


def _prepared(model, name: str, value, connection):
    """``value`` of the field ``name`` as the ORM would send it to ``connection``."""
    return model._meta.get_field(name).get_db_prep_save(value, connection)
