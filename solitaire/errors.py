"""The error pages (400, 403, 404, 500 and a refused CSRF check), and the early refusal of a
form body Django cannot read (a charset other than UTF-8, a multipart form without a boundary).

None of these views reads the request's body or form: the body may be what made the request
fail (Django's own handlers check the CSRF token first, which reads the form, which fails again
on a bad charset). An htmx request gets only the sentence, put in the page's message area
(#announce); a page gets the whole page. The 500 page is drawn without the request, from a
template that needs nothing but itself.
"""

import re

from django.http import HttpRequest, HttpResponse, HttpResponseServerError
from django.shortcuts import render
from django.template import loader
from django.utils.cache import patch_vary_headers
from django.utils.http import parse_header_parameters
from django.utils.translation import gettext as _

#: The one charset a form body may name, as Django reads it.
UTF8 = "utf-8"
#: A multipart boundary Django takes (its MultiPartParser's own rule).
BOUNDARY = re.compile(r"[ -~]{0,200}[!-~]")


def error_page(request: HttpRequest, status: int, title: str, message: str) -> HttpResponse:
    """The page (or, for htmx, the sentence for the message area) of a refused request."""
    context = {"title": title, "message": message}
    if request.headers.get("HX-Request") == "true":
        response = render(request, "error.html#message", context, status=status)
        response["HX-Retarget"] = "#announce"
        response["HX-Reswap"] = "innerHTML"
    else:
        response = render(request, "error.html", context, status=status)
    patch_vary_headers(response, ["HX-Request"])
    return response


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return error_page(
        request,
        400,
        # Translators: the title of the page of a request the site could not read.
        _("Bad request"),
        _("The site could not read this request. Reload the page and try again."),
    )


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return error_page(
        request,
        403,
        # Translators: the title of the page of a request for something not the player's.
        _("Not allowed"),
        _("This is not yours to do. If you were logged out, log in and try again."),
    )


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if request.headers.get("HX-Request") == "true":
        return error_page(
            request,
            404,
            _("Not found"),
            _(
                "There is no such page, or it is not yours to see: games are seen only by the "
                "player who plays them."
            ),
        )
    return render(request, "404.html", status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    """The 500 page, drawn without the request: whatever failed may fail again with it."""
    return HttpResponseServerError(loader.get_template("500.html").render())


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A POST without the page's token (settings.CSRF_FAILURE_VIEW): a form kept open across
    a log-in or log-out elsewhere, or a request that did not come from this site's pages."""
    return error_page(
        request,
        403,
        # Translators: the title of the page of a form sent after a log-in or log-out elsewhere.
        _("The form has expired"),
        _(
            "This form was open while you logged in or out, or it came from another site. "
            "Reload the page and try again."
        ),
    )


def unreadable_form(request: HttpRequest) -> str:
    """Why Django could not read the request's form body, before it tries: "charset" for a
    charset other than UTF-8, "boundary" for a multipart form without a boundary it takes;
    "" for a body Django can read (or one it does not read as a form)."""
    if request.method in ("GET", "HEAD"):
        return ""
    content_type, params = parse_header_parameters(request.META.get("CONTENT_TYPE", ""))
    if "charset" in params and params["charset"].lower() != UTF8:
        return "charset"
    if content_type.startswith("multipart/") and not BOUNDARY.fullmatch(params.get("boundary", "")):
        return "boundary"
    return ""


class BodyCharsetMiddleware:
    """A request with a body that names a charset other than UTF-8, or a multipart form
    without a boundary, is a 400 at once, before the CSRF check or a view reads the form
    (Django refuses to read such a form, and raises, and logs the traceback). Browsers send
    this site's forms in UTF-8, the pages' charset. Placed before CsrfViewMiddleware."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        problem = unreadable_form(request)
        if problem == "charset":
            return error_page(
                request,
                400,
                _("Bad request"),
                _("The form was not sent in UTF-8. Reload the page and send it again."),
            )
        if problem:
            return bad_request(request)
        return self.get_response(request)
