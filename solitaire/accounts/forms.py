"""The account forms: signing up, logging in, the email address, changing the password and
deleting the account.

Every form that checks a password counts its failures: the log-in through the throttle
(throttle.py), a logged-in player's checks per session. A client that failed too often is
refused before its password is looked at, with an error of code ``throttled`` whose
``seconds`` say how long to wait (``refused_for`` finds it, for the view to answer 429).
"""

import unicodedata
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm, PasswordChangeForm, UserCreationForm
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from solitaire import limits

from . import names, throttle
from .models import Preferences


def throttled(seconds: int) -> ValidationError:
    """The error of a password check refused for ``seconds``, code ``throttled``."""
    if seconds < 60:
        message = ngettext(
            "Too many failed attempts: wait %(seconds)d second and try again.",
            "Too many failed attempts: wait %(seconds)d seconds and try again.",
            seconds,
        )
    else:
        message = ngettext(
            "Too many failed attempts: wait %(minutes)d minute and try again.",
            "Too many failed attempts: wait %(minutes)d minutes and try again.",
            -(-seconds // 60),
        )
    return ValidationError(
        message, code="throttled", params={"minutes": -(-seconds // 60), "seconds": seconds}
    )


#: Seconds a password check refused because the site is hashing others is asked to wait.
BUSY_SECONDS = 2


@contextmanager
def hashing() -> Iterator[None]:
    """A place to hash a password: at most settings.PASSWORD_HASHES_AT_ONCE at once across the
    site, each taking a core for most of a second. ValidationError (code ``throttled``) at once
    when none is free: a flood of password forms leaves the other processes to the players."""
    with limits.slot("password-hash", settings.PASSWORD_HASHES_AT_ONCE, 30) as free:
        if not free:
            raise ValidationError(
                limits.wait_words(BUSY_SECONDS),
                code="throttled",
                params={"seconds": BUSY_SECONDS},
            )
        yield


def checked(request: HttpRequest, username: str, check: Callable[[], bool]) -> bool:
    """The outcome of the log-in's password ``check`` for ``username``, counted by the
    throttle.

    ValidationError (code ``throttled``) without running ``check`` when the throttle refuses
    this client, or when the site is busy hashing. The try is counted before ``check`` runs,
    so tries sent at once cannot run more hashes than the limit; a good one is given back and
    forgets this client's failures.
    """
    seconds = throttle.wait_seconds(request, username) or throttle.attempt(request, username)
    if seconds:
        raise throttled(seconds)
    try:
        with hashing():
            right = check()
    except ValidationError:
        throttle.given_back(request, username)
        raise
    if right:
        throttle.succeeded(request, username)
        return True
    throttle.failed(request, username)
    return False


def checked_in_session(request: HttpRequest, check: Callable[[], bool]) -> bool:
    """The outcome of a logged-in player's password ``check`` (to change the password, to
    delete the account), counted per session: failures elsewhere never refuse it.

    ValidationError (code ``throttled``) without running ``check`` after too many failures in
    this session (settings.LIMITS["password-session"]), or when the site is busy hashing.
    """
    session = request.session.session_key or limits.client_key(request)
    seconds = limits.refused_setting("password-session", session)
    if seconds:
        raise throttled(seconds)
    with hashing():
        right = check()
    if right:
        return True
    limits.hit_setting("password-session", session)
    return False


def refused_for(form: forms.Form) -> int:
    """The seconds the throttle refused ``form``'s password check for; 0 if it did not."""
    for errors in form.errors.as_data().values():
        for error in errors:
            if error.code == "throttled":
                return error.params["seconds"]
    return 0


class SignUpForm(UserCreationForm):
    email = forms.EmailField(
        label=_("Email (optional)"),
        required=False,
        help_text=_("Only to send you a link if you forget your password."),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")


class ThrottledLogIn:
    """A log-in form's check of the password, through the throttle (``checked``): mixed into
    Django's log-in forms, the site's and the admin's alike."""

    def clean(self):
        username = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        if username is None or not password:
            return self.cleaned_data
        failure: list[ValidationError] = []

        def check() -> bool:
            try:
                super(ThrottledLogIn, self).clean()
            except ValidationError as e:
                failure.append(e)
                # Only a wrong password (or username) counts: an inactive account is no guess.
                return e.code != "invalid_login"
            return True

        checked(self.request, username, check)
        if failure:
            raise failure[0]
        return self.cleaned_data


class LogInForm(ThrottledLogIn, AuthenticationForm):
    """Django's log-in form, throttled."""


class AdminLogInForm(ThrottledLogIn, AdminAuthenticationForm):
    """The admin's log-in form, throttled as the site's: the same counts per username and
    client and per address, the same cap on hashes at once."""


class ThrottledPasswordChangeForm(PasswordChangeForm):
    """Django's form to change one's password: the check of the old password is throttled."""

    def __init__(self, user, *args, request: HttpRequest, **kwargs):
        self.request = request
        super().__init__(user, *args, **kwargs)

    def clean_old_password(self):
        old_password = self.cleaned_data["old_password"]
        if not checked_in_session(self.request, lambda: self.user.check_password(old_password)):
            raise ValidationError(
                self.error_messages["password_incorrect"], code="password_incorrect"
            )
        return old_password


class EmailForm(forms.ModelForm):
    email = forms.EmailField(
        label=_("Email"),
        required=False,
        help_text=_("Only to send you a link if you forget your password. Leave empty for none."),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    class Meta:
        model = get_user_model()
        fields = ("email",)


class PublicNameForm(forms.Form):
    """The name the daily leaderboards and shared games show: letters (with their marks) and
    digits of any script, spaces and ``-_.'``, unlike any other player's whatever its case or
    lookalike letters (names.py); empty for none."""

    public_name = forms.CharField(
        label=_("Public name"),
        required=False,
        max_length=30,
        help_text=_(
            "Shown on the daily leaderboards and on the games you share. Leave empty to be "
            "“a player” there."
        ),
        widget=forms.TextInput(attrs={"autocomplete": "nickname"}),
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_public_name(self) -> str:
        name = unicodedata.normalize("NFC", " ".join(self.cleaned_data["public_name"].split()))
        if not name:
            return name
        if not names.writable(name):
            raise forms.ValidationError(
                _("A public name may hold letters, digits, spaces and - _ . ' only.")
            )
        if names.reserved(name):
            raise forms.ValidationError(_("That name is kept for the site: choose another."))
        taken = Preferences.objects.filter(public_name_key=names.key(name)).exclude(user=self.user)
        if taken.exists():
            raise forms.ValidationError(_("Another player has that name: choose another."))
        return name


class DeleteAccountForm(forms.Form):
    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, *args, user, request: HttpRequest, **kwargs):
        self.user = user
        self.request = request
        super().__init__(*args, **kwargs)

    def clean_password(self):
        password = self.cleaned_data["password"]
        if not checked_in_session(self.request, lambda: self.user.check_password(password)):
            raise ValidationError(_("That is not your password."), code="password_incorrect")
        return password
