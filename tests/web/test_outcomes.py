"""The end of a game: won (a celebration), stuck (undo or give up), given up."""

from games.models import Game
from games.rules import Record

from .conftest import HTMX, post_move, stuck_record, url, version_of, won_record


class TestWon:
    def test_the_winning_move_finishes_the_game_with_a_celebration(self, client):
        record = won_record()
        before_last = Record(record.variant, record.deal, record.moves[:-1])
        client.post("/import/", {"text": before_last.to_json()})
        game = Game.objects.get()
        assert game.status == "playing" and game.ply == len(record.moves) - 1
        response = post_move(client, game, record.moves[-1])
        assert response.status_code == 200
        html = response.content.decode()
        # The game ended: the whole board comes back, not just the table.
        assert "HX-Retarget" not in response and html.lstrip().startswith('<section id="board"')
        assert "You won!" in html
        assert f"in {len(record.moves)} moves" in html
        assert "Play this deal again" in html and "New deal" in html
        # "New deal" is the panel's first button, and the one it puts forward.
        again = html[html.index('<div class="again">') :]
        assert again.index("New deal") < again.index("Play this deal again")
        assert 'class="button primary" id="new-deal">New deal' in again
        game.refresh_from_db()
        assert game.status == "won" and game.finished_at is not None
        assert game.ply == len(record.moves)

    def test_importing_a_won_record_shows_the_game_won(self, client):
        client.post("/import/", {"text": won_record().to_json()})
        game = Game.objects.get()
        assert game.status == "won"
        assert "You won!" in client.get(url("game", game)).content.decode()

    def test_a_won_game_takes_no_more_moves_and_offers_no_controls(self, client, game):
        post_move(client, game, "deal")
        Game.objects.filter(pk=game.pk).update(status=Game.Status.WON)
        assert post_move(client, game, "deal").status_code == 409
        assert (
            client.post(
                url("undo", game), {"version": version_of(game), "ply": 1}, headers=HTMX
            ).status_code
            == 409
        )
        html = client.get(url("game", game)).content.decode()
        assert 'id="undo"' not in html and 'data-pick="t' not in html
        assert 'name="move" value="deal"' not in html


class TestStuck:
    def test_a_stuck_game_says_so_and_offers_undo_and_give_up(self, client):
        record = stuck_record()
        client.post("/import/", {"text": record.to_json()})
        game = Game.objects.get()
        html = client.get(url("game", game)).content.decode()
        assert "No moves left" in html
        assert 'id="undo"' in html and 'id="give-up"' in html
        assert 'id="undo" disabled' not in html

    def test_the_move_that_sticks_the_game_sets_the_status(self, client):
        record = stuck_record()
        before_last = Record(record.variant, record.deal, record.moves[:-1])
        client.post("/import/", {"text": before_last.to_json()})
        game = Game.objects.get()
        assert game.status == "playing"
        client.post(url("autoplay", game), {"autoplay": "off"}, headers=HTMX)
        response = post_move(client, game, record.moves[-1])
        assert response.status_code == 200
        game.refresh_from_db()
        assert game.status == "stuck"
        assert "No moves left" in response.content.decode()
