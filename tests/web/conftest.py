"""Fixtures and helpers for the web tests: games started the way a player starts them."""

import random
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client
from django.urls import resolve, reverse
from django.utils import translation

from games.models import Game
from games.rules import Move, Record, first_position, get_variant, parse_record, replay

HTMX = {"HX-Request": "true"}


@pytest.fixture(autouse=True)
def fresh_cache(db):
    """An empty cache for every test: the log-in throttle counts failures in it. (With Redis,
    clearing the cache clears its stand-in in the database too: hence ``db``.)"""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def site_language():
    """Each test starts in the site's default language: a request in another one leaves its
    language active in the test's thread (as it would for the next request of a worker, which
    activates its own)."""
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    """A fast hasher: the tests check passwords, not the hashing's cost."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def client(db) -> Client:
    return Client()


@pytest.fixture
def other_client(db) -> Client:
    """A second guest, with a session of their own."""
    return Client()


def start(client: Client, variant: str = "forty-thieves", deal: int = 1) -> Game:
    """Start a game through the home page's form; the client's session owns it."""
    response = client.post(reverse("games:new"), {"variant": variant, "deal": str(deal)})
    assert response.status_code == 302, response.content[:500]
    return Game.objects.get(public_id=response["Location"].split("/")[2])


#: The address a game page names as its own (games/play.html), which the page's script puts in
#: the address bar when the page answered the link or the form that opened the game.
CANONICAL = re.compile(r'<link rel="canonical" href="([^"]+)">')


def opened(response) -> Game:
    """The game a link or a form opened, answered with the game page itself (one request):
    the game the page names as its address, and shows."""
    assert response.status_code == 200, response.content[:500]
    page = response.content.decode()
    address = CANONICAL.search(page)
    assert address, "the game page names no address of its own"
    game = Game.objects.get(public_id=resolve(address.group(1)).kwargs["public_id"])
    assert f'data-game-url="{address.group(1)}"' in page
    return game


@pytest.fixture
def game(client) -> Game:
    return start(client)


def url(name: str, game: Game) -> str:
    return reverse(f"games:{name}", args=[game.public_id])


def post_move(client: Client, game: Game, move: str, *, ply: int | None = None, htmx=True):
    """POST ``move`` on the board the player sees now (or at ``ply``, an older board)."""
    game.refresh_from_db()
    data = {"move": move, "ply": game.ply if ply is None else ply, "version": game.version}
    return client.post(url("move", game), data, headers=HTMX if htmx else {})


def version_of(game: Game) -> int:
    """The game's version now: what the board the player sees sends with every action."""
    game.refresh_from_db()
    return game.version


def board(game: Game) -> dict:
    """The board the player sees now: the ply and version every action sends (and the yes
    that giving up and restarting ask for without JavaScript)."""
    game.refresh_from_db()
    return {"ply": game.ply, "version": game.version, "confirm": "yes"}


def log(game: Game) -> list[str]:
    return list(game.log.order_by("ply").values_list("notation", flat=True))


def replayed(game: Game) -> str:
    """The position text that replaying the game's deal and move log gives."""
    game.refresh_from_db()
    return replay(Record(game.variant, game.deal_number, log(game))).text()


def legal_move(game: Game, *, besides_deal: bool = False) -> str:
    """A legal move in the game's current position (not a deal, if asked)."""
    game.refresh_from_db()
    moves = [str(m) for m in game.position().legal_moves()]
    if besides_deal:
        moves = [m for m in moves if m not in ("deal", "redeal")]
    assert moves, "no legal move here"
    return moves[0]


def illegal_move(game: Game) -> str:
    """A move written correctly that the engine refuses in the game's current position."""
    game.refresh_from_db()
    position = game.position()
    for j in range(1, position.variant.columns + 1):
        for target in [f"f{i}" for i in range(1, 9)] + [
            f"t{k}" for k in range(1, position.variant.columns + 1) if k != j
        ]:
            move = f"t{j}-{target}"
            if position.check(Move.parse(move)) is not None:
                return move
    raise AssertionError("every move is legal?")


def find_deal(variant: str, test, limit: int = 2000) -> int:
    """The first deal number whose first position passes ``test``."""
    for deal in range(1, limit):
        if test(first_position(get_variant(variant), deal)):
            return deal
    raise AssertionError("no such deal")


def random_play(variant: str, deal: int, seed: int, until: str = "stuck", cap: int = 3000):
    """Moves of a random game from ``deal`` that ends ``until`` (or None)."""
    rng = random.Random(seed)
    position = first_position(get_variant(variant), deal)
    moves = []
    while position.status == "playing" and len(moves) < cap:
        move = rng.choice(position.legal_moves())
        position.play(move)
        moves.append(str(move))
    return moves if position.status == until else None


def stuck_record() -> Record:
    """A record of a Forty Thieves game played at random until no move was left."""
    for deal in range(1, 30):
        moves = random_play("forty-thieves", deal, seed=deal)
        if moves:
            return Record("forty-thieves", deal, moves)
    raise AssertionError("no stuck game found")


WON_RECORD = Path(__file__).resolve().parents[1] / "fixtures" / "indian-1-won.json"


def won_record() -> Record:
    """A real win: Indian deal 1, found by a search and checked by the engine on every run."""
    return parse_record(WON_RECORD.read_bytes())


def endless_moves(count: int, variant: str = "forty-thieves", deal: int = 3) -> list[str]:
    """``count`` moves of a game still going after them, however many: a few random moves,
    then one card moved to and fro between two copies of the card it goes on."""
    moves = long_moves(12, variant, deal)
    position = first_position(get_variant(variant), deal)
    for text in moves:
        position.play(Move.parse(text))
    rng = random.Random(11)
    while True:
        for move in position.legal_moves():
            text = str(move)
            source, _sep, target = text.partition("-")
            if not (source[:1] == target[:1] == "t") or ":" in source:
                continue
            back = Move.parse(f"{target}-{source}")
            ahead = position.copy()
            ahead.play(move)
            if ahead.check(back) is None:
                pair = [text, str(back)]
                while len(moves) < count:
                    moves.append(pair[0])
                    pair.reverse()
                return moves[:count]
        move = rng.choice([m for m in position.legal_moves()])
        position.play(move)
        moves.append(str(move))


def long_moves(count: int, variant: str = "forty-thieves", deal: int = 3) -> list[str]:
    """``count`` moves of a random game still going after them, with cards left in the stock.

    Dealing only now and then keeps the stock from running out and the game from sticking.
    """
    rng = random.Random(7)
    position = first_position(get_variant(variant), deal)
    moves: list[str] = []
    while len(moves) < count:
        choices = [m for m in position.legal_moves() if str(m) != "deal"]
        if not choices or rng.random() < 0.1:
            choices = [Move.parse("deal")]
        move = rng.choice(choices)
        position.play(move)
        moves.append(str(move))
    assert position.status == "playing" and position.stock
    return moves
