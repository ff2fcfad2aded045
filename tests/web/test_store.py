"""games/store.py: its written-out SQL reads and writes exactly what the ORM would.

Each read is compared field by field, type and all, with an ORM read of the same row; each
write with the same change made through the ORM on a twin game. Run on SQLite and, with
DATABASE_URL, on PostgreSQL: the statements and the values' types differ between the two.
"""

from datetime import timedelta

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from games import store
from games.models import Game
from games.models import Move as MoveRow
from games.owners import Owner
from games.rules import Record
from games.rules.turn import CHECKPOINT_EVERY
from games.services import play as play_services
from solitaire import clock as site_clock

from . import services_support as services
from .conftest import long_moves
from .test_accounts import make_user

pytestmark = pytest.mark.django_db

GUEST = Owner(session_key="guest-session-key")
#: The fields two games of one owner may have alike: all but their ids.
ALIKE = [f for f in Game._meta.concrete_fields if f.name not in ("id", "public_id")]


def played(owner: Owner, moves: int = 12) -> Game:
    """A game of ``owner`` with every kind of column filled: moves, an undo (a redo list in
    the JSON column), times, counters."""
    game = services.start_from_record(owner, Record("forty-thieves", 3, long_moves(moves)))
    services.undo(game, game.ply)
    return Game.objects.get(pk=game.pk)


def assert_same_game(read: Game, expected: Game) -> None:
    """``read`` is ``expected`` in every field, value and type, and in its state."""
    for field in Game._meta.concrete_fields:
        value, wanted = getattr(read, field.attname), getattr(expected, field.attname)
        assert (value, type(value)) == (wanted, type(wanted)), field.name
    assert (read._state.db, read._state.adding) == (expected._state.db, expected._state.adding)


def moves_of(game: Game) -> list[tuple]:
    return list(
        MoveRow.objects.filter(game=game)
        .order_by("ply")
        .values_list("ply", "notation", "automatic", "checkpoint")
    )


def test_a_play_writes_every_field_of_the_model_but_those_it_keeps():
    """A field added to Game is read by the store and written by every action as it was read,
    with no list to keep in step by hand: only the fields no action changes are named."""
    names = {f.name for f in Game._meta.concrete_fields}
    assert set(play_services.PLAY_FIELDS) | play_services.KEPT_FIELDS == names
    assert not set(play_services.PLAY_FIELDS) & play_services.KEPT_FIELDS
    assert {"snapshot", "ply", "version", "status", "finish"} <= set(play_services.PLAY_FIELDS)


def test_the_columns_are_the_models_own():
    assert tuple(f.column for f in Game._meta.concrete_fields) == store.GAME_COLUMNS
    assert Game._meta.db_table == "games_game" and MoveRow._meta.db_table == "games_move"
    assert [f.column for f in MoveRow._meta.concrete_fields] == [
        "id",
        "game_id",
        "ply",
        "notation",
        "automatic",
        "checkpoint",
    ]


def test_every_column_of_game_is_one_the_store_can_read():
    """The start-up check (``manage.py check``) names a field the store could not read, so a
    new kind of field on Game cannot silently come back from a move's read as raw text."""
    from django.db import models

    assert store.check_readers() == []
    assert store.unreadable(Game._meta.concrete_fields) == []
    unknown = models.DecimalField(max_digits=5, decimal_places=2)
    unknown.name = "rating"
    assert store.unreadable([unknown]) == [unknown]


class TestReadGame:
    def test_a_guest_game_reads_as_the_orm_reads_it(self):
        game = played(GUEST)
        orm = Game.objects.owned_by(GUEST).get(public_id=game.public_id)
        assert_same_game(store.read_game(GUEST, game.public_id), orm)

    def test_an_account_game_reads_as_the_orm_reads_it(self):
        owner = Owner(user=make_user("ada"))
        game = played(owner)
        services.give_up(game)
        orm = Game.objects.owned_by(owner).get(public_id=game.public_id)
        assert orm.finished_at is not None
        assert_same_game(store.read_game(owner, game.public_id), orm)

    def test_another_owners_game_is_not_found(self):
        game = played(GUEST)
        others = [
            Owner(session_key="another-session"),
            Owner(user=make_user("mallory")),
        ]
        for owner in others:
            with pytest.raises(Game.DoesNotExist):
                store.read_game(owner, game.public_id)

    def test_a_guests_key_does_not_reach_a_game_with_an_account(self):
        owner = Owner(user=make_user("ada"))
        game = played(owner)
        Game.objects.filter(pk=game.pk).update(session_key="guest-session-key")
        with pytest.raises(Game.DoesNotExist):
            store.read_game(GUEST, game.public_id)

    def test_an_unknown_owner_has_no_game_and_costs_no_query(self, django_assert_num_queries):
        game = played(GUEST)
        with django_assert_num_queries(0), pytest.raises(Game.DoesNotExist):
            store.read_game(Owner(), game.public_id)

    def test_the_predicate_is_the_ownership_rule_of_the_orm(self):
        """For every kind of owner, the SQL condition picks the games owned_by picks."""
        ada = Owner(user=make_user("ada"))
        games = [played(GUEST, 3), played(Owner(session_key="other"), 3), played(ada, 3)]
        for owner in (GUEST, ada, Owner(session_key="nobody")):
            predicate, params = store.owner_predicate(owner)
            with connection.cursor() as cursor:
                cursor.execute(f"SELECT id FROM games_game WHERE {predicate}", params)
                by_sql = {row[0] for row in cursor.fetchall()}
            assert by_sql == set(Game.objects.owned_by(owner).values_list("pk", flat=True))
            assert by_sql <= {g.pk for g in games}


class TestLog:
    def test_the_tail_reads_as_the_orm_and_checkpoints_every_fiftieth_ply(self):
        game = services.start_from_record(GUEST, Record("forty-thieves", 3, long_moves(120)))
        tail = store.read_log_tail(game.pk, 40)
        assert [tuple(row) for row in tail] == moves_of(game)[40:]
        with_checkpoints = [row.ply for row in store.read_log_tail(game.pk, 0) if row.checkpoint]
        assert with_checkpoints == list(range(CHECKPOINT_EVERY, game.ply + 1, CHECKPOINT_EVERY))


def twins() -> tuple[Game, Game]:
    """Two games alike in every field but their ids, with the same log."""
    first = played(GUEST)
    second = played(GUEST)
    for field in ALIKE:
        setattr(second, field.attname, getattr(first, field.attname))
    second.save()
    return Game.objects.get(pk=first.pk), Game.objects.get(pk=second.pk)


def change(game: Game, now) -> list[store.NewMove]:
    """A move's change to ``game`` (as the services make it): the rows it adds."""
    game.updated_at = now
    game.milliseconds_played += 3250
    game.ply += 2
    game.move_count += 2
    game.version += 1
    game.redo = [["t1-t2"], ["w-f1", "t3-f1"]]
    game.first_move_at = now - timedelta(minutes=1)
    return [
        store.NewMove(game.ply - 1, "deal", False),
        store.NewMove(game.ply, "w-f1", True, "a position"),
    ]


def fields_of(game: Game) -> dict:
    return {f.name: getattr(game, f.attname) for f in ALIKE}


class TestSavePlay:
    def test_a_move_leaves_the_rows_and_fields_the_orm_would(self):
        by_orm, by_store = twins()
        now = site_clock.now()
        read_at = by_store.version
        rows = change(by_orm, now)
        assert change(by_store, now) == rows
        MoveRow.objects.bulk_create(MoveRow(game=by_orm, **row._asdict()) for row in rows)
        by_orm.save(update_fields=services.PLAY_FIELDS)
        assert store.save_play(GUEST, by_store, services.PLAY_FIELDS, read_at, rows)
        after_orm, after_store = Game.objects.get(pk=by_orm.pk), Game.objects.get(pk=by_store.pk)
        assert fields_of(after_store) == fields_of(after_orm)
        assert moves_of(after_store) == moves_of(after_orm)
        assert moves_of(after_store)[-2:] == [tuple(row) for row in rows]

    def test_moves_and_the_game_in_one_statement_where_the_database_can(self):
        _, game = twins()
        read_at = game.version
        rows = change(game, site_clock.now())
        with CaptureQueriesContext(connection) as queries:
            assert store.save_play(GUEST, game, services.PLAY_FIELDS, read_at, rows)
        statements = [q["sql"].split()[0] for q in queries.captured_queries]
        statements = [s for s in statements if s not in ("SAVEPOINT", "RELEASE")]
        assert statements == (
            ["WITH"] if connection.vendor == "postgresql" else ["UPDATE", "INSERT"]
        )

    def test_a_ply_the_game_has_raises_and_changes_nothing(self):
        _, game = twins()
        before, moves = fields_of(Game.objects.get(pk=game.pk)), moves_of(game)
        read_at = game.version
        rows = change(game, site_clock.now())
        rows[1] = rows[1]._replace(ply=moves[-1][0])
        with pytest.raises(IntegrityError), transaction.atomic():
            store.save_play(GUEST, game, services.PLAY_FIELDS, read_at, rows)
        assert fields_of(Game.objects.get(pk=game.pk)) == before
        assert moves_of(game) == moves

    def test_a_game_another_request_changed_first_is_not_written(self):
        _, game = twins()
        before, moves = fields_of(Game.objects.get(pk=game.pk)), moves_of(game)
        read_at = game.version
        Game.objects.filter(pk=game.pk).update(version=read_at + 1)  # another request's write
        rows = change(game, site_clock.now())
        assert not store.save_play(GUEST, game, services.PLAY_FIELDS, read_at, rows)
        assert fields_of(Game.objects.get(pk=game.pk)) == {**before, "version": read_at + 1}
        assert moves_of(game) == moves

    def test_a_game_that_is_no_longer_the_owners_is_not_written(self):
        # The guest signed up meanwhile: the game became the account's (adopt_guest_games).
        _, game = twins()
        ada = make_user("ada")
        Game.objects.filter(pk=game.pk).update(owner=ada, session_key="")
        before, moves = fields_of(Game.objects.get(pk=game.pk)), moves_of(game)
        read_at = game.version
        rows = change(game, site_clock.now())
        assert not store.save_play(GUEST, game, services.PLAY_FIELDS, read_at, rows)
        assert not store.save_play(Owner(user=make_user("mallory")), game, ["ply"], read_at)
        assert fields_of(Game.objects.get(pk=game.pk)) == before
        assert moves_of(game) == moves
        assert store.save_play(Owner(user=ada), game, services.PLAY_FIELDS, read_at, rows)

    def test_moves_past_a_ply_are_deleted_with_the_write_and_only_then(self):
        _, game = twins()
        moves = moves_of(game)
        read_at = game.version
        change(game, site_clock.now())
        cut = moves[-3][0]
        assert not store.save_play(GUEST, game, services.PLAY_FIELDS, read_at + 7, after=cut)
        assert moves_of(game) == moves
        assert store.save_play(GUEST, game, services.PLAY_FIELDS, read_at, after=cut)
        assert moves_of(game) == [m for m in moves if m[0] <= cut]
        assert Game.objects.get(pk=game.pk).version == game.version
