"""The code keeps its house rules, read from its source:

- only public Django APIs: no module outside tests imports from a private Django module or a
  private name, or touches a ``_private`` attribute of any object but its own (``self``);
  Django documents ``_meta`` as public;
- no module imports another module's private name;
- the layers import downward only (web -> services, selectors -> store, models -> rules), and
  the engine imports nothing from Django or the site;
- every query of games goes through the ownership rule (``owned_by``) but for the few places
  that act for no player, each named here with its reason.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(
    p
    for package in ("games", "solitaire")
    for p in (ROOT / package).rglob("*.py")
    if "migrations" not in p.parts
)
#: Attributes with a leading underscore that are public all the same: Django's documented
#: Options API, and named tuples' own methods.
PUBLIC = {"_meta", "_replace", "_asdict", "_fields", "_make"}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> list[tuple[str, list[str]]]:
    """Each import of ``path``: the absolute module and the names taken from it."""
    tree = ast.parse(path.read_text(), str(path))
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            found.append((module, [alias.name for alias in node.names]))
    return found


def test_the_sources_are_found():
    names = {module_name(p) for p in SOURCES}
    assert {"games.store", "games.services.play", "games.web.play", "games.rules"} <= names


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_only_public_django_apis(path):
    for module, names in imports(path):
        if module.split(".")[0] == "django":
            assert not any(part.startswith("_") for part in module.split(".")), module
            assert not [n for n in names if n.startswith("_")], (module, names)
    for node in ast.walk(ast.parse(path.read_text())):
        own = isinstance(node, ast.Attribute) and (
            isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")
        )
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not own:
            assert node.attr.startswith("__") or node.attr in PUBLIC, (
                f"{path.name}:{node.lineno} touches {node.attr}"
            )


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_imports_another_modules_private_name(path):
    for module, names in imports(path):
        private = [n for n in names if n.startswith("_") and not n.startswith("__")]
        assert not private, f"{path.name} imports {private} from {module}"


#: Each layer and the layers (besides itself) it may import from.
LAYERS = {
    "rules": set(),
    "models": {"rules"},
    "store": {"models", "rules"},
    "services": {"store", "models", "rules"},
    "selectors": {"models", "rules"},
    "words": {"services", "models", "rules"},
    "web": {"services", "selectors", "words", "models", "rules", "board", "forms", "guide"},
}


def layer_of(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "games" or len(parts) < 2:
        return None
    name = parts[1]
    if name in ("owners", "models"):
        return "models"
    return name if name in LAYERS else None


def test_layers_import_downward_only():
    wrong = []
    for path in SOURCES:
        here = layer_of(module_name(path))
        if here is None:
            continue
        for module, names in imports(path):
            targets = [module] + [f"{module}.{n}" for n in names]
            for target in targets:
                there = layer_of(target)
                if there is not None and there != here and there not in LAYERS[here]:
                    wrong.append(f"{module_name(path)} ({here}) imports {target} ({there})")
    assert wrong == []


def test_the_engine_imports_nothing_but_itself_and_the_standard_library():
    for path in (ROOT / "games" / "rules").rglob("*.py"):
        for module, _names in imports(path):
            top = module.split(".")[0]
            assert top not in ("django", "solitaire") and not module.startswith(
                ("games.models", "games.services", "games.web", "games.store")
            ), f"{path.name} imports {module}"


def test_no_import_cycle_between_modules():
    graph = {module_name(p): set() for p in SOURCES}
    for path in SOURCES:
        for module, names in imports(path):
            for target in [module, *(f"{module}.{n}" for n in names)]:
                if target in graph and target != module_name(path):
                    graph[module_name(path)].add(target)
    # Packages import their modules for their own namespace; a cycle through an __init__ that
    # only names its modules is none.
    seen, stack, cycles = set(), [], []

    def visit(node):
        if node in stack:
            cycles.append([*stack[stack.index(node) :], node])
            return
        if node in seen:
            return
        seen.add(node)
        stack.append(node)
        for nxt in sorted(graph[node]):
            if not nxt.startswith(node + "."):
                visit(nxt)
        stack.pop()

    for node in sorted(graph):
        visit(node)
    assert cycles == []


#: Where a game is read or written without the ownership rule, and why.
UNOWNED = {
    # The worker runs a search a player asked for, by the search's id.
    ("games/tasks.py", "run_search"),
    # Winnable deals are the site's, not a player's: any game of the deal is no one's business.
    # The integrity check reads every game, as an operator's tool.
    ("games/integrity.py", None),
    ("games/management/commands/check_games.py", None),
    # Starting a game creates it for its owner.
    ("games/services/play.py", "start_game"),
    ("games/services/play.py", "start_from_record"),
}


def test_every_query_of_games_goes_through_the_ownership_rule():
    """``Game.objects`` is followed by ``.owned_by(`` everywhere but in the places above: a new
    query of games that forgets whose they are fails here."""
    bypasses = []
    for path in SOURCES:
        relative = str(path.relative_to(ROOT))
        tree = ast.parse(path.read_text())
        functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
        for node in ast.walk(tree):
            if not (
                isinstance(node, ast.Attribute)
                and node.attr == "objects"
                and isinstance(node.value, ast.Name)
                and node.value.id == "Game"
            ):
                continue
            around = [f for f in functions if f.lineno <= node.lineno <= f.end_lineno]
            name = max(around, key=lambda f: f.lineno).name if around else None
            if (relative, name) in UNOWNED or (relative, None) in UNOWNED:
                continue
            bypasses.append((relative, name, node.lineno))
    # Every use left must be an owned_by: find those that are not.
    owned = set()
    for path in SOURCES:
        relative = str(path.relative_to(ROOT))
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if "Game.objects.owned_by(" in line:
                owned.add((relative, number))
    unowned = {(r, n, line) for r, n, line in bypasses if (r, line) not in owned}
    assert unowned == set()
