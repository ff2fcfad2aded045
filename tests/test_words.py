"""The words' rules, each held over every language: card names as each language writes them in
running text (lower case where it does, Dutch compounds, French articles), the capital at a
sentence's start added in code, no plain space before French double punctuation, and each
language's glossary (docs/glossary-*.md) held in its catalogue."""

import re
from datetime import date
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.utils import translation
from django.utils.translation import gettext as _
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.outcomes import NotOnAFoundation, Refused
from games.rules import DEAL, VARIANTS, Build, Move, Reason, first_position, get_variant, parse_card
from games.rules.played import Played
from games.words import (
    JOIN,
    RANK_MARKS,
    card_label,
    card_words,
    day_in_text,
    error_words,
    fill,
    month_in_text,
    played_words,
    reason_words,
    sentence,
    undone_words,
)
from tests.test_catalogues import entries

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = [
    code for code, _name in django_settings.LANGUAGES if code != django_settings.LANGUAGE_CODE
]
#: Every card once (the two decks' copies have the same name).
CARDS = range(52)
#: The languages that write a card's name in lower case in the middle of a sentence.
LOWER_CASE = ("fr", "nl", "pl", "vi")
#: Rank names each language would write with a capital only at a sentence's start.
CAPITALISED_RANKS = {
    "fr": ("As", "Roi", "Rois", "Dame", "Dames", "Valet", "Valets"),
    "nl": ("Aas", "Azen", "Heer", "Vrouw", "Boer"),
    "pl": ("As", "Asy", "Król", "Dama", "Walet"),
    "vi": ("Át", "Già", "Đầm", "Bồi"),
}


@pytest.fixture(autouse=True)
def english_after():
    yield
    translation.activate(django_settings.LANGUAGE_CODE)


@pytest.mark.parametrize("language", LOWER_CASE)
def test_a_card_is_lower_case_in_the_middle_of_a_sentence(language):
    with translation.override(language):
        names = [card_words(card) for card in CARDS]
    assert all(name[0].islower() for name in names), names


def test_english_writes_a_card_with_capitals():
    with translation.override("en"):
        assert card_words(parse_card("QD")) == "Queen of Diamonds"


@pytest.mark.parametrize("language", ["en", *LANGUAGES])
def test_a_card_standing_alone_starts_with_a_capital_or_its_number(language):
    with translation.override(language):
        assert all(card_label(card)[0].isupper() or card_label(card)[0].isdigit() for card in CARDS)


@pytest.mark.parametrize("language", ["en", *LANGUAGES])
def test_a_cards_name_holds_the_rank_its_corner_shows(language):
    """WCAG 2.5.3: the accessible name holds the visible label, "7" or "K", as a word."""
    with translation.override(language):
        for card in CARDS:
            corner = str(RANK_MARKS[card // 4])
            assert corner in re.findall(r"\w+", card_label(card)), card_label(card)


def test_a_card_is_named_with_its_number_or_followed_by_its_letter():
    with translation.override("en"):
        assert card_label(parse_card("7H")) == "7 of Hearts"
        assert card_label(parse_card("QS")) == "Queen of Spades, Q"
    with translation.override("nl"):
        assert card_label(parse_card("7H")) == "Harten 7"
        assert card_label(parse_card("QS")) == "Schoppenvrouw, V"


@pytest.mark.parametrize(
    ("card", "word"),
    [("QD", "ruitenvrouw"), ("7S", "schoppenzeven"), ("AH", "hartenaas"), ("KC", "klaverenheer")],
)
def test_dutch_writes_a_card_as_one_word(card, word):
    with translation.override("nl"):
        assert card_words(parse_card(card)) == word
        assert all(" " not in card_words(c) for c in CARDS)


@pytest.mark.parametrize(
    ("card", "words"),
    [("QD", "la dame de carreau"), ("AS", "l'as de pique"), ("TH", "le dix de cœur")],
)
def test_french_running_text_gives_a_card_its_article(card, words):
    with translation.override("fr"):
        assert card_words(parse_card(card)) == words
        assert all(re.match(r"(le |la |l')", card_words(c)) for c in CARDS)


def test_a_sentence_gets_its_capital_on_its_first_letter():
    assert sentence("la dame de carreau.") == "La dame de carreau."
    assert sentence("«\u00a0đầm rô»") == "«\u00a0Đầm rô»"
    assert sentence("") == ""


@pytest.mark.parametrize("language", ["en", *LANGUAGES])
def test_a_move_that_starts_with_its_card_starts_with_a_capital(language):
    position = first_position(get_variant("forty-thieves"), 1)
    played = position.play(Move.parse("t8-t4"))
    with translation.override(language):
        said = played_words(played)
    assert said[0].isupper(), said


def test_a_refusal_names_the_cards_as_running_text():
    position = first_position(get_variant("forty-thieves"), 1)
    reason = position.check(Move.parse("t3-t1"))
    with translation.override("fr"):
        said = reason_words(reason)
    assert said.startswith(("le ", "la ", "l'")) and " pas sur " in said


@pytest.mark.parametrize("language", LOWER_CASE)
def test_no_rank_is_capitalised_in_the_middle_of_a_sentence(language):
    """In the catalogue's running text, as the glossary says: "de l'as au roi"."""
    words = "|".join(CAPITALISED_RANKS[language])
    mid = re.compile(rf"(?<=[^\s.!?:>«\"“„(])\s+(?:l'|la |le |les |lá |từ )?({words})\b")
    found = [
        translated
        for entry in entries(language)
        if entry["msgid"]
        for translated in entry["msgstr"]
        if mid.search(translated) or re.search(rf"\bl'({words})\b", translated)
    ]
    assert found == []


def test_french_puts_a_no_break_space_before_double_punctuation():
    found = [
        translated
        for entry in entries("fr")
        if entry["msgid"]
        for translated in entry["msgstr"]
        if re.search(r" [;:?!]", translated)
    ]
    assert found == []


def glossary(language: str) -> list[tuple[str, list[str], list[str]]]:
    """The rows of docs/glossary-<language>.md's table "Held by the tests": the term, its
    English words and the forms every translation of them holds."""
    text = (ROOT / "docs" / f"glossary-{language}.md").read_text()
    table = text.split("## Held by the tests", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in table.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0] not in ("term",) and not cells[0].startswith("-"):
            rows.append((cells[0], cells[1].split(", "), cells[3].split(", ")))
    return rows


def glossary_breaks(rows, catalogue: list[dict]) -> list[str]:
    """Each translation in ``catalogue`` of an English glossary term that has none of the
    term's forms."""
    wrong = []
    for entry in catalogue:
        if not entry["msgid"]:
            continue
        english = entry["msgid"] + " " + entry.get("msgid_plural", "")
        english = re.sub(r"%\([^)]*\)[sd]", "", english)
        for term, words, forms in rows:
            if not any(re.search(rf"\b{re.escape(w)}\b", english, re.IGNORECASE) for w in words):
                continue
            for translated in entry["msgstr"]:
                if not any(form.lower() in translated.lower() for form in forms):
                    wrong.append(f"{term}: {entry['msgid'][:60]!r} -> {translated[:80]!r}")
    return wrong


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_glossarys_terms_are_used_everywhere(language):
    rows = glossary(language)
    assert len(rows) >= 10
    assert glossary_breaks(rows, entries(language)) == []


def test_a_translation_that_leaves_the_glossary_is_caught():
    rows = glossary("nl")
    catalogue = [
        {"msgid": "Win rate", "msgstr": ["Winstpercentage"]},
        {"msgid": "Streak", "msgstr": ["Winstreeks"]},
        {"msgid": "the stock is empty", "msgstr": ["de pot is leeg"]},
    ]
    assert len(glossary_breaks(rows, catalogue)) == 2


#: A capital that code put in the middle of a sentence: after a number ("3 Cartes") or, in a
#: language that writes cards in lower case, after a colon ("Annulé : Le dix de cœur"). English
#: keeps its card names' capitals after a colon ("Undone: Ten of Hearts"): the catalogue's case.
AFTER_A_DIGIT = re.compile(r"\d[ \u00a0]+(\w)")
AFTER_A_COLON = re.compile(r":[ \u00a0]+(\w)")


def capitals_inside(text: str, language: str) -> list[str]:
    rules = [AFTER_A_DIGIT, AFTER_A_COLON] if language in LOWER_CASE else [AFTER_A_DIGIT]
    return [m.group(0) for rule in rules for m in rule.finditer(text) if m.group(1).isupper()]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    language=st.sampled_from(["en", *LOWER_CASE]),
    variant=st.sampled_from(sorted(VARIANTS)),
    deal=st.integers(1, 1_000_000),
    choices=st.lists(st.integers(0, 1_000), min_size=1, max_size=25),
    day=st.dates(date(2000, 1, 1), date(2099, 12, 31)),
)
def test_no_sentence_has_a_capital_after_a_number_or_inside_after_a_colon(
    language, variant, deal, choices, day
):
    """Every sentence a game's moves make (played, undone, refused) and the daily pages' dates
    in running text, over random games in every language."""
    position = first_position(get_variant(variant), deal)
    with translation.override(language):
        said = [
            fill(_("%(name)s: daily deal of %(day)s"), {"name": "Lucas", "day": day_in_text(day)}),
            fill(
                _("%(name)s: daily deals of %(month)s"),
                {"name": "Lucas", "month": month_in_text(day)},
            ),
        ]
        # Little Forty deals three cards at a time: French and Dutch start that sentence with
        # its number ("3 cartes distribuées, ...").
        dealt = first_position(get_variant("little-forty"), deal).play(DEAL)
        said += [played_words(dealt), undone_words(dealt)]
        for choice in choices:
            moves = position.legal_moves()
            if not moves:
                break
            tried = Move.parse(f"t{choice % 13 + 1}-t{choice % 7 + 1}")
            reason = position.check(tried)
            if reason is not None:
                said.append(error_words(Refused(None, reason)))
            # Half the steps deal, where a deal is legal: a deal of several cards is the sentence
            # that starts with a number.
            move = DEAL if choice % 2 == 0 and DEAL in moves else moves[choice % len(moves)]
            played = position.play(move)
            said += [played_words(played), undone_words(played)]
    found = [
        (text, capitals_inside(text, language)) for text in said if capitals_inside(text, language)
    ]
    assert found == []


#: What a language must never show where a card follows a word of its catalogue: French an
#: article not contracted after "de" or "à" ("de le roi"), Dutch a doubled article, Vietnamese
#: a doubled classifier ("lá lá"), any language a mark left from filling the sentence.
NEVER = {
    "fr": re.compile(r"\b(?:de|à) les? "),
    "nl": re.compile(r"\bde de\b"),
    "vi": re.compile(r"\blá lá\b"),
}


def card_sentences(card: int) -> list[str]:
    """Every sentence the site builds around ``card``: the refusals that name it (after "not",
    "on", "takes"), what a move, a deal and its undo say of it, and what was turned up."""
    other = (card + 4) % 52
    values = {"card": card, "on": other, "next": other, "pile": "f2"}
    reasons = [Reason("does-not-fit", {**values, "build": build}) for build in Build]
    reasons += [Reason(code, values) for code in ("foundation-wants-ace", "foundation-wants-next")]
    moved = Played(Move.parse("t3-t4"), "t3", "t4", 1, card, turned_up=other)
    pair = Played(Move.parse("t3:2-t4"), "t3", "t4", 2, card)
    dealt = [Played(DEAL, "", "", count, card) for count in (1, 3)]
    return [
        *(error_words(Refused(None, reason)) for reason in reasons),
        error_words(NotOnAFoundation(None, card)),
        *(played_words(played) for played in (moved, pair, *dealt)),
        *(undone_words(played) for played in (moved, pair, *dealt)),
    ]


@pytest.mark.parametrize("language", ["en", *LANGUAGES])
def test_every_card_reads_right_after_each_word_the_catalogue_puts_before_it(language):
    with translation.override(language):
        said = [text for card in CARDS for text in card_sentences(card)]
    never = NEVER.get(language)
    assert [text for text in said if never and never.search(text)] == []
    assert [text for text in said if JOIN in text or "%(" in text] == []
    if language == "fr":
        # Undoing a deal of one card says "distribution de %(card)s": contracted, elided.
        assert "Annulé\u00a0: distribution du roi de trèfle." in said
        assert "Annulé\u00a0: distribution de l'as de pique." in said
    if language == "vi":
        # A card, not a quantity: "must be the four of hearts, not the three of hearts".
        assert any("phải là lá bốn cơ, không phải lá ba cơ" in text for text in said)


def test_a_date_filled_into_a_sentence_by_code_is_joined_as_in_a_template():
    """A date in running text carries its join mark already: filled into a sentence by code,
    French still elides "de" before a month that starts with a vowel."""
    with translation.override("fr"):
        said = fill(
            _("%(name)s: daily deals of %(month)s"),
            {"name": "Lucas", "month": month_in_text(date(2026, 8, 1))},
        )
    assert "d'août 2026" in said and "de août" not in said, said
