"""The games' pages: thin views that read the request and render."""

from django.shortcuts import render

from .rules import VARIANTS


def home(request):
    return render(request, "games/home.html", {"variants": VARIANTS.values()})
