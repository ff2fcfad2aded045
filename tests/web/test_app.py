"""The site as an app: the manifest in each language (one id, so that the site installs as one
app), the service worker at the root with headers that let a deploy be picked up at the next
visit, the offline page, the icons and sounds the project makes itself, and the looks that
came with them (the animation speed, the sound and its volume), with the migration that keeps
each player's animations."""

import json
import wave
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from PIL import Image

from solitaire.accounts.looks import COOKIE
from solitaire.accounts.models import Preferences
from solitaire.app import APPLE_TOUCH_ICON, ICONS, SOUNDS, sound_file

from .test_accounts import log_in, make_user
from .test_looks import CHOSEN, LOOKS, html_tag

STATIC = Path(settings.BASE_DIR) / "static"
LANGUAGES = [code for code, _name in settings.LANGUAGES]


def manifest_url(code: str) -> str:
    return f"/{code}/manifest.webmanifest"


@pytest.mark.django_db
class TestManifest:
    def test_each_language_has_its_manifest_with_one_id_for_all(self, client):
        names, ids = set(), set()
        for code in LANGUAGES:
            response = client.get(manifest_url(code))
            assert response.status_code == 200
            assert response["Content-Type"] == "application/manifest+json"
            data = json.loads(response.content)
            assert data["lang"] == code
            assert data["start_url"] == f"/{code}/"
            assert data["display"] == "standalone" and data["scope"] == "/"
            assert data["theme_color"] == data["background_color"] == "#0b5d3b"
            names.add(data["name"])
            ids.add(data["id"])
        assert ids == {"/"}
        assert len(names) == len(LANGUAGES)  # every language names the app in its own words
        assert "Réussite" in json.loads(client.get("/fr/manifest.webmanifest").content)["name"]

    def test_its_icons_are_pngs_of_the_sizes_they_say_any_and_maskable(self, client):
        data = json.loads(client.get(manifest_url("en")).content)
        purposes = {(icon["sizes"], icon["purpose"]) for icon in data["icons"]}
        assert {("192x192", "any"), ("512x512", "any")} <= purposes
        assert {("192x192", "maskable"), ("512x512", "maskable")} <= purposes
        for icon in data["icons"]:
            name = icon["src"].removeprefix(
                settings.STATIC_URL
                if settings.STATIC_URL.startswith("/")
                else "/" + settings.STATIC_URL
            )
            with Image.open(STATIC / name) as image:
                assert image.format == "PNG"
                assert f"{image.width}x{image.height}" == icon["sizes"]
            if icon["purpose"] == "maskable":
                with Image.open(STATIC / name) as image:
                    assert image.mode == "RGB"  # no clear corner for a launcher to fill

    def test_every_page_links_its_languages_manifest_and_the_apple_icon(self, client):
        page = client.get("/fr/").content.decode()
        assert '<link rel="manifest" href="/fr/manifest.webmanifest">' in page
        assert 'rel="apple-touch-icon"' in page and "apple-mobile-web-app-title" in page
        assert "viewport-fit=cover" in page
        with Image.open(STATIC / APPLE_TOUCH_ICON) as image:
            assert (image.width, image.height) == (180, 180)

    def test_only_get_is_answered(self, client):
        assert client.post(manifest_url("en")).status_code == 405


@pytest.mark.django_db
class TestServiceWorker:
    def test_it_is_served_at_the_root_and_asked_again_at_every_visit(self, client):
        response = client.get("/sw.js")
        assert response.status_code == 200
        assert response["Content-Type"].startswith("text/javascript")
        assert response["Cache-Control"] == "no-cache"
        assert response["Service-Worker-Allowed"] == "/"
        # The page registers it there, for the whole site.
        assert 'data-service-worker="/sw.js"' in client.get("/en/").content.decode()

    def test_it_keeps_the_static_files_and_the_offline_page_of_every_language(self, client):
        script = client.get("/sw.js").content.decode()
        assert '"/static/js/game.js"' in script and '"/static/css/site.css"' in script
        for code in LANGUAGES:
            assert f'"{code}": "/{code}/offline/"' in script
        # Its version is a digest of what it keeps: the same files, the same script.
        assert client.get("/sw.js").content.decode() == script

    def test_it_never_answers_a_request_that_is_not_a_get(self, client):
        script = client.get("/sw.js").content.decode()
        assert 'if (request.method !== "GET") return;' in script

    def test_only_get_is_answered(self, client):
        assert client.post("/sw.js").status_code == 405


@pytest.mark.django_db
class TestOfflinePage:
    @pytest.mark.parametrize(
        ("path", "words"),
        [
            ("/en/offline/", "You are offline"),
            ("/fr/offline/", "Vous êtes hors ligne"),
            ("/nl/offline/", "Je bent offline"),
            ("/pl/offline/", "Jesteś offline"),
            ("/vi/offline/", "Bạn đang ngoại tuyến"),
        ],
    )
    def test_it_says_so_in_the_language_of_its_address(self, client, path, words):
        response = client.get(path)
        assert response.status_code == 200
        page = response.content.decode()
        assert words in page
        # Kept by the worker: no form, no token that would go stale.
        assert "<form" not in page and "csrfmiddlewaretoken" not in page


class TestMadeHere:
    def test_the_committed_icons_are_what_the_drawing_gives(self):
        call_command("draw_icons", "--check")
        for name, _size, _purpose in ICONS:
            assert (STATIC / name).exists(), name

    def test_the_committed_sounds_are_what_the_synthesis_gives_and_small(self):
        call_command("synthesise_sounds", "--check")
        total = 0
        for name in SOUNDS:
            path = STATIC / sound_file(name)
            with wave.open(str(path)) as sound:
                assert sound.getnchannels() == 1
                assert 0.04 < sound.getnframes() / sound.getframerate() < 1.0  # short
            total += path.stat().st_size
        assert total <= 30_000


@pytest.mark.django_db
class TestLooks:
    def test_sound_is_off_and_the_pace_normal_until_chosen(self, client):
        tag = html_tag(client)
        assert 'data-sound="off"' in tag and 'data-volume="medium"' in tag
        assert 'data-motion="normal"' in tag
        page = client.get(LOOKS).content.decode()
        for name, values in {
            "motion": ["slow", "normal", "fast", "off"],
            "sound": ["off", "on"],
            "volume": ["quiet", "medium", "loud"],
        }.items():
            for value in values:
                assert f'name="{name}" value="{value}"' in page

    def test_sound_and_volume_are_kept_in_the_browser_and_on_the_account(self, client):
        chosen = {**CHOSEN, "motion": "fast", "sound": "on", "volume": "loud"}
        assert client.post(LOOKS, chosen).status_code == 302
        tag = html_tag(client)
        assert 'data-sound="on"' in tag and 'data-volume="loud"' in tag
        assert 'data-motion="fast"' in tag
        make_user()
        log_in(client)
        assert client.post(LOOKS, {**chosen, "volume": "quiet"}).status_code == 302
        saved = Preferences.objects.get(user__username="alice")
        assert (saved.sound, saved.volume, saved.motion) == ("on", "quiet", "fast")

    def test_a_form_sent_without_the_sound_keeps_it_off(self, client):
        assert client.post(LOOKS, CHOSEN).status_code == 302
        assert 'data-sound="off"' in html_tag(client)

    @pytest.mark.parametrize(
        "bad", [{"sound": "loud"}, {"volume": "11"}, {"motion": "on"}, {"motion": "warp"}]
    )
    def test_a_bad_choice_is_a_400_that_changes_nothing(self, client, bad):
        response = client.post(LOOKS, {**CHOSEN, **bad})
        assert response.status_code == 400
        assert COOKIE not in response.cookies
        assert 'data-sound="off"' in html_tag(client)

    def test_a_browser_that_kept_animations_on_gets_the_normal_pace(self, client):
        client.cookies[COOKIE] = "motion=on&table=blue"
        tag = html_tag(client)
        assert 'data-motion="normal"' in tag and 'data-table="blue"' in tag
        client.cookies[COOKIE] = "motion=off"
        assert 'data-motion="off"' in html_tag(client)


@pytest.mark.django_db(transaction=True)
class TestMigration:
    """accounts 0008: animations on become the normal pace, off stays off, unchosen stays
    unchosen; and back."""

    def test_each_players_animations_are_kept(self):
        before = ("accounts", "0007_counters")
        executor = MigrationExecutor(connection)
        leaves = [n for n in executor.loader.graph.leaf_nodes() if n[0] == "accounts"]
        executor.migrate([before])
        old = executor.loader.project_state(before).apps
        OldPreferences = old.get_model("accounts", "Preferences")
        OldUser = old.get_model(*settings.AUTH_USER_MODEL.split("."))
        kept = {}
        for name, motion in (("on", "on"), ("off", "off"), ("none", "")):
            user = OldUser.objects.create(username=name)
            OldPreferences.objects.create(user_id=user.pk, motion=motion, table="wine")
            kept[name] = user.pk
        MigrationExecutor(connection).migrate(leaves)
        now = {name: Preferences.objects.get(user_id=pk) for name, pk in kept.items()}
        assert now["on"].motion == "normal" and now["off"].motion == "off"
        assert now["none"].motion == "" and now["on"].table == "wine"
        assert now["on"].sound == "" and now["on"].volume == ""
        MigrationExecutor(connection).migrate([before])
        back = old.get_model("accounts", "Preferences")
        assert back.objects.get(user_id=kept["on"]).motion == "on"
        MigrationExecutor(connection).migrate(leaves)
        get_user_model().objects.all().delete()
