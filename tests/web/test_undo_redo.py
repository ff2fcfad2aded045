"""Undo, redo, restart and give up; the snapshot always equals replaying the move log."""

import pytest

from games import store
from games.models import Game
from games.models import Move as MoveRow
from games.rules import Move
from games.rules.autoplay import next_safe_move

from . import services_support as services
from .conftest import (
    HTMX,
    board,
    find_deal,
    legal_move,
    log,
    post_move,
    replayed,
    start,
    url,
    version_of,
)


def undo(client, game, *, ply=None, htmx=True):
    game.refresh_from_db()
    data = {"ply": game.ply if ply is None else ply, "version": game.version}
    return client.post(url("undo", game), data, headers=HTMX if htmx else {})


def redo(client, game, *, ply=None, htmx=True):
    game.refresh_from_db()
    data = {"ply": game.ply if ply is None else ply, "version": game.version}
    return client.post(url("redo", game), data, headers=HTMX if htmx else {})


def ace_dealt_first(position) -> bool:
    """The stock's first card is an ace, and no card goes home before it is dealt."""
    return position.stock[-1] // 4 == 0 and next_safe_move(position) is None


class TestUndo:
    def test_undo_takes_back_the_last_move(self, client, game):
        post_move(client, game, "deal")
        post_move(client, game, "deal")
        response = undo(client, game)
        assert response.status_code == 200
        assert "Undone: dealt Nine of Clubs." in response.content.decode()
        game.refresh_from_db()
        assert log(game) == ["deal"] and game.ply == 1 and game.undo_count == 1
        assert game.snapshot == replayed(game)
        assert game.redo == [["deal"]]

    def test_undo_takes_back_the_automatic_moves_with_the_players_move(self, client):
        game = start(client, "forty-thieves", find_deal("forty-thieves", ace_dealt_first))
        post_move(client, game, "deal")
        assert len(log(game)) > 1
        undo(client, game)
        game.refresh_from_db()
        assert log(game) == [] and game.ply == 0
        assert game.snapshot == game.position().text() == replayed(game)

    def test_undo_is_unlimited(self, client, game):
        for _ in range(5):
            post_move(client, game, "deal")
        for _ in range(5):
            assert undo(client, game).status_code == 200
        game.refresh_from_db()
        assert game.ply == 0 and len(game.redo) == 5

    def test_nothing_to_undo_is_409(self, client, game):
        response = undo(client, game)
        assert response.status_code == 409
        assert "There is no move to undo." in response.content.decode()

    def test_a_stale_ply_gets_the_current_board(self, client, game):
        post_move(client, game, "deal")
        response = undo(client, game, ply=0)
        assert response.status_code == 200
        assert "moved on" in response.content.decode()
        assert log(game) == ["deal"]

    def test_without_javascript_undo_redirects_back(self, client, game):
        post_move(client, game, "deal")
        response = undo(client, game, htmx=False)
        assert response.status_code == 302
        assert "Undone" in client.get(url("game", game)).content.decode()

    @pytest.mark.parametrize("data", [{}, {"ply": "x"}, {"ply": "-3"}])
    def test_a_missing_or_garbled_ply_is_400(self, client, game, data):
        post_move(client, game, "deal")
        assert client.post(url("undo", game), data, headers=HTMX).status_code == 400
        assert log(game) == ["deal"]

    def test_someone_elses_game_is_404(self, client, other_client, game):
        post_move(client, game, "deal")
        assert (
            other_client.post(
                url("undo", game), {"version": version_of(game), "ply": 1}
            ).status_code
            == 404
        )
        assert log(game) == ["deal"]

    def test_a_stuck_game_can_be_undone_back_into_play(self, client, game):
        post_move(client, game, "deal")
        Game.objects.filter(pk=game.pk).update(status=Game.Status.STUCK)
        assert undo(client, game).status_code == 200
        game.refresh_from_db()
        assert game.status == "playing"

    def test_a_finished_game_cannot_be_undone(self, client, game):
        post_move(client, game, "deal")
        client.post(url("give_up", game), board(game))
        assert undo(client, game).status_code == 409


class TestRaces:
    """Another request lands between what an undo reads and what it writes."""

    def test_an_undo_after_a_restart_it_did_not_see_gets_the_current_board(
        self, client, game, monkeypatch
    ):
        post_move(client, game, "deal")
        game.refresh_from_db()
        read_log = store.read_log_tail

        def restarted_first(pk: int, after: int):
            services.restart(Game.objects.get(pk=pk))  # the other request, committed
            return read_log(pk, after)

        monkeypatch.setattr(store, "read_log_tail", restarted_first)
        with pytest.raises(services.StalePly) as stale:
            services.undo(game, game.ply)
        assert stale.value.game.ply == 0
        game.refresh_from_db()
        assert game.ply == 0 and log(game) == [] and game.snapshot == replayed(game)

    def test_an_undo_after_a_move_it_did_not_see_writes_nothing(self, client, game, monkeypatch):
        post_move(client, game, "deal")
        game.refresh_from_db()
        read_log = store.read_log_tail

        def moved_first(pk: int, after: int):
            other = Game.objects.get(pk=pk)
            services.play(other, other.ply, Move.parse("deal"), autoplay=False)
            return read_log(pk, after)

        monkeypatch.setattr(store, "read_log_tail", moved_first)
        with pytest.raises(services.StalePly):
            services.undo(game, game.ply)
        game.refresh_from_db()
        assert log(game) == ["deal", "deal"] and game.snapshot == replayed(game)


class TestRedo:
    def test_redo_plays_the_undone_move_again(self, client, game):
        post_move(client, game, "deal")
        undo(client, game)
        response = redo(client, game)
        assert response.status_code == 200
        game.refresh_from_db()
        assert log(game) == ["deal"] and game.redo == []
        assert game.snapshot == replayed(game)

    def test_redo_brings_back_the_automatic_moves_too(self, client):
        game = start(client, "forty-thieves", find_deal("forty-thieves", ace_dealt_first))
        post_move(client, game, "deal")
        played = list(MoveRow.objects.filter(game=game).values_list("notation", "automatic"))
        undo(client, game)
        redo(client, game)
        again = list(MoveRow.objects.filter(game=game).values_list("notation", "automatic"))
        assert again == played

    def test_redo_works_in_the_order_undone(self, client, game):
        for _ in range(3):
            post_move(client, game, "deal")
        first = log(game)
        for _ in range(3):
            undo(client, game)
        for _ in range(3):
            assert redo(client, game).status_code == 200
        assert log(game) == first

    def test_a_new_move_clears_the_redo_list(self, client, game):
        post_move(client, game, "deal")
        post_move(client, game, "deal")
        undo(client, game)
        post_move(client, game, legal_move(game, besides_deal=True))
        game.refresh_from_db()
        assert game.redo == []
        assert redo(client, game).status_code == 409

    def test_nothing_to_redo_is_409(self, client, game):
        response = redo(client, game)
        assert response.status_code == 409
        assert "There is no move to redo." in response.content.decode()

    def test_a_stale_ply_gets_the_current_board(self, client, game):
        post_move(client, game, "deal")
        undo(client, game)
        response = redo(client, game, ply=1)
        assert response.status_code == 200
        assert "moved on" in response.content.decode()
        assert log(game) == []

    def test_the_redo_button_is_enabled_only_when_there_is_something_to_redo(self, client, game):
        post_move(client, game, "deal")
        assert 'id="redo" disabled' in client.get(url("game", game)).content.decode()
        undo(client, game)
        assert 'id="redo" disabled' not in client.get(url("game", game)).content.decode()

    def test_the_buttons_come_again_in_a_moves_answer_when_what_is_possible_changes(
        self, client, game
    ):
        """A move's answer carries undo, redo and restart only when one of them changed: after
        redoing the last move undone, Redo is disabled again at once."""
        post_move(client, game, "deal")
        post_move(client, game, "deal")
        undone = undo(client, game).content.decode()
        assert 'id="redo">' in undone  # something to redo now
        redone = redo(client, game).content.decode()
        assert 'id="history-buttons" hx-swap-oob="true"' in redone
        assert 'id="redo" disabled' in redone
        again = post_move(client, game, "deal").content.decode()
        assert "history-buttons" not in again  # nothing changed for them


class TestRestart:
    def test_restart_goes_back_to_the_deal(self, client, game):
        post_move(client, game, "deal")
        post_move(client, game, "deal")
        response = client.post(url("restart", game), board(game), headers=HTMX)
        assert response.status_code == 200
        game.refresh_from_db()
        assert game.ply == 0 and log(game) == [] and game.redo == []
        assert game.snapshot == replayed(game)
        assert game.move_count == 2
        # Taking the moves back counts as one undo: a win after it is not one without undo.
        assert game.undo_count == 1
        client.post(url("restart", game), board(game), headers=HTMX)
        game.refresh_from_db()
        assert game.undo_count == 1  # nothing was taken back this time

    def test_without_javascript_restart_redirects_back(self, client, game):
        assert client.post(url("restart", game), board(game)).status_code == 302

    def test_a_finished_game_cannot_be_restarted(self, client, game):
        client.post(url("give_up", game), board(game))
        assert client.post(url("restart", game), board(game), headers=HTMX).status_code == 409

    def test_someone_elses_game_is_404(self, client, other_client, game):
        assert other_client.post(url("restart", game), board(game)).status_code == 404


class TestGiveUp:
    def test_giving_up_finishes_the_game(self, client, game):
        post_move(client, game, "deal")
        response = client.post(url("give_up", game), board(game), headers=HTMX)
        assert response.status_code == 200
        html = response.content.decode()
        assert "You gave up this game." in html
        assert "Play this deal again" in html and "New deal" in html
        game.refresh_from_db()
        assert game.status == "given-up" and game.finished_at is not None
        assert log(game) == ["deal"]

    def test_giving_up_twice_is_409(self, client, game):
        client.post(url("give_up", game), board(game))
        assert client.post(url("give_up", game), board(game), headers=HTMX).status_code == 409

    def test_someone_elses_game_is_404(self, client, other_client, game):
        assert other_client.post(url("give_up", game), board(game)).status_code == 404
        game.refresh_from_db()
        assert game.status == "playing"


@pytest.mark.parametrize(
    ("name", "question", "done"),
    [
        ("give_up", "Give up this game?", "given-up"),
        ("restart", "Go back to the start of this deal?", "playing"),
    ],
)
def test_without_javascript_giving_up_and_restarting_ask_first(client, game, name, question, done):
    """One click of Give up or Restart without JavaScript asks; the answer acts on the board
    the player saw. (With htmx the browser's dialog has asked already.)"""
    post_move(client, game, "deal")
    seen = {"ply": 1, "version": version_of(game)}
    asked = client.post(url(name, game), seen)
    assert asked.status_code == 200
    page = asked.content.decode()
    assert question in page and 'name="confirm" value="yes"' in page
    assert (
        f'action="{url(name, game)}"' in page
        and f'name="version" value="{seen["version"]}"' in page
    )
    game.refresh_from_db()
    assert game.status == "playing" and game.ply == 1
    done_response = client.post(url(name, game), {**seen, "confirm": "yes"})
    assert done_response.status_code == 302
    game.refresh_from_db()
    assert game.status == done and game.ply == (1 if name == "give_up" else 0)

    def test_get_is_not_allowed(self, client, game):
        assert client.get(url("give_up", game)).status_code == 405

    def test_play_again_starts_a_new_game_of_the_same_deal(self, client, game):
        client.post(url("give_up", game), board(game))
        response = client.post("/new/", {"variant": game.variant, "deal": game.deal})
        again = Game.objects.exclude(pk=game.pk).get()
        assert response["Location"] == url("game", again)
        assert again.deal == game.deal and again.status == "playing"


class TestSnapshot:
    def test_the_snapshot_equals_the_replayed_log_after_moves_undos_and_redos(self, client):
        game = start(client, "little-forty", 77)
        script = ["move", "move", "undo", "move", "move", "undo", "undo", "redo", "move", "redo"]
        script += ["move"] * 12 + ["undo"] * 4 + ["redo"] * 2 + ["move"] * 5
        for action in script:
            if action == "move":
                post_move(client, game, legal_move(game))
            elif action == "undo":
                undo(client, game)
            else:
                redo(client, game)
            game.refresh_from_db()
            assert game.snapshot == replayed(game)
            assert game.ply == len(log(game))
            assert [r.ply for r in game.log.order_by("ply")] == list(range(1, game.ply + 1))
