"""The rules engine stands on its own: it imports with Django unavailable, the solver and the
automatic moves too."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import sys

class NoDjango:
    def find_spec(self, name, path=None, target=None):
        if name == "django" or name.startswith("django."):
            raise ImportError("Django is unavailable here")
        return None

sys.meta_path.insert(0, NoDjango())
from games.rules import VARIANTS, first_position, replay, Record
from games.rules import autoplay, builds, solver
p = replay(Record("forty-thieves", 1, ["t8-t4", "deal"]))
assert p.ply == 2, p.ply
autoplay.next_safe_move(p)
assert builds.PARENTS and solver.solutions("forty-thieves")
assert not any(m == "django" or m.startswith("django.") for m in sys.modules)
print("ok", len(VARIANTS))
"""


def test_rules_engine_imports_and_plays_without_django():
    result = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok 10"
