"""Looks: how the site looks (and sounds) to a player (light or dark, the table's colour, the
cards' backs, two or four colours, the cards' size, the animation speed, whether one tap plays
a card's only move, whether the table shows the moves and the clock, the sounds and their
volume), chosen on the Looks page.

A choice is kept in the browser (a cookie, so that the very first paint of every page has it,
guest or not) and, for a player with an account, on the account (``Preferences``), which every
device of theirs follows. The page's ``<html>`` carries the looks as data attributes
(``{% looks_attributes %}``, templates/base.html): ``data-theme``, ``data-table``,
``data-back``, ``data-deck``, ``data-cards`` ("large": corner letters of at least 20 px, for
low vision), ``data-motion`` (the cards' pace: "slow", "normal", "fast", or
"off", for static/js/game/standins.js), ``data-tap`` (static/js/game/input/click.js),
``data-counters`` ("hidden": a relaxed game, no moves or clock on the table), ``data-sound``
and ``data-volume`` (static/js/game/sound.js). static/css/site.css draws them.
"""

from urllib.parse import urlsplit, urlunsplit

from django import forms
from django.conf import settings
from django.contrib import messages
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from .models import (
    CardBack,
    CardSize,
    Counters,
    Deck,
    Motion,
    OneTap,
    Preferences,
    Sound,
    TableColour,
    Theme,
    Volume,
)

COOKIE = "looks"
#: A year: looks are chosen once and kept.
COOKIE_AGE = 365 * 24 * 3600
#: Each look: its name in the cookie and on <html> (data-NAME), its field on ``Preferences``,
#: its choices and the site's default.
LOOKS = {
    "theme": ("theme", Theme, Theme.AUTO),
    "table": ("table", TableColour, TableColour.GREEN),
    "back": ("card_back", CardBack, CardBack.BLUE),
    "deck": ("deck", Deck, Deck.TWO),
    "cards": ("card_size", CardSize, CardSize.NORMAL),
    "motion": ("motion", Motion, Motion.NORMAL),
    "tap": ("tap", OneTap, OneTap.TOUCH),
    "counters": ("counters", Counters, Counters.SHOWN),
    "sound": ("sound", Sound, Sound.OFF),
    "volume": ("volume", Volume, Volume.MEDIUM),
}
DEFAULTS = {name: str(default) for name, (_field, _choices, default) in LOOKS.items()}


def _choice(label, choices, help_text="", since_first=True) -> forms.ChoiceField:
    """One look's radio buttons. A look added after the first ones (``since_first`` false) is
    not required: a form sent before it existed keeps its default."""
    return forms.ChoiceField(
        label=label,
        choices=choices,
        widget=forms.RadioSelect,
        required=since_first,
        help_text=help_text,
    )


class LooksForm(forms.Form):
    """The Looks page's form: one choice of each look."""

    theme = _choice(gettext_lazy("Light or dark"), Theme)
    table = _choice(gettext_lazy("Table colour"), TableColour)
    back = _choice(gettext_lazy("Card backs"), CardBack)
    deck = _choice(
        gettext_lazy("Card colours"),
        Deck,
        gettext_lazy(
            "Four colours tell the four suits apart at a glance. In the games built in "
            "alternate colours, green clubs still count as black and blue diamonds as red."
        ),
    )
    cards = _choice(
        gettext_lazy("Card size"),
        CardSize,
        gettext_lazy(
            "Large cards have bigger corner letters, and the cards grow where the screen is "
            "wide enough. A long column may then run off the screen: scroll to see it all."
        ),
        since_first=False,
    )
    motion = _choice(
        gettext_lazy("Animation speed"),
        Motion,
        gettext_lazy(
            "How fast cards travel to where they go; a run of cards going home by itself speeds "
            "up as it goes. Off, they jump there; they do too when your device asks for reduced "
            "motion."
        ),
    )
    tap = _choice(
        gettext_lazy("One tap plays"),
        OneTap,
        gettext_lazy(
            "One tap or click on a card that has exactly one move plays that move; a card "
            "with more than one is picked up, as before."
        ),
        since_first=False,
    )
    counters = _choice(
        gettext_lazy("Moves and clock on the table"),
        Counters,
        gettext_lazy(
            "Hidden, nothing on the table counts your moves or your time. They are still "
            "recorded for your statistics and shown once a game is won."
        ),
        since_first=False,
    )
    sound = _choice(
        gettext_lazy("Sound"),
        Sound,
        gettext_lazy(
            "A short sound when a card is placed, when you deal, when a move is refused and "
            "when you win; never for moves made on another device."
        ),
        since_first=False,
    )
    volume = _choice(gettext_lazy("Volume"), Volume, since_first=False)


def from_cookie(request: HttpRequest) -> dict[str, str]:
    """The looks this browser chose (only known names and values; the rest left out)."""
    saved = QueryDict(request.COOKIES.get(COOKIE, ""))
    return {
        name: value
        for name, (_field, choices, _default) in LOOKS.items()
        if (value := saved.get(name, "")) in choices.values
    }


def looks_of(request: HttpRequest) -> dict[str, str]:
    """Every look of the player: the account's choice, else this browser's, else the
    default."""
    looks = {**DEFAULTS, **from_cookie(request)}
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        try:
            saved = Preferences.objects.filter(user=user).first()
        except DatabaseError:  # an error page while the database is away: the browser's looks
            saved = None
        if saved is not None:
            for name, (field, _choices, _default) in LOOKS.items():
                looks[name] = getattr(saved, field) or looks[name]
    return looks


def keep(request: HttpRequest, response: HttpResponse, looks: dict[str, str]) -> None:
    """Keep ``looks`` (checked already) in the browser and on the player's account."""
    response.set_cookie(
        COOKIE,
        urlencode(looks),
        max_age=COOKIE_AGE,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )
    if request.user.is_authenticated:
        fields = {LOOKS[name][0]: value for name, value in looks.items()}
        Preferences.objects.update_or_create(user=request.user, defaults=fields)


def _back_to(request: HttpRequest) -> str:
    """The page the player came from, if it is on this site: ``next``, else (opening the page
    from the site's header, whose link names no page, so that no page's address is written in
    every page) the page the browser says it came from."""
    url = request.POST.get("next") or request.GET.get("next") or ""
    if not url and request.method == "GET":
        came_from = urlsplit(request.headers.get("Referer", ""))
        if came_from.netloc == request.get_host() and came_from.path != request.path:
            url = urlunsplit(("", "", came_from.path, came_from.query, ""))
    safe = url_has_allowed_host_and_scheme(
        url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return url if safe else ""


@require_http_methods(["GET", "POST"])
def choose(request: HttpRequest) -> HttpResponse:
    """The Looks page: a form that works without JavaScript (static/js/looks.js shows each
    choice at once). Saved, back to the page the player came from; a bad choice is a 400 that
    changes nothing."""
    if request.method == "GET":
        form = LooksForm(initial=looks_of(request))
        return render(request, "registration/looks.html", {"form": form, "next": _back_to(request)})
    form = LooksForm(request.POST)
    if not form.is_valid():
        context = {"form": form, "next": _back_to(request)}
        return render(request, "registration/looks.html", context, status=400)
    messages.success(request, _("Your looks are saved."))
    response = redirect(_back_to(request) or "looks")
    keep(request, response, form.cleaned_data)
    return response
