"""The production storage of the static files (solitaire/static.py): a file's URL is its name
with its content's hash, from the manifest collectstatic wrote, worked out once per process;
a name the manifest lacks is refused every time, never kept."""

import json

import pytest
from django.test import override_settings

from solitaire.static import KeptURLsStorage


@pytest.fixture
def storage(tmp_path):
    paths = {"css/site.css": "css/site.0123456789ab.css"}
    manifest = {"version": "1.1", "hash": "0", "paths": paths}
    (tmp_path / "staticfiles.json").write_text(json.dumps(manifest))
    with override_settings(STATIC_ROOT=tmp_path, STATIC_URL="/static/"):
        yield KeptURLsStorage()


def test_a_file_is_named_by_its_hashed_name_every_time(storage):
    first = storage.url("css/site.css")
    assert first == "/static/css/site.0123456789ab.css"
    # The manifest does not change under a running process: the URL is not worked out again.
    storage.hashed_files["css/site.css"] = "css/site.ffffffffffff.css"
    assert storage.url("css/site.css") == first


def test_a_file_the_manifest_lacks_is_refused_each_time(storage):
    for _ in range(2):
        with pytest.raises(ValueError, match="Missing staticfiles manifest entry"):
            storage.url("css/missing.css")
