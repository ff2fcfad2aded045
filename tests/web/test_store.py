"""games/store.py: its hand-written SQL reads and writes exactly what the ORM would.

Each read is compared field by field, type and all, with an ORM read of the same row; each
write with the same change made through the ORM on a twin game. Run on SQLite and, with
DATABASE_URL, on PostgreSQL: the statements and the converters differ between the two.
"""

from datetime import datetime, timedelta

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models import FETCH_ONE
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import services, stats, store
from games.models import Game
from games.models import Move as MoveRow
from games.owners import Owner, preload_session
from games.rules import Record

from .conftest import long_moves, stuck_record
from .test_accounts import make_user

pytestmark = pytest.mark.django_db

GUEST = Owner(session_key="guest-session-key")
#: The fields two games of one owner may have alike: all but their ids.
ALIKE = [f for f in Game._meta.concrete_fields if f.name not in ("id", "public_id")]


def played(owner: Owner) -> Game:
    """A game of ``owner`` with every kind of column filled: moves, an undo (a redo list in
    the JSON column), times, counters."""
    game = services.start_from_record(owner, Record("forty-thieves", 3, long_moves(12)))
    services.undo(game, game.ply)
    return Game.objects.get(pk=game.pk)


def assert_same_game(read: Game, expected: Game) -> None:
    """``read`` is ``expected`` in every field, value and type, and in its state."""
    for field in Game._meta.concrete_fields:
        value, wanted = getattr(read, field.attname), getattr(expected, field.attname)
        assert (value, type(value)) == (wanted, type(wanted)), field.name
    assert (read._state.db, read._state.adding) == (expected._state.db, expected._state.adding)
    assert read._state.__dict__.get("fetch_mode") is FETCH_ONE


def moves_of(game: Game) -> list[tuple[int, str, bool]]:
    return list(MoveRow.objects.filter(game=game).values_list("ply", "notation", "automatic"))


def assert_reads_as_the_orm(owner: Owner, game: Game) -> None:
    with transaction.atomic():
        read = store.read_game(owner, game.public_id, lock=True)
        orm = Game.objects.owned_by(owner).select_for_update().get(public_id=game.public_id)
    assert_same_game(read, orm)


class TestReadGame:
    def test_a_guest_game_reads_as_the_orm_reads_it(self):
        game = played(GUEST)
        assert game.redo and game.first_move_at and game.undo_count
        assert_reads_as_the_orm(GUEST, game)

    def test_an_account_game_reads_as_the_orm_reads_it(self):
        owner = Owner(user=make_user("alice"))
        game = played(owner)
        assert_reads_as_the_orm(owner, game)

    def test_a_finished_game_reads_as_the_orm_reads_it(self):
        game = services.start_from_record(GUEST, stuck_record())
        assert game.finished_at is not None
        assert_reads_as_the_orm(GUEST, game)

    def test_a_game_by_its_id_reads_as_the_orm_reads_it(self):
        game = played(GUEST)
        with transaction.atomic():
            read = store.read_game_by_pk(game.pk, lock=True)
            assert_same_game(read, Game.objects.select_for_update().get(pk=game.pk))

    def test_another_owners_game_is_not_found(self):
        alice, bob = Owner(user=make_user("alice")), Owner(user=make_user("bob"))
        of_alice, of_guest = played(alice), played(GUEST)
        others = [
            (bob, of_alice.public_id),
            (Owner(session_key="another-guest"), of_alice.public_id),
            (Owner(session_key="another-guest"), of_guest.public_id),
            (alice, of_guest.public_id),
        ]
        for owner, public_id in others:
            with transaction.atomic(), pytest.raises(Game.DoesNotExist):
                store.read_game(owner, public_id, lock=True)

    def test_a_guests_key_does_not_reach_a_game_with_an_account(self):
        """A guest's games are those without an owner, even where the session key matches."""
        owner = Owner(user=make_user("alice"))
        game = played(owner)
        Game.objects.filter(pk=game.pk).update(session_key=GUEST.session_key)
        with transaction.atomic(), pytest.raises(Game.DoesNotExist):
            store.read_game(GUEST, game.public_id, lock=True)

    def test_an_unknown_owner_has_no_game_and_costs_no_query(self, django_assert_num_queries):
        game = played(GUEST)
        with django_assert_num_queries(0), pytest.raises(Game.DoesNotExist):
            store.read_game(Owner(), game.public_id, lock=True)

    def test_a_missing_game_is_not_found(self):
        with transaction.atomic(), pytest.raises(Game.DoesNotExist):
            store.read_game(GUEST, "no-such-game", lock=True)
        with transaction.atomic(), pytest.raises(Game.DoesNotExist):
            store.read_game_by_pk(10**9)

    def test_the_row_is_locked_where_the_database_locks_rows_and_asked_to(self):
        game = played(GUEST)
        with transaction.atomic(), CaptureQueriesContext(connection) as queries:
            store.read_game(GUEST, game.public_id, lock=True)
            store.read_game(GUEST, game.public_id)
        locked, plain = queries.captured_queries
        assert locked["sql"].endswith(" FOR UPDATE") == connection.features.has_select_for_update
        assert "FOR UPDATE" not in plain["sql"]

    def test_an_unlocked_read_needs_no_transaction(self):
        game = played(GUEST)
        assert_same_game(store.read_game(GUEST, game.public_id), Game.objects.get(pk=game.pk))

    def test_the_log_reads_as_the_orm_reads_it(self):
        game = played(GUEST)
        orm = list(game.moves.order_by("ply").values_list("notation", "automatic"))
        assert len(orm) > 5 and store.read_log(game) == orm


class TestReadGameAndSession:
    """The game and the session in one statement: what each would read alone."""

    def session(self, **data) -> SessionStore:
        session = SessionStore()
        session.update(data)
        session.save()
        return session

    def test_both_read_as_the_orm_and_the_session_engine_read_them(self, django_assert_num_queries):
        session = self.session(autoplay={"limited": False})
        game = played(Owner(session_key=session.session_key))
        with django_assert_num_queries(1):
            read, data = store.read_game_and_session(game.public_id, session.session_key, Session)
        assert_same_game(read, Game.objects.get(pk=game.pk))
        assert SessionStore().decode(data) == {"autoplay": {"limited": False}}

    def test_a_game_is_read_whoever_owns_it(self):
        """Ownership is the caller's to check (Owner.owns): the statement reads by id alone."""
        session = self.session()
        game = played(Owner(user=make_user("alice")))
        read, data = store.read_game_and_session(game.public_id, session.session_key, Session)
        assert read.pk == game.pk and data is not None

    def test_a_missing_game_still_reads_the_session(self):
        session = self.session(x=1)
        read, data = store.read_game_and_session("no-such-game", session.session_key, Session)
        assert read is None and SessionStore().decode(data) == {"x": 1}

    def test_an_expired_or_unknown_session_reads_as_none(self):
        session = self.session(x=1)
        game = played(Owner(session_key=session.session_key))
        Session.objects.filter(pk=session.session_key).update(
            expire_date=timezone.now() - timedelta(seconds=1)
        )
        for key in (session.session_key, "no-such-session-key"):
            read, data = store.read_game_and_session(game.public_id, key, Session)
            assert read.pk == game.pk and data is None


class TestReadDealGames:
    def test_a_players_games_of_a_deal_are_those_the_orm_counts(self):
        alice, bob = Owner(user=make_user("alice")), Owner(user=make_user("bob"))
        mine = [played(alice), played(alice), played(GUEST), played(bob)]
        services.start_game(alice, "forty-thieves", 3)  # no move yet: it does not count
        services.start_from_record(alice, Record("forty-thieves", 4, ["deal"]))
        services.start_from_record(alice, Record("streets", 3, ["deal"]))
        fields = list(store.DealGame._fields)
        for owner in (alice, bob, GUEST, Owner(session_key="another-guest"), Owner()):
            for game in mine:
                expected = (
                    stats.counted(owner)
                    .filter(variant=game.variant, deal=game.deal)
                    .exclude(pk=game.pk)
                    .values_list(*fields)
                )
                read = store.read_deal_games(owner, game.variant, game.deal, besides=game.pk)
                assert sorted(read) == sorted(expected)
                assert all(isinstance(g.finished_at, (datetime, type(None))) for g in read)
        assert len(store.read_deal_games(alice, "forty-thieves", "3", besides=0)) == 2


class TestPreloadSession:
    def test_a_preloaded_session_reads_as_if_loaded_and_each_has_its_own_data(
        self, django_assert_num_queries
    ):
        stored = SessionStore()
        stored["autoplay"] = {"limited": False}
        stored.save()
        data = Session.objects.get(pk=stored.session_key).session_data
        first, second = SessionStore(stored.session_key), SessionStore(stored.session_key)
        with django_assert_num_queries(0):
            preload_session(first, data)
            preload_session(second, data)
            first["autoplay"]["limited"] = True
            assert second["autoplay"] == {"limited": False}
        assert first.session_key == stored.session_key

    def test_corrupted_data_is_no_data_and_a_warning_each_time(self, caplog):
        for _ in range(2):
            session = SessionStore("a-key-with-forged-data")
            with caplog.at_level("WARNING", logger="django.security.SuspiciousSession"):
                preload_session(session, "forged:data")
            assert dict(session.items()) == {}
        assert caplog.text.count("Session data corrupted") == 2

    def test_no_data_is_no_session_as_loading_a_missing_one_is(self):
        session = SessionStore("a-key-that-was-never-stored")
        preload_session(session, None)
        assert session.session_key is None and dict(session.items()) == {}
        assert dict(SessionStore("a-key-that-was-never-stored").items()) == {}


class TestOwns:
    def test_owns_says_what_owned_by_says(self):
        alice, bob = Owner(user=make_user("alice")), Owner(user=make_user("bob"))
        other_guest, nobody = Owner(session_key="another-guest"), Owner()
        games = [played(alice), played(GUEST)]
        # A game with an owner whose session key matches a guest's is still not the guest's.
        games.append(played(alice))
        Game.objects.filter(pk=games[-1].pk).update(session_key=GUEST.session_key)
        for owner in (alice, bob, GUEST, other_guest, nobody):
            for game in games:
                game = Game.objects.get(pk=game.pk)
                expected = Game.objects.owned_by(owner).filter(pk=game.pk).exists()
                assert owner.owns(game) is expected, (owner, game.owner_id, game.session_key)


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    not connection.features.has_select_for_update, reason="a database with row locks"
)
def test_a_lock_outside_a_transaction_is_refused_as_the_orm_refuses_it():
    game = played(GUEST)
    with pytest.raises(transaction.TransactionManagementError):
        store.read_game(GUEST, game.public_id, lock=True)


def twins() -> tuple[Game, Game]:
    """Two games alike but for their ids, each as a move's transaction holds it."""
    first, second = played(GUEST), played(GUEST)
    Game.objects.filter(pk=second.pk).update(**fields_of(first))
    return Game.objects.get(pk=first.pk), Game.objects.get(pk=second.pk)


def change(game: Game, now: datetime) -> list[store.NewMove]:
    """Change every field an action may change, and one it may not; the moves it played."""
    game.seconds_played += 7
    game.updated_at = now
    game.finished_at = now + timedelta(seconds=1)
    game.snapshot = game.snapshot + " "
    game.ply += 2
    game.version += 1
    game.status = Game.Status.STUCK
    game.redo = [["t1-f1", "t2-f2"], ["deal"]]
    game.move_count += 2
    game.undo_count += 1
    game.hint_count += 5  # not one of services.PLAY_FIELDS: left as stored
    return [
        store.NewMove(game.ply - 1, "t3-t4", automatic=False),
        store.NewMove(game.ply, "t5-f1", automatic=True),
    ]


def fields_of(game: Game) -> dict[str, object]:
    return {f.attname: getattr(game, f.attname) for f in ALIKE}


class TestSavePlay:
    def test_a_move_leaves_the_rows_and_fields_the_orm_would(self):
        by_orm, by_store = twins()
        now = timezone.now()
        rows = change(by_orm, now)
        assert change(by_store, now) == rows
        MoveRow.objects.bulk_create(MoveRow(game=by_orm, **row._asdict()) for row in rows)
        by_orm.save(update_fields=services.PLAY_FIELDS)
        store.save_play(by_store, rows, services.PLAY_FIELDS)

        after_orm, after_store = Game.objects.get(pk=by_orm.pk), Game.objects.get(pk=by_store.pk)
        assert fields_of(after_store) == fields_of(after_orm)
        assert after_store.hint_count == by_store.hint_count - 5
        assert after_store.redo == by_store.redo
        assert moves_of(after_store) == moves_of(after_orm)
        assert moves_of(after_store)[-2:] == [tuple(row) for row in rows]

    def test_no_moves_is_the_update_alone(self):
        by_orm, by_store = twins()
        now = timezone.now()
        change(by_orm, now)
        change(by_store, now)
        by_orm.save(update_fields=services.PLAY_FIELDS)
        with CaptureQueriesContext(connection) as queries:
            store.save_play(by_store, [], services.PLAY_FIELDS)
        assert len(queries) == 1
        assert fields_of(Game.objects.get(pk=by_store.pk)) == fields_of(
            Game.objects.get(pk=by_orm.pk)
        )
        assert moves_of(by_store) == moves_of(by_orm)

    def test_moves_and_the_game_in_one_statement_where_the_database_can(self):
        _, game = twins()
        rows = change(game, timezone.now())
        with CaptureQueriesContext(connection) as queries:
            store.save_play(game, rows, services.PLAY_FIELDS)
        # Elsewhere the UPDATE and the INSERT, in a transaction (a savepoint inside the test's).
        statements = [q["sql"].split()[0] for q in queries.captured_queries]
        statements = [s for s in statements if s not in ("SAVEPOINT", "RELEASE")]
        assert statements == (
            ["WITH"] if connection.vendor == "postgresql" else ["UPDATE", "INSERT"]
        )

    def test_a_ply_the_game_has_raises_and_changes_nothing(self):
        _, game = twins()
        before, moves = fields_of(Game.objects.get(pk=game.pk)), moves_of(game)
        rows = change(game, timezone.now())
        # The first row is new; the second takes a ply the log already has.
        rows[1] = rows[1]._replace(ply=moves[-1][0])
        with pytest.raises(IntegrityError), transaction.atomic():
            store.save_play(game, rows, services.PLAY_FIELDS)
        assert fields_of(Game.objects.get(pk=game.pk)) == before
        assert moves_of(game) == moves

    def test_a_game_another_request_changed_first_is_not_written(self):
        _, game = twins()
        before, moves = fields_of(Game.objects.get(pk=game.pk)), moves_of(game)
        read_at = game.version
        Game.objects.filter(pk=game.pk).update(version=read_at + 1)  # another request's write
        rows = change(game, timezone.now())
        assert not store.save_play(game, rows, services.PLAY_FIELDS, version=read_at)
        assert fields_of(Game.objects.get(pk=game.pk)) == {**before, "version": read_at + 1}
        assert moves_of(game) == moves

    def test_a_game_still_at_its_version_is_written_in_one_statement_where_it_can_be(self):
        by_orm, by_store = twins()
        now = timezone.now()
        rows = change(by_orm, now)
        change(by_store, now)
        MoveRow.objects.bulk_create(MoveRow(game=by_orm, **row._asdict()) for row in rows)
        by_orm.save(update_fields=services.PLAY_FIELDS)
        read_at = Game.objects.get(pk=by_store.pk).version
        with CaptureQueriesContext(connection) as queries:
            assert store.save_play(by_store, rows, services.PLAY_FIELDS, version=read_at)
        if connection.vendor == "postgresql":
            assert len(queries) == 1
        after_orm, after_store = Game.objects.get(pk=by_orm.pk), Game.objects.get(pk=by_store.pk)
        assert fields_of(after_store) == fields_of(after_orm)
        assert moves_of(after_store) == moves_of(after_orm)

    def test_moves_past_a_ply_are_deleted_with_the_write_and_only_then(self):
        _, game = twins()
        moves = moves_of(game)
        change(game, timezone.now())
        read_at = Game.objects.get(pk=game.pk).version
        cut = moves[-3][0]
        assert not store.save_play(game, [], services.PLAY_FIELDS, version=read_at + 7, after=cut)
        assert moves_of(game) == moves
        assert store.save_play(game, [], services.PLAY_FIELDS, version=read_at, after=cut)
        assert moves_of(game) == [m for m in moves if m[0] <= cut]
        assert Game.objects.get(pk=game.pk).version == game.version

    def test_a_game_deleted_underneath_raises_as_the_orm_would(self):
        game = played(GUEST)
        Game.objects.filter(pk=game.pk).delete()
        with pytest.raises(DatabaseError, match="did not affect any rows"):
            store.save_play(game, [], services.PLAY_FIELDS)
