"""Garbled requests at every URL of the site: never a 5xx, never a change but a legal move.

Hypothesis draws thousands of requests, each at a URL pattern taken from the URL resolver (so
a URL added later is fuzzed too), its path parameters filled with good values (the fuzzing
player's own games, a game slug, a deal, a ply) and bad ones (another player's game, ids that
do not exist or are malformed, unicode, huge numbers), with any method, htmx and other headers,
and bodies that are forms, multipart forms, JSON, bytes or a thousand fields too many. Some are
well formed (a legal move on the right ply and version) so the games really move.

Afterwards every game still replays to its snapshot (``manage.py check_games``), and the games
of two players the fuzzer never is (an account and a guest), with every row hanging on them,
are exactly as they were. Part of the run is a logged-in player, part a guest and a browser
without a session; a few requests check CSRF is enforced with a 403, never a 500.

Every request that gets a 5xx (or raises) is collected with what it sent and the traceback,
and the test fails listing them all; a 5xx already known (``KNOWN_500S``, each reproduced by
an xfail test here) is set aside instead, so that the run keeps looking for new ones.
"""

import json
import logging
import random
import re
import time
import traceback
from dataclasses import dataclass, field
from datetime import timedelta
from urllib.parse import quote, urlencode

import pytest
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import User
from django.contrib.auth.tokens import default_token_generator
from django.core.management import call_command
from django.db.models import Q
from django.test import Client
from django.test.client import BOUNDARY, MULTIPART_CONTENT
from django.urls import URLPattern, URLResolver, get_resolver, path
from django.urls.resolvers import LocalePrefixPattern, RegexPattern, RoutePattern
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from games import days
from games.models import Game, Move, new_public_id
from games.rules import VARIANTS, Record

from .conftest import HTMX, board, legal_move, post_move, start, won_record

#: How many requests each fuzzing run draws (one request an example).
GUEST_EXAMPLES = 1300
ACCOUNT_EXAMPLES = 1300
PASSWORD = "a fuzzing player's passphrase"

METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"]
UNSAFE = ["POST", "PUT", "DELETE", "PATCH"]
#: Every form or query field some view reads, and a few nobody does.
FIELDS = [
    "move",
    "ply",
    "version",
    "pick",
    "autoplay",
    "variant",
    "deal",
    "winnable",
    "text",
    "username",
    "password",
    "old_password",
    "password1",
    "password2",
    "new_password1",
    "new_password2",
    "email",
    "next",
    "page",
    "game",
    "result",
    "csrfmiddlewaretoken",
    "unexpected",
]
NOTATION = [
    "deal",
    "redeal",
    "w-t3",
    "w-f2",
    "t4-t7",
    "t4:3-t7",
    "t4-f1",
    "t4:13-f5",
    "f2-t7",
    "t1-t1",
    "t13:13-t12",
    "t0-t1",
    "t1:0-t2",
    "t1:1-t2",
    "t99999999999999999999-t1",
    "t1:99999999999999999999-t2",
    "f9-t1",
    "s-w",
    "w-w",
    "DEAL",
    " deal",
    "t1 - t2",
    "t1-t2-t3",
    "t\uff11-t2",
    "",
]
ODD = [
    "",
    " ",
    "0",
    "-1",
    "+1",
    "1.5",
    "1e9",
    "NaN",
    "null",
    "true",
    "[]",
    "{}",
    "\uff19",
    "٣",
    "²",
    "9" * 10,
    "9" * 40,
    "9" * 5000,
    "0" * 4400 + "1",
    "é",
    "☃",
    "🂡",
    "\u202e",
    "\x00",
    "a\nb",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "%00",
    "%zz",
    "../..",
    "//evil.example/",
    "https://evil.example/",
    "javascript:alert(1)",
    "http://[::1",
    "x" * 300,
]
CONTENT_TYPES = [
    "application/x-www-form-urlencoded",
    MULTIPART_CONTENT,
    "multipart/form-data",
    "multipart/form-data; boundary=",
    "multipart/form-data; boundary=nope",
    "application/json",
    "text/plain",
    "application/octet-stream",
    "text/html; charset=bogus",
    "application/x-www-form-urlencoded; charset=utf-16",
    "application/x-www-form-urlencoded; charset=nonexistent",
    "application/x-www-form-urlencoded; charset=latin-1",
    "application/x-www-form-urlencoded; charset=",
    f"{MULTIPART_CONTENT}; charset=utf-16",
    "",
    "☃/☃",
]
ACCEPT = ["text/html", "application/json", "*/*", "text/vnd.turbo-stream.html", "garbage;q=x"]


#: 5xx answers already known and reproduced by an xfail test below: (what the path starts
#: with, what the traceback says). The fuzzer sets them aside rather than fail on them again.
KNOWN_500S: list[tuple[str, str]] = []


@dataclass
class Sent:
    """A request as sent, to report it."""

    who: str
    method: str
    path: str
    headers: dict
    content_type: str = ""
    body: bytes = b""

    def __str__(self) -> str:
        body = self.body if len(self.body) <= 600 else self.body[:600] + b"..."
        return (
            f"{self.who}: {self.method} {self.path}\n  headers: {self.headers!r}\n"
            f"  content type: {self.content_type!r}\n  body: {body!r}"
        )


@dataclass
class Fuzzer:
    """The state of one run: the clients, the games worth aiming at, what went wrong."""

    client: Client
    who: str
    victims: list[str]
    user: User | None = None
    requests: int = 0
    failures: list[str] = field(default_factory=list)
    known: list[str] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)

    def own_games(self) -> list[Game]:
        if self.user is not None:
            games = Game.objects.filter(owner=self.user)
        else:
            key = self.client.session.session_key
            games = Game.objects.filter(owner__isnull=True, session_key=key) if key else []
        # Games being played first, newest first: they are where moves land.
        return sorted(games, key=lambda g: (g.status != Game.Status.PLAYING, -g.pk))

    def send(self, client: Client, sent: Sent) -> None:
        self.requests += 1
        try:
            response = client.generic(
                sent.method,
                sent.path,
                data=sent.body,
                content_type=sent.content_type,
                headers=sent.headers,
            )
        except Exception:
            self.failures.append(f"{sent}\n  raised:\n{traceback.format_exc()}")
            return
        status = response.status_code
        self.statuses[status] = self.statuses.get(status, 0) + 1
        exc_info = getattr(response, "exc_info", None)
        if status >= 500 or exc_info:
            trace = "".join(traceback.format_exception(*exc_info)) if exc_info else ""
            known = any(sent.path.startswith(p) and t in trace for p, t in KNOWN_500S)
            (self.known if known else self.failures).append(f"{sent}\n  answered {status}\n{trace}")


# -- the site's URLs ------------------------------------------------------------------------

PARAMETER = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>[^>]+)>")


def site_urls() -> list[tuple[str, str]]:
    """Every URL pattern of the site as (route, name), routes joined through includes."""
    found: list[tuple[str, str]] = []

    def walk(patterns, prefix: str) -> None:
        for p in patterns:
            if isinstance(p.pattern, LocalePrefixPattern):
                # The public pages, under the language prefix (the default language's here).
                walk(p.url_patterns, prefix + p.pattern.language_prefix)
                continue
            route = str(p.pattern)
            if isinstance(p.pattern, RegexPattern):
                route = regex_route(route)
            elif not isinstance(p.pattern, RoutePattern):
                raise AssertionError(f"teach the fuzzer these URL patterns: {p.pattern}")
            if isinstance(p, URLResolver):
                walk(p.url_patterns, prefix + route)
            elif isinstance(p, URLPattern):
                found.append((prefix + route, p.name or ""))

    walk(get_resolver().url_patterns, "")
    return found


def regex_route(regex: str) -> str:
    """A regex URL pattern (Django's admin has a few) as a route: its named groups become
    parameters, the fuzzer fills them as it fills a route's."""
    route = re.sub(r"\(\?P<(\w+)>[^)]*\)", r"<\1>", regex.removeprefix("^"))
    return route.removesuffix("$").removesuffix("\\Z").replace("\\", "")


URLS = site_urls()


def test_the_fuzzer_knows_every_url():
    names = {name for _route, name in URLS}
    assert {"game", "move", "undo", "import", "login", "password_reset_confirm"} <= names
    assert len(URLS) >= 30


# -- drawing requests -----------------------------------------------------------------------

#: Safe text: anything but lone surrogates, which no HTTP request can carry.
text = st.text(st.characters(blacklist_categories=["Cs"]), max_size=40)
#: What a header can carry: latin-1 without control characters.
header_text = st.text(st.characters(min_codepoint=32, max_codepoint=255), max_size=40)
odd_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | text,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(text, children, max_size=3),
    max_leaves=8,
).map(json.dumps)
half_right_record = st.builds(
    lambda v, d, m: json.dumps({"version": 1, "variant": v, "deal": d, "moves": m}),
    st.sampled_from([*VARIANTS, "klondike", ""]),
    st.one_of(st.integers(-1, 10**21), st.floats(), text),
    st.one_of(st.lists(st.sampled_from(NOTATION), max_size=6), text, st.integers()),
)
#: Everything an example draws, always in the same shape. Which of it a request uses depends
#: on the games in the database; Hypothesis wants the draws themselves never to depend on it.
PLAN = st.fixed_dictionaries(
    {
        "seed": st.integers(0, 2**32 - 1),
        "texts": st.lists(text, min_size=6, max_size=6),
        "headers": st.lists(header_text, min_size=4, max_size=4),
        "numbers": st.lists(
            st.one_of(st.integers(-5, 40), st.integers(-(10**30), 10**30)).map(str),
            min_size=4,
            max_size=4,
        ),
        "deals": st.lists(st.integers(1, 10**20 - 1).map(str), min_size=2, max_size=2),
        "binary": st.binary(max_size=300),
        "json": odd_json,
        "record": half_right_record,
    }
)


class Source:
    """The choices of one request: a seeded random generator and the example's drawn values."""

    def __init__(self, plan: dict):
        self.rng = random.Random(plan["seed"])
        self.plan = plan

    def chance(self, one_in: int) -> bool:
        return self.rng.randrange(one_in) == 0

    def choice(self, items):
        return self.rng.choice(list(items)) if items else None

    def text(self) -> str:
        return self.choice(self.plan["texts"])

    def odd(self) -> str:
        return self.choice(ODD) if self.rng.random() < 0.5 else self.text()

    def number(self) -> str:
        return self.choice(self.plan["numbers"]) if self.rng.random() < 0.6 else self.odd()

    def header(self) -> str:
        return self.choice(self.plan["headers"])

    def record(self, game: Game | None) -> str:
        """A record to import: a good one, one with an illegal move, broken or odd JSON."""
        kind = self.rng.randrange(6)
        if kind == 0:
            return won_record().to_json()
        if kind == 1 and game is not None:
            moves = list(game.log.order_by("ply").values_list("notation", flat=True))
            wrong = ["t1-t1"] if self.chance(2) else []
            return Record(game.variant, game.deal_number, moves + wrong).to_json()
        if kind == 2:
            return self.plan["json"]
        if kind == 3:
            return "[" * 3000 + "]" * 3000
        if kind == 4:
            return self.plan["record"]
        return self.odd()


def game_for(r: Source, fuzzer: Fuzzer, own: list[Game]) -> tuple[str, Game | None]:
    """A game id for a path: mostly the fuzzer's own, else someone else's or none at all."""
    choice = r.rng.randrange(20)
    if own and choice < 13:
        game = r.choice(own[:3])  # games being played first: they are where moves land
        return game.public_id, game
    if choice < 16:
        return r.choice(fuzzer.victims), None
    if choice < 17:
        return new_public_id(), None
    return r.odd(), None


def path_value(r: Source, name: str, fuzzer: Fuzzer, game: Game | None) -> str:
    good = not r.chance(4)
    if name == "variant":
        return r.choice(VARIANTS) if good else r.odd()
    if name == "deal":
        return r.choice(r.plan["deals"] + ["1", "31999", "32000"]) if good else r.number()
    if name == "ply":
        return str(r.rng.randrange(game.ply + 3)) if good and game is not None else r.number()
    if name == "day":
        day = days.today() - timedelta(days=r.rng.randrange(-2, 400))
        return day.isoformat() if good else r.choice(["2026-02-30", "0000-00-00", r.number()])
    if name in ("year", "month"):
        return str(days.today().year if name == "year" else r.rng.randrange(0, 14))
    if good and fuzzer.user is not None:
        if name == "uidb64":
            return urlsafe_base64_encode(force_bytes(fuzzer.user.pk))
        if name == "token":
            return r.choice(["set-password", default_token_generator.make_token(fuzzer.user)])
    return r.odd()


def field_value(r: Source, name: str, fuzzer: Fuzzer, game: Game | None) -> str:
    """A value for a form or query field: sometimes right, often wrong."""
    good = r.chance(3)
    if name == "move":
        if good and game is not None and not game.is_finished:
            legal = [str(m) for m in game.position().legal_moves()]
            if legal:
                return r.choice(legal)
        return r.choice(NOTATION) if r.chance(2) else r.odd()
    if name == "pick":
        picks = ["w", "t1", "t3:2", "t13:13", "f1", "s", "t0", "t1:0"]
        return r.choice(picks) if r.chance(2) else r.odd()
    if name in ("ply", "version"):
        if game is not None and r.chance(2):
            now = game.ply if name == "ply" else game.version
            return str(max(0, now + r.choice([0, 0, 0, -1, 1, -now])))
        return r.number()
    if name == "autoplay":
        return r.choice(["on", "off", "On", "1", ""]) if r.chance(2) else r.odd()
    if name in ("variant", "game"):
        return r.choice(VARIANTS) if good else r.odd()
    if name == "winnable":
        return r.choice(["on", "", "off"]) if good else r.odd()
    if name == "deal":
        return r.choice(r.plan["deals"]) if good else r.number()
    if name == "result":
        return r.choice(["won", "lost", "unfinished"]) if good else r.odd()
    if name == "text":
        return r.record(game)
    if name == "username":
        return r.choice(["player", "victim", "PLAYER", "nobody"]) if good else r.odd()
    if name in ("password", "old_password"):
        return PASSWORD if good else r.odd()
    if name == "email":
        return r.choice(["victim@example.com", "a@b.c", "@", "a@"]) if good else r.odd()
    if name == "next":
        return r.choice(["/", "/my/", "//evil.example/", "/account/login/"]) if good else r.odd()
    return r.number() if r.chance(2) else r.odd()


def draw_headers(r: Source) -> dict:
    headers = {}
    if r.chance(2):
        headers["HX-Request"] = r.choice(["true", "true", "false", "", r.header()])
    if r.chance(4):
        headers["HX-Target"] = r.choice(["board", "answer", "#x", r.header()])
    if r.chance(6):
        headers["HX-History-Restore-Request"] = r.choice(["true", "x"])
    if r.chance(6):
        headers["HX-Current-URL"] = r.header()
    if r.chance(4):
        headers["Accept"] = r.choice([*ACCEPT, r.header()])
    if r.chance(10):
        headers["Referer"] = r.header()
    if r.chance(20):
        headers["Host"] = r.choice(["evil.example", "", "[::1", "a b", r.header()])
    if r.chance(20):
        headers["Accept-Language"] = r.choice(["fr", "*", "x" * 300, r.header()])
    if r.chance(10):
        headers["X-Forwarded-For"] = r.choice(["::1", "10.0.0.1, 2001:db8::1", r.header()])
    return headers


def draw_fields(r: Source, fuzzer: Fuzzer, game: Game | None) -> list[tuple[str, str]]:
    names = [r.choice(FIELDS) for _ in range(r.rng.randrange(7))]
    pairs = [(n, field_value(r, n, fuzzer, game)) for n in names]
    if r.chance(10):
        pairs.append((r.text(), r.text()))
    return pairs


def multipart(fields: list[tuple[str, str]], upload: tuple[str, bytes] | None) -> bytes:
    """A multipart/form-data body as a browser writes it (any file name, as given)."""
    parts = [
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
        for name, value in fields
    ]
    if upload is not None:
        name, content = upload
        head = (
            f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\n'
            "Content-Type: application/json\r\n\r\n"
        )
        parts.append(head.encode() + content + b"\r\n")
    return b"".join(parts) + f"--{BOUNDARY}--\r\n".encode()


def draw_body(r: Source, fuzzer: Fuzzer, game: Game | None) -> tuple[str, bytes]:
    """(content type, body): a form, a multipart form, JSON, bytes, far too many fields."""
    kind = r.rng.randrange(20)
    if kind < 8:
        return "application/x-www-form-urlencoded", urlencode(draw_fields(r, fuzzer, game)).encode()
    if kind < 11:
        upload = None
        if r.chance(2):
            name = r.choice(["r.json", "", "../../etc/passwd", "é.json", 'a"b'])
            content = r.plan["binary"] if r.chance(2) else r.record(game).encode()
            upload = (name, content)
        return MULTIPART_CONTENT, multipart(draw_fields(r, fuzzer, game), upload)
    if kind < 13:
        return "application/json", json.dumps(dict(draw_fields(r, fuzzer, game))).encode()
    if kind < 15:
        return r.choice(CONTENT_TYPES), r.plan["binary"]
    if kind < 16:
        many = r.rng.randrange(1001, 1300)
        return "application/x-www-form-urlencoded", "&".join(
            f"f{i}={i}" for i in range(many)
        ).encode()
    if kind < 17:
        return r.choice(CONTENT_TYPES), b""
    # A form body under the wrong name, or the other way round.
    return r.choice(CONTENT_TYPES), urlencode(draw_fields(r, fuzzer, game)).encode()


def draw_request(r: Source, fuzzer: Fuzzer) -> Sent:
    own = fuzzer.own_games()
    if own and own[0].status == Game.Status.PLAYING and r.chance(4):
        return well_formed(r, fuzzer, r.choice(own[:2]))
    if r.chance(40):
        path = "/" + quote(r.text(), safe="/")
        return Sent(fuzzer.who, r.choice(METHODS), path, draw_headers(r))
    route, _name = r.choice(URLS)
    game = own[0] if own else None
    values = {}
    for m in PARAMETER.finditer(route):
        if m["name"] == "public_id":
            values["public_id"], game = game_for(r, fuzzer, own)
        else:
            values[m["name"]] = path_value(r, m["name"], fuzzer, game)
    path = "/" + PARAMETER.sub(lambda m: quote(values[m["name"]], safe=""), route)

    if r.chance(3):
        query = draw_fields(r, fuzzer, game)
        path += "?" + (r.header() if r.chance(6) else urlencode(query))
    # Mostly the methods the views take; the rest are 405s, quickly answered.
    method = r.choice(["POST"] * 9 + ["GET"] * 7 + [*METHODS, "TRACE", "FUZZ"])
    headers = draw_headers(r)
    content_type, body = ("", b"")
    if method not in ("GET", "HEAD") or r.chance(10):
        content_type, body = draw_body(r, fuzzer, game)
    return Sent(fuzzer.who, method, path, headers, content_type, body)


def well_formed(r: Source, fuzzer: Fuzzer, game: Game) -> Sent:
    """A request as the game page makes it (a legal move mostly): these make the games move."""
    legal = [str(m) for m in game.position().legal_moves()]
    action = r.choice(["move"] * 8 + ["to-foundation", "undo", "redo"])
    fields = {"ply": game.ply, "move": r.choice(legal) or "deal", "pick": r.choice(["w", "t1"])}
    if r.chance(2):
        fields["version"] = game.version
    headers = {"HX-Request": "true"} if r.chance(2) else {}
    path = f"/g/{game.public_id}/{action}/"
    form = "application/x-www-form-urlencoded"
    return Sent(fuzzer.who, "POST", path, headers, form, urlencode(fields).encode())


def fuzz(fuzzer: Fuzzer, examples: int, *, between=None, strangers: bool = False) -> None:
    """Send ``examples`` drawn requests; ``between`` runs after each (to log back in)."""

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(PLAN)
    def run(plan):
        r = Source(plan)
        client = fuzzer.client
        sent = draw_request(r, fuzzer)
        if strangers and r.chance(5):
            client = Client(raise_request_exception=False)  # no session at all
            sent.who = "a browser without a session"
        fuzzer.send(client, sent)
        if between is not None:
            between()

    run()


# -- the players ----------------------------------------------------------------------------


def undo_last(client: Client, game: Game) -> None:
    game.refresh_from_db()
    client.post(f"/g/{game.public_id}/undo/", {"ply": game.ply}, headers={"HX-Request": "true"})


def play_some(client: Client, variant: str, deal: int, moves: int) -> Game:
    game = start(client, variant, deal)
    for _ in range(moves):
        game.refresh_from_db()
        if game.status != "playing":
            break
        post_move(client, game, legal_move(game))
    return game


@pytest.fixture
def victims(db) -> dict:
    """Two players the fuzzer never is: an account and a guest, each with games."""
    account = User.objects.create_user("victim", "victim@example.com", new_public_id())
    victim = Client()
    victim.force_login(account)
    a = play_some(victim, "forty-thieves", 1, 5)
    undo_last(victim, a)
    play_some(victim, "forty-devils", 7, 3)
    guest = Client()
    g = play_some(guest, "little-forty", 11, 4)
    guest.post(f"/g/{g.public_id}/give-up/", board(g))
    play_some(guest, "indian", 1, 2)
    key = guest.session.session_key
    games = Game.objects.filter(Q(owner=account) | Q(owner__isnull=True, session_key=key))
    return {"user": account, "games": games, "ids": [g.public_id for g in games]}


def everything_of(victims: dict) -> dict:
    """Every field of the victims' games, of every row hanging on them, and of the account."""
    games = victims["games"]
    pks = list(games.values_list("pk", flat=True))
    rows = {"games": list(games.order_by("pk").values())}
    for relation in Game._meta.related_objects:
        model = relation.related_model
        found = model.objects.filter(**{f"{relation.field.name}__in": pks}).order_by("pk")
        rows[model._meta.label] = list(found.values())
    rows["user"] = list(User.objects.filter(pk=victims["user"].pk).values())
    return rows


def finish(fuzzer: Fuzzer, victims: dict, before: dict, started: float) -> None:
    """The checks after a run: no 5xx, every game replays, the victims untouched."""
    seconds = time.monotonic() - started
    moves = Move.objects.exclude(game__in=victims["games"]).count()
    print(
        f"\n{fuzzer.who}: {fuzzer.requests} requests in {seconds:.1f} s, "
        f"{moves} moves in the fuzzer's logs; statuses {sorted(fuzzer.statuses.items())}; "
        f"{len(fuzzer.known)} known 5xx set aside"
    )
    assert not fuzzer.failures, (
        f"{len(fuzzer.failures)} request(s) answered 5xx or raised:\n\n"
        + "\n\n".join(fuzzer.failures[:10])
    )
    assert fuzzer.requests >= 1000
    # The fuzzer reached the pages themselves, not only refusals: its draws are random, and a
    # guest's run of 1,300 requests was seen to get from 82 to 143 answers of 2xx.
    assert sum(n for status, n in fuzzer.statuses.items() if status < 300) > 50
    call_command("check_games")  # a CommandError fails the test, naming every mismatch
    assert everything_of(victims) == before


@pytest.fixture
def quiet():
    """The 4xx answers are logged (bad hosts as errors): thousands of lines, and slower."""
    loggers = [logging.getLogger(name) for name in ("django.request", "django.security")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL)
    yield
    for logger, level in zip(loggers, levels, strict=True):
        logger.setLevel(level)


# -- the runs -------------------------------------------------------------------------------


@pytest.mark.slow
def test_fuzzing_as_a_guest_and_without_a_session(victims, quiet, settings):
    # Behind a proxy, as in production: the log-in throttle reads the client's address from a
    # header, which the fuzzer garbles too.
    settings.CLIENT_IP_HEADER = "X-Forwarded-For"
    before = everything_of(victims)
    client = Client(raise_request_exception=False)
    play_some(client, "forty-thieves", 3, 3)
    play_some(client, "little-forty", 5, 3)
    fuzzer = Fuzzer(client, "guest", victims["ids"])

    def keep_a_game_going():
        # A run of restarts and give-ups (or a sign-up) can leave the guest nothing to play.
        if not fuzzer.own_games() or fuzzer.own_games()[0].is_finished:
            fuzzer.client = Client(raise_request_exception=False)
            start(fuzzer.client, "streets", 4)

    started = time.monotonic()
    fuzz(fuzzer, GUEST_EXAMPLES, between=keep_a_game_going, strangers=True)
    finish(fuzzer, victims, before, started)


@pytest.mark.slow
def test_fuzzing_as_a_logged_in_player(victims, quiet):
    before = everything_of(victims)
    user = User.objects.create_user("player", "player@example.com", PASSWORD)
    client = Client(raise_request_exception=False)
    client.force_login(user)
    play_some(client, "forty-thieves", 2, 3)
    play_some(client, "number-ten", 9, 3)
    fuzzer = Fuzzer(client, "player", victims["ids"], user=user)

    def stay_logged_in():
        # Logging out, deleting the account, a changed password: back in as the player.
        if fuzzer.client.session.get(SESSION_KEY) != str(fuzzer.user.pk):
            user = User.objects.filter(username="player").first()
            if user is None:
                user = User.objects.create_user("player", "player@example.com", PASSWORD)
            user.set_password(PASSWORD)
            user.save()
            fuzzer.user = user
            fuzzer.client = Client(raise_request_exception=False)
            fuzzer.client.force_login(user)
        own = fuzzer.own_games()
        if not own or own[0].is_finished:
            start(fuzzer.client, "maria", 6)

    started = time.monotonic()
    fuzz(fuzzer, ACCOUNT_EXAMPLES, between=stay_logged_in)
    finish(fuzzer, victims, before, started)


def test_csrf_is_enforced_with_a_403(victims, quiet):
    """Without a good token every unsafe method on every URL is refused, and nothing changes:
    with no CSRF cookie, and with the cookie but no token or a wrong one in the form."""
    before = everything_of(victims)
    user = User.objects.create_user("player", "player@example.com", PASSWORD)
    player = Client()
    player.force_login(user)
    game = play_some(player, "forty-thieves", 2, 2)
    no_cookie = Client(enforce_csrf_checks=True, raise_request_exception=False)
    no_cookie.cookies = player.cookies
    with_cookie = Client(enforce_csrf_checks=True, raise_request_exception=False)
    with_cookie.force_login(user)
    assert with_cookie.get("/en/").status_code == 200 and "csrftoken" in with_cookie.cookies
    game.refresh_from_db()
    values = {"public_id": game.public_id, "variant": "lucas", "deal": "5", "ply": "1"}
    values |= {"day": days.today().isoformat(), "year": "2026", "month": "1"}
    values |= {"uidb64": urlsafe_base64_encode(force_bytes(user.pk)), "token": "set-password"}
    fields = {"move": legal_move(game), "ply": game.ply, "version": game.version}
    snapshot = game.snapshot
    answers = {}
    for route, name in URLS:
        path = "/" + PARAMETER.sub(lambda m: quote(values.get(m["name"], "x"), safe=""), route)
        for n, method in enumerate(UNSAFE):
            headers = {"HX-Request": "true"} if n % 2 else {}
            for who, client, token in [
                ("no cookie", no_cookie, {}),
                ("no token", with_cookie, {}),
                ("wrong token", with_cookie, {"csrfmiddlewaretoken": "x" * 32}),
            ]:
                data = urlencode(fields | token)
                response = client.generic(
                    method, path, data, "application/x-www-form-urlencoded", headers=headers
                )
                answers[(name, method, who)] = response.status_code
    assert len(answers) >= 100
    assert set(answers.values()) == {403}, {k: v for k, v in answers.items() if v != 403}
    game.refresh_from_db()
    assert game.snapshot == snapshot
    # The log-outs were refused too.
    assert no_cookie.session.get(SESSION_KEY) == with_cookie.session.get(SESSION_KEY)
    assert with_cookie.session.get(SESSION_KEY) == str(user.pk)
    assert everything_of(victims) == before


#: Bodies in charsets and encodings a form is never sent in: (Content-Type, body).
BAD_BODIES = [
    ("application/x-www-form-urlencoded; charset=latin-1", b"move=t1-t2&username=\xe9"),
    ("application/x-www-form-urlencoded; charset=iso-8859-1", b"ply=1&text=caf\xe9"),
    ("application/x-www-form-urlencoded; charset=utf-16", "move=t1-t2&ply=0".encode("utf-16")),
    ("application/x-www-form-urlencoded; charset=utf-32", "deal=1".encode("utf-32")),
    ("application/x-www-form-urlencoded; charset=nonexistent", b"move=deal"),
    ("application/x-www-form-urlencoded; charset=\u2603", b"move=deal"),
    ("application/x-www-form-urlencoded; charset=", b"move=deal"),
    ("application/x-www-form-urlencoded", b"move=\xff\xfe\xc3&ply=%zz&%=%%"),
    ("application/x-www-form-urlencoded", "move=t1-t2".encode("utf-16")),
    (f"{MULTIPART_CONTENT}; charset=utf-16", multipart([("move", "deal")], None)),
    ("multipart/form-data; boundary=x; charset=latin-1", b"--x\r\n\xe9\r\n--x--"),
    ("multipart/form-data; boundary=\xff", b"--\xff\r\n--\xff--"),
    ("application/json; charset=utf-16", '{"move": "deal"}'.encode("utf-16")),
    ("text/plain; charset=bogus", b"\x00\xff"),
]
BAD_METHODS = ["PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "FUZZ", "CONNECT"]


def bad_bodies_at(client: Client, path: str, token: str) -> dict:
    """Every bad body to ``path`` by POST, GET and a method no view takes: what was answered
    wrong (a 5xx, or anything but a 400 for a POSTed form in another charset than UTF-8)."""
    wrong = {}
    for n, (content_type, body) in enumerate(BAD_BODIES):
        headers = {"X-CSRFToken": token, **(HTMX if n % 2 else {})}
        not_utf8 = "charset=" in content_type and "charset=utf-8" not in content_type
        for method in ["POST", "GET", BAD_METHODS[n % len(BAD_METHODS)]]:
            status = client.generic(method, path, body, content_type, headers=headers).status_code
            if status >= 500 or (method == "POST" and not_utf8 and status != 400):
                wrong[(method, content_type)] = status
    return wrong


@pytest.mark.slow
def test_every_url_answers_bad_charsets_encodings_and_methods_with_a_4xx(victims, caplog):
    """Every URL the resolver knows, GET and POST and methods no view takes, with bodies in
    charsets and encodings no browser sends, from a client that enforces CSRF with a cookie
    and header it chose itself (so the CSRF check reads the form): never a 5xx, never an error
    logged, and a form in another charset than UTF-8 is a 400. Nothing changes."""
    before = everything_of(victims)
    user = User.objects.create_user("player", "player@example.com", PASSWORD)
    player = Client()
    player.force_login(user)
    game = play_some(player, "forty-thieves", 2, 2)
    values = {"public_id": game.public_id, "variant": "lucas", "deal": "5", "ply": "1"}
    values |= {"day": days.today().isoformat(), "year": "2026", "month": "1"}
    values |= {"uidb64": urlsafe_base64_encode(force_bytes(user.pk)), "token": "set-password"}
    game.refresh_from_db()
    snapshot = game.snapshot
    token = "b" * 32
    wrong = {}
    with caplog.at_level(logging.WARNING):
        for who in ("player", "stranger"):
            client = Client(enforce_csrf_checks=True, raise_request_exception=False)
            if who == "player":
                client.force_login(user)
            client.cookies["csrftoken"] = token
            for route, name in URLS:
                fill = lambda m: quote(values.get(m["name"], "x"), safe="")  # noqa: E731
                found = bad_bodies_at(client, "/" + PARAMETER.sub(fill, route), token)
                wrong |= {(who, name, *k): v for k, v in found.items()}
    assert len(URLS) * len(BAD_BODIES) * 3 * 2 >= 2000
    assert wrong == {}
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
    game.refresh_from_db()
    assert game.snapshot == snapshot
    assert everything_of(victims) == before


@pytest.mark.parametrize("path", ["/new/", "/import/", "/account/login/", "/account/signup/"])
def test_a_body_over_the_size_limit_is_a_400(db, path, quiet):
    client = Client(raise_request_exception=False)
    start(client)
    body = b"text=" + b"x" * (3 * 1024 * 1024)
    response = client.generic("POST", path, body, "application/x-www-form-urlencoded")
    assert response.status_code == 400


def test_a_deal_number_with_thousands_of_leading_zeros_is_deal_1_not_a_500(db, quiet):
    """Found by the fuzzer: int() refuses more than 4300 digits, leading zeros included."""
    client = Client(raise_request_exception=False)
    response = client.get("/en/play/forty-thieves/" + "0" * 4300 + "1/")
    assert response.status_code == 200
    assert response.context["game"].deal == "1"
    assert client.get("/en/play/forty-thieves/" + "9" * 4301 + "/").status_code == 400


def broken(request):
    raise RuntimeError("a bug")


#: The URLs of ``test_the_fuzzer_reports_a_500``: one view that fails.
urlpatterns = [path("broken/", broken)]


def test_the_fuzzer_reports_a_500(db, settings, quiet):
    settings.ROOT_URLCONF = __name__
    fuzzer = Fuzzer(Client(raise_request_exception=False), "guest", [])
    fuzzer.send(fuzzer.client, Sent("guest", "POST", "/broken/", {"HX-Request": "true"}))
    assert fuzzer.statuses == {500: 1}
    [failure] = fuzzer.failures
    assert "POST /broken/" in failure and "HX-Request" in failure
    assert "RuntimeError: a bug" in failure
