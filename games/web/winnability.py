"""The page of how winnable a game is: what the solver found on the fresh deals it searched."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from ..selectors.deals import lost_deals, winnabilities
from .edge import variant_or_404


def winnability_page(request: HttpRequest, variant: str) -> HttpResponse:
    rules_of = variant_or_404(variant)
    return render(
        request,
        "games/winnability.html",
        {
            "variant": rules_of,
            "rows": winnabilities(variant),
            "lost": lost_deals(variant),
        },
    )
