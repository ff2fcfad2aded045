"""``manage.py check_games``: every stored game replayed from its deal and compared with its row.

Games are made the way players make them (the site's forms, the services), then corrupted by
hand; each corruption must be reported on a line of its own, naming the game, with an error.
"""

from io import StringIO

import pytest
from django.core.management import CommandError, ManagementUtility, call_command
from django.test import Client

from games.management.commands import check_games
from games.management.commands.check_games import check_game
from games.models import Game
from games.models import Move as MoveRow
from games.owners import Owner
from games.rules import Record
from solitaire import clock as site_clock

from . import services_support as services
from .conftest import (
    HTMX,
    board,
    illegal_move,
    legal_move,
    post_move,
    start,
    stuck_record,
    url,
    version_of,
    won_record,
)


def check(*args: str) -> tuple[int, list[str], str]:
    """Run the command: its exit status (1 for a CommandError), output lines and error."""
    out = StringIO()
    try:
        call_command("check_games", *args, stdout=out)
    except CommandError as e:
        return 1, out.getvalue().splitlines(), str(e)
    return 0, out.getvalue().splitlines(), ""


def assert_reported(game: Game, *words: str) -> list[str]:
    """The command fails and one of its lines, about ``game``, says all of ``words``."""
    status, lines, error = check()
    assert status == 1, lines
    assert "mismatch" in error
    mine = [line for line in lines if line.startswith(f"{game.public_id}: ")]
    assert any(all(w in line for w in words) for line in mine), lines
    return mine


def undo(client: Client, game: Game):
    game.refresh_from_db()
    return client.post(
        url("undo", game), {"version": version_of(game), "ply": game.ply}, headers=HTMX
    )


def redo(client: Client, game: Game):
    game.refresh_from_db()
    return client.post(
        url("redo", game), {"version": version_of(game), "ply": game.ply}, headers=HTMX
    )


def played(client: Client, moves: int = 6, variant: str = "forty-thieves", deal: int = 1) -> Game:
    """A game started on the site with ``moves`` legal moves (not counting automatic ones)."""
    game = start(client, variant, deal)
    for _ in range(moves):
        assert post_move(client, game, legal_move(game)).status_code == 200
    game.refresh_from_db()
    return game


@pytest.fixture
def games(client, other_client) -> list[Game]:
    """A varied clean database: played, undone, redone, restarted, given up, stuck, won."""
    a = played(client)
    undo(client, a)
    undo(client, a)
    redo(client, a)  # one group left to redo
    b = played(client, 4, "little-forty", 5)
    client.post(url("restart", b), board(b), headers=HTMX)
    post_move(client, b, legal_move(b))
    c = played(other_client, 3, "forty-devils", 2)
    other_client.post(url("give_up", c), board(c), headers=HTMX)
    d = start(other_client, "lucas", 9)  # no move yet
    owner = Owner(session_key="importer")
    e = services.start_from_record(owner, stuck_record())
    f = services.start_from_record(owner, won_record())
    return [Game.objects.get(pk=g.pk) for g in (a, b, c, d, e, f)]


class TestCleanDatabase:
    def test_an_empty_database_passes(self, db):
        assert check() == (0, ["checked 0 games, no mismatch"], "")

    def test_games_played_every_way_pass(self, games):
        statuses = {g.status for g in games}
        assert statuses == {"playing", "given-up", "stuck", "won"}
        assert games[0].redo and games[0].undo_count == 2
        assert check() == (0, [f"checked {len(games)} games, no mismatch"], "")

    def test_a_real_win_passes(self, db):
        game = services.start_from_record(Owner(session_key="k"), won_record())
        assert game.status == Game.Status.WON and game.ply == len(won_record().moves)
        assert check(f"--game={game.public_id}") == (0, ["checked 1 game, no mismatch"], "")

    def test_a_win_played_on_the_site_passes(self, client):
        record = won_record()
        client.post("/import/", {"text": Record(record.variant, 1, record.moves[:-1]).to_json()})
        game = Game.objects.get()
        assert post_move(client, game, record.moves[-1]).status_code == 200
        game.refresh_from_db()
        assert game.status == Game.Status.WON and game.version == 1
        assert check()[0] == 0

    # manage.py closes the database connections as it ends: outside a test transaction.
    @pytest.mark.django_db(transaction=True)
    def test_the_command_line_exits_0_and_1(self, games, capsys):
        # As manage.py runs it: the exit status, the lines on stdout, the error on stderr.
        with pytest.raises(SystemExit) as ended:
            ManagementUtility(["manage.py", "check_games"]).execute()
            raise SystemExit(0)
        out, _err = capsys.readouterr()
        assert ended.value.code == 0
        assert out.strip() == f"checked {len(games)} games, no mismatch"
        Game.objects.filter(pk=games[0].pk).update(ply=games[0].ply + 1)
        with pytest.raises(SystemExit) as ended:
            ManagementUtility(["manage.py", "check_games"]).execute()
        out, err = capsys.readouterr()
        assert ended.value.code == 1
        assert out.startswith(f"{games[0].public_id}: ply: stored")
        assert "mismatch" in err


class TestSnapshot:
    def test_two_cards_swapped_in_the_snapshot(self, games):
        game = games[0]
        lines = game.snapshot.split("\n")
        t1 = next(i for i, line in enumerate(lines) if line.startswith("t1:"))
        t2 = t1 + 1
        a, b = lines[t1].split(" "), lines[t2].split(" ")
        assert a[-1] != b[-1]
        a[-1], b[-1] = b[-1], a[-1]
        lines[t1], lines[t2] = " ".join(a), " ".join(b)
        Game.objects.filter(pk=game.pk).update(snapshot="\n".join(lines))
        mine = assert_reported(game, "snapshot line", "(t1)", "stored", "replayed")
        assert any("(t2)" in line for line in mine)
        assert len(mine) == 2

    def test_a_snapshot_of_another_deal(self, games):
        game = games[0]
        other = services.start_game(Owner(session_key="x"), "forty-thieves", 2)
        Game.objects.filter(pk=game.pk).update(snapshot=other.snapshot)
        assert_reported(game, "snapshot line", "(deal)")

    def test_a_snapshot_one_move_behind(self, client):
        game = played(client, 2)
        previous = Game.objects.get(pk=game.pk).snapshot
        post_move(client, game, "deal")
        Game.objects.filter(pk=game.pk).update(snapshot=previous)
        assert_reported(game, "snapshot line", "(moves)")


class TestCounters:
    def test_ply_off_by_one(self, games):
        game = games[1]
        Game.objects.filter(pk=game.pk).update(ply=game.ply + 1)
        assert_reported(game, "ply: stored", f"{game.ply + 1}", f"replayed {game.ply}")

    def test_move_count_below_the_log(self, games):
        game = games[0]
        Game.objects.filter(pk=game.pk).update(move_count=game.ply)
        # The log plus the group waiting to be redone were all played once.
        assert_reported(game, "move_count: stored", "to redo")

    def test_undo_count_below_the_groups_to_redo(self, games):
        game = games[0]
        Game.objects.filter(pk=game.pk).update(undo_count=0)
        assert_reported(game, "undo_count: stored 0", "at least 1")

    def test_version_below_the_undos(self, games):
        game = games[0]
        Game.objects.filter(pk=game.pk).update(version=1)
        assert_reported(game, "version: stored 1")

    def test_a_redo_stack_that_does_not_play(self, games):
        game = games[0]
        Game.objects.filter(pk=game.pk).update(redo=[["t1-t1"]])
        assert_reported(game, "redo:", "t1-t1")

    def test_a_redo_stack_that_is_not_moves(self, games):
        game = games[0]
        Game.objects.filter(pk=game.pk).update(redo={"a": 1})
        assert_reported(game, "redo: stored", "not a list")

    def test_moves_played_but_no_first_move_time(self, games):
        game = games[1]
        Game.objects.filter(pk=game.pk).update(first_move_at=None)
        assert_reported(game, "first_move_at: stored none")

    def test_a_finished_game_with_no_finish_time(self, games):
        game = games[2]  # given up
        Game.objects.filter(pk=game.pk).update(finished_at=None)
        assert_reported(game, "finished_at: stored none", "given-up")


class TestStatus:
    @pytest.mark.parametrize("stored", ["won", "stuck"])
    def test_a_game_in_play_stored_finished(self, games, stored):
        game = games[0]
        Game.objects.filter(pk=game.pk).update(status=stored)
        assert_reported(game, f"status: stored {stored}, replayed playing")

    def test_a_stuck_game_stored_playing(self, games):
        game = games[4]
        assert game.status == "stuck"
        Game.objects.filter(pk=game.pk).update(status="playing", finished_at=None)
        assert_reported(game, "status: stored playing, replayed stuck")

    def test_a_won_game_stored_playing(self, games):
        game = games[5]
        Game.objects.filter(pk=game.pk).update(status="playing", finished_at=None)
        assert_reported(game, "status: stored playing, replayed won")

    def test_a_won_game_cannot_be_given_up(self, games):
        game = games[5]
        Game.objects.filter(pk=game.pk).update(status="given-up")
        assert_reported(game, "status: stored given-up, replayed won")

    def test_giving_up_is_a_choice(self, games):
        game = games[0]
        Game.objects.filter(pk=game.pk).update(
            status="given-up", finished_at=site_clock.now(), version=game.version + 1
        )
        assert check()[0] == 0

    def test_a_won_game_missing_its_last_move(self, games):
        game = games[5]
        MoveRow.objects.filter(game=game, ply=game.ply).delete()
        mine = assert_reported(game, "ply: stored", f"replayed {game.ply - 1}")
        assert any("status: stored won, replayed playing" in line for line in mine)


class TestLog:
    def test_a_middle_move_deleted(self, client):
        game = played(client, 8)
        assert game.ply >= 8
        MoveRow.objects.filter(game=game, ply=4).delete()
        mine = assert_reported(game, "plies missing 4")
        assert any(line.startswith(f"{game.public_id}: ply: stored {game.ply}") for line in mine)

    def test_a_middle_move_of_a_won_game_deleted(self, games):
        game = games[5]
        MoveRow.objects.filter(game=game, ply=10).delete()
        assert_reported(game, "plies missing 10")

    def test_an_illegal_move_inserted_at_the_end(self, client):
        game = played(client, 3)
        bad = illegal_move(game)
        MoveRow.objects.create(game=game, ply=game.ply + 1, notation=bad)
        Game.objects.filter(pk=game.pk).update(ply=game.ply + 1, move_count=game.move_count + 1)
        assert_reported(game, f"move {game.ply + 1}", repr(bad), "illegal")

    def test_a_logged_move_replaced_by_an_illegal_one(self, client):
        game = played(client, 5)
        MoveRow.objects.filter(game=game, ply=2).update(notation="t1-t1")
        assert_reported(game, "move 2 (ply 2)", "'t1-t1'", "illegal")

    def test_a_logged_move_that_is_not_a_move(self, client):
        game = played(client, 2)
        MoveRow.objects.filter(game=game, ply=1).update(notation="up-up")
        assert_reported(game, "move 1", "'up-up'", "illegal")

    def test_a_move_row_past_the_ply(self, client):
        game = played(client, 2)
        MoveRow.objects.create(game=game, ply=game.ply + 1, notation="deal")
        assert_reported(game, "ply: stored", f"replayed {game.ply + 1}")

    def test_the_first_move_marked_automatic(self, client):
        game = played(client, 2)
        MoveRow.objects.filter(game=game, ply=1).update(automatic=True)
        assert_reported(game, "move 1", "marked automatic")

    def test_duplicate_plies(self, db):
        # The database refuses two rows of one ply; the check does not rely on it.
        game = services.start_game(Owner(session_key="k"), "forty-thieves", 1)
        problems = check_game(game, [(1, "deal", False), (1, "deal", False)])
        assert any("plies logged more than once 1" in p for p in problems)

    def test_a_record_game_is_checked_from_its_deal(self, db):
        record = stuck_record()
        game = services.start_from_record(Owner(session_key="k"), record)
        assert check()[0] == 0
        MoveRow.objects.filter(game=game, ply=1).delete()
        assert_reported(game, "plies missing 1")

    def test_an_unknown_variant_or_deal(self, games):
        Game.objects.filter(pk=games[0].pk).update(variant="klondike")
        Game.objects.filter(pk=games[1].pk).update(deal="0")
        assert_reported(games[0], "variant: stored 'klondike'")
        assert_reported(games[1], "deal: stored '0'")


class TestOptions:
    def test_one_game(self, games):
        Game.objects.filter(pk=games[0].pk).update(ply=99)
        assert check(f"--game={games[1].public_id}") == (0, ["checked 1 game, no mismatch"], "")
        status, lines, _error = check(f"--game={games[0].public_id}")
        assert status == 1 and all(line.startswith(games[0].public_id) for line in lines)

    def test_an_unknown_game(self, db):
        status, lines, error = check("--game", "nope")
        assert status == 1 and lines == [] and "nope" in error

    def test_a_bad_batch_size(self, db):
        assert check("--batch-size", "0")[0] == 1

    def test_every_mismatch_is_reported_across_batches(self, games):
        broken = games[0], games[3], games[5]
        for game in broken:
            Game.objects.filter(pk=game.pk).update(ply=game.ply + 1)
        status, lines, error = check("--batch-size", "2")
        assert status == 1 and "3 mismatch" in error
        assert {line.split(":")[0] for line in lines} == {g.public_id for g in broken}

    def test_batches_cost_two_queries_each(self, games, django_assert_num_queries):
        # 6 games by 4: two pages of games, each with one query for its moves, and the
        # empty page that ends the walk.
        with django_assert_num_queries(5):
            assert check("--batch-size", "4")[0] == 0
        with django_assert_num_queries(3):
            assert check("--batch-size", "100")[0] == 0

    def test_a_game_played_while_it_is_read_is_no_mismatch(self, client, monkeypatch):
        # The row read before a move, the log after it: read again, they agree.
        game = played(client, 2)
        stale = Game.objects.get(pk=game.pk)
        post_move(client, game, "deal")
        rows = list(game.log.order_by("ply").values_list("ply", "notation", "automatic"))
        assert check_game(stale, rows)  # taken together they disagree
        monkeypatch.setattr(check_games, "_batches", lambda games, size: iter([(stale, rows)]))
        assert check() == (0, ["checked 1 game, no mismatch"], "")
