"""The site's URLs: the public pages under a language prefix (``/fr/``, ``/pl/``, ...), the
games and the account pages without one (their language is the player's), the language
switcher, the staff's admin, and what makes the site an app (the service worker at the root, the
manifest and the offline page in each language)."""

from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path

from . import app
from .accounts import views as accounts

# The error pages read nothing of the request's body (solitaire/errors.py).
handler400 = "solitaire.errors.bad_request"
handler403 = "solitaire.errors.permission_denied"
handler404 = "solitaire.errors.page_not_found"
handler500 = "solitaire.errors.server_error"

urlpatterns = [
    path("i18n/language/", accounts.choose_language, name="set_language"),
    path("i18n/time-zone/", accounts.choose_time_zone, name="set_time_zone"),
    path("account/", include("solitaire.accounts.urls")),
    # For the staff, in Django's own words; not under a language prefix.
    # The admin's log-in, throttled as the site's, before the admin's own URLs.
    path("admin/login/", accounts.admin_log_in),
    path("admin/", admin.site.urls),
    # The service worker at the root: its scope is the whole site (solitaire/app.py).
    path("sw.js", app.service_worker, name="service_worker"),
    path("", include("games.urls")),
    *i18n_patterns(
        path("manifest.webmanifest", app.manifest, name="manifest"),
        path("offline/", app.offline, name="offline"),
        path("", include("games.public_urls")),
    ),
]
