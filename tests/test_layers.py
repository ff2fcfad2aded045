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
import re
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
    return imports_of(path.read_text(), module_name(path), package=path.name == "__init__.py")


def imports_of(source: str, module: str, *, package: bool = False) -> list[tuple[str, list[str]]]:
    """Each import of ``source``, the text of ``module`` (a package's ``__init__`` when
    ``package``): the absolute module and the names taken from it."""
    tree = ast.parse(source)
    package = module.split(".") if package else module.split(".")[:-1]
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
        # The same reached by name: getattr(session, "_session_cache").
        if (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", None) in ("getattr", "setattr", "hasattr", "delattr")
            and len(node.args) > 1
            and isinstance(node.args[1], ast.Constant)
            and str(node.args[1].value).startswith("_")
        ):
            name = node.args[1].value
            assert name.startswith("__") or name in PUBLIC, f"{path.name}:{node.lineno} {name}"


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
    # The services queue the worker's tasks by the paths their rows bear
    # (games/services/searches.py), never by importing them.
    "services": {"store", "models", "rules"},
    # The worker's tasks, an entry point as the views are: each calls a service.
    "tasks": {"services"},
    "selectors": {"models", "rules"},
    # The words turn engine facts and the refusals of the typed contract (games/outcomes.py)
    # into sentences: they stand below the services.
    "words": {"models", "rules"},
    "web": {"services", "selectors", "words", "models", "rules", "board", "forms", "guide"},
}


def layer_of(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "games" or len(parts) < 2:
        return None
    name = parts[1]
    if name in ("owners", "models", "outcomes"):
        return "models"
    return name if name in LAYERS else None


def layer_graph() -> dict[str, set[str]]:
    """Each layer and the layers its modules import."""
    graph = {layer: set() for layer in LAYERS}
    for path in SOURCES:
        here = layer_of(module_name(path))
        for module, names in imports(path):
            for target in [module, *(f"{module}.{n}" for n in names)]:
                there = layer_of(target)
                if here is not None and there is not None and there != here:
                    graph[here].add(there)
    return graph


def test_no_circle_between_layers():
    graph = layer_graph()
    circles = [
        (here, there) for here, theirs in graph.items() for there in theirs if here in graph[there]
    ]
    assert circles == []


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


def test_the_project_and_its_accounts_import_nothing_from_the_games():
    """solitaire/ (settings, clock, limits, the accounts) stands below the games: the games
    build on it, and a guest's games follow them into an account through the accounts'
    signals (solitaire/accounts/signals.py), not by the accounts calling the games."""
    wrong = [
        f"{module_name(path)} imports {module}"
        for path in SOURCES
        if module_name(path).startswith("solitaire")
        for module, _names in imports(path)
        if module.split(".")[0] == "games"
    ]
    assert wrong == []


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
    # The integrity check reads every game, as an operator's tool.
    ("games/management/commands/check_games.py", "handle"),
    ("games/management/commands/check_games.py", "_check_again"),
    # A day's leaderboard ranks every player's won games of the daily deal: it reads only
    # what a row shows (moves, time, undos, the owner's public name) and the reader's own
    # game through the rule (games/selectors/leaderboards.py).
    ("games/selectors/leaderboards.py", "ranked_games"),
    # The worker's search locks the game of the search it was handed, before the search (the
    # one lock order for a game and its searches: tests/web/test_lock_order.py).
    ("games/services/searches.py", "run_search"),
    # Starting a game creates it for its owner.
    ("games/services/play.py", "start_game"),
    ("games/services/play.py", "start_from_record"),
}
#: Where the moves' table is queried, and why the game is the player's there.
MOVE_QUERIES = {
    # A new game's first moves, inserted as it is made for its owner.
    ("games/services/play.py", "start_game"),
    ("games/services/play.py", "start_from_record"),
    # The moves of the games a query of the player's own games found.
    ("games/selectors/games.py", "logs_of"),
    # The integrity check reads every game's log, as an operator's tool.
    ("games/management/commands/check_games.py", "_batches"),
}
#: The models of the games' tables, by the names the code gives them.
GAME_MODEL, MOVE_MODELS = "Game", {"Move", "MoveRow"}
#: SQL naming the games' tables: written out in games/store.py only.
GAME_SQL = re.compile(r"\b(FROM|INTO|UPDATE|JOIN)\s+\"?games_(game|move)\b", re.IGNORECASE)


def ownership_bypasses(relative: str, source: str) -> list[tuple[str, str | None, int, str]]:
    """Each query of the games' tables in ``source`` that does not go through the ownership
    rule, outside the places named above: (file, function, line, what)."""
    tree = ast.parse(source)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]

    def function_of(node) -> str | None:
        around = [f for f in functions if f.lineno <= node.lineno <= f.end_lineno]
        return max(around, key=lambda f: f.lineno).name if around else None

    found = []
    for node in ast.walk(tree):
        where = (relative, function_of(node)) if hasattr(node, "lineno") else None
        if isinstance(node, ast.Attribute) and node.attr == "objects":
            model = node.value
            name = model.id if isinstance(model, ast.Name) else getattr(model, "attr", None)
            parent = parents.get(node)
            owned = isinstance(parent, ast.Attribute) and parent.attr == "owned_by"
            if name == GAME_MODEL and not owned and where not in UNOWNED:
                found.append((*where, node.lineno, f"{name}.objects"))
            if name in MOVE_MODELS and where not in MOVE_QUERIES:
                found.append((*where, node.lineno, f"{name}.objects"))
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "get_model":
            named = [a.value for a in node.args if isinstance(a, ast.Constant)]
            if any(str(n).split(".")[-1] in {GAME_MODEL, "Move"} for n in named):
                found.append((*where, node.lineno, "get_model"))
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and GAME_SQL.search(node.value)
            and relative != "games/store.py"
        ):
            found.append((*where, node.lineno, "SQL on the games' tables"))
    return found


def test_every_query_of_games_goes_through_the_ownership_rule():
    """``Game.objects`` is followed by ``.owned_by(`` everywhere but in the places above, the
    moves' table is queried only where named, and SQL on either table is only in
    games/store.py (whose predicate is the same rule, tests/web/test_store.py): a new query of
    games that forgets whose they are fails here. (The staff's admin reads every game through
    Django's admin, by design: games/admin.py.)"""
    found = []
    for path in SOURCES:
        found += ownership_bypasses(str(path.relative_to(ROOT)), path.read_text())
    assert found == []


def test_each_place_let_through_is_still_there():
    """A place named above that no longer queries the games would let a later query through
    unseen: each must still be where the code queries them."""
    used = set()
    for path in SOURCES:
        relative = str(path.relative_to(ROOT))
        tree = ast.parse(path.read_text())
        for function in ast.walk(tree):
            if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                for node in ast.walk(function):
                    if isinstance(node, ast.Attribute) and node.attr == "objects":
                        used.add((relative, function.name))
    assert (UNOWNED | MOVE_QUERIES) - used == set()


@pytest.mark.parametrize(
    "line",
    [
        "Game.objects.get(public_id=public_id)",
        "models.Game.objects.filter(public_id=public_id)",
        "Move.objects.filter(game__public_id=public_id)",
        "apps.get_model('games', 'Game').objects.get(pk=1)",
        "connection.cursor().execute('SELECT id FROM games_game WHERE public_id = %s', [x])",
        "connection.cursor().execute('delete from \"games_move\" where game_id = %s', [x])",
    ],
)
def test_a_query_that_bypasses_the_rule_is_caught(line):
    source = f"def leaky(owner, public_id, x):\n    return {line}\n"
    assert ownership_bypasses("games/leaky.py", source) != []


def test_a_query_through_the_rule_is_not_caught():
    source = "def fine(owner, public_id):\n    return Game.objects.owned_by(owner).get(pk=1)\n"
    assert ownership_bypasses("games/fine.py", source) == []


# -- the edge between the web and the services -----------------------------------------------

#: The one module of the web that turns "no such game" into a 404.
EDGE = "games/web/edge.py"
#: The modules that draw: they draw what a view hands them, and run no query and no service.
RENDERERS = ("games/web/draw.py", "games/web/motion.py", "games/board.py", "games/templatetags")


def catches_does_not_exist(source: str) -> list[int]:
    """The lines of ``source`` whose ``except`` names a model's ``DoesNotExist``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ExceptHandler) and node.type is not None:
            names = [n for n in ast.walk(node.type) if isinstance(n, ast.Attribute | ast.Name)]
            if any(getattr(n, "attr", getattr(n, "id", "")) == "DoesNotExist" for n in names):
                found.append(node.lineno)
    return found


def test_no_view_catches_a_missing_game_itself():
    """A view asks the edge (``game_or_404``, ``or_404``, ``@game_action``), which has the 404
    and its words once."""
    found = []
    for path in (ROOT / "games" / "web").glob("*.py"):
        relative = str(path.relative_to(ROOT))
        if relative != EDGE:
            found += [f"{relative}:{line}" for line in catches_does_not_exist(path.read_text())]
    assert found == []


def test_a_view_that_catches_a_missing_game_is_caught():
    source = "try:\n    g = read()\nexcept Game.DoesNotExist:\n    raise Http404\n"
    assert catches_does_not_exist(source) == [3]
    assert catches_does_not_exist("try:\n    g()\nexcept (KeyError, DoesNotExist):\n    pass\n")


def renderer_imports(source: str, module: str) -> list[str]:
    """What the renderer ``module`` (its text ``source``) imports of the selectors or the
    services."""
    found = []
    for imported, names in imports_of(source, module):
        for target in [imported, *(f"{imported}.{n}" for n in names)]:
            if target.startswith(("games.selectors", "games.services")):
                found.append(target)
    return found


def test_renderers_import_neither_the_selectors_nor_the_services():
    paths = []
    for place in RENDERERS:
        where = ROOT / place
        paths += sorted(where.rglob("*.py")) if where.is_dir() else [where]
    assert len(paths) >= 4
    found = []
    for path in paths:
        found += [
            f"{module_name(path)} imports {t}"
            for t in renderer_imports(path.read_text(), module_name(path))
        ]
    assert found == []


def reached(module: str) -> set[str]:
    """Every module of the site that ``module`` imports, directly or through others."""
    paths = {module_name(p): p for p in SOURCES}
    seen, todo = set(), [module]
    while todo:
        here = todo.pop()
        for imported, names in imports(paths[here]):
            for target in [imported, *(f"{imported}.{n}" for n in names)]:
                if target in paths and target not in seen:
                    seen.add(target)
                    todo.append(target)
    return seen


#: The code that words and draws what an action left: it reads the typed contract
#: (games/outcomes.py), never the services that write games.
WORDS_AND_DRAWING = (
    "games.words",
    "games.board",
    "games.images",
    "games.web.draw",
    "games.web.motion",
    "games.templatetags.cards",
)


@pytest.mark.parametrize("module", WORDS_AND_DRAWING)
def test_words_and_drawing_reach_no_service(module):
    assert sorted(m for m in reached(module) if m.startswith("games.services")) == []


def test_a_renderer_that_imports_a_selector_or_a_service_is_caught():
    source = "from .. import selectors\nfrom ..services.play import undo\n"
    found = renderer_imports(source, "games.web.draw")
    assert found == ["games.selectors", "games.services.play", "games.services.play.undo"]


def strings_compared_with_an_event(source: str) -> list[int]:
    """The lines of ``source`` that compare an event (a name or attribute ``event``) with a
    string, or look it up in strings: the event is ``games.outcomes.Event``."""

    def is_event(node) -> bool:
        return getattr(node, "id", None) == "event" or getattr(node, "attr", None) == "event"

    def is_text(node) -> bool:
        if isinstance(node, ast.Constant):
            return isinstance(node.value, str)
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            return any(is_text(e) for e in node.elts)
        return False

    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(is_event(s) for s in sides) and any(is_text(s) for s in sides):
                found.append(node.lineno)
    return found


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_event_is_compared_as_a_string(path):
    assert strings_compared_with_an_event(path.read_text()) == []


@pytest.mark.parametrize(
    "line",
    [
        'outcome.event == "redone"',
        '"undone" != event',
        'outcome.event in ("moved", "redone")',
        'event not in {"finished"}',
    ],
)
def test_an_event_compared_as_a_string_is_caught(line):
    assert strings_compared_with_an_event(f"x = {line}\n") == [1]


def test_an_event_compared_as_an_event_is_not_caught():
    assert strings_compared_with_an_event("x = outcome.event is Event.REDONE\n") == []


#: Where the wall clock may be read besides the clock module, and why: each compares with a
#: time that Django or its task queue stamped with the wall clock itself.
WALL_CLOCK = {
    # Django's sessions stamp their expiry with timezone.now; a session ends by that clock.
    ("solitaire/sessions.py", "timezone.now"),
    # django-tasks stamps when a task was enqueued; how long it has waited is that clock's.
    ("games/web/health.py", "timezone.now"),
}
#: Calls that read the wall clock: with no argument, each says what time or day it is now.
CLOCK_READS = {
    ("timezone", "now"),
    ("timezone", "localdate"),
    ("timezone", "localtime"),
    ("datetime", "now"),
    ("datetime", "utcnow"),
    ("datetime", "today"),
    ("date", "today"),
}


def wall_clock_reads(source: str) -> list[tuple[int, str]]:
    """Each place in ``source`` that reads the wall clock for a date or a time: a call of one
    of ``CLOCK_READS`` without a moment to convert, the function itself handed on (a model
    field's ``default=timezone.now``), or one imported by name."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module == "django.utils.timezone":
            found += [
                (node.lineno, f"timezone.{alias.name}")
                for alias in node.names
                if ("timezone", alias.name) in CLOCK_READS
            ]
        if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)):
            continue
        if (node.value.id, node.attr) in CLOCK_READS:
            found.append((node.lineno, f"{node.value.id}.{node.attr}"))
    converts = {
        (call.lineno, f"{call.func.value.id}.{call.func.attr}")
        for call in ast.walk(ast.parse(source))
        if isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and isinstance(call.func.value, ast.Name)
        and call.func.attr in ("localdate", "localtime")
        and call.args
    }
    return [read for read in found if read not in converts]


def test_only_the_clock_module_reads_the_wall_clock():
    wrong = []
    for path in SOURCES:
        relative = str(path.relative_to(ROOT))
        if relative == "solitaire/clock.py":
            continue
        for line, read in wall_clock_reads(path.read_text()):
            if (relative, read) not in WALL_CLOCK:
                wrong.append(f"{relative}:{line} reads {read}: ask solitaire.clock")
    assert wrong == []


def test_each_wall_clock_let_through_is_still_there():
    for relative, read in WALL_CLOCK:
        reads = {found for _line, found in wall_clock_reads((ROOT / relative).read_text())}
        assert read in reads, f"{relative} no longer reads {read}: take it off the list"


@pytest.mark.parametrize(
    "line",
    [
        "finished_at = timezone.now()",
        "today = timezone.localdate()",
        "when = datetime.now(UTC)",
        "day = date.today()",
        "created_at = models.DateTimeField(default=timezone.now)",
        "from django.utils.timezone import now",
    ],
)
def test_a_read_of_the_wall_clock_is_caught(line):
    assert wall_clock_reads(line) != []


def test_a_moment_converted_or_the_clock_asked_is_not_caught():
    source = "day = timezone.localdate(moment)\nat = timezone.localtime(moment)\nn = clock.now()"
    assert wall_clock_reads(source) == []


def test_the_services_name_the_workers_tasks_by_the_paths_their_rows_bear():
    """The queue's service queues and counts the tasks without importing them (they call it):
    the paths it names are the tasks' own."""
    from games import tasks
    from games.services import searches

    assert [
        tasks.search.module_path,
        tasks.find_winnable_deals.module_path,
        tasks.grade_deals.module_path,
    ] == [searches.SEARCH, searches.DEAL_SEARCH, searches.GRADING]
