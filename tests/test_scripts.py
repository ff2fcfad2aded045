"""The game page's scripts (static/js/game/): ES modules with one job and one owner each,
bundled by esbuild into the committed static/js/game.js. The bundle is what the modules give
(rebuilt here with the esbuild that package-lock.json pins: `make test` installs it), every
module is in it, one module alone hears the board's htmx events, and none shares state
through ``window`` but the browser tests' one hook."""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MODULES = ROOT / "static" / "js" / "game"
BUILT = ROOT / "static" / "js" / "game.js"
ESBUILD = ROOT / "node_modules" / ".bin" / "esbuild"

#: A listener of htmx's events ("htmx:afterSwap" and the others), added either way htmx allows.
HTMX_LISTENER = re.compile(r"""addEventListener\(\s*["'`]htmx:|\bhtmx\.on\(""")
#: An assignment to a property of the page's global object (``window.x = ``, ``self["x"] =``,
#: ``Object.assign(window, ...)``).
GLOBAL_WRITE = re.compile(
    r"""\b(?:window|globalThis|self)\s*(?:\.\s*[\w$]+|\[[^\]]*\])\s*(?:[-+*/|&]?=)(?!=)"""
    r"""|Object\.(?:assign|defineProperty|defineProperties)\(\s*(?:window|globalThis|self)\b"""
)
#: The one hook for the browser tests (static/js/game/main.js).
TEST_HOOK = "window.solitaireTests = "


def modules() -> dict[str, str]:
    return {
        path.relative_to(MODULES).as_posix(): path.read_text(encoding="utf-8")
        for path in sorted(MODULES.rglob("*.js"))
    }


def build(*extra: str) -> bytes:
    if not ESBUILD.exists() or not shutil.which("npm"):
        pytest.fail("esbuild is not installed: `make test` installs it (npm ci), or run `npm ci`")
    done = subprocess.run(
        ["npm", "run", "--silent", "build", "--", *extra],
        cwd=ROOT,
        capture_output=True,
        check=True,
    )
    return done.stdout


def test_the_committed_bundle_is_what_the_modules_give():
    assert BUILT.read_bytes() == build(), "static/js/game.js is stale: run `make js`"


def test_every_module_is_in_the_bundle(tmp_path):
    meta = tmp_path / "meta.json"
    build(f"--outfile={tmp_path / 'game.js'}", f"--metafile={meta}")
    bundled = {
        Path(name).relative_to("static/js/game").as_posix()
        for name in json.loads(meta.read_text())["inputs"]
    }
    assert bundled == set(modules())


def test_each_module_says_what_it_is_for():
    for name, text in modules().items():
        assert text.startswith("/* "), f"{name} has no header comment"


def test_one_module_alone_listens_to_htmx_events():
    listeners = [name for name, text in modules().items() if HTMX_LISTENER.search(text)]
    assert listeners == ["board.js"]


def test_no_module_writes_to_the_global_object_but_the_test_hook():
    writes = {
        name: [m.group(0) for m in GLOBAL_WRITE.finditer(text)] for name, text in modules().items()
    }
    writes = {name: found for name, found in writes.items() if found}
    assert writes == {"main.js": [TEST_HOOK.rstrip(" ")]}


@pytest.mark.parametrize(
    "line",
    [
        'document.addEventListener("htmx:afterSwap", f);',
        "document.body.addEventListener( 'htmx:beforeSwap', f)",
        'htmx.on("htmx:afterSettle", f)',
    ],
)
def test_the_htmx_listener_pattern_finds_every_way_of_listening(line):
    assert HTMX_LISTENER.search(line)


@pytest.mark.parametrize(
    "line",
    [
        "window.solitaire = {};",
        "globalThis.motion = x;",
        'self["queue"] = [];',
        "window.count += 1;",
        "Object.assign(window, { a });",
    ],
)
def test_the_global_write_pattern_finds_every_way_of_writing(line):
    assert GLOBAL_WRITE.search(line)


@pytest.mark.parametrize(
    "line",
    ["if (window.innerHeight === h) {}", 'window.matchMedia("(x)").matches', "a = window.x;"],
)
def test_the_global_write_pattern_passes_reads(line):
    assert not GLOBAL_WRITE.search(line)
