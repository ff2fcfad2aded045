"""Shared games: **Share** makes a public, read-only link to the player's game
(``/s/<token>/``); the link's page shows the deal, its grade, the result and the replay move by
move, with "Play this deal", and carries Open Graph and Twitter card tags whose image is the
board drawn on the server (``/s/<token>/board.png``, cached); the owner may withdraw it, after
which it is a 404."""

import threading
from collections.abc import Callable
from html import unescape

from django.contrib import messages
from django.core.cache import caches
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET, require_POST

from solitaire import limits

from ..forms import NewGameForm
from ..images import board_png
from ..kept import Kept
from ..models import Game, SharedGame
from ..rules import VARIANTS
from ..selectors import sharing as links
from ..selectors.daily import day_not_over
from ..selectors.deals import grade_known, grade_words
from ..selectors.games import replayed_at
from ..services import sharing
from .draw import game_url
from .edge import NO_SUCH_GAME, or_404
from .history import replay_page

#: Where drawn boards are kept: a cache of their own (settings.CACHES["images"], on the file
#: system), so that images never evict the limits' counters in the default cache.
IMAGES = "images"
#: Drawn boards kept in each process's memory too, in front of that cache, so that a crowd
#: opening one link reads no file: by (token, language), each with what it was drawn for
#: (``kept_image``). A board's PNG (1200 x 630) is about 44 KB: games/kept.py's 4,096 would be
#: some 180 MB a process, 256 are about 11 MB, and a crowd opens one link or a few at a time.
IMAGES_KEPT = Kept(most=256)
_drawing = threading.Lock()


def link_or_404(token: str) -> SharedGame:
    link = links.shared(token)
    if link is None:
        raise Http404(NO_SUCH_GAME)
    return link


@require_POST
@limits.per_address("share-address")
def share(request: HttpRequest, public_id: str) -> HttpResponse:
    """Make (or find) the link to the player's game, and show its page."""
    link = or_404(sharing.share, request.owner, public_id)
    messages.success(request, _("Anyone with this link sees this game, read-only."))
    return redirect("games:shared", link.token)


@require_POST
def withdraw(request: HttpRequest, token: str) -> HttpResponse:
    """The owner withdraws the link: from now on it is a 404. Anyone else: a 404."""
    game = sharing.withdraw(request.owner, token)
    if game is None:
        raise Http404(NO_SUCH_GAME)
    messages.success(request, _("The link is withdrawn: it no longer opens this game."))
    return redirect(game_url(game))


@require_GET
@limits.per_address("page-address", methods=("GET",))
def shared(request: HttpRequest, token: str, ply: int | None = None) -> HttpResponse:
    """The shared game at ``ply``, read-only: from the deal when none is given, so that a friend
    watches it unfold (Play, the arrow keys); a ply past the end shows the end.

    What every reader of the link sees (its header, the board and the replay) is drawn once
    per process for the link, the game's version, the ply, the hidden day, the player's name,
    the grade and the language (games/share.html's frames), and the log is read only then."""
    link = link_or_404(token)
    game = link.game
    at = 0 if ply is None else min(ply, game.ply)
    hidden_day = day_not_over(game)
    if hidden_day is not None:
        at = 0  # a daily game's moves show once its day is over
    image = request.build_absolute_uri(reverse("games:shared_image", args=[token]))
    return replay_page(
        request,
        game,
        at,
        lambda target: reverse("games:shared_at", args=[token, target]),
        page="games/share.html",
        link=link,
        grade=grade_words(grade_known(game.variant, game.deal, link.stored_grade)),
        name=link.owner_name or "",
        mine=request.owner.owns(game),
        image_url=image,
        page_url=request.build_absolute_uri(reverse("games:shared", args=[token])),
        again=NewGameForm(initial={"variant": game.variant, "deal": game.deal}),
        hidden_day=hidden_day,
    )


@require_GET
@limits.per_address("share-image-address", methods=("GET",))
# Asked again each time (a withdrawn link's image is gone at once); drawn once per version.
@cache_control(public=True, max_age=0, must_revalidate=True)
def shared_image(request: HttpRequest, token: str) -> HttpResponse:
    """The board of the shared game as it now is, a PNG, drawn once per version of the game."""
    link = link_or_404(token)
    game = link.game
    # A daily game's board, while its day is not over, is the deal as dealt (its moves hidden).
    hidden = day_not_over(game) is not None
    name = link.owner_name or ""
    grade = grade_known(game.variant, game.deal, link.stored_grade)

    def draw() -> bytes:
        title, summary = image_words(game, name, grade)
        position = replayed_at(game, 0).before if hidden else game.position()
        return board_png(position, title, summary)

    # Named by what it shows: the game's version (its board, counts and time) or, while the
    # moves are hidden, the deal as dealt, drawn once; the help, the name and the grade, which
    # change without a new version.
    drawn = ("dealt" if hidden else game.version, game.helped, name, grade)
    response = HttpResponse(kept_image(token, drawn, draw), content_type="image/png")
    # Its words are the reader's language's (the cookie's, else the browser's).
    patch_vary_headers(response, ["Accept-Language", "Cookie"])
    return response


def kept_image(token: str, drawn: tuple, draw: Callable[[], bytes]) -> bytes:
    """The link's image in the active language as ``drawn`` names it: from this process's
    memory, else from the file cache (another process may have drawn it), else drawn
    (one thread at a time, so that a crowd opening a new version draws it once) and kept in
    both. One image per link and language: a newer one replaces the older."""
    key = (token, get_language())
    name = f"share-png:{token}:{key[1]}"
    held = IMAGES_KEPT.get(key, lambda: caches[IMAGES].get(name), keep=lambda h: h is not None)
    if held is not None and held[0] == drawn:
        return held[1]
    with _drawing:
        # Another thread may have kept it while this one waited.
        held = IMAGES_KEPT.get(key, lambda: None, keep=lambda _h: False)
        if held is None or held[0] != drawn:
            held = caches[IMAGES].get(name)
            if held is None or held[0] != drawn:
                held = (drawn, draw())
                caches[IMAGES].set(name, held)
            IMAGES_KEPT.put(key, held)
    return held[1]


def image_words(game: Game, name: str | None = None, grade: str | None = None) -> tuple[str, str]:
    """The image's title and summary: the shared page's own (games/share.html), as text.
    ``name`` and ``grade`` (the grade's code): read when not given."""
    if name is None:
        name = links.owner_name(game)
    if grade is None:
        grade = grade_known(game.variant, game.deal)
    context = {
        "variant": VARIANTS[game.variant],
        "game": game,
        "name": name,
        "grade": grade_words(grade),
    }
    title, summary = (
        " ".join(unescape(render_to_string(f"games/share.html#{part}", context)).split())
        for part in ("title", "summary")
    )
    return title, summary
