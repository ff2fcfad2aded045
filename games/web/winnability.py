"""The page of how winnable a game is: what the solver found on the fresh deals it searched."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from .. import selectors
from ..rules import VARIANTS


def winnability_page(request: HttpRequest, variant: str) -> HttpResponse:
    if variant not in VARIANTS:
        raise Http404(_("There is no such game."))
    return render(
        request,
        "games/winnability.html",
        {
            "variant": VARIANTS[variant],
            "rows": selectors.winnabilities(variant),
            "lost": selectors.lost_deals(variant),
        },
    )
