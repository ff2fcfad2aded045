"""Looks: a page reachable from every game (and every page) where a player chooses light or
dark, the table's colour, the cards' backs, two or four colours and animations; the choice
works without JavaScript, is drawn on <html> from the very first paint, kept in the browser for
a guest and on the account for a player, whose other devices follow it; a bad choice is a 400
that changes nothing."""

from urllib.parse import quote

import pytest
from django.conf import settings
from django.test import Client

from solitaire.accounts.looks import COOKIE, DEFAULTS
from solitaire.accounts.models import Preferences

from .conftest import start, url
from .test_accounts import log_in, make_user

pytestmark = pytest.mark.django_db

LOOKS = "/account/looks/"
CHOSEN = {"theme": "dark", "table": "wine", "back": "red", "deck": "four", "motion": "off"}


def html_tag(client: Client, path: str = "/en/") -> str:
    text = client.get(path).content.decode()
    return text[text.index("<html") : text.index(">", text.index("<html")) + 1]


def attributes(looks: dict[str, str]) -> list[str]:
    return [f'data-{name}="{value}"' for name, value in looks.items()]


def test_every_page_draws_the_default_looks_before_any_choice(client):
    tag = html_tag(client)
    assert all(a in tag for a in attributes(DEFAULTS))
    assert 'data-motion="normal"' in tag and 'data-theme="auto"' in tag


def test_the_looks_page_is_linked_from_every_page_and_from_the_games_menu(client):
    game = start(client)
    page = client.get(url("game", game)).content.decode()
    back_here = quote(url("game", game), safe="/")
    assert page.count(f'href="{LOOKS}?next={back_here}"') == 1  # the "More" menu
    assert f'href="{LOOKS}"' in page and f'href="{LOOKS}"' in client.get("/en/").content.decode()
    # From the header the page goes back where the player came from.
    back = client.get(LOOKS, headers={"Referer": "http://testserver/my/statistics/?x=1"})
    assert 'name="next" value="/my/statistics/?x=1"' in back.content.decode()
    elsewhere = client.get(LOOKS, headers={"Referer": "https://example.com/x/"})
    assert "example.com" not in elsewhere.content.decode()


def test_the_form_offers_three_backs_three_tables_dark_four_colours_and_animations(client):
    response = client.get(LOOKS)
    assert response.status_code == 200
    page = response.content.decode()
    for name, values in {
        "theme": ["auto", "light", "dark"],
        "table": ["green", "blue", "wine"],
        "back": ["blue", "red", "green"],
        "deck": ["two", "four"],
        "motion": ["slow", "normal", "fast", "off"],
    }.items():
        for value in values:
            assert f'name="{name}" value="{value}"' in page
    assert "Four colours: clubs green, diamonds blue" in page
    assert 'value="auto"' in page and "checked" in page


def test_a_guest_choice_is_kept_in_the_browser_and_drawn_on_every_page(client):
    game = start(client)
    response = client.post(LOOKS, {**CHOSEN, "next": url("game", game)})
    assert response.status_code == 302 and response["Location"] == url("game", game)
    assert client.cookies[COOKIE]["max-age"] == 365 * 24 * 3600
    tag = html_tag(client, url("game", game))
    assert all(a in tag for a in attributes(CHOSEN))
    assert 'data-motion="off"' in tag
    # The page shows the choice when it is opened again.
    page = client.get(LOOKS).content.decode()
    assert '<input type="radio" name="table" value="wine" id="id_table_2" required checked>' in page
    # Nothing was saved for anyone: a guest has no account.
    assert not Preferences.objects.exists()


def test_a_players_choice_is_on_the_account_and_a_second_device_follows_it(client):
    make_user()
    log_in(client)
    assert client.post(LOOKS, CHOSEN).status_code == 302
    saved = Preferences.objects.get(user__username="alice")
    assert (saved.theme, saved.table, saved.card_back, saved.deck, saved.motion) == (
        "dark",
        "wine",
        "red",
        "four",
        "off",
    )
    laptop = Client()
    assert 'data-table="green"' in html_tag(laptop)
    log_in(laptop)
    tag = html_tag(laptop)
    assert all(a in tag for a in attributes(CHOSEN))


def test_the_accounts_choice_wins_over_what_the_browser_kept_as_a_guest(client):
    client.post(LOOKS, {**CHOSEN, "table": "blue"})
    make_user()
    log_in(client)
    assert 'data-table="blue"' in html_tag(client)  # nothing chosen on the account yet
    client.post(LOOKS, {**CHOSEN, "table": "green"})
    other = Client()
    other.cookies[COOKIE] = "table=wine"
    log_in(other)
    assert 'data-table="green"' in html_tag(other)


@pytest.mark.parametrize(
    "bad",
    [
        {**CHOSEN, "table": "purple"},
        {**CHOSEN, "theme": ""},
        {k: v for k, v in CHOSEN.items() if k != "back"},
        {**CHOSEN, "motion": "x" * 5000},
    ],
)
def test_a_bad_choice_is_refused_with_a_400_and_changes_nothing(client, bad):
    response = client.post(LOOKS, bad)
    assert response.status_code == 400
    assert "Please choose one of the choices offered." in response.content.decode()
    assert COOKIE not in response.cookies
    assert 'data-table="green"' in html_tag(client)


def test_a_garbled_cookie_is_ignored(client):
    client.cookies[COOKIE] = "table=%ZZ&theme=<script>&back=red&deck"
    tag = html_tag(client)
    assert 'data-table="green"' in tag and 'data-theme="auto"' in tag
    assert 'data-back="red"' in tag and "<script>" not in tag


def test_next_must_stay_on_the_site(client):
    response = client.post(LOOKS, {**CHOSEN, "next": "https://example.com/"})
    assert response.status_code == 302 and response["Location"] == LOOKS


def test_the_looks_page_answers_get_and_post_only(client):
    assert client.put(LOOKS).status_code == 405


def test_one_tap_plays_on_a_touch_screen_by_default_and_is_kept_when_chosen(client):
    """The one-tap setting (static/js/play.js reads <html>'s data-tap): "touch" until chosen;
    a choice is kept like the other looks, on the account too; a form sent without it keeps
    the default."""
    assert 'data-tap="touch"' in html_tag(client)
    page = client.get(LOOKS).content.decode()
    for value in ("touch", "on", "off"):
        assert f'name="tap" value="{value}"' in page
    assert client.post(LOOKS, CHOSEN).status_code == 302
    assert 'data-tap="touch"' in html_tag(client)
    make_user()
    log_in(client)
    assert client.post(LOOKS, {**CHOSEN, "tap": "off"}).status_code == 302
    assert 'data-tap="off"' in html_tag(client)
    assert Preferences.objects.get(user__username="alice").tap == "off"
    assert client.post(LOOKS, {**CHOSEN, "tap": "sometimes"}).status_code == 400


@pytest.mark.parametrize(
    ("look", "default", "chosen"),
    [
        # A relaxed game: no moves or clock on the table.
        ("counters", "shown", "hidden"),
        # Large cards, for low vision (docs/accessibility.md).
        ("cards", "normal", "large"),
    ],
)
def test_a_later_look_keeps_its_default_until_chosen_and_is_kept(client, look, default, chosen):
    """Each look static/css/site.css reads on <html> (data-counters, data-cards): the default
    until chosen; kept like the other looks, on the account too; a form sent without it (from
    before it existed) keeps the default; a value not offered is a 400."""
    assert f'data-{look}="{default}"' in html_tag(client)
    page = client.get(LOOKS).content.decode()
    assert f'name="{look}" value="{default}"' in page and f'name="{look}" value="{chosen}"' in page
    assert client.post(LOOKS, CHOSEN).status_code == 302
    assert f'data-{look}="{default}"' in html_tag(client)
    assert client.post(LOOKS, {**CHOSEN, look: chosen}).status_code == 302
    assert f'data-{look}="{chosen}"' in html_tag(client)
    make_user()
    log_in(client)
    assert client.post(LOOKS, {**CHOSEN, look: chosen}).status_code == 302
    field = {"counters": "counters", "cards": "card_size"}[look]
    assert getattr(Preferences.objects.get(user__username="alice"), field) == chosen
    assert client.post(LOOKS, {**CHOSEN, look: "never"}).status_code == 400


@pytest.mark.parametrize(
    ("language", "king", "queen"), [("en", "K", "Q"), ("fr", "R", "D"), ("nl", "H", "V")]
)
def test_the_preview_s_cards_wear_the_language_s_letters(client, language, king, queen):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    page = client.get(LOOKS).content.decode()
    preview = page[page.index('class="looks-preview"') :]
    assert f'data-card="KS"><span class="corner">{king}♠</span>' in preview
    assert f'data-card="QH"><span class="corner">{queen}♥</span>' in preview
    assert '<span class="corner">7♣</span>' in preview
