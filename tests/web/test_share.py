"""Shared games: a public, unguessable, read-only link made by the game's owner, its replay,
"Play this deal", the preview tags and the board's PNG (cached), withdrawal, and the limits."""

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache, caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation
from PIL import Image

from games.images import HEIGHT, WIDTH, board_png
from games.models import Game, GradedDeal, SharedGame
from games.rules import first_position, get_variant
from games.web.share import image_words
from solitaire import frames
from solitaire.accounts.models import Preferences

from .conftest import post_move, start, url


def share(client: Client, game: Game) -> str:
    """Share ``game``: the link's path."""
    response = client.post(url("share", game))
    assert response.status_code == 302, response.content[:300]
    return response["Location"]


@pytest.fixture
def shared(client) -> tuple[Game, str]:
    game = start(client, "forty-thieves", 7)
    post_move(client, game, "deal")
    return game, share(client, game)


class TestMakingALink:
    def test_the_link_is_unguessable_and_made_once_per_game(self, client, shared):
        game, path = shared
        token = SharedGame.objects.get(game=game).token
        assert path == f"/s/{token}/" and len(token) >= 22
        assert share(client, game) == path
        assert SharedGame.objects.count() == 1

    def test_only_the_owner_can_share_a_game(self, shared, other_client):
        game, _path = shared
        assert other_client.post(url("share", game)).status_code == 404
        assert SharedGame.objects.count() == 1

    def test_the_game_page_and_the_history_offer_it(self, client, shared):
        game, _path = shared
        page = client.get(url("game", game)).content.decode()
        assert f'action="{url("share", game)}"' in page
        history = client.get(reverse("games:history")).content.decode()
        assert f'id="share-{game.public_id}"' in history
        assert f'form="share-{game.public_id}"' in history

    def test_making_links_is_limited_per_address(self, client, settings):
        settings.LIMITS = settings.LIMITS | {"share-address": (2, 3600)}
        games = [start(client, "lucas", n) for n in (1, 2, 3)]
        assert [client.post(url("share", g)).status_code for g in games] == [302, 302, 429]


class TestTheSharedPage:
    def test_it_opens_logged_out_and_shows_the_game_read_only(self, shared):
        game, path = shared
        stranger = Client()
        page = stranger.get(path).content.decode()
        assert "A shared game: Forty Thieves, deal 7" in page
        assert "1 move so far" in page
        assert 'property="og:image"' in page and "/board.png" in page
        assert 'name="twitter:card" content="summary_large_image"' in page
        assert 'action="/new/"' in page and 'name="deal" value="7"' in page
        assert "Withdraw this link" not in page
        assert url("move", game) not in page

    def test_it_steps_through_the_replay(self, shared):
        _game, path = shared
        stranger = Client()
        first = stranger.get(f"{path}0/").content.decode()
        assert "Step 0 of 1" in first and f'href="{path}1/"' in first
        htmx = stranger.get(f"{path}1/", headers={"HX-Request": "true"}).content.decode()
        assert "Step 1 of 1" in htmx and "<html" not in htmx

    def test_it_opens_at_the_deal_ready_to_play_and_a_ply_past_the_end_shows_the_end(self, shared):
        _game, path = shared
        stranger = Client()
        opened = stranger.get(path).content.decode()
        assert "Step 0 of 1" in opened and f'href="{path}1/"' in opened
        assert "data-replay" in opened and "data-play" in opened
        assert "Step 1 of 1" in stranger.get(f"{path}9/").content.decode()

    def test_play_this_deal_starts_a_new_game_for_whoever_opens_it(self, shared):
        game, _path = shared
        stranger = Client()
        response = stranger.post(reverse("games:new"), {"variant": "forty-thieves", "deal": "7"})
        new = Game.objects.get(public_id=response["Location"].split("/")[2])
        assert new.pk != game.pk and new.deal == "7" and new.session_key != game.session_key

    def test_the_name_shows_only_once_chosen(self, db):
        user = get_user_model().objects.create_user("zoe", password="pw")
        zoe = Client()
        zoe.login(username="zoe", password="pw")
        path = share(zoe, start(zoe, "maria", 3))
        assert "Played by" not in Client().get(path).content.decode()
        Preferences.objects.create(user=user, public_name="Zed")
        assert "Played by Zed." in Client().get(path).content.decode()
        assert "zoe" not in Client().get(path).content.decode()

    def test_an_unknown_token_is_a_404(self, db):
        assert Client().get("/s/no-such-link-at-all/").status_code == 404
        assert Client().get("/s/%00/").status_code == 404

    def test_the_page_s_queries_do_not_grow_with_the_game(self, client, shared):
        game, path = shared

        def queries() -> int:
            with CaptureQueriesContext(connection) as seen:
                assert Client().get(path).status_code == 200
            return len(seen)

        queries()  # the first asks once what the game's daily deal is: kept (games/kept.py)
        frames.forget()
        drawn = queries()  # the board drawn: its moves read
        for _ in range(5):
            post_move(client, game, "deal")
        assert queries() == drawn  # a new version, drawn again at the same cost


class TestTheImage:
    def test_it_is_a_png_of_the_game_s_board(self, shared):
        game, path = shared
        response = Client().get(f"{path}board.png")
        assert response.status_code == 200 and response["Content-Type"] == "image/png"
        image = Image.open(io.BytesIO(response.content))
        assert image.format == "PNG" and image.size == (WIDTH, HEIGHT)
        game.refresh_from_db()
        assert response.content == board_png(game.position(), *image_words(game))
        other = first_position(get_variant("forty-thieves"), 8)
        assert response.content != board_png(other)

    def test_it_is_drawn_once_then_read_from_the_cache(self, shared, monkeypatch):
        _game, path = shared
        drawn = []
        import games.web.share as views

        monkeypatch.setattr(views, "board_png", lambda *a: drawn.append(1) or b"\x89PNG")
        Client().get(f"{path}board.png")
        Client().get(f"{path}board.png")
        assert drawn == [1]

    def test_a_new_move_draws_a_new_image(self, client, shared):
        game, path = shared
        before = Client().get(f"{path}board.png").content
        post_move(client, game, "deal")
        assert Client().get(f"{path}board.png").content != before

    def test_images_live_apart_from_the_counters_one_per_link(self, client, shared):
        game, path = shared
        token = path.strip("/").split("/")[-1]
        Client().get(f"{path}board.png")
        post_move(client, game, "deal")
        Client().get(f"{path}board.png")
        kept = caches["images"].get(f"share-png:{token}:en")
        game.refresh_from_db()
        assert kept[0][0] == game.version  # the newer image replaced the older one
        # Nothing of it in the default cache, beside the limits' counters.
        assert cache.get(f"share-png:{token}") is None
        assert cache.get(f"share-png:{token}:{game.version}") is None

    def test_its_words_say_the_game_and_are_the_reader_s(self, client, shared, settings):
        game, path = shared
        game.refresh_from_db()
        with translation.override("pl"):
            title, summary = image_words(game)
        assert title.startswith("Udostępniona") or "rozdanie 7" in title, title
        assert "7" in title and summary
        stranger = Client()
        stranger.cookies[settings.LANGUAGE_COOKIE_NAME] = "pl"
        polish = stranger.get(f"{path}board.png")
        english = Client().get(f"{path}board.png")
        assert polish.content != english.content
        assert "Accept-Language" in polish["Vary"] and "Cookie" in polish["Vary"]
        with translation.override("pl"):
            assert polish.content == board_png(game.position(), title, summary)

    def test_a_withdrawn_links_image_is_not_kept_by_browsers_or_proxies(self, client, shared):
        _game, path = shared
        response = Client().get(f"{path}board.png")
        assert "max-age=0" in response["Cache-Control"]
        assert "must-revalidate" in response["Cache-Control"]
        client.post(f"{path}withdraw/")
        assert Client().get(f"{path}board.png").status_code == 404

    def test_images_are_limited_per_address(self, shared, settings):
        _game, path = shared
        settings.LIMITS = settings.LIMITS | {"share-image-address": (2, 60)}
        codes = [Client().get(f"{path}board.png").status_code for _ in range(3)]
        assert codes == [200, 200, 429]


class TestWithdrawing:
    def test_the_owner_withdraws_and_the_link_is_a_404(self, client, shared):
        game, path = shared
        assert "Withdraw this link" in client.get(path).content.decode()
        response = client.post(f"{path}withdraw/")
        assert response.status_code == 302 and response["Location"] == url("game", game)
        assert Client().get(path).status_code == 404
        assert Client().get(f"{path}board.png").status_code == 404

    def test_a_stranger_cannot_withdraw_it(self, shared, other_client):
        _game, path = shared
        assert other_client.post(f"{path}withdraw/").status_code == 404
        assert Client().get(path).status_code == 200

    def test_withdrawing_asks_for_a_post(self, client, shared):
        _game, path = shared
        assert client.get(f"{path}withdraw/").status_code == 405


class TestLanguages:
    @pytest.mark.parametrize("language", ["fr", "nl", "pl", "vi"])
    def test_the_shared_page_is_translated(self, shared, language, settings):
        _game, path = shared
        stranger = Client()
        stranger.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        page = stranger.get(path).content.decode()
        assert f'lang="{language}"' in page
        for english in ("A shared game", "so far", "Play this deal", "Step 1 of"):
            assert english not in page, english

    @pytest.mark.parametrize("language", ["en", "fr", "nl", "pl", "vi"])
    def test_the_deal_s_grade_is_in_the_reader_s_words(self, shared, language, settings):
        game, path = shared
        GradedDeal.objects.create(variant=game.variant, deal=game.deal, grade="medium")
        stranger = Client()
        stranger.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        page = stranger.get(path).content.decode()
        with translation.override(language):
            said = str(GradedDeal.Grade.MEDIUM.label)
        assert f"{said}." in page
        assert language == "en" or "medium." not in page
