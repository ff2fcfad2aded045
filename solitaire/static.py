"""The static files' storage in production: whitenoise's compressed manifest storage, each
file's URL worked out once per process.

A page names a dozen static files (its style sheets, scripts, icons, sounds), and the manifest
storage works each URL out on every call: the hashed name looked up, then joined to
``STATIC_URL`` and quoted, about 20 µs each. The manifest does not change while the process
runs (``collectstatic`` writes it before the servers start), so neither does a file's URL: it
is kept by name the first time it is asked for. A name the manifest lacks raises as before and
is not kept. Django makes a new storage when a test changes the static settings, with nothing
kept.
"""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class KeptURLsStorage(CompressedManifestStaticFilesStorage):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._urls: dict[str, str] = {}

    def url(self, name, force=False):
        if force:
            return super().url(name, force)
        try:
            return self._urls[name]
        except KeyError:
            url = self._urls[name] = super().url(name)
            return url
