"""A player's preferences, kept with their account so that every device follows them."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class Theme(models.TextChoices):
    """Light or dark pages; "auto" follows the system's setting (prefers-color-scheme)."""

    # Translators: the pages' colours follow the device's light or dark setting.
    AUTO = "auto", pgettext_lazy("theme", "As the device")
    LIGHT = "light", pgettext_lazy("theme", "Light")
    DARK = "dark", pgettext_lazy("theme", "Dark")


class TableColour(models.TextChoices):
    # Translators: the colour of the card table's cloth.
    GREEN = "green", pgettext_lazy("table colour", "Green")
    # Translators: the colour of the card table's cloth.
    BLUE = "blue", pgettext_lazy("table colour", "Blue")
    # Translators: the colour of the card table's cloth (a dark red).
    WINE = "wine", pgettext_lazy("table colour", "Wine red")


class CardBack(models.TextChoices):
    # Translators: the pattern on the back of the cards.
    BLUE = "blue", pgettext_lazy("card back", "Blue stripes")
    # Translators: the pattern on the back of the cards.
    RED = "red", pgettext_lazy("card back", "Red lattice")
    # Translators: the pattern on the back of the cards.
    GREEN = "green", pgettext_lazy("card back", "Green dots")


class Deck(models.TextChoices):
    # Translators: the usual deck: hearts and diamonds red, spades and clubs black.
    TWO = "two", pgettext_lazy("deck", "Two colours")
    # Translators: a deck where each suit has its own colour.
    FOUR = "four", pgettext_lazy("deck", "Four colours: clubs green, diamonds blue")


class Motion(models.TextChoices):
    """How fast the cards travel (static/js/game/standins.js reads it: data-motion); "off",
    they appear where they go. Reduced motion on the device wins over every pace."""

    # Translators: the cards travel slowly (the animation speed).
    SLOW = "slow", pgettext_lazy("animation speed", "Slow")
    # Translators: the cards travel at the usual pace (the animation speed).
    NORMAL = "normal", pgettext_lazy("animation speed", "Normal")
    # Translators: the cards travel quickly (the animation speed).
    FAST = "fast", pgettext_lazy("animation speed", "Fast")
    # Translators: no animation: the cards appear where they go.
    OFF = "off", pgettext_lazy("animation speed", "Off")


class Sound(models.TextChoices):
    """Whether the game page plays its short sounds (static/js/game/sound.js): off by default."""

    # Translators: the game's sounds are off.
    OFF = "off", pgettext_lazy("sound", "Off")
    # Translators: the game's sounds are on.
    ON = "on", pgettext_lazy("sound", "On")


class Volume(models.TextChoices):
    """How loud the sounds are, when they are on."""

    # Translators: the sounds' volume.
    QUIET = "quiet", pgettext_lazy("volume", "Quiet")
    # Translators: the sounds' volume.
    MEDIUM = "medium", pgettext_lazy("volume", "Medium")
    # Translators: the sounds' volume.
    LOUD = "loud", pgettext_lazy("volume", "Loud")


class OneTap(models.TextChoices):
    """Whether one tap on a card that has exactly one move plays it (static/js/play.js)."""

    # Translators: one tap plays a card's only move on a touch screen, not with a mouse.
    TOUCH = "touch", pgettext_lazy("one tap", "On a touch screen")
    # Translators: one tap (or one click) plays a card's only move.
    ON = "on", pgettext_lazy("one tap", "Always")
    # Translators: one tap only picks a card up.
    OFF = "off", pgettext_lazy("one tap", "Off")


class Counters(models.TextChoices):
    """Whether the game's table shows the moves and the clock: hidden, a relaxed game (they
    are still counted, for the statistics)."""

    # Translators: the moves and the clock are shown on the card table.
    SHOWN = "shown", pgettext_lazy("counters", "Shown")
    # Translators: the moves and the clock are hidden from the card table: a relaxed game.
    HIDDEN = "hidden", pgettext_lazy("counters", "Hidden: a relaxed game")


class CardSize(models.TextChoices):
    """How large the cards are: large for low vision (corner letters of at least 20 px, and
    bigger cards where the screen is wide enough: docs/accessibility.md)."""

    # Translators: the cards' size on the table.
    NORMAL = "normal", pgettext_lazy("card size", "Normal")
    # Translators: the cards' size on the table: larger corner letters, for easier reading.
    LARGE = "large", pgettext_lazy("card size", "Large")


class Preferences(models.Model):
    """The language a player chose, the time zone their browser is in, and their looks (blank
    for a look not chosen on the account: the device's choice, else the site's default)."""

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
    theme = models.CharField(_("light or dark"), max_length=8, blank=True, choices=Theme)
    table = models.CharField(_("table colour"), max_length=8, blank=True, choices=TableColour)
    card_back = models.CharField(_("card back"), max_length=8, blank=True, choices=CardBack)
    deck = models.CharField(_("deck"), max_length=8, blank=True, choices=Deck)
    card_size = models.CharField(_("card size"), max_length=8, blank=True, choices=CardSize)
    motion = models.CharField(_("animation speed"), max_length=8, blank=True, choices=Motion)
    sound = models.CharField(_("sound"), max_length=8, blank=True, choices=Sound)
    volume = models.CharField(_("volume"), max_length=8, blank=True, choices=Volume)
    tap = models.CharField(_("one tap plays"), max_length=8, blank=True, choices=OneTap)
    counters = models.CharField(_("moves and clock"), max_length=8, blank=True, choices=Counters)
    #: The name the daily leaderboards and shared games show; blank for none ("a player").
    public_name = models.CharField(_("public name"), max_length=30, blank=True, default="")
    #: What the name shares with every name that looks like it (names.key): one per player.
    public_name_key = models.CharField(
        _("public name, folded"), max_length=120, blank=True, default="", editable=False
    )

    class Meta:
        verbose_name = _("preferences")
        verbose_name_plural = _("preferences")
        constraints = [
            models.UniqueConstraint(
                Lower("public_name"), condition=~Q(public_name=""), name="public_name_unique"
            ),
            models.UniqueConstraint(
                "public_name_key",
                condition=~Q(public_name_key=""),
                name="public_name_key_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.language or '-'}, {self.time_zone or '-'}"
