"""Choosing the language and the time zone: the browser's Accept-Language on a first visit, the
switcher on every page (without JavaScript), the choice kept for the session and saved on the
account so a second device follows it, language-prefixed public pages, and the player's time
zone for dates and weeks."""

from datetime import UTC, date, datetime, timedelta

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import formats, timezone, translation

from games.models import Game
from games.owners import Owner
from games.selectors.stats import statistics
from solitaire import clock as site_clock
from solitaire.accounts.models import Preferences

from . import services_support as services
from .conftest import post_move, start, url
from .test_accounts import log_in, make_user

pytestmark = pytest.mark.django_db

LANGUAGES = [code for code, _name in settings.LANGUAGES]


def html_lang(response) -> str:
    text = response.content.decode()
    return text.split('<html lang="', 1)[1].split('"', 1)[0]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_first_visit_opens_the_home_page_in_the_browsers_language(client, language):
    response = client.get("/", headers={"Accept-Language": f"{language},en;q=0.5"})
    assert response.status_code == 302 and response["Location"] == f"/{language}/"
    page = client.get(response["Location"])
    assert page.status_code == 200 and html_lang(page) == language


def test_a_shared_rules_link_opens_in_its_language_whatever_the_browser_asks(client):
    response = client.get("/pl/rules/maria/", headers={"Accept-Language": "fr"})
    assert response.status_code == 200 and html_lang(response) == "pl"
    with translation.override("vi"):
        assert reverse("pages:rules", args=["maria"]) == "/vi/rules/maria/"


def test_the_game_pages_follow_the_players_language_without_a_prefix(client):
    game = start(client)
    assert html_lang(client.get(url("game", game), headers={"Accept-Language": "nl"})) == "nl"


def test_the_switcher_works_without_javascript_and_keeps_the_choice(client):
    game = start(client)
    page = client.get(url("game", game)).content.decode()
    assert 'action="/i18n/language/"' in page and 'name="language"' in page
    response = client.post("/i18n/language/", {"language": "pl", "next": url("game", game)})
    assert response.status_code == 302 and response["Location"] == url("game", game)
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "pl"
    later = client.get(url("game", game), headers={"Accept-Language": "fr"})
    assert html_lang(later) == "pl"


def test_switching_on_a_public_page_goes_to_that_page_in_the_chosen_language(client):
    response = client.post("/i18n/language/", {"language": "vi", "next": "/fr/rules/lucas/"})
    assert response.status_code == 302 and response["Location"] == "/vi/rules/lucas/"


def test_an_unknown_language_changes_nothing(client):
    client.post("/i18n/language/", {"language": "xx", "next": "/en/"})
    assert settings.LANGUAGE_COOKIE_NAME not in client.cookies


def test_the_choice_is_saved_on_the_account_and_a_second_device_follows_it(client):
    make_user("ana")
    log_in(client, "ana")
    client.post("/i18n/language/", {"language": "fr", "next": "/my/"})
    assert Preferences.objects.get(user__username="ana").language == "fr"
    phone = Client()
    log_in(phone, "ana")
    page = phone.get(reverse("games:my_games"), headers={"Accept-Language": "nl"})
    assert html_lang(page) == "fr"
    assert phone.cookies[settings.LANGUAGE_COOKIE_NAME].value == "fr"


class TestTimeZone:
    def test_the_browsers_zone_is_kept_and_saved_on_the_account(self, client):
        make_user("minh")
        log_in(client, "minh")
        response = client.post("/i18n/time-zone/", {"time_zone": "Asia/Ho_Chi_Minh"})
        assert response.status_code == 204
        assert Preferences.objects.get(user__username="minh").time_zone == "Asia/Ho_Chi_Minh"
        page = client.get(reverse("games:my_games")).content.decode()
        assert 'data-time-zone="Asia/Ho_Chi_Minh"' in page

    @pytest.mark.parametrize("zone", ["", "Mars/Olympus", "Asia/Ho_Chi_Minh\x00", "x" * 300])
    def test_a_name_that_is_not_a_zone_is_400_and_kept_nowhere(self, client, zone):
        response = client.post("/i18n/time-zone/", {"time_zone": zone})
        assert response.status_code == 400
        assert "time_zone" not in client.session

    def test_a_monday_morning_game_in_vietnam_is_in_mondays_week(self, client):
        """06:00 on Monday in Ho Chi Minh City is 23:00 on Sunday in UTC: the game belongs to
        the week that begins that Monday, as the player lives it."""
        make_user("lan")
        log_in(client, "lan")
        client.post("/i18n/time-zone/", {"time_zone": "Asia/Ho_Chi_Minh"})
        owner = Owner(user=User.objects.get(username="lan"))
        game = services.start_game(owner, "forty-thieves", 1)
        monday_morning = datetime(2026, 11, 29, 23, 0, tzinfo=UTC)  # Mon 30 Nov, 06:00 UTC+7
        Game.objects.filter(pk=game.pk).update(first_move_at=monday_morning)
        with timezone.override("Asia/Ho_Chi_Minh"):
            weeks = statistics(owner, today=date(2026, 12, 1)).overall.weeks
        this_week = weeks[-1]
        assert this_week.start == date(2026, 11, 30) and this_week.games == 1
        with timezone.override("UTC"):
            weeks = statistics(owner, today=date(2026, 12, 1)).overall.weeks
        assert weeks[-1].games == 0 and weeks[-2].games == 1


def test_percentages_and_dates_are_written_as_the_language_writes_them(client):
    """French puts a no-break space before the percent sign and writes dates its own way."""
    from games.templatetags.words import percent

    with translation.override("fr"):
        assert percent(50) == "50\u00a0%"
    with translation.override("pl"):
        assert percent(50) == "50%"
    game = start(client)
    post_move(client, game, "deal")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    page = client.get(reverse("games:statistics")).content.decode()
    monday = site_clock.localdate() - timedelta(days=site_clock.localdate().weekday())
    with translation.override("fr"):
        french = formats.date_format(monday, "DATE_FORMAT")
    assert french in page and monday.strftime("%B") not in page


def test_a_rules_page_says_why_a_game_keeps_its_english_name(client):
    """Dutch players know "Lucas" as Lucas: the Dutch rules page says the name is kept; the
    French page of Forty Thieves, which French players call Quarante Voleurs, needs no note."""
    dutch = client.get("/nl/rules/lucas/").content.decode()
    assert "“Lucas” is de naam waaronder spelers deze patience" in dutch
    english = client.get("/en/rules/lucas/").content.decode()
    assert "is the name players know this game by" not in english
    french = client.get("/fr/rules/forty-thieves/").content.decode()
    assert "Quarante Voleurs" in french and "name-note" not in french


def test_a_pile_is_named_in_the_form_its_place_in_the_sentence_needs():
    """Polish inflects a pile's name: the column cards leave ("z kolumny 8"), the one they go
    to ("na kolumnę 4"), the one a refusal is about ("kolumna 3 …") are three forms."""
    from games.rules import Move
    from games.rules.played import Played
    from games.words import pile_label, played_words

    with translation.override("pl"):
        forms = {role: pile_label("t3", role) for role in ("subject", "from", "to")}
        assert len(set(forms.values())) == 3
        said = played_words(Played(Move.parse("t8-t4"), "t8", "t4", 1, 36))
        assert pile_label("t8", "from") in said and pile_label("t4", "to") in said
    with translation.override("en"):
        assert {pile_label("t3", role) for role in ("subject", "from", "to")} == {"column 3"}


def test_a_device_that_comes_in_on_a_languages_link_stays_in_it(client):
    """A friend's link to /pl/... opens the game in Polish on a browser set to English; the
    game's own address carries no language, and its moves and next pages are Polish too."""
    english = {"Accept-Language": "en-US,en;q=0.9"}
    # What a page or a service worker fetches by itself leaves the language as it is.
    client.get("/pl/offline/", headers={**english, "Sec-Fetch-Mode": "same-origin"})
    assert settings.LANGUAGE_COOKIE_NAME not in client.cookies
    opened = client.get(
        "/pl/play/maria/12/", headers={**english, "Sec-Fetch-Mode": "navigate"}, follow=True
    )
    assert html_lang(opened) == "pl"
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "pl"
    game = Game.objects.get()
    answer = post_move(client, game, "deal")  # its address has no language
    assert answer.status_code == 200
    said = answer.content.decode()
    assert "Dobrano z talii" in said and "Dealt" not in said
    assert html_lang(client.get(url("game", game), headers=english)) == "pl"
    assert html_lang(client.get(reverse("games:my_games"), headers=english)) == "pl"


def test_a_link_in_another_language_does_not_undo_a_choice_made(client):
    client.post("/i18n/language/", {"language": "fr", "next": "/my/"})
    client.get("/pl/play/maria/12/", headers={"Sec-Fetch-Mode": "navigate"}, follow=True)
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "fr"
    assert html_lang(client.get(reverse("games:my_games"))) == "fr"
