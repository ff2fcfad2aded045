"""Parts of pages drawn once per process and language (solitaire/frames.py): every page is the
same, CSRF tokens aside, whether its parts are drawn afresh or served from memory, in every
language and look, as a guest and signed in; each player's forms carry their own token, which
the site accepts; and a kept part never shows one language's words in another."""

import re
from datetime import UTC, datetime

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from solitaire import frames
from solitaire.accounts.looks import COOKIE

from .conftest import start
from .test_accounts import log_in, make_user

LANGUAGES = [code for code, _name in settings.LANGUAGES]
#: Two players' looks: the default, and every choice changed (large cards among them).
LOOKS = ["", "theme=dark&table=wine&back=red&deck=four&motion=off&cards=large"]
TOKEN = re.compile(r'(name="csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]*"')


def pages(game) -> list[str]:
    """The pages whose parts are kept, and one of each other kind that shares the header (the
    pages outside the language's prefix are in the session's language)."""
    return [
        "/{lang}/",
        f"/g/{game.public_id}/",
        "/{lang}/rules/streets/",
        "/daily/",
        "/{lang}/no-such-page/",
    ]


def drawn(client: Client, path: str, lang: str, *, kept: bool) -> str:
    settings.FRAMES = kept
    url = path.format(lang=lang)
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code in (200, 404), (url, response.status_code)
    return TOKEN.sub(r"\1TOKEN", response.content.decode())


@pytest.fixture(autouse=True)
def nothing_kept():
    frames.forget()
    yield
    frames.forget()
    settings.FRAMES = True


@pytest.mark.django_db
@pytest.mark.parametrize("signed_in", [False, True])
def test_every_page_is_the_same_drawn_afresh_or_from_memory(client, clock, signed_in):
    clock.moment = datetime(2026, 6, 1, 12, tzinfo=UTC)
    if signed_in:
        make_user()
        log_in(client)
    game = start(client, "maria", 3)
    for look in LOOKS:
        client.cookies[COOKIE] = look
        for lang in LANGUAGES:
            client.post(reverse("set_language"), {"language": lang, "next": "/"})
            for path in pages(game):
                fresh = drawn(client, path, lang, kept=False)
                first = drawn(client, path, lang, kept=True)
                kept = drawn(client, path, lang, kept=True)
                assert first == fresh, (path, lang, look)
                assert kept == fresh, (path, lang, look)


@pytest.mark.django_db
def test_a_kept_form_carries_each_players_own_token_and_the_site_takes_it():
    first, second = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    tokens = []
    for player in (first, second):
        page = player.get("/en/").content.decode()
        found = set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', page))
        assert len(found) == 1, found  # one token for every form of the page
        assert frames.TOKEN_STAND_IN not in page
        tokens.append(found.pop())
        # The home page's "New game" of a game, from the kept part, starts it.
        response = player.post(
            reverse("games:new"),
            {"variant": "streets", "grade": "", "csrfmiddlewaretoken": tokens[-1]},
        )
        assert response.status_code == 302, response.content[:300]
    assert tokens[0] != tokens[1]
    # The second player's page came from memory, with a token the site refuses for another.
    refused = Client(enforce_csrf_checks=True)
    refused.get("/en/")
    response = refused.post(
        reverse("games:new"), {"variant": "streets", "csrfmiddlewaretoken": "x" * 64}
    )
    assert response.status_code == 403


@pytest.mark.django_db
def test_a_kept_part_is_in_the_language_of_the_page(client):
    names = {}
    for lang in LANGUAGES:
        client.post(reverse("set_language"), {"language": lang, "next": "/"})
        page = client.get(f"/{lang}/").content.decode()
        label = re.search(r'<label for="id_deal">([^<]*)</label>', page).group(1)
        names[lang] = label
        menu = re.search(r"<option value=\"(\w+)\"[^>]* selected>", page)
        assert menu.group(1) == lang
    assert len(set(names.values())) == len(LANGUAGES), names
