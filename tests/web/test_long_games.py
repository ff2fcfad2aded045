"""Long games: a checkpoint on every 50th move row, so that undo and the replay viewer cost
the same at ply 10,000 as at ply 10; and a limit of 10,000 moves to a game and a record."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.integrity import check_game
from games.models import Game
from games.models import Move as MoveRow
from games.rules import Record, replay
from games.rules.turn import CHECKPOINT_EVERY, MAX_PLY
from games.selectors.games import replayed_at
from games.services.play import UNDO_READS

from . import services_support as services
from .conftest import HTMX, board, endless_moves, log, post_move, replayed, url

pytestmark = pytest.mark.django_db


def imported(client, moves: list[str]) -> Game:
    """A game of the client's, started from a record of ``moves``."""
    record = Record("forty-thieves", 3, moves).to_json()
    response = client.post("/import/", {"text": record})
    assert response.status_code == 302, response.content[:300]
    return Game.objects.get(public_id=response["Location"].split("/")[2])


def checkpoints(game: Game) -> dict[int, str]:
    rows = MoveRow.objects.filter(game=game).exclude(checkpoint="")
    return dict(rows.values_list("ply", "checkpoint"))


class TestCheckpoints:
    def test_every_50th_move_keeps_the_position_after_it(self, client):
        moves = endless_moves(2 * CHECKPOINT_EVERY + 7)
        game = imported(client, moves)
        kept = checkpoints(game)
        assert sorted(kept) == [CHECKPOINT_EVERY, 2 * CHECKPOINT_EVERY]
        for ply, text in kept.items():
            assert text == replay(Record("forty-thieves", 3, moves[:ply])).text()

    def test_moves_played_on_the_board_keep_them_too(self, client):
        game = imported(client, endless_moves(CHECKPOINT_EVERY - 1))
        post_move(client, game, endless_moves(CHECKPOINT_EVERY + 2)[CHECKPOINT_EVERY - 1])
        game.refresh_from_db()
        assert game.ply >= CHECKPOINT_EVERY
        kept = checkpoints(game)
        assert list(kept) == [CHECKPOINT_EVERY]
        position = replay(Record("forty-thieves", 3, log(game)[:CHECKPOINT_EVERY]))
        assert kept[CHECKPOINT_EVERY] == position.text()
        assert check_games_finds_nothing(game)

    def test_a_checkpoint_that_is_not_the_replayed_position_is_reported(self, client):
        game = imported(client, endless_moves(CHECKPOINT_EVERY + 3))
        row = MoveRow.objects.get(game=game, ply=CHECKPOINT_EVERY)
        row.checkpoint = replay(Record("forty-thieves", 3, log(game)[:3])).text()
        row.save()
        problems = check_game(game, rows_of(game))
        assert problems == [
            f"move {CHECKPOINT_EVERY} (ply {CHECKPOINT_EVERY}): checkpoint is not the replayed "
            "position after it"
        ]


def rows_of(game: Game) -> list[tuple]:
    return list(game.log.order_by("ply").values_list("ply", "notation", "automatic", "checkpoint"))


def check_games_finds_nothing(game: Game) -> bool:
    game.refresh_from_db()
    return check_game(game, rows_of(game)) == []


class TestUndoAtTenThousand:
    def test_undo_reads_the_end_of_the_log_only_and_takes_back_the_last_move(self, client):
        moves = endless_moves(MAX_PLY)
        game = imported(client, moves)
        with CaptureQueriesContext(connection) as queries:
            response = client.post(url("undo", game), board(game), headers=HTMX)
        assert response.status_code == 200
        sql = [q["sql"] for q in queries.captured_queries]
        reads = [q for q in sql if q.startswith("SELECT") and "FROM games_move" in q]
        assert len(reads) == 1 and f"ply > {MAX_PLY - UNDO_READS}" in reads[0]
        game.refresh_from_db()
        assert game.ply == MAX_PLY - 1 and game.redo == [[moves[-1]]]
        assert log(game) == moves[:-1]
        assert game.snapshot == replayed(game)
        assert check_games_finds_nothing(game)

    def test_a_game_stored_without_checkpoints_still_undoes_from_its_whole_log(self, client):
        moves = endless_moves(3 * CHECKPOINT_EVERY + 4)
        game = imported(client, moves)
        MoveRow.objects.filter(game=game).update(checkpoint="")
        services.undo(game, game.ply)
        game.refresh_from_db()
        assert log(game) == moves[:-1] and game.snapshot == replayed(game)

    def test_undo_then_redo_across_a_checkpoint_restores_it(self, client):
        moves = endless_moves(CHECKPOINT_EVERY)
        game = imported(client, moves)
        services.undo(game, game.ply)
        assert checkpoints(game) == {}
        game.refresh_from_db()
        services.redo(game, game.ply)
        assert list(checkpoints(game)) == [CHECKPOINT_EVERY]
        assert check_games_finds_nothing(game)


class TestReplayAtTenThousand:
    def test_the_viewer_starts_from_the_checkpoint_before_the_ply(self, client):
        moves = endless_moves(MAX_PLY)
        game = imported(client, moves)
        for ply in (0, 1, 49, 50, 51, 5_000, 9_999, MAX_PLY):
            shown = replayed_at(game, ply)
            before = replay(Record("forty-thieves", 3, moves[: max(ply - 1, 0)]))
            assert shown.before.text() == before.text()
            assert shown.move == (moves[ply - 1] if ply else None)

    def test_the_page_at_the_last_ply_reads_a_few_dozen_moves(self, client):
        game = imported(client, endless_moves(MAX_PLY))
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url("replay", game) + f"{MAX_PLY}/")
        assert response.status_code == 200
        assert f"{MAX_PLY}" in response.content.decode()
        sql = [q["sql"] for q in queries.captured_queries]
        reads = [q for q in sql if q.startswith("SELECT") and '"games_move"' in q]
        assert len(reads) == 1 and f'"ply" > {MAX_PLY - CHECKPOINT_EVERY - 1}' in reads[0]

    def test_a_game_stored_without_checkpoints_replays_from_one_read_of_its_log(self, client):
        game = imported(client, endless_moves(3 * CHECKPOINT_EVERY))
        MoveRow.objects.filter(game=game).update(checkpoint="")
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url("replay", game) + f"{game.ply}/")
        assert response.status_code == 200
        reads = [q for q in queries.captured_queries if '"games_move"' in q["sql"]]
        assert len(reads) == 2  # the end of the log, then (no checkpoint there) all of it


class TestLimits:
    def test_a_move_past_the_longest_log_is_refused_and_changes_nothing(self, client):
        moves = endless_moves(MAX_PLY + 1)
        game = imported(client, moves[:MAX_PLY])
        before = (game.version, game.snapshot)
        response = post_move(client, game, moves[MAX_PLY])
        assert response.status_code == 409
        assert "longest log a game may have, 10000 moves" in response.content.decode()
        game.refresh_from_db()
        assert (game.version, game.snapshot) == before and game.ply == MAX_PLY
        # Undo still works: the game is not stuck at its limit.
        assert client.post(url("undo", game), board(game), headers=HTMX).status_code == 200

    def test_a_record_longer_than_a_game_may_be_is_refused_and_not_shown_back(self, client):
        record = Record("forty-thieves", 3, endless_moves(MAX_PLY + 1)).to_json()
        response = client.post("/import/", {"text": record})
        assert response.status_code == 400
        page = response.content.decode()
        assert "more moves than a game may have: at most 10000 moves" in page
        assert record not in page and len(page) < len(record) / 10
        assert not Game.objects.exists()

    @pytest.mark.parametrize("moves", [["x" * 200_000], ["t1-f1" + " " * 200_000]])
    def test_a_record_with_one_huge_move_is_refused_without_the_move_in_full(self, client, moves):
        # One move of 200,000 characters: garbled, or a legal move padded out (the notation
        # forbids the padding either way). The message quotes the move's start only.
        record = Record("forty-thieves", 3, moves).to_json()
        response = client.post("/import/", {"text": record})
        assert response.status_code == 400
        page = response.content.decode()
        assert "move 1, “" in page and "…”" in page
        assert len(page) < 50_000
        assert not Game.objects.exists()

    def test_a_short_refused_record_is_shown_back_to_be_mended(self, client):
        record = Record("forty-thieves", 3, ["t1-t2x"]).to_json()
        response = client.post("/import/", {"text": record})
        assert response.status_code == 400
        assert "t1-t2x" in response.content.decode()
