"""The password rules' words. Django 6.1's "too short" message asks its catalogues for a msgid
that its own Dutch and Vietnamese catalogues lack, so the sign-up page said it in English: this
validator says it with the site's own msgid, translated in the site's catalogues."""

from django.contrib.auth.password_validation import MinimumLengthValidator
from django.utils.translation import ngettext


class MinimumLength(MinimumLengthValidator):
    """Django's minimum length, in the player's language."""

    def get_error_message(self) -> str:
        return ngettext(
            "This password is too short: it needs at least %(min_length)d character.",
            "This password is too short: it needs at least %(min_length)d characters.",
            self.min_length,
        ) % {"min_length": self.min_length}
