"""The code's layout: dependencies point one way, from the core at the
bottom to the command line at the top, and no module imports itself back
through others (not even lazily, inside a function)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from conftest import ROOT

PACKAGE = ROOT / "bgcli"

# Lower numbers may not import higher ones.
LAYERS = {
    "bgcli.errors": 0, "bgcli.output": 0, "bgcli.__main__": 12,
    "bgcli.core": 1, "bgcli.engines": 1, "bgcli.engines.protocol": 1, "bgcli.analysis": 1, "bgcli.render": 1, "bgcli.judging": 1, "bgcli.scale": 1,
    "bgcli.grammar": 1, "bgcli.core.position": 1, "bgcli.core.kinds": 0.5, "bgcli.core.spelling": 1.1, "bgcli.core.generator": 1.2, "bgcli.core.judge": 1.4, "bgcli": 1.6,
    "bgcli.core.state": 2, "bgcli.core.rules": 1.5, "bgcli.core.value": 2, "bgcli.core.cube": 2.5, "bgcli.analysis.bearoff": 2, "bgcli.analysis.bearoff2": 2.5,
    "bgcli.core.ids": 3, "bgcli.core.notation": 3, "bgcli.analysis.counts": 3,
    "bgcli.match.wording": 3.9, "bgcli.match.records": 4, "bgcli.match.conventions": 4.1, "bgcli.match.events": 4.1,
    "bgcli.match.visitor": 4.2, "bgcli.match.diagnosis": 4.1, "bgcli.match.plays": 4.3, "bgcli.match.resync": 4.1,
    "bgcli.match.game": 4.4,
    "bgcli.match.replay": 5, "bgcli.formats.writing": 6, "bgcli.formats.reading": 0.45,
    # Snowie's position line is a notation of a position, as an XGID is: the replay reads the one
    # Snowie's .mat writes in an illegal-play row (its module asks only errors, reading and core)
    "bgcli.formats.snowietxt": 4.2, "bgcli.formats.positionfile": 4.3,
    # Jellyfish's binary position file: built as Snowie's line is (snowietxt.state_of)
    "bgcli.formats.jfpos": 4.25,
    "bgcli.formats.registry": 0.5, "bgcli.formats.protocol": 0.4, "bgcli.formats.gnubgwords": 0.42, "bgcli.notebook": 0.5,
    "bgcli.formats.loggame": 6.5, "bgcli.formats.mat": 7, "bgcli.formats.gnubgtext": 7, "bgcli.formats.oldmoves": 7, "bgcli.formats.sgg": 7, "bgcli.formats.tmg": 7, "bgcli.formats.bgammon": 7, "bgcli.formats.javafibs": 7, "bgcli.formats.gmd": 7, "bgcli.formats.sgf": 7, "bgcli.formats.xg": 7, "bgcli.formats.bgf": 7,
    "bgcli.formats.jsondoc": 7, "bgcli.judging.chouette": 7,
    "bgcli.formats.files": 8, "bgcli.judging.repair": 8.5, "bgcli.formats": 9, "bgcli.match": 5.5, "bgcli.scale.archive": 9, "bgcli.scale.cluster": 9, "bgcli.scale.runner": 9.5,
    "bgcli.scale.workers": 0.5, "bgcli.scale.pool": 0.6, "bgcli.scale.jobs": 0.6, "bgcli.scale.results": 0.7, "bgcli.render.convert": 9.5,
    "bgcli.render.board": 9, "bgcli.render.view": 10,
    # rating: a match judged over the replay and the engine protocol; its per-file job and database as the audit's (scale.jobs, scale.results)
    "bgcli.judging.rating": 6, "bgcli.judging.opinion": 6.5, "bgcli.scale.rating": 10,
    # the dice audit: counts over the replay, statistics on counts alone (scipy), the report, its job and pictures
    "bgcli.judging.dicestats": 1, "bgcli.judging.diceshots": 3.5, "bgcli.judging.dice": 6, "bgcli.judging.dicereport": 6.5, "bgcli.render.dice": 7,
    "bgcli.scale.dice": 10, "bgcli.scale.repair": 10,
    # rollouts: the trial loop over the engine protocol and the cube rules; its blocks spread by scale.rollout
    "bgcli.judging.rollout": 6, "bgcli.scale.rollout": 10,
    # engines: the table and the checks low, the backends over the core and its IDs
    "bgcli.engines.met_tables": 1.9, "bgcli.engines.met_formulas": 1.95, "bgcli.engines.met": 2, "bgcli.engines.kept": 2, "bgcli.engines.trust": 4, "bgcli.engines.workers": 4, "bgcli.engines.sage": 5, "bgcli.engines.exact": 5,
    "bgcli.engines.gnubg": 5, "bgcli.engines.gnubg_driver": 0, "bgcli.engines.gnubg_rollout": 5.5,
    "bgcli.engines.gnubg_rollout_driver": 0, "bgcli.engines.sage_rollout": 5.5, "bgcli.engines.hint": 6,
}
CLI = 11   # bgcli.cli and its modules


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path, known: set[str], typing: bool = False) -> set[str]:
    """bgcli modules that ``path`` imports anywhere, outside ``if TYPE_CHECKING:``
    (inside it too with ``typing``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = set()
    for node in ast.walk(tree):
        if not typing and isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(n) for child in node.body for n in ast.walk(child))
    found = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            # "from bgcli.formats import mat" imports the module bgcli.formats.mat
            names = [f"{node.module}.{alias.name}" if f"{node.module}.{alias.name}" in known else node.module
                     for alias in node.names]
        else:
            continue
        found.update(name for name in names if name in known)
    return found


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in PACKAGE.rglob("*.py") if "grammars" not in p.parts}


def graph(typing: bool = False) -> dict[str, set[str]]:
    files = modules()
    known = set(files)
    return {name: imports(path, known, typing) - {name} for name, path in files.items()}


def rank(name: str) -> int:
    if name == "bgcli.cli" or name.startswith("bgcli.cli."):
        return CLI
    return LAYERS[name]


def test_every_module_has_a_layer():
    missing = [name for name in graph() if not (name.startswith("bgcli.cli") or name in LAYERS)]
    assert not missing, f"add these modules to LAYERS: {missing}"


def test_dependencies_point_down():
    upward = [(name, target) for name, targets in graph().items() for target in targets
              if rank(target) > rank(name) and not (rank(name) == CLI and rank(target) == CLI)]
    assert not upward, f"imports that point up the layers: {upward}"


# importlib.import_module("bgcli.x"): an import by name, which the import statements above do not show
BY_NAME = re.compile(r"import_module\(\s*[\"'](bgcli[\w.]*)[\"']\s*\)")
# the loads by name that run up the layers on purpose, and why: a notebook shows a core object (a
# Position's board, a match's .mat text) with what is drawn and written above it, and the core
# asks bgcli.notebook, which loads those modules when a notebook first asks (python-chess's Board
# imports chess.svg inside _repr_svg_ likewise). Nothing else may: a new one is an upward import.
UPWARD_BY_NAME = {("bgcli.notebook", "bgcli.render.board"), ("bgcli.notebook", "bgcli.formats.files")}


def loads_by_name() -> set[tuple[str, str]]:
    return {(name, target) for name, path in modules().items()
            for target in BY_NAME.findall(path.read_text(encoding="utf-8"))}


def test_modules_loaded_by_name_point_down_but_the_notebooks():
    loads = loads_by_name()
    assert UPWARD_BY_NAME <= loads, f"gone, strike them: {UPWARD_BY_NAME - loads}"
    upward = {(name, target) for name, target in loads if rank(target) > rank(name)
              and not (rank(name) == CLI and rank(target) == CLI)}
    assert upward == UPWARD_BY_NAME, f"loads by name that point up the layers: {upward - UPWARD_BY_NAME}"


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles of ``edges``: Tarjan's strongly connected components
    with two or more modules."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(name: str) -> None:
        index[name] = low[name] = len(index)
        stack.append(name)
        for target in edges[name]:
            if target not in index:
                visit(target)
                low[name] = min(low[name], low[target])
            elif target in stack:
                low[name] = min(low[name], index[target])
        if low[name] == index[name]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == name:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for name in edges:
        if name not in index:
            visit(name)
    return found


def test_no_import_cycle():
    assert not cycles(graph()), f"import cycles: {cycles(graph())}"


def test_no_import_cycle_even_for_type_checking():
    # a cycle hidden under ``if TYPE_CHECKING:`` is still two modules that need each other: the one
    # below names what it needs of the one above as a Protocol (match.game.MatchContext)
    assert not cycles(graph(typing=True)), f"import cycles: {cycles(graph(typing=True))}"


def private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_imports(path: Path, name: str, known: set[str]) -> list[str]:
    """The ``_private`` names of other bgcli modules that module ``name`` (at ``path``)
    takes: ``from bgcli.x import _y`` and ``x._y`` on an imported bgcli module. A
    private module (bgcli.core._speedups) may be imported inside its own package."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    modules: dict[str, str] = {}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 and \
                node.module.split(".")[0] == "bgcli" and node.module != name:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                if full in known:
                    modules[alias.asname or alias.name] = full
                elif private(alias.name) and not (node.module == package and alias.name in PRIVATE_MODULES):
                    found.append(f"{name} takes {node.module}.{alias.name}")
        elif isinstance(node, ast.Import):
            modules.update((alias.asname or alias.name, alias.name) for alias in node.names
                           if alias.name.split(".")[0] == "bgcli")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules \
                and private(node.attr) and modules[node.value.id] != name:
            found.append(f"{name} takes {modules[node.value.id]}.{node.attr}")
    return found


PRIVATE_MODULES = {"_speedups"}   # extension modules with no .py, private to their package


def test_no_module_takes_another_modules_private_names():
    files = modules()
    known = set(files)
    taken = [line for name, path in files.items() for line in private_imports(path, name, known)]
    assert not taken, f"give these a public name or move them to their user: {taken}"


def test_the_private_check_sees_a_private_import(tmp_path):
    (tmp_path / "bgcli" / "render").mkdir(parents=True)
    module = tmp_path / "bgcli" / "render" / "view.py"
    module.write_text("from bgcli.core.position import CHECKERS, _side_bits\nfrom bgcli.render import board\n"
                      "import bgcli.core.generator as g\nfrom bgcli.core import _speedups\n"
                      "def f():\n    return board._WIDTH, board.GEOMETRY, g._HIT, _side_bits, _speedups\n",
                      encoding="utf-8")
    known = {"bgcli.render.view", "bgcli.render.board", "bgcli.core.position", "bgcli.core.generator"}
    assert sorted(private_imports(module, "bgcli.render.view", known)) == [
        "bgcli.render.view takes bgcli.core._speedups", "bgcli.render.view takes bgcli.core.generator._HIT",
        "bgcli.render.view takes bgcli.core.position._side_bits", "bgcli.render.view takes bgcli.render.board._WIDTH"]
    # inside its own package, the extension module is the package's own
    assert sorted(private_imports(module, "bgcli.core.position", known | {"bgcli.core.position"})) == [
        "bgcli.core.position takes bgcli.core.generator._HIT", "bgcli.core.position takes bgcli.render.board._WIDTH"]


def test_the_cycle_finder_sees_a_cycle():
    # the check itself must be able to fail: a module importing its importer, and a longer loop
    assert cycles({"a": {"b"}, "b": {"a"}}) == [["a", "b"]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set()}) == [["a", "b", "c"]]
    assert cycles({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []


def test_the_layer_check_sees_an_upward_import(tmp_path):
    # a core module importing the command line is found by the same reader the layer test uses
    (tmp_path / "bgcli" / "core").mkdir(parents=True)
    module = tmp_path / "bgcli" / "core" / "model.py"
    module.write_text("def f():\n    from bgcli.cli import main\n", encoding="utf-8")
    assert imports(module, {"bgcli.cli", "bgcli.core.model"}) == {"bgcli.cli"}


# --- fast paths: named for what they do, fenced, tested against their owners -------------

SPEED_WORDS = re.compile(r"(?:^|_)(?:fast|quick|slow|py|speedy|turbo)(?:_|$)", re.I)



def speed_names(path: Path) -> list[str]:
    """Functions, classes and module-level names of ``path`` named for speed."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = [node.name for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.ClassDef))]
    names += [target.id for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign))
              for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
              if isinstance(target, ast.Name)]
    return [name for name in names if SPEED_WORDS.search(name)]


def test_no_function_is_named_for_speed():
    named = {name: speed_names(path) for name, path in modules().items()}
    named = {name: found for name, found in named.items() if found}
    assert not named, f"name these for what they do (a fast path is a fenced mirror of its owner): {named}"


def test_the_speed_name_check_sees_one(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("_FAST_ROW = 1\ndef quick_play(): pass\nclass Board: pass\ndef _py_keys(): pass\n"
                      "def breakfast(): pass\nrow = 2\n", encoding="utf-8")
    assert speed_names(module) == ["quick_play", "_py_keys", "_FAST_ROW"]


FENCE = re.compile(r"[Ff]enced mirror of [^:]*:\s*(?:#\s*)?((?:tests/\w+\.py::\w+(?:,\s*)?)+)")


def fences() -> list[tuple[str, str, str]]:
    """(module, test file, test) for every ``# Fenced mirror of OWNER: tests/x.py::test_y`` comment."""
    found = []
    for name, path in modules().items():
        text = re.sub(r"\n\s*#\s*", " ", path.read_text(encoding="utf-8"))   # a comment over several lines
        for match in FENCE.finditer(text):
            for test in re.split(r",\s*", match.group(1).strip()):
                file, _, function = test.partition("::")
                found.append((name, file, function))
    return found


def test_every_fenced_mirror_names_a_test_that_exists():
    found = fences()
    assert len(found) >= 10
    missing = [(name, file, function) for name, file, function in found
               if not (ROOT / file).is_file()
               or not re.search(rf"^def {function}\(", (ROOT / file).read_text(encoding="utf-8"), re.M)]
    assert not missing, f"fenced mirrors whose test is gone: {missing}"


def test_the_layout_page_names_only_what_exists():
    """docs/layout.md's owners table and its 'where a new thing goes' name files and tests that are there."""
    text = (ROOT / "docs" / "layout.md").read_text(encoding="utf-8")
    paths = set(re.findall(r"`((?:bgcli|grammars|tests|docs)/[\w./]+)", text))
    assert len(paths) > 20
    missing = sorted(path for path in paths if not (ROOT / path).exists())
    assert not missing, f"docs/layout.md names what is not there: {missing}"
    tests = re.findall(r"`(tests/\w+\.py)::(\w+)`", text)
    assert all(re.search(rf"^def {name}\(", (ROOT / file).read_text(encoding="utf-8"), re.M) for file, name in tests)


# enums still writing their own __str__: files other work held while Worded was made (to move onto it)
_OWN_STR_LEFT: set[str] = set()


def test_an_enum_written_as_its_value_is_a_worded():
    """bgcli.core.kinds.Worded is the one definition of an enum written as its value: no module
    writes ``__str__`` returning ``self.value`` again."""
    pattern = re.compile(r"def __str__\(self\)[^:]*:\s*(?:\"\"\".*?\"\"\"\s*)?return self\.value\b", re.S)
    again = sorted(str(path.relative_to(PACKAGE)) for path in PACKAGE.rglob("*.py")
                   if pattern.search(path.read_text(encoding="utf-8")))
    assert set(again) - _OWN_STR_LEFT == {"core/kinds.py"}, again
