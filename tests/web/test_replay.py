"""The replay viewer: a game read-only at any ply, stepped through by links (htmx or not)."""

import re

import pytest
from django.urls import reverse

from games.board import build_board
from games.owners import Owner
from games.rules import Record, replay

from . import services_support as services
from .conftest import HTMX, start, won_record


@pytest.fixture
def player(client, django_user_model):
    user = django_user_model.objects.create_user("ada", password="pw-long-enough")
    client.force_login(user)
    return Owner(user=user)


@pytest.fixture
def won(player):
    return services.start_from_record(player, won_record())


def at(game, ply: int) -> str:
    return reverse("games:replay", args=[game.public_id, ply])


def cards_drawn(html: str) -> list[str]:
    board = html[html.index('id="board"') :]
    return re.findall(r'data-card="([^"]+)"', board)


def cards_expected(game, ply: int) -> list[str]:
    """The cards the board of the position after ``ply`` moves shows, in the page's order."""
    moves = list(game.log.order_by("ply").values_list("notation", flat=True))[:ply]
    board = build_board(replay(Record(game.variant, game.deal_number, moves)), playable=False)
    piles = [board.stock, board.waste, *board.foundations, *board.columns]
    return [
        card.name
        for pile in piles
        for card in (pile.cards[-1:] if pile in board.foundations else pile.cards)
    ]


class TestReplay:
    def test_the_start_goes_to_the_deal(self, client, won):
        response = client.get(reverse("games:replay", args=[won.public_id]))
        assert response.status_code == 302 and response["Location"] == at(won, 0)

    @pytest.mark.parametrize("ply", [0, 1, 17, 400])
    def test_shows_the_real_board_at_the_ply_in_the_url(self, client, won, ply):
        response = client.get(at(won, ply))
        assert response.status_code == 200
        html = response.content.decode()
        assert cards_drawn(html) == cards_expected(won, ply)
        assert f"Step {ply} of {won.ply}" in html
        # The player's own replay is theirs alone: its address brings them back, it is not
        # one to share (a stranger gets a 404; "Share this game" makes a public link).
        assert "keep it to come back to this position" in html and "share it" not in html

    def test_the_last_ply_shows_the_won_game(self, client, won):
        html = client.get(at(won, won.ply)).content.decode()
        assert cards_drawn(html) == cards_expected(won, won.ply)
        assert "status-won" in html

    def test_the_board_is_read_only(self, client, won):
        html = client.get(at(won, 10)).content.decode()
        board = html[html.index('id="replay"') :]
        assert "<form" not in board and "?pick=" not in board and "<button" not in board

    def test_steps_link_first_back_forward_last(self, client, won):
        html = client.get(at(won, 10)).content.decode()
        for step, ply in (("first", 0), ("back", 9), ("forward", 11), ("last", won.ply)):
            assert re.search(rf'href="{at(won, ply)}" data-step="{step}"', html), step
        assert 'hx-push-url="true"' in html

    def test_no_step_back_from_the_deal_nor_forward_from_the_end(self, client, won):
        first = client.get(at(won, 0)).content.decode()
        assert 'data-step="back"' not in first and 'data-step="forward"' in first
        last = client.get(at(won, won.ply)).content.decode()
        assert 'data-step="forward"' not in last and 'data-step="back"' in last

    def test_a_ply_past_the_end_goes_to_the_last(self, client, won):
        response = client.get(at(won, won.ply + 50))
        assert response.status_code == 302 and response["Location"] == at(won, won.ply)

    def test_htmx_gets_only_the_steps_and_board(self, client, won):
        response = client.get(at(won, 3), headers=HTMX)
        html = response.content.decode()
        assert response.status_code == 200 and "<html" not in html
        assert html.lstrip().startswith('<div id="replay"')
        assert "HX-Request" in response["Vary"]

    def test_says_the_move_shown(self, client, won):
        html = client.get(at(won, 1)).content.decode()
        assert re.search(r"Step 1 of \d+: \S", html)

    def test_someone_elses_game_is_not_found(self, won, other_client):
        assert other_client.get(at(won, 0)).status_code == 404
        start_url = reverse("games:replay", args=[won.public_id])
        assert other_client.get(start_url).status_code == 404

    def test_a_guest_replays_their_own_game(self, client):
        game = start(client, "forty-thieves", 1)
        client.post(
            reverse("games:move", args=[game.public_id]), {"move": "deal", "ply": 0, "version": 0}
        )
        game.refresh_from_db()
        response = client.get(at(game, 1))
        assert response.status_code == 200
        assert cards_drawn(response.content.decode()) == cards_expected(game, 1)

    def test_an_unknown_game_is_not_found(self, client):
        assert client.get("/g/nosuchgame/replay/0/").status_code == 404

    def test_a_garbled_ply_is_not_found(self, client, won):
        assert client.get(f"/g/{won.public_id}/replay/-1/").status_code == 404
        assert client.get(f"/g/{won.public_id}/replay/abc/").status_code == 404
