"""Shared games: **Share** makes a public, read-only link to the player's game
(``/s/<token>/``); the link's page shows the deal, its grade, the result and the replay move by
move, with "Play this deal", and carries Open Graph and Twitter card tags whose image is the
board drawn on the server (``/s/<token>/board.png``, cached); the owner may withdraw it, after
which it is a 404."""

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
    game = link_or_404(token).game
    # A daily game's board, while its day is not over, is the deal as dealt (its moves hidden).
    hidden = day_not_over(game) is not None
    # One image per link and language, named by what it shows: a newer version replaces the
    # older one.
    drawn = "dealt" if hidden else str(game.version)
    key = f"share-png:{token}:{get_language()}"
    kept = caches[IMAGES].get(key)
    if kept is not None and kept[0] == drawn:
        png = kept[1]
    else:
        title, summary = image_words(game)
        position = replayed_at(game, 0).before if hidden else game.position()
        png = board_png(position, title, summary)
        caches[IMAGES].set(key, (drawn, png))
    response = HttpResponse(png, content_type="image/png")
    # Its words are the reader's language's (the cookie's, else the browser's).
    patch_vary_headers(response, ["Accept-Language", "Cookie"])
    return response


def image_words(game: Game) -> tuple[str, str]:
    """The image's title and summary: the shared page's own (games/share.html), as text."""
    context = {
        "variant": VARIANTS[game.variant],
        "game": game,
        "name": links.owner_name(game),
        "grade": grade_words(grade_known(game.variant, game.deal)),
    }
    title, summary = (
        " ".join(unescape(render_to_string(f"games/share.html#{part}", context)).split())
        for part in ("title", "summary")
    )
    return title, summary
