"""Game records: downloading any game, and starting a game from a pasted or uploaded one."""

import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from games.models import Game
from games.rules import Move, Record, first_position, get_variant, parse_record, replay

from .conftest import (
    board,
    legal_move,
    log,
    long_moves,
    post_move,
    start,
    stuck_record,
    url,
    version_of,
)

IMPORT = "/import/"


class TestDownload:
    def test_the_record_replays_to_the_board_shown(self, client):
        game = start(client, "number-ten", 42)
        for _ in range(15):
            post_move(client, game, legal_move(game))
        response = client.get(url("record", game))
        assert response.status_code == 200
        assert response["Content-Type"] == "application/json"
        assert response["Content-Disposition"] == (
            f'attachment; filename="number-ten-42-{game.public_id}.json"'
        )
        record = parse_record(response.content)
        assert (record.variant, record.deal) == ("number-ten", 42)
        assert record.moves == log(game)
        game.refresh_from_db()
        assert replay(record).text() == game.snapshot
        page = client.get(url("game", game)).content.decode()
        assert f'data-ply="{len(record.moves)}"' in page

    def test_the_record_carries_extra_keys(self, client, game):
        data = json.loads(client.get(url("record", game)).content)
        assert data["version"] == 1 and data["moves"] == []
        assert data["game"] == game.public_id and data["status"] == "playing"
        assert "created" in data and "player" not in data

    def test_undone_moves_are_not_in_the_record(self, client, game):
        post_move(client, game, "deal")
        post_move(client, game, "deal")
        client.post(url("undo", game), {"version": version_of(game), "ply": 2})
        assert parse_record(client.get(url("record", game)).content).moves == ["deal"]

    def test_a_finished_game_can_be_downloaded(self, client, game):
        client.post(url("give_up", game), board(game))
        data = json.loads(client.get(url("record", game)).content)
        assert data["status"] == "given-up" and "finished" in data

    def test_the_game_page_links_to_it(self, client, game):
        assert url("record", game) in client.get(url("game", game)).content.decode()

    def test_someone_elses_record_is_404(self, client, other_client, game):
        assert other_client.get(url("record", game)).status_code == 404


class TestImport:
    def test_the_form_is_there(self, client):
        response = client.get(IMPORT)
        assert response.status_code == 200
        html = response.content.decode()
        assert 'name="text"' in html and 'name="file"' in html
        assert 'enctype="multipart/form-data"' in html

    def test_a_pasted_record_starts_a_game_at_its_last_move(self, client):
        moves = long_moves(30)
        text = Record("forty-thieves", 3, moves).to_json(player="someone else")
        response = client.post(IMPORT, {"text": text})
        game = Game.objects.get()
        assert response.status_code == 302 and response["Location"] == url("game", game)
        assert log(game) == moves and game.ply == 30
        assert game.snapshot == replay(Record("forty-thieves", 3, moves)).text()
        assert game.session_key == client.session.session_key
        assert client.get(url("game", game)).status_code == 200

    def test_an_uploaded_record_starts_a_game(self, client):
        text = Record("lucas", 9, ["deal", "deal"]).to_json()
        upload = SimpleUploadedFile("game.json", text.encode(), "application/json")
        response = client.post(IMPORT, {"file": upload})
        assert response.status_code == 302
        assert log(Game.objects.get()) == ["deal", "deal"]

    def test_a_record_of_a_stuck_game_comes_in_stuck_and_can_be_undone(self, client):
        record = stuck_record()
        client.post(IMPORT, {"text": record.to_json()})
        game = Game.objects.get()
        assert game.status == "stuck"
        assert "No moves left" in client.get(url("game", game)).content.decode()
        client.post(url("undo", game), {"version": version_of(game), "ply": game.ply})
        game.refresh_from_db()
        assert game.status == "playing"

    def test_a_downloaded_record_comes_back_as_the_same_game(self, client, other_client, game):
        for _ in range(6):
            post_move(client, game, legal_move(game))
        text = client.get(url("record", game)).content
        # Imported by its own player it is the game itself (tests/web/test_import_roundtrip.py);
        # by another, a copy.
        other_client.post(IMPORT, {"text": text.decode()})
        copy = Game.objects.exclude(pk=game.pk).get()
        game.refresh_from_db()
        assert copy.snapshot == game.snapshot and log(copy) == log(game)

    @pytest.mark.parametrize(
        ("text", "reason"),
        [
            ("not json", "not valid JSON"),
            ("[1, 2]", "must be a JSON object"),
            ('{"variant": "maria", "deal": 1, "moves": []}', 'no "version"'),
            ('{"version": 2, "variant": "maria", "deal": 1, "moves": []}', "unsupported"),
            ('{"version": 1, "variant": "golf", "deal": 1, "moves": []}', "unknown game"),
            # The file of all a player's games is no record: it says so, not "unknown game".
            ('{"version": 1, "player": null, "games": [{}, {}]}', "this file holds 2 games"),
            ('{"version": 1, "variant": "maria", "deal": 0, "moves": []}', "bad deal number"),
            ('{"version": 1, "variant": "maria", "deal": "7", "moves": []}', "bad deal number"),
            (
                '{"version": 1, "variant": "maria", "deal": 100000000000000000000, "moves": []}',
                "bad deal number",
            ),
            ('{"version": 1, "variant": "maria", "deal": 1, "moves": "deal"}', "list of moves"),
            ('{"version": 1, "variant": "maria", "deal": 1, "moves": [3]}', "move 1"),
            ('{"version": 1, "variant": "maria", "deal": 1, "moves": ["deal", "zap"]}', "move 2"),
        ],
    )
    def test_a_bad_record_is_400_with_a_clear_message(self, client, text, reason):
        response = client.post(IMPORT, {"text": text})
        assert response.status_code == 400
        html = response.content.decode()
        assert "This record cannot be" in html
        assert reason.replace('"', "&quot;") in html
        assert not Game.objects.exists()

    def test_a_record_with_an_illegal_move_names_the_move(self, client):
        position = first_position(get_variant("forty-thieves"), 1)
        assert position.check(Move.parse("t1-f1")) is not None
        text = Record("forty-thieves", 1, ["deal", "t1-f1"]).to_json()
        response = client.post(IMPORT, {"text": text})
        assert response.status_code == 400
        html = response.content.decode()
        assert "move 2, “t1-f1”: an empty foundation takes an Ace, not Seven of Diamonds" in html
        # The page's text (not its tokens, which are random) never names a card by its code.
        assert "7D" not in re.sub(r"<[^>]*>", " ", html)
        assert not Game.objects.exists()

    def test_an_empty_form_is_400(self, client):
        response = client.post(IMPORT, {"text": "  "})
        assert response.status_code == 400
        assert "Paste a record or choose a file." in response.content.decode()

    def test_a_file_that_is_not_utf8_is_400(self, client):
        upload = SimpleUploadedFile("game.json", b"\xff\xfe{}", "application/json")
        response = client.post(IMPORT, {"file": upload})
        assert response.status_code == 400
        assert "not UTF-8" in response.content.decode()

    def test_a_huge_file_is_400(self, client):
        upload = SimpleUploadedFile("game.json", b" " * (300 * 1024), "application/json")
        response = client.post(IMPORT, {"file": upload})
        assert response.status_code == 400
        assert "too large" in response.content.decode()

    def test_deeply_nested_json_is_400(self, client):
        response = client.post(IMPORT, {"text": "[" * 5000 + "]" * 5000})
        assert response.status_code == 400

    def test_a_link_on_the_home_page_leads_here(self, client):
        assert reverse("games:import") in client.get("/en/").content.decode()
