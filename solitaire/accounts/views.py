"""The account pages: sign up, log in and out, the account page (email), change the password,
reset a forgotten one by email, delete the account; and the player's language and time zone.

Django's auth views do the work where they fit. Around them: the throttle (a refused password
check is a 429 with Retry-After, any other bad form a 400), the rate limits of sign-ups, log-in
forms and reset mails (solitaire/limits.py, settings.LIMITS), the reset mail sent by the task
queue, and the guest's games, which become the account's as the guest signs up or logs in
(``log_in``).
"""

from urllib.parse import urlsplit

from django.conf import settings
from django.contrib import admin, auth, messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, HttpResponseRedirect
from django.shortcuts import redirect, render, resolve_url
from django.urls import reverse_lazy
from django.utils import translation
from django.utils.decorators import method_decorator
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods, require_POST
from django.views.i18n import set_language

from solitaire import limits

from . import names, preferences, signals, throttle
from .forms import (
    DeleteAccountForm,
    EmailForm,
    LogInForm,
    PublicNameForm,
    SignUpForm,
    ThrottledPasswordChangeForm,
    refused_for,
)
from .models import Preferences
from .tasks import accounts_of, send_password_reset


def log_in(request: HttpRequest, user) -> None:
    """Log ``user`` in and make the games this browser played as a guest theirs.

    ``auth.login`` gives the session a new key (so a key planted before cannot follow the
    player in): the guest's key is read before it changes.
    """
    guest_key = request.session.session_key or ""
    auth.login(request, user)
    preferences.restore(request, user)
    answers = signals.guest_became_player.send(sender=type(user), user=user, guest_key=guest_key)
    adopted = sum(count for _receiver, count in answers)
    if adopted:
        messages.success(
            request,
            ngettext(
                "The game you played as a guest is now in your account.",
                "The %(count)d games you played as a guest are now in your account.",
                adopted,
            )
            % {"count": adopted},
        )


class BadFormStatus:
    """A refused form is a 400, or a 429 (with Retry-After) when the throttle refused it."""

    def form_invalid(self, form):
        response = super().form_invalid(form)
        seconds = refused_for(form)
        response.status_code = 429 if seconds else 400
        if seconds:
            response["Retry-After"] = str(seconds)
        return response


# -- signing up, in and out -----------------------------------------------------------------

#: Seconds a sign-up refused because others are being made this moment is asked to wait.
SIGNUP_BUSY_SECONDS = 2


@sensitive_post_parameters("password1", "password2")
@require_http_methods(["GET", "POST"])
@limits.per_address("signup-tries")
def sign_up(request: HttpRequest) -> HttpResponse:
    """Make an account and log into it; the guest's games come along."""
    if request.user.is_authenticated:
        return redirect("account")
    if request.method == "GET":
        return _sign_up_page(request, SignUpForm())
    # Only accounts made count: each costs a password hash, and a form sent back with a
    # mistake in it costs nothing.
    seconds = limits.refused_setting("signup-address", limits.client_key(request))
    if seconds:
        return limits.too_many(request, seconds)
    form = SignUpForm(request.POST)
    if not form.is_valid():
        return _sign_up_page(request, form, status=400)
    # The password's hash takes a core for most of a second: never more than
    # settings.PASSWORD_HASHES_AT_ONCE at a time, so a flood of sign-ups leaves the other
    # processes free for the players.
    with limits.slot("password-hash", settings.PASSWORD_HASHES_AT_ONCE, 30) as free:
        if not free:
            form.add_error(None, limits.wait_words(SIGNUP_BUSY_SECONDS))
            response = _sign_up_page(request, form, status=429)
            response["Retry-After"] = str(SIGNUP_BUSY_SECONDS)
            return response
        try:
            with transaction.atomic():
                user = form.save()
        except IntegrityError:  # the same name, taken by another sign-up a moment before
            form.add_error("username", _("A user with that username already exists."))
            return _sign_up_page(request, form, status=400)
    limits.hit_setting("signup-address", limits.client_key(request))
    messages.success(
        request, _("Welcome, %(name)s: your account is ready.") % {"name": user.get_username()}
    )
    log_in(request, user)
    response = redirect(_next_url(request) or resolve_url(settings.LOGIN_REDIRECT_URL))
    throttle.remember(request, response, user.get_username())
    return response


@method_decorator(limits.per_address("login-address"), name="dispatch")
class LogIn(BadFormStatus, auth_views.LoginView):
    form_class = LogInForm
    redirect_authenticated_user = True

    def form_valid(self, form):
        user = form.get_user()
        log_in(self.request, user)
        response = HttpResponseRedirect(self.get_success_url())
        # This device is the owner's from now on: failures elsewhere do not slow it.
        throttle.remember(self.request, response, user.get_username())
        return response

    def get_redirect_url(self):
        url = super().get_redirect_url()
        # Back to the log-in page would send a logged-in player round in a loop.
        return "" if urlsplit(url).path == self.request.path else url


@limits.per_address("login-address")
def admin_log_in(request: HttpRequest) -> HttpResponse:
    """The admin's log-in page: Django's (admin.site.login), its form throttled as the site's
    (``AdminLogInForm``, set in admin.py) and its tries from one address limited as the site's;
    a refused check is a 429 with Retry-After."""
    response = admin.site.login(request)
    form = (getattr(response, "context_data", None) or {}).get("form")
    seconds = refused_for(form) if form is not None and form.is_bound else 0
    if seconds:
        response.status_code = 429
        response["Retry-After"] = str(seconds)
    return response


class LogOut(auth_views.LogoutView):
    def post(self, request, *args, **kwargs):
        response = super().post(request, *args, **kwargs)
        messages.success(request, _("You are logged out."))
        return response


# -- the account ----------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def account(request: HttpRequest) -> HttpResponse:
    """The account page: the username, the email address (to change), links to the rest."""
    if request.method == "GET":
        return _account_page(request, EmailForm(instance=request.user))
    form = EmailForm(request.POST, instance=request.user)
    if not form.is_valid():
        return _account_page(request, form, status=400)
    form.save()
    messages.success(request, _("Your email address is saved."))
    return redirect("account")


@login_required
@sensitive_post_parameters("password")
@require_http_methods(["GET", "POST"])
def delete_account(request: HttpRequest) -> HttpResponse:
    """Delete the account and all its games, once the player confirms with their password."""
    user = request.user
    if request.method == "GET":
        form = DeleteAccountForm(user=user, request=request)
        return render(request, "registration/delete_account.html", {"form": form})
    form = DeleteAccountForm(request.POST, user=user, request=request)
    if not form.is_valid():
        seconds = refused_for(form)
        response = render(
            request,
            "registration/delete_account.html",
            {"form": form},
            status=429 if seconds else 400,
        )
        if seconds:
            response["Retry-After"] = str(seconds)
        return response
    with transaction.atomic():
        signals.player_leaving.send(sender=type(user), user=user)
        user.delete()
    auth.logout(request)
    messages.success(request, _("Your account and all its games are deleted."))
    return redirect("pages:home")


# -- passwords ------------------------------------------------------------------------------


class PasswordChange(BadFormStatus, auth_views.PasswordChangeView):
    form_class = ThrottledPasswordChangeForm
    success_url = reverse_lazy("account")

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "request": self.request}

    def form_valid(self, form):
        # Django keeps this session logged in; the account's other sessions are logged out.
        response = super().form_valid(form)
        messages.success(self.request, _("Your password is changed."))
        return response


@method_decorator(limits.per_address("reset-address"), name="dispatch")
class PasswordReset(BadFormStatus, auth_views.PasswordResetView):
    """Ask for a reset link. The mail goes through the task queue (tasks.py), queued for any
    well-formed address with the ids of its accounts (none, for an address without one), never
    the address: the answer, and its time, are the same for an address with an account and
    without. At most settings.LIMITS["reset-email"] mails to one address an hour: past it
    nothing more is queued, and the answer still reads the same."""

    def form_valid(self, form):
        email = form.cleaned_data["email"]
        if not limits.hit_setting("reset-email", email):
            send_password_reset.enqueue(
                account_ids=accounts_of(email),
                domain=self.request.get_host(),
                use_https=self.request.is_secure(),
                language=get_language(),
            )
        return HttpResponseRedirect(self.get_success_url())


class PasswordResetConfirm(BadFormStatus, auth_views.PasswordResetConfirmView):
    def render_to_response(self, context, **response_kwargs):
        if not context.get("validlink"):
            response_kwargs.setdefault("status", 400)
        return super().render_to_response(context, **response_kwargs)


# -- helpers --------------------------------------------------------------------------------


def _sign_up_page(request: HttpRequest, form: SignUpForm, status: int = 200) -> HttpResponse:
    return render(
        request,
        "registration/signup.html",
        {"form": form, "next": _next_url(request)},
        status=status,
    )


def _account_page(
    request: HttpRequest, form: EmailForm, status: int = 200, name_form=None
) -> HttpResponse:
    if name_form is None:
        chosen = Preferences.objects.filter(user=request.user).values_list("public_name")
        initial = {"public_name": next((name for (name,) in chosen), "")}
        name_form = PublicNameForm(initial=initial, user=request.user)
    return render(
        request,
        "registration/account.html",
        {"form": form, "name_form": name_form},
        status=status,
    )


@login_required
@require_http_methods(["GET", "POST"])
def public_name(request: HttpRequest) -> HttpResponse:
    """Choose the name the daily leaderboards and shared games show (empty: none). Its
    address is where a refused name is answered, so a reload or Back there (a GET) goes to
    the account page that holds the form."""
    if request.method == "GET":
        return redirect("account")
    form = PublicNameForm(request.POST, user=request.user)
    if not form.is_valid():
        return _account_page(request, EmailForm(instance=request.user), 400, name_form=form)
    try:
        with transaction.atomic():
            name = form.cleaned_data["public_name"]
            Preferences.objects.update_or_create(
                user=request.user,
                defaults={"public_name": name, "public_name_key": names.key(name) if name else ""},
            )
    except IntegrityError:
        form.add_error("public_name", _("Another player has that name: choose another."))
        return _account_page(request, EmailForm(instance=request.user), 400, name_form=form)
    messages.success(request, _("Your public name is saved."))
    return redirect("account")


def _next_url(request: HttpRequest) -> str:
    """The ``next`` URL the request carries, if it stays on this site."""
    url = request.POST.get("next") or request.GET.get("next") or ""
    safe = url_has_allowed_host_and_scheme(
        url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return url if safe else ""


# -- language and time zone -----------------------------------------------------------------


@require_POST
def choose_language(request: HttpRequest) -> HttpResponse:
    """The language switcher (a form on every page, JavaScript or not): Django's
    ``set_language`` (the cookie, and back to the page in the chosen language), and the choice
    kept in the session and on the account."""
    # Django translates the page to return to by resolving it in the active language: a public
    # page's own (its prefix), whatever the request's cookie says.
    back = request.POST.get("next", "")
    with translation.override(translation.get_language_from_path(back) or get_language()):
        response = set_language(request)
    language = request.POST.get("language", "")
    if language in dict(settings.LANGUAGES):
        preferences.remember(request, language=language)
    return response


@require_POST
def choose_time_zone(request: HttpRequest) -> HttpResponse:
    """The browser's time zone (static/js/zone.js posts it when it differs from the page's):
    dates, "this week" and the weekly charts follow it. 204, or 400 for a name that is not a
    time zone."""
    zone = request.POST.get("time_zone", "")
    if zone not in preferences.TIME_ZONES:
        return HttpResponseBadRequest(_("That is not a time zone."), content_type="text/plain")
    preferences.remember(request, time_zone=zone)
    return HttpResponse(status=204)
