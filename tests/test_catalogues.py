"""The translation catalogues (locale/): every entry translated, none fuzzy, and every
translation keeping the placeholders and the markup of its English original, so that no page
shows English (or a broken sentence) to a player of another language."""

import re
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
#: A printf-style placeholder (%(name)s, %d, %%) or a tag's name (<a, </span>).
PLACEHOLDER = re.compile(r"%(?:\([^)]+\))?[sd%]|</?[a-z]+")


def entries(language: str) -> list[dict]:
    """The catalogue's entries: flags, msgctxt, msgid, msgid_plural and msgstr (a list)."""
    text = (ROOT / "locale" / language / "LC_MESSAGES" / "django.po").read_text()
    found = []
    for block in text.strip().split("\n\n"):
        entry: dict = {"flags": "", "msgstr": []}
        key = None
        for line in block.splitlines():
            if line.startswith("#,"):
                entry["flags"] += line[2:]
            elif line.startswith("#~"):
                key = None  # obsolete
                entry["obsolete"] = True
            elif line.startswith("#"):
                continue
            elif line.startswith(('"',)) and key is not None:
                value = _unquote(line)
                if key == "msgstr":
                    entry["msgstr"][-1] += value
                else:
                    entry[key] += value
            else:
                name, _sp, rest = line.partition(" ")
                if name.startswith("msgstr"):
                    key = "msgstr"
                    entry["msgstr"].append(_unquote(rest))
                else:
                    key = name
                    entry[name] = _unquote(rest)
        if "msgid" in entry and not entry.get("obsolete"):
            found.append(entry)
    return found


def _unquote(text: str) -> str:
    return text.strip()[1:-1].encode("latin-1", "backslashreplace").decode("unicode_escape")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_entry_is_translated_and_none_is_fuzzy(language):
    catalogue = entries(language)
    assert len(catalogue) > 400
    header = [e for e in catalogue if e["msgid"] == ""]
    assert header and "fuzzy" not in header[0]["flags"], "the header is still marked fuzzy"
    fuzzy = [e["msgid"] for e in catalogue if "fuzzy" in e["flags"]]
    assert fuzzy == []
    empty = [e["msgid"] for e in catalogue if e["msgid"] and not all(e["msgstr"])]
    assert empty == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_translations_keep_their_placeholders_and_markup(language):
    """Every tag of the original, and no placeholder it does not have (a missing value would
    break the page); a singular form may leave the number out ("un coup")."""
    wrong = []
    for entry in entries(language):
        if not entry["msgid"]:
            continue
        plural = "msgid_plural" in entry
        original = entry.get("msgid_plural", entry["msgid"])
        wanted = PLACEHOLDER.findall(original)
        for translation in entry["msgstr"]:
            got = PLACEHOLDER.findall(translation)
            tags = sorted(p for p in got if p.startswith("<"))
            values = {p for p in got if not p.startswith("<")} - {"%%"}
            known = {p for p in wanted if not p.startswith("<")} - {"%%"}
            if tags != sorted(p for p in wanted if p.startswith("<")) or not (
                values <= known and (plural or values == known)
            ):
                wrong.append((entry["msgid"][:60], translation[:60]))
    assert wrong == []
