"""Public names: what a name may be written with, and what two names that look alike share.

A name may hold letters and digits of every script our players write, with their combining
marks (Tamil, Hindi and Thai write vowels as marks), spaces and ``-_.'``; no control, no
invisible or direction-changing character (a name must read as it is stored).

Two names are one if they look alike (``key``): the name folded by NFKC (fullwidth and
mathematical letters, the Kelvin sign, to their plain forms) and by case, then to its Unicode
TR39 confusable skeleton by ICU (a Cyrillic capital A and a Latin one, "1" and "l"), and by case
again. The names the leaderboards print for a player without one ("a player", in every
language) and the staff's words are reserved.
"""

import unicodedata
from functools import cache

import icu
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext

#: Punctuation a name may hold besides letters, marks, digits and spaces.
PUNCTUATION = " -_.'"
#: Names nobody may take, in any case or lookalike: who runs the site.
STAFF_WORDS = ("admin", "administrator", "moderator", "staff", "support", "root", "system")
#: ICU's checker, made once (its skeletons need no options).
CHECKER = icu.SpoofChecker()


def key(name: str) -> str:
    """What ``name`` shares with every name that looks like it."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return CHECKER.getSkeleton(0, folded).casefold()


def writable(name: str) -> bool:
    """Whether ``name`` holds only what a name may: letters, marks after them, digits of any
    script, spaces and ``-_.'``."""
    previous = ""
    for char in name:
        kind = unicodedata.category(char)
        if kind[0] == "M":
            if not previous:
                return False  # a mark with nothing to sit on
        elif not (kind[0] == "L" or kind == "Nd" or char in PUNCTUATION):
            return False
        previous = char
    return True


@cache
def reserved_keys() -> frozenset[str]:
    """The keys of the names reserved: "a player" and "a player (you)" as each language of
    the site prints them, and ``STAFF_WORDS``."""
    words = set(STAFF_WORDS)
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            words |= {gettext("a player"), gettext("a player (you)")}
    return frozenset(key(word) for word in words)


def reserved(name: str) -> bool:
    return key(name) in reserved_keys()
