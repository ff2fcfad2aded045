"""The home page, the rules pages, starting new games and the shareable deal links."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games import days
from games.models import Game
from games.rules import MAX_DEAL, VARIANTS, Move, first_position
from games.services import daily

from .conftest import HTMX, board, log, opened, post_move, start, url


class TestHome:
    def test_lists_the_ten_games_with_rules_and_new_game_buttons(self, client):
        response = client.get(reverse("pages:home"))
        assert response.status_code == 200
        html = response.content.decode()
        for variant in VARIANTS.values():
            assert variant.name in html
            assert reverse("pages:rules", args=[variant.id]) in html
            assert f'name="variant" value="{variant.id}"' in html
        assert html.count(f'action="{reverse("games:new")}"') == len(VARIANTS) + 1

    def test_has_a_field_for_a_deal_number_and_a_link_to_import(self, client):
        html = client.get(reverse("pages:home")).content.decode()
        assert 'name="deal"' in html
        assert reverse("games:import") in html

    def test_lists_the_players_games_in_progress_newest_first(self, client):
        first = start(client, "maria", 11)
        second = start(client, "lucas", 22)
        post_move(client, first, "deal")
        html = client.get(reverse("pages:home")).content.decode()
        assert html.index(url("game", first)) < html.index(url("game", second))

    def test_leaves_out_finished_games_and_other_players_games(self, client, other_client):
        mine = start(client)
        finished = start(client, "streets", 5)
        client.post(url("give_up", finished), board(finished))
        theirs = start(other_client, "indian", 9)
        html = client.get(reverse("pages:home")).content.decode()
        assert url("game", mine) in html
        assert url("game", finished) not in html
        assert url("game", theirs) not in html

    def test_a_new_visitor_has_no_games_listed(self, client):
        response = client.get(reverse("pages:home"))
        assert "Your games in progress" not in response.content.decode()
        assert not Game.objects.exists()


class TestRulesPage:
    @pytest.mark.parametrize("variant", list(VARIANTS))
    def test_every_game_has_a_rules_page(self, client, variant):
        response = client.get(reverse("pages:rules", args=[variant]))
        assert response.status_code == 200
        assert VARIANTS[variant].name in response.content.decode()

    @pytest.mark.parametrize("variant", ["forty-thieves", "little-forty", "lucas"])
    def test_says_where_the_game_departs_from_pysolfc(self, client, variant):
        html = client.get(reverse("pages:rules", args=[variant])).content.decode()
        assert "Compared with PySolFC" in html

    def test_forty_devils_explains_the_split_foundations(self, client):
        html = client.get(reverse("pages:rules", args=["forty-devils"])).content.decode()
        assert "left foundations" in html.lower()
        assert "King down to Ace" in html

    def test_little_forty_explains_the_redeals(self, client):
        html = client.get(reverse("pages:rules", args=["little-forty"])).content.decode()
        assert "Three redeals" in html

    def test_an_unknown_game_is_404(self, client):
        assert client.get("/en/rules/solitaire-deluxe/").status_code == 404


class TestNewGame:
    def test_a_new_game_gets_a_random_deal_and_opens_its_page(self, client):
        response = client.post(reverse("games:new"), {"variant": "forty-thieves"})
        assert response.status_code == 302
        game = Game.objects.get()
        assert response["Location"] == url("game", game)
        assert 1 <= game.deal_number <= 10**9
        assert game.player_moves == 0 and game.status == "playing"
        assert game.first_move_at is None
        position = first_position(game.rules, game.deal_number)
        for move in log(game):  # the cards the deal sent home, if any
            position.play(Move.parse(move))
        assert game.snapshot == position.text()

    def test_a_guest_gets_a_session_that_owns_the_game(self, client):
        start(client)
        game = Game.objects.get()
        assert game.owner is None
        assert game.session_key == client.session.session_key

    def test_a_signed_in_player_owns_their_game(self, client):
        user = get_user_model().objects.create_user("ann", password="x" * 12)
        client.force_login(user)
        game = start(client)
        assert game.owner == user and game.session_key == ""
        assert client.get(url("game", game)).status_code == 200

    def test_a_given_deal_number_is_played(self, client):
        game = start(client, "lucas", 123456)
        assert game.deal == "123456" and game.variant == "lucas"

    def test_the_largest_deal_number_fits(self, client):
        game = start(client, "forty-thieves", MAX_DEAL)
        game.refresh_from_db()
        assert game.deal_number == MAX_DEAL
        assert client.get(url("game", game)).status_code == 200

    @pytest.mark.parametrize(
        "deal", ["0", "-1", "abc", "1e5", "1.5", str(MAX_DEAL + 1), "9" * 30, "١٢", " "]
    )
    def test_a_bad_deal_number_is_400_with_a_message(self, client, deal):
        response = client.post(reverse("games:new"), {"variant": "maria", "deal": deal})
        if deal.strip():
            assert response.status_code == 400
            assert "A deal number is a whole number" in response.content.decode()
            assert not Game.objects.exists()
        else:
            assert response.status_code == 302

    @pytest.mark.parametrize("data", [{}, {"variant": "chess"}, {"variant": ""}])
    def test_a_missing_or_unknown_game_is_400(self, client, data):
        response = client.post(reverse("games:new"), data)
        assert response.status_code == 400
        assert not Game.objects.exists()

    def test_get_is_not_allowed(self, client):
        assert client.get(reverse("games:new")).status_code == 405


#: What a page whose script runs adds to a form that opens a game (static/js/app.js).
PAGE_HERE = {"answer": "page"}


class TestAGameInOneRequest:
    """A form sent by a page whose script runs is answered with the game page itself, which
    names its own address; without the script, with a redirect to it, as before."""

    def test_the_form_is_answered_with_the_new_game_s_page(self, client, clock):
        # Both pages drawn at one moment: the clock's gap to the next action is the same.
        clock.moment = clock.moment
        response = client.post(reverse("games:new"), {"variant": "lucas", **PAGE_HERE})
        game = opened(response)
        assert Game.objects.get() == game and game.variant == "lucas"
        page = response.content.decode()
        assert f'<link rel="canonical" href="{url("game", game)}">' in page
        assert f'data-ply="{game.ply}"' in page and f'data-version="{game.version}"' in page
        # The page is the game page a reload shows, CSRF token aside; a language chosen on it
        # comes back to the game, not to the form's address.
        assert f'name="next" value="{url("game", game)}"' in page
        again = client.get(url("game", game)).content.decode()
        # The CSRF token aside, and the signed moment each page was drawn at (games/pace.py).
        token = re.compile(r'(csrfmiddlewaretoken" value="|X-CSRFToken": ")[^"]+|\d+:[\w-]{43}')
        assert token.sub("", page) == token.sub("", again)

    def test_a_message_for_the_new_game_is_shown_on_its_page(self, client, monkeypatch):
        monkeypatch.setattr(daily, "graded_deals", lambda variant, grade: set())
        form = {"variant": "streets", "grade": "hard", **PAGE_HERE}
        response = client.post(reverse("games:new"), form)
        game = opened(response)
        assert "No deal of that difficulty is known yet" in response.content.decode()
        # Said once: a reload does not say it again.
        again = client.get(url("game", game)).content.decode()
        assert "No deal of that difficulty is known yet" not in again

    def test_a_bad_form_is_still_400_and_opens_nothing(self, client):
        response = client.post(reverse("games:new"), {"variant": "maria", "deal": "x", **PAGE_HERE})
        assert response.status_code == 400
        assert "A deal number is a whole number" in response.content.decode()
        assert not Game.objects.exists()

    def test_for_htmx_the_browser_is_told_where_the_game_is(self, client):
        form = {"variant": "lucas", **PAGE_HERE}
        response = client.post(reverse("games:new"), form, headers=HTMX)
        assert response["HX-Redirect"] == url("game", Game.objects.get())

    def test_a_past_day_s_deal_from_the_calendar_opens_in_one_request(self, client):
        day = days.today() - timedelta(days=3)
        link = reverse("games:daily_play_day", args=["maria", day])
        game = opened(client.post(link, PAGE_HERE))
        assert client.post(link).headers["Location"] == url("game", game)  # the same game
        assert Game.objects.get() == game


class TestPlayDeal:
    def test_the_link_starts_a_game_of_that_deal(self, client):
        game = opened(client.get(reverse("pages:play_deal", args=["streets", "777"])))
        assert (game.variant, game.deal) == ("streets", "777")
        assert Game.objects.get() == game

    def test_following_it_again_resumes_the_untouched_game(self, client):
        link = reverse("pages:play_deal", args=["streets", "777"])
        client.get(link)
        client.get(link)
        assert Game.objects.count() == 1

    def test_once_played_the_link_starts_a_fresh_game(self, client):
        link = reverse("pages:play_deal", args=["streets", "777"])
        client.get(link)
        post_move(client, Game.objects.get(), "deal")
        client.get(link)
        assert Game.objects.count() == 2

    def test_each_player_gets_their_own_game(self, client, other_client):
        link = reverse("pages:play_deal", args=["streets", "777"])
        client.get(link)
        other_client.get(link)
        assert Game.objects.count() == 2

    @pytest.mark.parametrize("deal", ["0", "x", str(MAX_DEAL + 1), "12a", "9" * 25])
    def test_a_bad_deal_number_is_400(self, client, deal):
        response = client.get(reverse("pages:play_deal", args=["maria", deal]))
        assert response.status_code == 400
        assert "is not a deal number" in response.content.decode()
        assert not Game.objects.exists()

    def test_an_unknown_game_is_404(self, client):
        assert client.get("/en/play/hearts/12/").status_code == 404

    def test_the_game_page_shows_the_link(self, client, game):
        html = client.get(url("game", game)).content.decode()
        link = re.search(r'id="share-url" type="text" readonly value="([^"]+)"', html).group(1)
        assert link == "http://testserver" + reverse(
            "pages:play_deal", args=[game.variant, game.deal]
        )
