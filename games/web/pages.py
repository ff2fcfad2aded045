"""The public pages: the home page and a picture of each game's table, the rules of each game,
starting a game, a deal's link, and the load balancers' health check."""

import hashlib
import secrets

from django.conf import settings
from django.contrib import messages
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import get_conditional_response
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET, require_POST

from solitaire import limits

from ..forms import RANDOM_DEALS, NewGameForm, parse_deal_number
from ..guide import BUILD_WORDS, DETAILS, PYSOLFC, SUMMARIES, game_name, layout
from ..images import PICTURE_HEIGHT, PICTURE_WIDTH, board_png
from ..rules import MAX_DEAL, VARIANTS
from ..rules.deal import first_position
from ..selectors.deals import winnability
from ..selectors.games import in_progress
from ..services import assist, daily, play
from ..words import NO_WINNABLE_DEAL, RANK_MARKS
from .edge import echo, open_game, page_here, variant_or_404
from .player import autoplay_settings, with_session
from .share import IMAGES

#: How many games in progress the home page lists.
HOME_GAMES = 50
#: The deal each game's picture on the home page shows, as dealt.
PICTURED_DEAL = 1
#: How long a browser or a proxy keeps a game's picture before it asks again (with its ETag).
PICTURE_SECONDS = 24 * 60 * 60


@require_GET
def health(request: HttpRequest) -> HttpResponse:
    """For load balancers and monitors: the process answers (no database, no session)."""
    return HttpResponse("ok\n", content_type="text/plain")


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return _home(request, NewGameForm())


@require_GET
@cache_control(public=True, max_age=PICTURE_SECONDS)
def picture(request: HttpRequest, variant: str) -> HttpResponse:
    """A small picture of ``variant``'s table as dealt (a PNG), the same for everyone: its
    cards' letters are the language's (the URL's prefix), so each game and language is drawn
    once and kept, and a browser that has it gets a 304 for its ETag."""
    rules_of = variant_or_404(variant)
    marks = [str(mark) for mark in RANK_MARKS]
    key = f"picture:{variant}:{PICTURED_DEAL}:{'.'.join(marks)}"
    png = caches[IMAGES].get(key)
    if png is None:
        position = first_position(rules_of, PICTURED_DEAL)
        png = board_png(position, size=(PICTURE_WIDTH, PICTURE_HEIGHT), marks=marks)
        caches[IMAGES].set(key, png)
    etag = f'"{hashlib.sha256(png).hexdigest()[:32]}"'
    response = HttpResponse(png, content_type="image/png")
    response["ETag"] = etag
    return get_conditional_response(request, etag=etag, response=response)


@require_GET
def rules(request: HttpRequest, variant: str) -> HttpResponse:
    rules_of = variant_or_404(variant)
    return render(
        request,
        "games/rules.html",
        {
            "variant": rules_of,
            "summary": SUMMARIES[variant],
            "layout": layout(rules_of),
            "build": BUILD_WORDS[rules_of.build],
            "details": DETAILS.get(variant, []),
            "pysolfc": PYSOLFC.get(variant),
            "winnability": winnability(variant),
            # In a language that keeps the game's English name, the page says why.
            "name_kept": get_language() != settings.LANGUAGE_CODE
            and game_name(variant) == rules_of.name,
        },
    )


@require_POST
@limits.per_address("new-game-address")
def new_game(request: HttpRequest) -> HttpResponse:
    """Start a game of the posted game type: the posted deal number, or a random one. Its page
    is the answer when the form was sent by a page whose script runs, else a redirect to it
    (``open_game``)."""
    form = NewGameForm(request.POST)
    if not form.is_valid():
        return _home(request, form, status=400)
    owner = with_session(request)
    deal = form.cleaned_data["deal"]
    if deal is None and form.cleaned_data["grade"]:
        deal = daily.graded_deal(owner, form.cleaned_data["variant"], form.cleaned_data["grade"])
        if deal is None:
            messages.info(
                request, _("No deal of that difficulty is known yet: here is one at random.")
            )
    elif deal is None and form.cleaned_data["winnable"]:
        deal = assist.winnable_deal(owner, form.cleaned_data["variant"])
        if deal is None:
            messages.info(request, NO_WINNABLE_DEAL)
    deal = deal or secrets.randbelow(RANDOM_DEALS) + 1
    game = play.start_game(owner, form.cleaned_data["variant"], deal, autoplay_settings(request))
    return open_game(request, game, here=page_here(request))


@require_GET
@limits.per_address("new-game-address", methods=("GET",))
def open_deal(request: HttpRequest, variant: str, deal: str) -> HttpResponse:
    """The shareable link to a deal: start (or resume, if untouched) a game of it, whose page
    is the answer (``open_game``)."""
    variant_or_404(variant)
    number = parse_deal_number(deal)
    if number is None:
        problem = _(
            "“%(deal)s” is not a deal number: a deal number is a whole number from 1 to %(max)s."
        ) % {"deal": echo(deal), "max": MAX_DEAL}
        return render(request, "games/problem.html", {"problem": problem}, status=400)
    owner = with_session(request)
    game = play.find_or_start_game(owner, variant, number, autoplay_settings(request))
    return open_game(request, game, here=True)


def _home(request: HttpRequest, form: NewGameForm, status: int = 200) -> HttpResponse:
    games = in_progress(request.owner, HOME_GAMES)
    variants = [(v, SUMMARIES[v.id]) for v in VARIANTS.values()]
    return render(
        request,
        "games/home.html",
        {
            "variants": variants,
            "form": form,
            "games": games,
            "picture_size": (PICTURE_WIDTH // 2, PICTURE_HEIGHT // 2),
        },
        status=status,
    )
