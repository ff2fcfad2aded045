"""The game page: the board as drawn, its labels and data attributes, and picking cards up."""

import re

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from games.rules import VARIANTS, card_name
from games.rules.autoplay import next_safe_move

from .conftest import HTMX, board, find_deal, illegal_move, legal_move, log, post_move, start, url


def board_html(html: str) -> str:
    start_at = html.index('<section id="board"')
    return html[start_at : html.index("</section>", start_at)]


class TestGamePage:
    @pytest.mark.parametrize("variant", list(VARIANTS))
    def test_every_game_draws_its_piles(self, client, variant):
        # A deal that sends no card home as it is dealt: every pile as dealt.
        game = start(client, variant, find_deal(variant, lambda p: next_safe_move(p) is None))
        response = client.get(url("game", game))
        assert response.status_code == 200
        html = board_html(response.content.decode())
        rules = VARIANTS[variant]
        for j in range(1, rules.columns + 1):
            assert f'data-pile="t{j}"' in html
        assert f'data-pile="t{rules.columns + 1}"' not in html
        for i in range(1, 9):
            assert f'data-pile="f{i}"' in html
        assert 'data-pile="s"' in html and 'data-pile="w"' in html
        assert f'aria-label="Stock, {rules.stock_size} cards"' in html
        assert f'aria-label="Column 1, {rules.cards_per_column} cards"' in html

    @pytest.mark.parametrize("variant", ["forty-thieves", "little-forty"])
    def test_the_board_says_how_many_cards_a_deal_takes_and_the_stock_holds(self, client, variant):
        rules = VARIANTS[variant]
        game = start(client, variant)
        html = board_html(client.get(url("game", game)).content.decode())
        assert f'data-deal="{rules.stock_deal}"' in html
        assert re.search(rf'data-pile="s" data-cards="{rules.stock_size}"', html)
        answer = post_move(client, game, "deal").content.decode()
        assert f'data-pile="s" data-cards="{rules.stock_size - rules.stock_deal}"' in answer

    def test_the_board_carries_its_ply_and_its_urls(self, client, game):
        html = board_html(client.get(url("game", game)).content.decode())
        assert 'data-ply="0"' in html
        assert f'data-move-url="{url("move", game)}"' in html
        assert f'data-foundation-url="{url("to_foundation", game)}"' in html
        post_move(client, game, "deal")
        html = board_html(client.get(url("game", game)).content.decode())
        assert 'data-ply="1"' in html

    def test_cards_have_names_and_face_down_cards_keep_their_secret(self, client):
        game = start(client, "rank-and-file", 1)
        html = board_html(client.get(url("game", game)).content.decode())
        position = game.position()
        assert html.count('aria-label="face-down card"') == 30
        assert html.count('data-card="down"') == 31  # 30 in the columns and the stock
        for j, column in enumerate(position.columns):
            top = column[-1]
            assert f'data-card="{card_name(top)}"' in html
            for hidden in column[: position.down[j]]:
                # Two decks: the other copy may be in sight, never more copies than that.
                assert html.count(f'data-card="{card_name(hidden)}"') <= 1

    def test_a_card_is_named_with_what_its_corner_shows(self, client, game):
        html = board_html(client.get(url("game", game)).content.decode())
        # Forty Thieves deal 1: column 1 is 3D AS KD 7D.
        assert 'aria-label="7 of Diamonds"' in html
        assert 'aria-label="King of Diamonds, K"' in html
        assert 'data-card="7D"' in html

    def test_only_the_top_card_can_be_picked_in_a_game_without_sequence_moves(self, client, game):
        html = board_html(client.get(url("game", game)).content.decode())
        assert 'data-pick="t1"' in html
        assert 'data-pick="t1:2"' not in html

    def test_only_a_run_can_be_picked_where_runs_move(self, client):
        # Forty Devils deal 1, column 1 is 3D AS KD 7D: no run, so only its top card.
        game = start(client, "forty-devils", 1)
        html = board_html(client.get(url("game", game)).content.decode())
        assert 'data-pick="t1"' in html
        assert not re.search(r'data-pick="t1:\d+"', html)

    def test_the_board_lists_where_each_pickable_card_may_go(self, client, game):
        html = board_html(client.get(url("game", game)).content.decode())
        listed = re.search(r'<div id="table-state" hidden [^>]*data-legal="([^"]*)"', html)
        moves = listed.group(1).split()
        # Forty Thieves deal 1: the engine's legal moves of cards (not the deal), each from a
        # card drawn as one to pick up.
        legal = [m for m in game.position().legal_moves() if not m.is_deal]
        assert moves and sorted(moves) == sorted(str(m) for m in legal)
        picks = set(re.findall(r'data-pick="([^"]*)"', html))
        assert {m.partition("-")[0] for m in moves} <= picks

    def test_little_forty_shows_redeals_left_and_three_waste_cards(self, client):
        game = start(client, "little-forty", 3)
        post_move(client, game, "deal")
        html = board_html(client.get(url("game", game)).content.decode())
        assert "Redeals left" in html
        assert 'class="pile waste fanned"' in html
        waste = html[html.index('data-pile="w"') : html.index('class="foundation-group')]
        assert waste.count('class="card') == 3
        assert waste.count("data-pick=") == 1

    def test_forty_devils_labels_its_left_and_right_foundations(self, client):
        game = start(client, "forty-devils", 2)
        html = board_html(client.get(url("game", game)).content.decode())
        assert 'id="left-foundations"' in html and 'id="right-foundations"' in html

    def test_the_page_loads_htmx_and_the_game_scripts_from_our_static_files(self, client, game):
        html = client.get(url("game", game)).content.decode()
        assert "/static/django_htmx/htmx-2.min.js" in html
        assert "/static/js/game.js" in html  # static/js/game/'s modules, bundled
        assert "//cdn" not in html and "https://" not in html

    def test_htmx_gets_just_the_board(self, client, game):
        response = client.get(url("game", game), headers=HTMX)
        html = response.content.decode()
        assert response.status_code == 200
        assert html.lstrip().startswith('<section id="board"')
        assert "<html" not in html
        assert 'id="announce" hx-swap-oob="innerHTML"' in html

    def test_someone_elses_game_is_404(self, client, other_client, game):
        assert other_client.get(url("game", game)).status_code == 404
        assert other_client.get(url("record", game)).status_code == 404

    def test_an_unknown_game_id_is_404(self, client, game):
        assert client.get(reverse("games:game", args=["nope"])).status_code == 404

    def test_a_guest_without_a_session_sees_no_game(self, client, game):
        fresh = type(client)()
        response = fresh.get(url("game", game))
        assert response.status_code == 404
        # Logged out, the page says a game of an account shows once logged in.
        page = response.content.decode()
        assert "If it is a game of your account" in page
        assert f'href="{reverse("login")}"' in page

    def test_a_logged_in_player_is_not_asked_to_log_in_by_a_404(self, other_client, game):
        User.objects.create_user("ann", password="a long enough password")
        other_client.login(username="ann", password="a long enough password")
        page = other_client.get(url("game", game)).content.decode()
        assert "not yours to see" in page and "If it is a game of your account" not in page


class TestPick:
    def test_picking_a_card_offers_every_pile_to_put_it_on(self, client, game):
        response = client.get(url("game", game) + "?pick=t2")
        html = board_html(response.content.decode())
        assert response.status_code == 200
        assert "Picked up Nine of Spades" in response.content.decode()
        assert 'class="card picked"' in html
        assert html.count('class="drop') == 9 + 8  # the other columns and the foundations
        assert 'name="move" value="t2-t1"' in html
        # Clicking the picked card again puts it back: a link to the plain game page.
        assert f'href="{url("game", game)}" data-card="9S"' in html

    def test_legal_places_are_marked(self, client):
        # Forty Thieves deal 1: nothing fits at first; deal 123456 is checked the same way.
        game = start(client, "forty-devils", 1)
        position = game.position()
        move = next(m for m in position.legal_moves() if str(m).startswith("t"))
        source, _, target = str(move).partition("-")
        html = board_html(client.get(url("game", game) + f"?pick={source}").content.decode())
        assert f'value="{source}-{target}" class="drop legal"' in html

    @pytest.mark.parametrize("pick", ["t1:2", "t99", "w", "f1", "x", "t1:0", "s"])
    def test_a_pick_that_is_not_on_the_board_is_400(self, client, game, pick):
        response = client.get(url("game", game) + f"?pick={pick}")
        assert response.status_code == 400
        assert "cannot be picked up" in response.content.decode()

    def test_nothing_can_be_picked_in_a_finished_game(self, client, game):
        client.post(url("give_up", game), board(game))
        assert client.get(url("game", game) + "?pick=t2").status_code == 400
        html = board_html(client.get(url("game", game)).content.decode())
        assert "data-pick=" not in html.replace('data-pick=""', "")

    def test_putting_down_is_a_form_post_that_redirects_back(self, client, game):
        move = legal_move(game, besides_deal=True)
        source = move.partition("-")[0]
        html = board_html(client.get(url("game", game) + f"?pick={source}").content.decode())
        assert f'action="{url("move", game)}"' in html
        assert f'name="move" value="{move}"' in html
        response = post_move(client, game, move, htmx=False)
        assert response.status_code == 302
        assert response["Location"] == url("game", game)
        page = client.get(response["Location"]).content.decode()
        assert 'class="message success"' in page
        assert log(game)[0] == move

    def test_an_illegal_put_down_without_javascript_shows_the_page_and_why(self, client, game):
        response = post_move(client, game, illegal_move(game), htmx=False)
        assert response.status_code == 422
        html = response.content.decode()
        assert "That move is not allowed" in html and "<html" in html
        assert log(game) == []


@pytest.mark.parametrize("prefix", ["/", "/patience/"])
def test_the_games_urls_are_those_reverse_gives_under_any_script_prefix(game, prefix):
    """A game's links and actions live under the site's prefix, wherever it is mounted."""
    from django.urls import get_script_prefix, set_script_prefix

    from games.web.draw import game_url

    before = get_script_prefix()
    set_script_prefix(prefix)
    try:
        assert game_url(game) == reverse("games:game", args=[game.public_id])
        assert game_url(game).startswith(prefix + "g/")
    finally:
        set_script_prefix(before)
