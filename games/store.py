"""The SQL of a move's hot path, written by hand: read the game, then store the move.

Why: the ORM spends more CPU building and reading a query than the database driver spends
running it. Measured on PostgreSQL inside a transaction, CPU per call: the locking
``Game.objects.owned_by(owner).select_for_update().get(public_id=...)`` took 1171 µs, the
same SELECT through a cursor ~400 µs (a bare ``SELECT 1``: 174 µs); ``save(update_fields=...)``
823 µs, the same UPDATE through a cursor 323 µs; and ``bulk_create`` of one move another
~390 µs, a statement that PostgreSQL can run as part of the UPDATE. That was about 2 ms of a
move request's 4.5 ms.

Round trips count too: each costs the web process about 0.1 ms of CPU in the driver and the
database as much again. A move is therefore written without a transaction around it: read
(one statement), then written only if the game is still at the version it was read at, in one
statement on PostgreSQL (an UPDATE whose result the INSERT of the moves depends on); two round
trips where a locked transaction takes four (BEGIN, the locked read, the write, COMMIT).

What it guarantees:

- The statements are built from the models' ``_meta`` (tables and columns quoted by the
  backend, none written here), once per database vendor.
- ``read_game`` reads the row ``Game.objects.owned_by(owner)`` would, with the same rule of
  ownership, and ``lock=True`` locked ``FOR UPDATE`` where the database has row locks (on
  SQLite the transaction is IMMEDIATE, which locks the whole database); it returns the instance
  the ORM would: each column through the backend's and the field's converters, then
  ``Game.from_db``.
- ``save_play`` stores what ``bulk_create`` and ``save(update_fields=...)`` would, each value
  through its field's ``get_db_prep_save``, all or nothing: with ``version``, only if the
  stored game still has that version (else nothing, and False); a move's ply the game already
  has still raises ``IntegrityError``, and nothing is written then.

Only ``games.services`` writes through these (and the views read a game for a page with
``read_game``), on the default database.
"""

import weakref
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.utils import CursorWrapper
from django.db.models import FETCH_ONE, Field, Model
from django.db.models.expressions import Col
from django.db.transaction import TransactionManagementError
from django.utils import timezone

from .models import Game, Move
from .owners import Owner

#: A converter of a column's value as read, called as the ORM calls it.
Converter = Callable[[Any, Col, BaseDatabaseWrapper], Any]


class NewMove(NamedTuple):
    """A move row to insert for a game: the ply it brings the game to, its notation, and
    whether the automatic moves played it."""

    ply: int
    notation: str
    automatic: bool


def read_game(owner: Owner, public_id: str, *, lock: bool = False) -> Game:
    """The game ``public_id`` of ``owner``; ``lock``: its row locked until the transaction ends.

    Owned as ``Game.objects.owned_by`` says: an account's games by their owner, a guest's by
    their session key and no owner; an owner with neither has none. ``Game.DoesNotExist`` when
    the owner has no such game.
    """
    db = connections[DEFAULT_DB_ALIAS]
    statements = _statements(db)
    if owner.user is not None:
        return statements.read(db, statements.of_user[lock], [public_id, owner.user.pk], lock)
    if owner.session_key:
        return statements.read(db, statements.of_guest[lock], [public_id, owner.session_key], lock)
    raise _not_found()


def read_game_and_session(
    public_id: str, session_key: str, session_model: type[Model]
) -> tuple[Game | None, str | None]:
    """The game ``public_id`` whoever owns it (None if there is none), and the encoded data of
    the session ``session_key`` if it is stored and unexpired (None if not), in one statement.

    A request that names a game reads its session too (who the player is), and both live in
    this database with the sessions' database engines: one round trip instead of two. The
    caller decides whether the session's player owns the game (``Owner.owns``).
    """
    db = connections[DEFAULT_DB_ALIAS]
    statements = _statements(db)
    sql = statements.with_session.get(session_model)
    if sql is None:
        sql = statements.with_session.setdefault(session_model, statements.read_with(session_model))
    expire = session_model._meta.get_field("expire_date").get_db_prep_value(timezone.now(), db)
    cursor = _cursor(db)
    cursor.execute(sql, [public_id, session_key, expire])
    data, *row = cursor.fetchall()[0]
    return (None if row[0] is None else statements.game(db, row)), data


class DealGame(NamedTuple):
    """One of a player's games of a deal, as its page's record of the deal needs it."""

    public_id: str
    status: str
    ply: int
    seconds_played: int
    finished_at: Any


def read_deal_games(owner: Owner, variant: str, deal: str, *, besides: int) -> list[DealGame]:
    """``owner``'s games of the deal ``deal`` of ``variant`` that count (a first move made)
    other than the game ``besides`` (its id), as ``games.stats.counted(owner)`` would filter
    them: the query a game page makes each time it is opened, written here for the same reason
    as the rest (building it through the ORM cost a fifth of the page)."""
    if owner.user is not None:
        sql, key = "of_user", owner.user.pk
    elif owner.session_key:
        sql, key = "of_guest", owner.session_key
    else:
        return []
    db = connections[DEFAULT_DB_ALIAS]
    statements = _statements(db)
    cursor = _cursor(db)
    cursor.execute(statements.deal_games[sql], [key, variant, deal, besides])
    converters = statements.deal_converters
    return [DealGame(*_converted(db, row, converters)) for row in cursor.fetchall()]


def read_game_by_pk(pk: int, *, lock: bool = False) -> Game:
    """The game ``pk``; ``lock``: its row locked until the transaction ends
    (``Game.DoesNotExist`` if it is gone)."""
    db = connections[DEFAULT_DB_ALIAS]
    statements = _statements(db)
    return statements.read(db, statements.by_pk[lock], [pk], lock)


def read_log(game: Game) -> list[tuple[str, bool]]:
    """The game's moves in order: each one's notation and whether it was automatic."""
    db = connections[DEFAULT_DB_ALIAS]
    cursor = _cursor(db)
    cursor.execute(_statements(db).log, [game.pk])
    return [(notation, bool(automatic)) for notation, automatic in cursor.fetchall()]


def save_play(
    game: Game,
    rows: Sequence[NewMove],
    fields: Sequence[str],
    *,
    version: int | None = None,
    after: int | None = None,
) -> bool:
    """Store the game's ``fields``, delete its moves past ply ``after`` (an undo) and insert
    ``rows`` as its new moves: all of it, or (False) none of it.

    ``version``: only if the stored game still has this version (False when another request
    changed it first); without it, a game that is gone raises ``DatabaseError`` as
    ``save(update_fields=...)`` would. On PostgreSQL one statement (the DELETE and the INSERT
    depend on the UPDATE's result), elsewhere several in a transaction. A ply the game already
    has raises ``IntegrityError``. An action inserts a few rows (a move and the automatic moves
    after it), far below any database's limit of parameters.
    """
    # Both in one PostgreSQL statement would run in no set order: a ply deleted and inserted
    # again could clash. No action does both.
    assert not (rows and after is not None), "an action deletes moves or adds them, not both"
    db = connections[DEFAULT_DB_ALIAS]
    statements = _statements(db)
    update, update_fields = statements.update(tuple(fields), conditional=version is not None)
    params = [f.get_db_prep_save(getattr(game, f.attname), db) for f in update_fields]
    params.append(game.pk)
    if version is not None:
        params.append(version)
    if statements.one_statement and (rows or after is not None):
        parts, more = [f"WITH updated AS ({update} RETURNING {statements.pk})"], []
        if after is not None:
            parts.append(f", gone AS ({statements.delete_after_updated})")
            more.append(after)
        if rows:
            insert, insert_params = statements.insert_after_updated(db, rows)
            parts.append(f", moved AS ({insert})")
            more += insert_params
        parts.append(" SELECT count(*) FROM updated")
        cursor = _cursor(db)
        cursor.execute("".join(parts), params + more)
        written = cursor.fetchall()[0][0]
    elif rows or after is not None:
        with transaction.atomic(using=db.alias):
            cursor = _cursor(db)
            cursor.execute(update, params)
            written = cursor.rowcount
            if written == 1 and after is not None:
                cursor.execute(statements.delete_after, [game.pk, after])
            if written == 1 and rows:
                cursor.execute(*statements.insert(db, game, rows))
    else:
        cursor = _cursor(db)
        cursor.execute(update, params)
        written = cursor.rowcount
    if written != 1 and version is None:
        # As save(update_fields=...) says it: the row was deleted under the game.
        raise DatabaseError("Save with update_fields did not affect any rows.")
    return written == 1


class _Statements:
    """The statements for one database vendor, and what reading their rows takes."""

    def __init__(self, db: BaseDatabaseWrapper) -> None:
        quote = db.ops.quote_name
        game = Game._meta
        table = game.db_table
        self.quote = quote
        self.table = quote(table)
        self.pk = quote(game.pk.column)
        # A game is read whole, its columns in the order Game.from_db takes them.
        self.attnames = [f.attname for f in game.concrete_fields]
        self.converters = _converters(db, table, game.concrete_fields)
        self.locks = db.features.has_select_for_update
        lock = f" {db.ops.for_update_sql()}" if self.locks else ""
        columns = ", ".join(quote(f.column) for f in game.concrete_fields)
        select = f"SELECT {columns} FROM {self.table} WHERE "
        public_id, owner, session_key = (
            quote(game.get_field(name).column) for name in ("public_id", "owner", "session_key")
        )
        # Each read twice: [False] as it is, [True] locked.
        by_pk = f"{select}{self.pk} = %s"
        of_user = f"{select}{public_id} = %s AND {owner} = %s"
        of_guest = f"{select}{public_id} = %s AND {owner} IS NULL AND {session_key} = %s"
        self.by_pk = (by_pk, by_pk + lock)
        self.of_user = (of_user, of_user + lock)
        self.of_guest = (of_guest, of_guest + lock)
        self.version = quote(game.get_field("version").column)
        self.public_id = public_id
        self.with_session: dict[type[Model], str] = {}
        # A player's games of one deal (read_deal_games), by the owner's key.
        deal_fields = [game.get_field(name) for name in DealGame._fields]
        variant, deal, first_move = (
            quote(game.get_field(name).column) for name in ("variant", "deal", "first_move_at")
        )
        select = (
            f"SELECT {', '.join(quote(f.column) for f in deal_fields)} FROM {self.table} WHERE "
        )
        rest = (
            f" AND {variant} = %s AND {deal} = %s AND {first_move} IS NOT NULL AND {self.pk} <> %s"
        )
        self.deal_games = {
            "of_user": f"{select}{owner} = %s{rest}",
            "of_guest": f"{select}{owner} IS NULL AND {session_key} = %s{rest}",
        }
        self.deal_converters = _converters(db, table, deal_fields)

        move = Move._meta
        self.move_fields = [move.get_field(name) for name in ("game", *NewMove._fields)]
        moves = quote(move.db_table)
        game_id, ply, notation, automatic = (quote(f.column) for f in self.move_fields)
        columns = ", ".join(quote(f.column) for f in self.move_fields)
        self.insert_into = f"INSERT INTO {moves} ({columns}) VALUES "
        self.values = f"({', '.join(['%s'] * len(self.move_fields))})"
        self.log = (
            f"SELECT {notation}, {automatic} FROM {moves} WHERE {game_id} = %s ORDER BY {ply}"
        )
        self.delete_after = f"DELETE FROM {moves} WHERE {game_id} = %s AND {ply} > %s"
        # PostgreSQL runs a DELETE and an INSERT as common table expressions of the UPDATE
        # (named "updated"), each on the rows it returns: nothing when it updated nothing.
        self.one_statement = db.vendor == "postgresql"
        self.delete_after_updated = (
            f"DELETE FROM {moves} WHERE {game_id} IN (SELECT {self.pk} FROM updated) AND {ply} > %s"
        )
        self.insert_selected = (
            f"INSERT INTO {moves} ({columns}) SELECT updated.{self.pk}, "
            f"played.ply, played.notation, played.automatic FROM updated, (VALUES "
        )
        self.row_values = f"({', '.join(['%s'] * len(NewMove._fields))})"
        self._updates: dict[tuple[tuple[str, ...], bool], tuple[str, list[Field]]] = {}

    def read(self, db: BaseDatabaseWrapper, sql: str, params: list[Any], lock: bool) -> Game:
        """The game that ``sql`` selects, as the ORM would build it from the row."""
        if lock and self.locks and db.get_autocommit() and db.features.supports_transactions:
            # As the ORM refuses it: a lock outside a transaction ends at once.
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        cursor = _cursor(db)
        cursor.execute(sql, params)
        rows = cursor.fetchall()
        if not rows:
            raise _not_found()
        row = rows[0]
        return self.game(db, row)

    def game(self, db: BaseDatabaseWrapper, row: Sequence[Any]) -> Game:
        """The game a row of its columns (in the order of ``attnames``) stands for, as the ORM
        would build it."""
        values = _converted(db, row, self.converters)
        return Game.from_db(db.alias, self.attnames, values, fetch_mode=FETCH_ONE)

    def read_with(self, session_model: type[Model]) -> str:
        """The statement of ``read_game_and_session``: a row whatever is found (the one-row
        table ``one``), the session's data, then the game's columns (NULL if there is none)."""
        quote = self.quote
        session = session_model._meta
        data, key, expire = (
            quote(session.get_field(name).column)
            for name in ("session_data", "session_key", "expire_date")
        )
        return (
            f"SELECT session.{data}, {self.columns_of('game')} FROM (SELECT 1 AS one) AS one "
            f"LEFT JOIN {self.table} AS game ON game.{self.public_id} = %s "
            f"LEFT JOIN {quote(session.db_table)} AS session "
            f"ON session.{key} = %s AND session.{expire} > %s"
        )

    def columns_of(self, alias: str) -> str:
        """The game's columns, in the order of ``attnames``, of the table named ``alias``."""
        return ", ".join(f"{alias}.{self.quote(f.column)}" for f in Game._meta.concrete_fields)

    def insert(
        self, db: BaseDatabaseWrapper, game: Game, rows: Sequence[NewMove]
    ) -> tuple[str, list[Any]]:
        """The INSERT of ``rows`` as moves of ``game``, and its parameters."""
        params = [
            field.get_db_prep_save(value, db)
            for row in rows
            for field, value in zip(self.move_fields, (game.pk, *row), strict=True)
        ]
        return self.insert_into + ", ".join([self.values] * len(rows)), params

    def insert_after_updated(
        self, db: BaseDatabaseWrapper, rows: Sequence[NewMove]
    ) -> tuple[str, list[Any]]:
        """The INSERT of ``rows`` as moves of the game the statement's UPDATE updated (none if
        it updated none), and its parameters."""
        fields = self.move_fields[1:]
        params = [
            field.get_db_prep_save(value, db)
            for row in rows
            for field, value in zip(fields, row, strict=True)
        ]
        values = ", ".join([self.row_values] * len(rows))
        return f"{self.insert_selected}{values}) AS played (ply, notation, automatic)", params

    def update(self, names: tuple[str, ...], conditional: bool) -> tuple[str, list[Field]]:
        """The UPDATE of the game's fields ``names`` (its id the next parameter, and its version
        the last when ``conditional``), and the fields, built the first time they are asked
        for."""
        built = self._updates.get((names, conditional))
        if built is None:
            fields = [Game._meta.get_field(name) for name in names]
            sets = ", ".join(f"{self.quote(f.column)} = %s" for f in fields)
            sql = f"UPDATE {self.table} SET {sets} WHERE {self.pk} = %s"
            if conditional:
                sql += f" AND {self.version} = %s"
            built = self._updates.setdefault((names, conditional), (sql, fields))
        return built


#: The statements of each database vendor, built on first use.
_BUILT: dict[str, _Statements] = {}


def _statements(db: BaseDatabaseWrapper) -> _Statements:
    statements = _BUILT.get(db.vendor)
    if statements is None:
        statements = _BUILT.setdefault(db.vendor, _Statements(db))
    return statements


#: The converters of the columns that have any: each column's place, its ``Col``, its
#: converters.
Converters = list[tuple[int, Col, list[Converter]]]


def _converters(db: BaseDatabaseWrapper, table: str, fields: Sequence[Field]) -> Converters:
    """The converters the ORM would apply to each of ``fields``' columns as read (a datetime
    on SQLite, a JSON document). The backend's are methods of this first connection's
    operations; they depend only on the backend and the settings, the same for every
    connection here."""
    converters = []
    for i, field in enumerate(fields):
        col = field.get_col(table)
        convert_all = db.ops.get_db_converters(col) + col.get_db_converters(db)
        if convert_all:
            converters.append((i, col, convert_all))
    return converters


def _converted(db: BaseDatabaseWrapper, row: Sequence[Any], converters: Converters) -> list:
    """The values of ``row`` through their columns' ``converters``."""
    values = list(row)
    for i, col, convert_all in converters:
        for convert in convert_all:
            values[i] = convert(values[i], col, db)
    return values


def _cursor(db: BaseDatabaseWrapper) -> CursorWrapper:
    """A cursor of ``db``'s current connection, kept for the next statement.

    Opening and closing a cursor for each statement cost as much CPU as running the statement
    (on PostgreSQL, a cursor's first query also sets it up). A connection's cursor stays
    as long as the connection does; a new connection (Django closes old ones between
    requests) gets a new cursor. While queries are being logged (DEBUG,
    ``CaptureQueriesContext``) each statement gets its own cursor, which logs it.

    Every statement run on it is read to its end (``fetchall``, or one that returns no rows):
    on SQLite a statement left half read keeps its snapshot of the database open.
    """
    if db.queries_logged:
        return db.cursor()
    # What db.cursor() does first, with DATABASE_HEALTH_CHECKS: once a request, check the
    # connection (closing it if it failed, so that a new one is made below).
    db.close_if_health_check_failed()
    kept = _KEPT.get(db)
    if kept is not None and kept[0] is db.connection and db.connection is not None:
        return kept[1]
    cursor = db.cursor()  # connects, if need be
    _KEPT[db] = (db.connection, cursor)
    return cursor


#: Each connection handler's kept cursor, with the connection it belongs to (connection
#: handlers are per thread, so each thread has its own).
_KEPT: "weakref.WeakKeyDictionary[BaseDatabaseWrapper, tuple[Any, CursorWrapper]]" = (
    weakref.WeakKeyDictionary()
)


def _not_found() -> Game.DoesNotExist:
    # The ORM's message for a get() that found nothing.
    return Game.DoesNotExist(f"{Game._meta.object_name} matching query does not exist.")
