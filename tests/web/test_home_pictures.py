"""The home page shows each game's table as dealt: a small picture drawn on the server, the
same for everyone who reads the page in one language (the cards' letters are the language's),
drawn once and kept, and sent with caching headers and an ETag."""

import io
import re

import pytest
from django.core.cache import caches
from django.urls import reverse
from django.utils import translation
from PIL import Image

from games import images
from games.images import PICTURE_HEIGHT, PICTURE_WIDTH
from games.rules import VARIANTS


def picture_url(variant: str, language: str = "en") -> str:
    with translation.override(language):
        return reverse("pages:picture", args=[variant])


@pytest.fixture(autouse=True)
def no_pictures_kept():
    caches["images"].clear()
    yield
    caches["images"].clear()


class TestTheHomePage:
    def test_each_game_has_a_picture_with_its_size_alt_text_and_lazy_loading(self, client):
        html = client.get(reverse("pages:home")).content.decode()
        pictures = re.findall(r'<img class="variant-picture"[^>]*>', html)
        assert len(pictures) == len(VARIANTS)
        for variant, img in zip(VARIANTS.values(), pictures, strict=True):
            assert f'src="{picture_url(variant.id)}"' in img
            assert f'alt="The table of {variant.name} as dealt"' in img
            assert f'width="{PICTURE_WIDTH // 2}" height="{PICTURE_HEIGHT // 2}"' in img
            assert 'loading="lazy"' in img

    def test_the_french_page_asks_for_the_french_pictures(self, client):
        html = client.get(reverse("pages:home").replace("/en/", "/fr/")).content.decode()
        assert f'src="{picture_url("lucas", "fr")}"' in html
        assert picture_url("lucas", "fr").startswith("/fr/")


class TestThePicture:
    def test_it_is_a_png_of_its_size_cached_by_everyone_for_a_day(self, client):
        response = client.get(picture_url("forty-thieves"))
        assert response.status_code == 200 and response["Content-Type"] == "image/png"
        assert Image.open(io.BytesIO(response.content)).size == (PICTURE_WIDTH, PICTURE_HEIGHT)
        control = set(response["Cache-Control"].split(", "))
        assert control == {"public", "max-age=86400"}
        assert re.fullmatch(r'"[0-9a-f]{32}"', response["ETag"])
        assert "Cookie" not in response.get("Vary", "")

    def test_a_browser_that_has_it_gets_a_304(self, client):
        etag = client.get(picture_url("maria"))["ETag"]
        again = client.get(picture_url("maria"), headers={"If-None-Match": etag})
        assert again.status_code == 304 and again["ETag"] == etag
        assert not again.content

    def test_it_is_drawn_once_per_game_and_language(self, client, monkeypatch):
        drawn = []
        real = images.board_png

        def counting(*args, **kwargs):
            drawn.append(kwargs.get("marks"))
            return real(*args, **kwargs)

        monkeypatch.setattr("games.web.pages.board_png", counting)
        first = client.get(picture_url("lucas")).content
        assert client.get(picture_url("lucas")).content == first
        client.get(picture_url("lucas", "fr"))
        assert len(drawn) == 2

    def test_its_cards_wear_the_language_s_letters(self, client, monkeypatch):
        marks = {}
        real = images.board_png

        def noting(*args, **kwargs):
            marks[kwargs["marks"][-1]] = kwargs["marks"]
            return real(*args, **kwargs)

        monkeypatch.setattr("games.web.pages.board_png", noting)
        english = client.get(picture_url("forty-thieves")).content
        french = client.get(picture_url("forty-thieves", "fr")).content
        assert marks["K"][-3:] == ["J", "Q", "K"] and marks["R"][-3:] == ["V", "D", "R"]
        # Deal 1 of Forty Thieves shows Kings, Queens and Jacks face up: the pictures differ.
        assert english != french

    def test_an_unknown_game_is_a_404(self, client):
        assert client.get("/en/pictures/no-such-game.png").status_code == 404
        assert client.post(picture_url("lucas")).status_code == 405
