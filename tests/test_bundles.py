"""The game page's scripts joined into one static file (solitaire/bundles.py): found by the
staticfiles finders as the page asks for it, each part whole and in its order, rebuilt when a
part changes, and written by collectstatic."""

from pathlib import Path

from django.contrib.staticfiles import finders
from django.core.management import call_command

from solitaire.bundles import BUNDLES, BundleFinder

ROOT = Path(__file__).resolve().parent.parent


def test_the_game_bundle_holds_every_part_whole_in_order():
    text = Path(finders.find("js/game.js")).read_text(encoding="utf-8")
    places = []
    for part in BUNDLES["js/game.js"]:
        source = (ROOT / "static" / part).read_text(encoding="utf-8")
        assert source in text, f"{part} is not whole in the bundle"
        places.append(text.index(source))
    assert places == sorted(places)


def test_the_bundle_is_rebuilt_when_a_part_changes(tmp_path, settings):
    part = tmp_path / "static" / "js" / "a.js"
    part.parent.mkdir(parents=True)
    part.write_text("(function () { window.a = 1; })();\n")
    settings.STATICFILES_DIRS = [tmp_path / "static"]
    settings.BASE_DIR = tmp_path
    finders.get_finder.cache_clear()
    try:
        BUNDLES["js/test-bundle.js"] = ["js/a.js"]
        finder = BundleFinder()
        assert "window.a = 1" in Path(finder.find("js/test-bundle.js")).read_text()
        part.write_text("(function () { window.a = 2; })();\n")
        assert "window.a = 2" in Path(finder.find("js/test-bundle.js")).read_text()
        assert finder.find("js/a.js") == []
    finally:
        del BUNDLES["js/test-bundle.js"]
        finders.get_finder.cache_clear()


def test_collectstatic_writes_the_bundle(tmp_path, settings):
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    call_command("collectstatic", interactive=False, verbosity=0)
    written = (tmp_path / "js" / "game.js").read_text(encoding="utf-8")
    assert written == Path(finders.find("js/game.js")).read_text(encoding="utf-8")
