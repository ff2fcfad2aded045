"""A player's preferences, kept with their account so that every device follows them."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Preferences(models.Model):
    """The language a player chose and the time zone their browser is in."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="preferences",
    )
    language = models.CharField(
        _("language"), max_length=10, blank=True, choices=settings.LANGUAGES
    )
    #: An IANA time zone name, as the browser says it ("Asia/Ho_Chi_Minh").
    time_zone = models.CharField(_("time zone"), max_length=64, blank=True)

    class Meta:
        verbose_name = _("preferences")
        verbose_name_plural = _("preferences")

    def __str__(self) -> str:
        return f"{self.user}: {self.language or '-'}, {self.time_zone or '-'}"
