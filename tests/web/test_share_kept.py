"""A shared link opened by a crowd: its page's header, board and replay drawn once per process
(games/share.html's frames) and its image kept in memory (games/web/share.py). Each reader
sees what the page drawn afresh shows, in every language, whoever drew it first; a move, a new
name, a grade, help had or a withdrawal shows at once; a kept page asks the database once."""

from datetime import UTC, datetime

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.db import connection
from django.db.models import F
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import translation

import games.web.share as views
from games import kept
from games.images import board_png
from games.models import Game, GradedDeal
from games.selectors.games import replayed_at
from games.web.share import image_words
from solitaire import frames
from solitaire.accounts.models import Preferences

from .conftest import post_move, start
from .test_accounts import log_in, make_user
from .test_daily import play_today, win
from .test_frames import TOKEN
from .test_share import share

LANGUAGES = [code for code, _name in settings.LANGUAGES]
WEDNESDAY = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def nothing_kept():
    frames.forget()
    kept.forget()
    views.IMAGES_KEPT.forget()
    yield
    frames.forget()
    kept.forget()
    views.IMAGES_KEPT.forget()


def reader(language: str, owner: Client | None = None) -> Client:
    """A reader of the link in ``language``: the owner's client, else a stranger's."""
    client = owner or Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def page(client: Client, path: str, *, kept: bool = True) -> str:
    settings.FRAMES = kept
    try:
        response = client.get(path)
    finally:
        settings.FRAMES = True
    assert response.status_code == 200, (path, response.status_code)
    return TOKEN.sub(r"\1TOKEN", response.content.decode())


def image(path: str) -> bytes:
    response = Client().get(f"{path}board.png")
    assert response.status_code == 200
    return response.content


@pytest.fixture
def named_owner(client) -> Client:
    """A signed-in owner with a public name."""
    Preferences.objects.create(user=make_user(), public_name="Ada")
    log_in(client)
    return client


def shared(owner: Client, game: Game) -> str:
    """Share ``game``: the link's path, its "Anyone with this link" message seen."""
    path = share(owner, game)
    owner.get(path)
    return path


def played(owner: Client) -> tuple[Game, str]:
    """A game of a graded deal with three moves, shared."""
    game = start(owner, "forty-thieves", 7)
    GradedDeal.objects.create(variant=game.variant, deal=game.deal, grade="hard")
    for _ in range(3):
        post_move(owner, game, "deal")
    return game, shared(owner, game)


def of_today(owner: Client) -> tuple[Game, str]:
    """A game of today's daily deal with three moves, shared while the day is not over."""
    game = play_today(owner)
    for _ in range(3):
        post_move(owner, game, "deal")
    return game, shared(owner, game)


@pytest.mark.parametrize("kind", [played, of_today])
@pytest.mark.parametrize("first", ["owner", "stranger"])
def test_the_page_is_the_same_drawn_afresh_or_from_memory(named_owner, clock, kind, first):
    clock.moment = WEDNESDAY
    game, path = kind(named_owner)
    game.refresh_from_db()
    hidden = kind is of_today
    for language in LANGUAGES:
        for ply in (0, game.ply // 2, game.ply):
            at = f"{path}{ply}/"
            owner, stranger = reader(language, named_owner), reader(language)
            fresh = {
                "owner": page(owner, at, kept=False),
                "stranger": page(stranger, at, kept=False),
            }
            assert "withdraw-share" in fresh["owner"] and "withdraw-share" not in fresh["stranger"]
            assert ("moves-hidden" in fresh["stranger"]) == hidden
            frames.forget()
            order = ["owner", "stranger"] if first == "owner" else ["stranger", "owner"]
            for who in order + order:  # drawn by the first, then from memory
                client = owner if who == "owner" else stranger
                assert page(client, at) == fresh[who], (language, ply, who)


def test_each_link_shows_its_own_game(client):
    games = [start(client, "forty-thieves", deal) for deal in (7, 8)]
    paths = []
    for game in games:
        post_move(client, game, "deal")
        paths.append(share(client, game))
    assert {Game.objects.get(pk=g.pk).version for g in games} == {1}  # one version, one ply
    for path in paths:
        assert page(Client(), path) == page(Client(), path, kept=False)
    assert "deal 8" in page(Client(), paths[1])


def test_a_move_shows_at_once_on_the_page_and_in_the_image(client):
    game, path = played(client)
    before = page(Client(), path)
    image(path)  # kept in memory
    post_move(client, game, "deal")
    game.refresh_from_db()
    now = page(Client(), path)
    assert now != before and now == page(Client(), path, kept=False)
    assert f"Step 0 of {game.ply}" in now and f"{game.player_moves} moves so far" in now
    assert image(path) == board_png(game.position(), *image_words(game))


def test_a_new_public_name_shows_at_once(named_owner):
    _game, path = played(named_owner)
    assert "Played by Ada." in page(Client(), path)
    before = image(path)
    Preferences.objects.filter(public_name="Ada").update(public_name="Bea")
    assert "Played by Bea." in page(Client(), path)
    assert image(path) != before


def test_a_grade_found_later_shows_at_once(client):
    game = start(client, "forty-thieves", 7)
    post_move(client, game, "deal")
    path = share(client, game)
    assert "Difficulty" not in page(Client(), path)
    before = image(path)
    GradedDeal.objects.create(variant=game.variant, deal=game.deal, grade="hard")
    assert "Difficulty: hard." in page(Client(), path)
    assert image(path) != before


def summary(client: Client, path: str) -> str:
    """The page's line under its title (its header's part, not the preview tags)."""
    shown = page(client, path)
    return shown.split('<p class="shared-summary">', 1)[1].split("</p>", 1)[0]


def test_help_had_shows_at_once(client):
    game, path = played(client)
    win(game, 3, 60_000)
    Game.objects.filter(pk=game.pk).update(version=F("version") + 1)  # as a winning move does
    assert "Won in 3 moves" in summary(Client(), path)
    before = image(path)
    # A hint counts without a new version (games/services/assist.py).
    Game.objects.filter(pk=game.pk).update(hint_count=1)
    assert "Won with help" in summary(Client(), path)
    assert image(path) != before


def test_a_withdrawn_link_s_page_and_image_are_gone_at_once(client):
    _game, path = played(client)
    page(Client(), path), image(path)
    client.post(f"{path}withdraw/")
    assert Client().get(path).status_code == 404
    assert Client().get(f"{path}board.png").status_code == 404


def test_a_kept_page_asks_only_for_the_link(named_owner):
    game = start(named_owner, "forty-thieves", 9)  # a deal not graded: asked for each time
    post_move(named_owner, game, "deal")
    path = shared(named_owner, game)
    other = Client()
    get_user_model().objects.create_user("bob", password="pw")
    other.login(username="bob", password="pw")
    for client, mine in ((Client(), False), (other, False), (named_owner, True)):
        client.get(path)
        with CaptureQueriesContext(connection) as seen:
            shown = client.get(path).content.decode()
        assert ("Withdraw this link" in shown) == mine
        of_games = [q["sql"] for q in seen if "games_" in q["sql"]]
        # The link, its game, the player's name and the deal's grade, in one query.
        assert len(of_games) == 1, of_games
    with CaptureQueriesContext(connection) as seen:
        Client().get(path)
    assert len(seen) == 1


class TestTheImageInMemory:
    def test_a_second_reader_reads_no_file(self, client, monkeypatch):
        _game, path = played(client)
        first = image(path)
        files = caches["images"]
        read = []
        monkeypatch.setattr(files, "get", lambda *a, **k: read.append(a) or None)
        assert image(path) == first and read == []

    def test_a_process_that_has_none_reads_the_file_and_draws_nothing(self, client, monkeypatch):
        _game, path = played(client)
        first = image(path)
        views.IMAGES_KEPT.forget()
        monkeypatch.setattr(views, "board_png", lambda *a: pytest.fail("drawn again"))
        assert image(path) == first

    def test_one_image_per_link_and_language(self, client, settings):
        game, path = played(client)
        english = image(path)
        stranger = Client()
        stranger.cookies[settings.LANGUAGE_COOKIE_NAME] = "pl"
        polish = stranger.get(f"{path}board.png").content
        assert polish != english
        post_move(client, game, "deal")
        image(path)
        token = game.share.token
        assert set(views.IMAGES_KEPT._values) == {(token, "en"), (token, "pl")}

    def test_a_hidden_day_s_image_is_the_deal(self, client, clock):
        clock.moment = WEDNESDAY
        game, path = of_today(client)
        game.refresh_from_db()
        dealt = replayed_at(game, 0).before
        with translation.override("en"):
            assert image(path) == board_png(dealt, *image_words(game))
