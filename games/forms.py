"""Forms for starting games: a new deal (random or chosen) and a pasted or uploaded record."""

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from .guide import GAME_NAMES
from .models import GradedDeal
from .rules import MAX_DEAL, RecordError, parse_record
from .rules.turn import MAX_PLY
from .words import record_error_words

#: Random deals are drawn from 1..RANDOM_DEALS: a billion deals, with short numbers to share.
RANDOM_DEALS = 10**9 - 1
#: A record of even a very long game is a few kilobytes.
MAX_RECORD_BYTES = 256 * 1024


def parse_deal_number(text: str) -> int | None:
    """The deal number ``text`` names (digits, 1..MAX_DEAL), or None."""
    text = text.strip()
    if not text.isascii() or not text.isdigit():
        return None
    # Leading zeros are allowed, but never handed to int() (which refuses over 4300 digits).
    digits = text.lstrip("0") or "0"
    if len(digits) > 20:
        return None
    number = int(digits)
    return number if 1 <= number <= MAX_DEAL else None


class NewGameForm(forms.Form):
    variant = forms.ChoiceField(label=_("Game"), choices=list(GAME_NAMES.items()))
    deal = forms.CharField(
        label=_("Deal number"),
        required=False,
        max_length=40,
        help_text=_("Leave empty for a random deal."),
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )
    #: Without a deal number: deal one the solver has won (games.services.assist.winnable_deal).
    winnable = forms.BooleanField(label=_("Only deals that can be won"), required=False)
    #: Without a deal number: a winnable deal of this grade (games.services.daily.graded_deal);
    #: empty for any deal.
    grade = forms.ChoiceField(
        label=_("Difficulty"),
        required=False,
        choices=[("", _("any deal")), *GradedDeal.Grade.choices],
    )

    def clean_deal(self) -> int | None:
        text = self.cleaned_data["deal"].strip()
        if not text:
            return None
        number = parse_deal_number(text)
        if number is None:
            raise forms.ValidationError(
                _("A deal number is a whole number from 1 to %(max)s."), params={"max": MAX_DEAL}
            )
        return number


class RecordForm(forms.Form):
    text = forms.CharField(
        label=_("Paste a record"),
        required=False,
        max_length=MAX_RECORD_BYTES,
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false"}),
    )
    file = forms.FileField(label=_("or upload a record file"), required=False)

    def clean(self):
        data = super().clean()
        upload = data.get("file")
        text = data.get("text", "")
        if upload is not None:
            if upload.size > MAX_RECORD_BYTES:
                raise forms.ValidationError(_("That file is too large to be a game record."))
            content: str | bytes = upload.read()
        elif text.strip():
            content = text
        else:
            raise forms.ValidationError(_("Paste a record or choose a file."))
        try:
            data["record"] = parse_record(content)
        except RecordError as e:
            raise forms.ValidationError(
                _("This record cannot be read: %(reason)s."),
                params={"reason": record_error_words(e)},
            ) from None
        if len(data["record"].moves) > MAX_PLY:
            raise forms.ValidationError(
                ngettext_lazy(
                    "This record has more moves than a game may have: at most %(most)d move.",
                    "This record has more moves than a game may have: at most %(most)d moves.",
                    "most",
                ),
                params={"most": MAX_PLY},
            )
        return data
