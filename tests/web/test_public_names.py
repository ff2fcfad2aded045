"""Public names that cannot pass for another: a lookalike of a taken name (another script's
letters, fullwidth or mathematical letters, the Kelvin sign, "1" for "l") is taken; the words
the leaderboards print for a player without a name, in all five languages, and the staff's are
kept; names in every script players write are accepted, with their marks; invisible and
direction-changing characters are refused."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from solitaire.accounts import names
from solitaire.accounts.models import Preferences

pytestmark = pytest.mark.django_db


def choose(username: str, name: str):
    user = get_user_model().objects.create_user(username, password="pw")
    client = Client()
    client.force_login(user)
    return client.post(reverse("public_name"), {"public_name": name})


def name_of(username: str) -> str | None:
    chosen = Preferences.objects.filter(user__username=username).values_list("public_name")
    return next((name for (name,) in chosen), None)


@pytest.mark.parametrize(
    "lookalike",
    [
        "\u0410lice",  # a Cyrillic capital A
        "ALICE",
        "\uff21\uff4c\uff49\uff43\uff45",  # fullwidth
        "\U0001d400\U0001d425\U0001d422\U0001d41c\U0001d41e",  # mathematical bold
        "A1ice",
    ],
)
def test_a_lookalike_of_a_taken_name_is_taken(lookalike):
    assert choose("alice", "Alice").status_code == 302
    response = choose("mallory", lookalike)
    assert response.status_code == 400
    assert "Another player has that name" in response.content.decode()
    assert name_of("mallory") is None


def test_the_kelvin_sign_is_a_k():
    assert choose("kelvin", "Kelvin").status_code == 302
    assert choose("other", "\u212aelvin").status_code == 400


@pytest.mark.parametrize(
    "name",
    ["a player", "A Player", "un joueur", "een speler", "gracz", "Admin", "administrator", "r00t"],
)
def test_the_sites_own_words_are_kept(name):
    response = choose("someone", name)
    assert response.status_code == 400, name
    assert "kept for the site" in response.content.decode()


@pytest.mark.parametrize(
    "name", ["தமிழ்செல்வி", "अनुष्का", "สมชาย", "Nguyễn Thị Ánh", "Zoë O'Brien", "Łucja-Ś"]
)
def test_names_in_every_script_with_their_marks_are_accepted(name):
    assert choose("player", name).status_code == 302
    assert name_of("player") == name


@pytest.mark.parametrize(
    "name",
    ["ab\u200bc", "ab\u200dc", "ab\u202ec", "ab\u2066c", "a\u0000b", "\u0301abc", "ab<c>"],
)
def test_invisible_direction_and_other_characters_are_refused(name):
    assert choose("player", name).status_code == 400
    assert name_of("player") is None


def test_the_key_is_stored_and_the_database_holds_it_unique():
    choose("alice", "Alice")
    assert Preferences.objects.get(user__username="alice").public_name_key == names.key("Alice")
    assert names.key("\u0410lice") == names.key("alice") != names.key("alicia")


def test_a_reload_after_a_refused_name_goes_back_to_the_account_page():
    """A refused name is answered at the name's address; reloading it (a GET) or coming Back
    to it is the account page, not an error."""
    get_user_model().objects.create_user("zoe", password="a long enough password")
    client = Client()
    client.login(username="zoe", password="a long enough password")
    assert client.post(reverse("public_name"), {"public_name": "\u202ezoe"}).status_code == 400
    again = client.get(reverse("public_name"))
    assert again.status_code == 302 and again["Location"] == reverse("account")
