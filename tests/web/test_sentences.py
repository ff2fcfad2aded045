"""The sentences the site builds, as each language reads them (docs/architecture.md, "Words"):
dates in running text on the daily pages, cards after the words the catalogues put before
them, the notices of a card picked up and of a move undone, and a deal's grade wherever it is
shown. Each is held word for word, per language."""

import html
import re
from datetime import UTC, date, datetime

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from games.rules import DEAL, first_position, get_variant, parse_card
from games.selectors.deals import deal_grade_words, grade_words
from games.words import card_words, fill, played_words, undone_words

from .conftest import legal_move, opened, post_move, start, url
from .test_undo_redo import undo

pytestmark = pytest.mark.django_db

#: Every rank after French "de" and "à", with the contraction or elision French writes.
FRENCH_AFTER_DE = (
    "de l'as", "du deux", "du trois", "du quatre", "du cinq", "du six", "du sept", "du huit",
    "du neuf", "du dix", "du valet", "de la dame", "du roi",
)  # fmt: skip
FRENCH_AFTER_A = (
    "à l'as", "au deux", "au trois", "au quatre", "au cinq", "au six", "au sept", "au huit",
    "au neuf", "au dix", "au valet", "à la dame", "au roi",
)  # fmt: skip
#: Every rank where Polish puts a card as the object ("Przenieś ... na kolumnę 3").
POLISH_OBJECTS = (
    "asa", "dwójkę", "trójkę", "czwórkę", "piątkę", "szóstkę", "siódemkę", "ósemkę",
    "dziewiątkę", "dziesiątkę", "waleta", "damę", "króla",
)  # fmt: skip


@pytest.mark.parametrize("suit", "CDHS")
def test_french_contracts_and_elides_every_card_after_de_and_a(suit):
    with translation.override("fr"):
        for rank, (after_de, after_a) in enumerate(
            zip(FRENCH_AFTER_DE, FRENCH_AFTER_A, strict=True)
        ):
            card = {"card": card_words(rank * 4 + "CDHS".index(suit))}
            assert fill("de %(card)s", card).startswith(after_de + " de ")
            assert fill("à %(card)s", card).startswith(after_a + " de ")


#: A card put down, picked up and taken back, in each language: the "Put here" button of
#: column 4 while the Ten of Hearts of column 8 is held, the notice of picking it up (the
#: server's, without JavaScript; the page's own reads ``data-words`` on the card), and the
#: notice of undoing its move to column 4.
NOTICES = {
    "en": (
        "Put Ten of Hearts on column 4",
        "Picked up Ten of Hearts: choose where to put it.",
        "Ten of Hearts",
        "Undone: Ten of Hearts from column 8 to column 4.",
    ),
    "fr": (
        "Poser le dix de cœur sur la colonne 4",
        "Vous avez pris le dix de cœur\u00a0: choisissez où poser cette carte.",
        "le dix de cœur",
        "Annulé\u00a0: le dix de cœur, de la colonne 8 vers la colonne 4.",
    ),
    "nl": (
        "Leg de hartentien op kolom 4",
        "Je hebt de hartentien opgepakt: kies waar je die neerlegt.",
        "hartentien",
        "Ongedaan gemaakt: de hartentien van kolom 8 naar kolom 4.",
    ),
    "pl": (
        "Przenieś dziesiątkę kier na kolumnę 4",
        "W ręce: dziesiątka kier. Wybierz, gdzie położyć tę kartę.",
        "dziesiątka kier",
        "Cofnięto: dziesiątka kier z kolumny 8 na kolumnę 4.",
    ),
    "vi": (
        "Đặt lá mười cơ lên cột 4",
        "Đã nhấc lá mười cơ: hãy chọn chỗ để đặt.",
        "lá mười cơ",
        "Đã hoàn tác: lá mười cơ từ cột 8 sang cột 4.",
    ),
}


@pytest.mark.parametrize("language", NOTICES)
def test_a_card_picked_up_put_down_and_taken_back_is_named_as_running_text(client, language):
    put, picked, words, undone = NOTICES[language]
    game = start(client)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    page = html.unescape(client.get(url("game", game), {"pick": "t8"}).content.decode())
    assert f'aria-label="{put}"' in page
    assert picked in page
    page = html.unescape(client.get(url("game", game)).content.decode())
    assert f'data-pick="t8" data-words="{words}"' in page
    post_move(client, game, "t8-t4")
    assert undone in html.unescape(undo(client, game).content.decode())


@pytest.mark.parametrize("language", ["pl"])
def test_polish_puts_every_card_it_moves_in_the_accusative(language):
    with translation.override(language):
        for rank, word in enumerate(POLISH_OBJECTS):
            assert card_words(rank * 4 + 2, "object") == f"{word} kier"


#: The first deal of Forty Thieves deal 1 (the Three of Spades): played, the card is the
#: object (Polish "trójkę"); undone, it follows a colon, and French contracts "de le trois".
DEALT = {
    "en": ("Dealt Three of Spades.", "Undone: dealt Three of Spades."),
    "fr": (
        "Carte distribuée\u00a0: le trois de pique.",
        "Annulé\u00a0: distribution du trois de pique.",
    ),
    "nl": ("De schoppendrie is gedeeld.", "Ongedaan gemaakt: het delen van de schoppendrie."),
    "pl": ("Dobrano z talii trójkę pik.", "Cofnięto dobranie z talii: trójka pik."),
    "vi": (
        "Đã rút lá ba bích.",
        "Đã hoàn tác lần rút lá ba bích.",
    ),
}


@pytest.mark.parametrize("language", DEALT)
def test_a_card_dealt_and_its_deal_undone_are_named_as_running_text(language):
    played = first_position(get_variant("forty-thieves"), 1).play(DEAL)
    assert played.card == parse_card("3S")
    with translation.override(language):
        assert (played_words(played), undone_words(played)) == DEALT[language]


#: Days whose dates show running text best: "d'août", "1er", "15 kwietnia".
DAYS = (date(2026, 8, 1), date(2026, 4, 15), date(2026, 10, 1))

#: The daily day page's heading, after the game's name, for each day of ``DAYS``.
DAY_HEADINGS = {
    "en": (
        "daily deal of August 1, 2026",
        "daily deal of April 15, 2026",
        "daily deal of October 1, 2026",
    ),
    "fr": (
        "donne du jour du 1er août 2026",
        "donne du jour du 15 avril 2026",
        "donne du jour du 1er octobre 2026",
    ),
    "nl": (
        "spel van de dag van 1 augustus 2026",
        "spel van de dag van 15 april 2026",
        "spel van de dag van 1 oktober 2026",
    ),
    "pl": (
        "rozdanie dnia 1 sierpnia 2026",
        "rozdanie dnia 15 kwietnia 2026",
        "rozdanie dnia 1 października 2026",
    ),
    "vi": (
        "ván của ngày 1 tháng 8 năm 2026",
        "ván của ngày 15 tháng 4 năm 2026",
        "ván của ngày 1 tháng 10 năm 2026",
    ),
}
#: The daily month page's heading, after the game's name, for the month of each of ``DAYS``.
MONTH_HEADINGS = {
    "en": (
        "daily deals of August 2026",
        "daily deals of April 2026",
        "daily deals of October 2026",
    ),
    "fr": (
        "donnes du jour d'août 2026",
        "donnes du jour d'avril 2026",
        "donnes du jour d'octobre 2026",
    ),
    "nl": (
        "spellen van de dag in augustus 2026",
        "spellen van de dag in april 2026",
        "spellen van de dag in oktober 2026",
    ),
    "pl": (
        "rozdania dnia z sierpnia 2026",
        "rozdania dnia z kwietnia 2026",
        "rozdania dnia z października 2026",
    ),
    "vi": (
        "các ván trong ngày của tháng 8 năm 2026",
        "các ván trong ngày của tháng 4 năm 2026",
        "các ván trong ngày của tháng 10 năm 2026",
    ),
}


def heading(page: bytes) -> str:
    """The text of a page's ``<h1>``, tags and entities taken out."""
    found = re.search(r"<h1[^>]*>(.*?)</h1>", page.decode(), re.DOTALL)
    assert found, page[:300]
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", found.group(1))).split())


@pytest.mark.parametrize("language", DAY_HEADINGS)
@pytest.mark.parametrize("which", range(len(DAYS)))
def test_a_daily_page_names_its_day_and_month_as_running_text(client, clock, language, which):
    day = DAYS[which]
    clock.moment = datetime(day.year, day.month, day.day, 12, tzinfo=UTC)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    with translation.override(language):
        day_url = reverse("games:daily_day", args=["lucas", day])
        month_url = reverse("games:daily_month", args=["lucas", day.year, day.month])
    assert heading(client.get(day_url).content).endswith(DAY_HEADINGS[language][which])
    assert heading(client.get(month_url).content).endswith(MONTH_HEADINGS[language][which])


def test_polish_says_ze_before_the_months_that_start_with_a_cluster(client, clock):
    clock.moment = datetime(2026, 9, 30, 12, tzinfo=UTC)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "pl"
    with translation.override("pl"):
        september = reverse("games:daily_month", args=["lucas", 2026, 9])
    assert heading(client.get(september).content).endswith("rozdania dnia ze września 2026")


#: A grade in each place it is shown: as a level (after "Difficulty", in the list of the home
#: page's choice, the daily table's column) and as a word describing a deal ("deal 123
#: (medium)", a game's line in the history). Polish agrees each with its noun.
GRADES = {
    "en": (["easy", "medium", "hard", "expert"], ["easy", "medium", "hard", "expert"]),
    "fr": (
        ["facile", "moyenne", "difficile", "très difficile"],
        ["facile", "moyenne", "difficile", "très difficile"],
    ),
    "pl": (
        ["łatwa", "średnia", "trudna", "bardzo trudna"],
        ["łatwe", "średnie", "trudne", "bardzo trudne"],
    ),
    "vi": (["dễ", "trung bình", "khó", "rất khó"], ["dễ", "trung bình", "khó", "rất khó"]),
}


@pytest.mark.parametrize("language", GRADES)
def test_a_grade_agrees_with_what_it_describes(language):
    levels, of_a_deal = GRADES[language]
    with translation.override(language):
        assert [grade_words(g) for g in ("easy", "medium", "hard", "expert")] == levels
        assert [deal_grade_words(g) for g in ("easy", "medium", "hard", "expert")] == of_a_deal


@pytest.mark.parametrize(
    ("language", "lead", "heading_grade", "choices", "on_a_link"),
    [
        (
            "pl",
            "Rozdanie {deal}, trudność: średnia.",
            "(średnie)",
            "bardzo trudna",
            "Trudność: średnia.",
        ),
        (
            "fr",
            "Donne n°\u00a0{deal}, difficulté\u00a0: moyenne.",
            "(moyenne)",
            "très difficile",
            "Difficulté\u00a0: moyenne.",
        ),
    ],
)
def test_a_grade_reads_right_on_every_page_that_shows_it(
    client, clock, language, lead, heading_grade, choices, on_a_link
):
    """Wednesday's daily deal is of medium grade (tests/web/test_daily.py): its day's page, the
    daily table, the game's heading, the history, the home page's choices, the rules page's
    shares and the game's shared link."""
    clock.moment = datetime(2026, 12, 2, 12, tzinfo=UTC)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    with translation.override(language):
        day_url = reverse("games:daily_day", args=["lucas", date(2026, 12, 2)])
        today_url = reverse("games:daily")
    game = opened(client.get(reverse("games:daily_play", args=["lucas"])))
    post_move(client, game, legal_move(game))
    page = html.unescape(client.get(day_url).content.decode())
    assert lead.format(deal=game.deal) in page
    table = html.unescape(client.get(today_url).content.decode())
    assert f"<td>{GRADES[language][0][1]}</td>" in table
    assert heading_grade in heading(client.get(url("game", game)).content)
    history = " ".join(html.unescape(client.get(reverse("games:history")).content.decode()).split())
    assert f" {GRADES[language][1][1]}, <time" in history
    home = html.unescape(client.get("/" + language + "/").content.decode())
    assert f">{choices}</option>" in home
    rules = html.unescape(client.get(f"/{language}/rules/maria/").content.decode())
    assert f"{choices} " in rules.split('class="grades"')[1]
    shared = client.post(url("share", game))
    assert shared.status_code == 302
    page = html.unescape(client.get(shared["Location"]).content.decode())
    assert on_a_link in page
