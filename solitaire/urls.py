"""The site's URLs: the public pages under a language prefix (``/fr/``, ``/pl/``, ...), the
games and the account pages without one (their language is the player's), and the language
switcher."""

from django.conf.urls.i18n import i18n_patterns
from django.urls import include, path

from .accounts import views as accounts

urlpatterns = [
    path("i18n/language/", accounts.choose_language, name="set_language"),
    path("i18n/time-zone/", accounts.choose_time_zone, name="set_time_zone"),
    path("account/", include("solitaire.accounts.urls")),
    path("", include("games.urls")),
    *i18n_patterns(path("", include("games.public_urls"))),
]
