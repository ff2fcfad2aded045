"""Static files joined into one: the game page's scripts go as one file, so that a first visit
fetches them in one request beside the stylesheet and htmx, not in a second round after them
(with HTTP/1.1 a browser opens six connections to a site; docs/performance.md).

A staticfiles finder: collectstatic writes the bundle like any static file (named with a hash of
its content, cached for a year, compressed), and the development server serves it freshly
joined. The scripts stay separate files in static/js/, each an IIFE that shares what it shares
through ``window``, so they run joined exactly as they ran apart.
"""

import hashlib
import tempfile
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.finders import BaseFinder
from django.core.files.storage import FileSystemStorage

#: Each bundle's name and its parts, in the order they run.
BUNDLES = {
    "js/game.js": [
        "js/play.js",
        "js/catchup.js",
        "js/drag.js",
        "js/keys.js",
        "js/assist.js",
        "js/clock.js",
        "js/motion.js",
    ],
}


def bundle_text(name: str) -> str:
    """The parts of the bundle ``name`` joined, each headed by its name."""
    out = []
    for part in BUNDLES[name]:
        found = finders.find(part)
        if not found:
            raise FileNotFoundError(f"{part}, a part of {name}, is not a static file")
        out.append(f"/* {part} */\n{Path(found).read_text(encoding='utf-8')}")
    return "\n".join(out)


class BundleFinder(BaseFinder):
    """Finds each bundle of BUNDLES, written (when its parts changed) to a folder of its own."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        checkout = hashlib.sha256(str(settings.BASE_DIR).encode()).hexdigest()[:12]
        self.root = Path(tempfile.gettempdir()) / f"solitaire-bundles-{checkout}"
        self.storage = FileSystemStorage(location=self.root)

    def build(self, name: str) -> Path:
        path = self.root / name
        text = bundle_text(name)
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        return path

    def find(self, path, find_all=False):
        if path not in BUNDLES:
            return []
        found = str(self.build(path))
        return [found] if find_all else found

    def list(self, ignore_patterns):
        for name in BUNDLES:
            self.build(name)
            yield name, self.storage
