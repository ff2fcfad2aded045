"""Every page in every language: each URL the site has, asked for in French, Dutch, Polish and
Vietnamese (and English), answers without a server error, says its language in ``<html lang>``,
and shows none of the English of a string its catalogue translates (a string looked up too early,
outside the active language, or not looked up at all would show through). So do a refused move,
an import error, the won panel and the password reset email."""

import re

import pytest
from django.conf import settings
from django.contrib.auth.tokens import default_token_generator
from django.core import mail
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.urls.resolvers import LocalePrefixPattern
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from games.days import today
from games.models import Game, SharedGame
from tests.test_catalogues import entries

from .conftest import HTMX, board, post_move, start, url, won_record
from .solver_support import run_worker
from .test_accounts import log_in, make_user

pytestmark = pytest.mark.django_db

TRANSLATED = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
#: A placeholder or a tag: what splits a string into the words it shows.
SPLIT = re.compile(r"%(?:\([^)]+\))?[sd%]|<[^>]*>|\{\{[^}]*\}\}")
#: English words shorter than this are too common to tell a page untranslated.
SHORTEST = 18


def english_left(language: str) -> set[str]:
    """Pieces of English that a page in ``language`` must not show: every stretch of an
    original (between its placeholders and tags) that its translation does not keep."""
    pieces = set()
    for entry in entries(language):
        translations = " ".join(entry["msgstr"])
        for original in (entry["msgid"], entry.get("msgid_plural", "")):
            for piece in SPLIT.split(original):
                piece = piece.strip(" .,:;!?()“”\"'\n")
                if len(piece) >= SHORTEST and piece not in translations:
                    pieces.add(piece)
    return pieces


def visible(html: str) -> str:
    """The text of a page as read: no scripts, no tags, entities as characters."""
    html = re.sub(r"<script.*?</script>", " ", html, flags=re.S)
    text = re.sub(r"<[^>]+>", " ", html)
    for entity, char in (("&quot;", '"'), ("&#x27;", "'"), ("&amp;", "&"), ("&lt;", "<")):
        text = text.replace(entity, char)
    return re.sub(r"\s+", " ", text)


def route_names() -> set[str]:
    names = set()

    def walk(patterns, namespace=""):
        for p in patterns:
            if isinstance(p, URLResolver):
                if p.namespace == "admin":
                    continue  # the staff's admin speaks Django's own words
                inner = f"{p.namespace}:" if p.namespace else namespace
                walk(
                    p.url_patterns,
                    inner if not isinstance(p.pattern, LocalePrefixPattern) else namespace,
                )
            elif isinstance(p, URLPattern) and p.name:
                names.add(namespace + p.name)

    walk(get_resolver().url_patterns)
    return names


@pytest.fixture
def player(db) -> tuple[Client, Game, Game]:
    """A logged-in player with a game in play (a move in) and a won game."""
    make_user("ola", email="ola@example.com")
    client = Client()
    log_in(client, "ola")
    game = start(client, "forty-thieves", 1)
    post_move(client, game, "deal")
    record = won_record().to_json()
    response = client.post(reverse("games:import"), {"text": record})
    won = Game.objects.get(public_id=response["Location"].split("/")[2])
    client.get(reverse("games:my_games"))  # the messages of the import, shown in English
    return client, game, won


def shared_token(game: Game) -> str:
    """The token of ``game``'s shared link, made here if it has none."""
    return SharedGame.objects.get_or_create(game=game)[0].token


def requests_of(client: Client, game: Game, won: Game) -> list[tuple[str, str, str, dict]]:
    """(route name, method, path, data) for every page and action of the site."""
    user = game.owner
    uid, token = (
        urlsafe_base64_encode(force_bytes(user.pk)),
        default_token_generator.make_token(user),
    )
    month = (today().year, today().month)
    return [
        ("pages:home", "get", reverse("pages:home"), {}),
        ("pages:picture", "get", reverse("pages:picture", args=["lucas"]), {}),
        ("pages:rules", "get", reverse("pages:rules", args=["forty-devils"]), {}),
        ("pages:play_deal", "get", reverse("pages:play_deal", args=["maria", "x"]), {}),
        ("pages:winnability", "get", reverse("pages:winnability", args=["maria"]), {}),
        ("manifest", "get", reverse("manifest"), {}),
        ("offline", "get", reverse("offline"), {}),
        ("service_worker", "get", reverse("service_worker"), {}),
        ("games:health", "get", reverse("games:health"), {}),
        ("games:ready", "get", reverse("games:ready"), {}),
        ("games:new", "post", reverse("games:new"), {"variant": "nope"}),
        ("games:import", "get", reverse("games:import"), {}),
        ("games:import", "post", reverse("games:import"), {"text": '{"version": 1}'}),
        ("games:my_games", "get", reverse("games:my_games"), {}),
        ("games:my_records", "get", reverse("games:my_records"), {}),
        ("games:statistics", "get", reverse("games:statistics"), {}),
        (
            "games:variant_statistics",
            "get",
            reverse("games:variant_statistics", args=["lucas"]),
            {},
        ),
        ("games:history", "get", reverse("games:history"), {}),
        ("games:game", "get", url("game", game), {}),
        ("games:game", "get", url("game", game), {"pick": "t9"}),
        ("games:game", "get", url("game", won), {}),
        ("games:record", "get", url("record", game), {}),
        ("games:replay", "get", url("replay", won) + f"{won.ply}/", {}),
        ("games:poll", "get", url("poll", game), {"version": "0"}),
        ("games:move", "post", url("move", game), {"move": "t1-f1", **board(game)}),
        ("games:to_foundation", "post", url("to_foundation", game), {"pick": "t1", **board(game)}),
        ("games:undo", "post", url("undo", game), {"ply": "7", "version": "7"}),
        ("games:redo", "post", url("redo", game), board(game)),
        ("games:restart", "post", url("restart", won), board(won)),
        ("games:give_up", "post", url("give_up", game), {}),
        ("games:autoplay", "post", url("autoplay", game), {"autoplay": "x"}),
        ("games:hint", "get", url("hint", game), {"version": "1"}),
        ("games:hint", "post", url("hint", game), {}),
        ("games:analysis", "get", url("analysis", game), {"version": "1"}),
        ("games:analysis", "post", url("analysis", game), {}),
        ("games:finish", "post", url("finish", game), board(game)),
        # Without JavaScript: the page that asks first (with htmx: given up, last of the game's).
        ("games:give_up", "post", url("give_up", game), {"ply": "1", "version": "1"}),
        ("games:daily", "get", reverse("games:daily"), {}),
        ("games:daily_play", "get", reverse("games:daily_play", args=["lucas"]), {}),
        ("games:daily_day", "get", reverse("games:daily_day", args=["lucas", today()]), {}),
        (
            "games:daily_play_day",
            "post",
            reverse("games:daily_play_day", args=["maria", today()]),
            {},
        ),
        ("games:daily_month", "get", reverse("games:daily_month", args=["lucas", *month]), {}),
        ("games:share", "post", url("share", won), {}),
        ("games:shared", "get", reverse("games:shared", args=[shared_token(won)]), {}),
        ("games:shared_at", "get", reverse("games:shared_at", args=[shared_token(won), 1]), {}),
        ("games:shared_image", "get", reverse("games:shared_image", args=["nope"]), {}),
        ("games:withdraw_share", "post", reverse("games:withdraw_share", args=["nope"]), {}),
        ("account", "get", reverse("account"), {}),
        ("public_name", "post", reverse("public_name"), {"public_name": "<no>"}),
        ("signup", "get", reverse("signup"), {}),
        ("login", "get", reverse("login"), {}),
        ("logout", "get", reverse("logout"), {}),
        ("password_change", "get", reverse("password_change"), {}),
        ("delete_account", "get", reverse("delete_account"), {}),
        ("password_reset", "get", reverse("password_reset"), {}),
        ("password_reset_done", "get", reverse("password_reset_done"), {}),
        ("password_reset_confirm", "get", reverse("password_reset_confirm", args=[uid, token]), {}),
        ("password_reset_complete", "get", reverse("password_reset_complete"), {}),
        ("looks", "get", reverse("looks"), {}),
        ("looks", "post", reverse("looks"), {"table": "no-such-colour"}),
        ("set_language", "post", reverse("set_language"), {"language": "xx"}),
        ("set_time_zone", "post", reverse("set_time_zone"), {"time_zone": "Nowhere"}),
        ("", "get", "/no/such/page/", {}),
    ]


def test_every_route_is_asked_for_here(player):
    client, game, won = player
    asked = {name for name, *_rest in requests_of(client, game, won) if name}
    assert asked == route_names()


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_every_page_in_every_language_has_no_error_and_no_english_left(player, language, htmx):
    client, game, won = player
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    leftovers = set() if language == settings.LANGUAGE_CODE else english_left(language)
    problems = []
    for name, method, path, data in requests_of(client, game, won):
        if path.startswith("/en/"):
            path = f"/{language}/" + path[4:]
        response = getattr(client, method)(path, data, headers=HTMX if htmx else {})
        if response.status_code >= 500:
            problems.append(f"{name} {path}: {response.status_code}")
            continue
        if not response.get("Content-Type", "").startswith("text/html") or not response.content:
            continue
        html = response.content.decode()
        if "<html" in html and f'<html lang="{language}"' not in html:
            problems.append(f"{name} {path}: not lang={language}")
        text = visible(html)
        shown = sorted(piece for piece in leftovers if piece in text)
        if shown:
            problems.append(f"{name} {path} ({response.status_code}): English left: {shown[:3]}")
    assert problems == []


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.django_db(transaction=True)  # the worker, run here, closes its connections
def test_the_password_reset_email_is_in_the_players_language(player, language):
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    client.post(reverse("password_reset"), {"email": "ola@example.com"})
    run_worker()  # the mail goes through the task queue
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    text = f"{message.subject}\n{message.body}"
    leftovers = [piece for piece in english_left(language) if piece in text]
    assert leftovers == []
    assert "/reset/" in message.body


#: Words that read the same in every language: the games' English names (kept where players
#: know them so), the program and file names the rules pages cite, the site's own brand.
SAME_EVERYWHERE = re.compile(
    r"Forty Thieves|Little Forty|Forty Devils|Number Ten|Rank and File|Streets|Limited|"
    r"Indian|Lucas|Maria|PySolFC|Tiếng Việt|Nederlands|Français|Polski|English|ola@example\.com",
    re.IGNORECASE,
)


def segments(html: str) -> set[str]:
    """The page's pieces of visible text (between tags), each with two words or more."""
    html = re.sub(r"<script.*?</script>|<style.*?</style>", " ", html, flags=re.S)
    found = set()
    for piece in re.split(r"<[^>]+>", html):
        piece = SAME_EVERYWHERE.sub(" ", re.sub(r"\s+", " ", piece)).strip()
        if len(re.findall(r"[A-Za-z]{3,}", piece)) >= 2:
            found.add(piece)
    return found


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_page_shows_the_same_english_words_in_another_language(player, language):
    """Strings never marked for translation read the same whatever the language: every GET
    page, drawn in English and in ``language``, shares no piece of text of two words or more
    (but the games' names and the like)."""
    client, game, won = player
    same = []
    for name, method, path, data in requests_of(client, game, won):
        # Not pages: the health checks, records and the service worker's script are for
        # machines, in no language.
        if method != "get" or name in (
            "service_worker",
            "games:health",
            "games:ready",
            "games:record",
            "games:my_records",
            "pages:picture",
        ):
            continue
        pages = {}
        for shown in (settings.LANGUAGE_CODE, language):
            client.cookies[settings.LANGUAGE_COOKIE_NAME] = shown
            target = f"/{shown}/" + path[4:] if path.startswith("/en/") else path
            pages[shown] = segments(client.get(target, data).content.decode())
        same += [f"{name}: {piece}" for piece in pages[settings.LANGUAGE_CODE] & pages[language]]
    assert same == [], "\n".join(same)
