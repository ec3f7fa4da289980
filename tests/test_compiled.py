"""The compiled core (``BGCLI_COMPILE=1 pip install .``, see setup.py) gives
exactly what the pure Python core gives, on GNU Backgammon's oracle data.

Both runs use the installed package, each in a fresh process started outside
the source tree: once as installed (its compiled modules), once with an
import hook that takes every bgcli module from its .py file, which the wheel
keeps beside the compiled one. Each process says which core it loaded, so the
comparison cannot pass by running the pure core twice. Where the installed
bgcli is not compiled (the default install, an editable one), the tests skip.
"""
from __future__ import annotations

import functools
import importlib.machinery
import importlib.util
import json
import os
import subprocess
import sys
import types

import pytest

from conftest import ORACLE, ROOT, committed

# Makes every bgcli module load from its .py file, passing over the compiled
# module beside it (importlib otherwise prefers the extension module), and
# a bgcli module with no .py (the C accelerator, bgcli.core._speedups) not load.
SOURCE_ONLY = """
import sys
from importlib.machinery import SOURCE_SUFFIXES, FileFinder, SourceFileLoader

class SourceOnly:
    @staticmethod
    def find_spec(name, path=None, target=None):
        if name.partition(".")[0] != "bgcli":
            return None
        for entry in sys.path if path is None else path:
            spec = FileFinder(entry or ".", (SourceFileLoader, SOURCE_SUFFIXES)).find_spec(name)
            if spec is not None:
                return spec
        raise ModuleNotFoundError(f"no module named {name!r} (only .py files here)", name=name)

sys.meta_path.insert(0, SourceOnly)
"""

# Everything the core says about each oracle query, as JSON: the plays' steps,
# hits, change and result, their Position IDs three ways, the IDs that
# ``moves --batch`` writes, and the pips. First line: which core ran.
DESCRIBE = """
import json, sys
import bgcli
from bgcli.core.generator import legal_plays, query_ids, sorted_keys
from bgcli.core.position import Position
from bgcli.core.spelling import parse_dice

print(json.dumps({"build": bgcli.build, "generator": bgcli.core.generator.__file__,
                  "speedups": bgcli.core.generator.accelerator is not None}))
for line in sys.stdin:
    pid, dice = line.split()
    position = Position.from_id(pid)
    plays = legal_plays(position, parse_dice(dice))
    print(json.dumps([
        position.id(), position.pips(), position.swap().id(), query_ids(position, sorted_keys(plays)),
        [[str(play), play.hits, play.change, play.result_id(), play.result.id(), play.after.id(),
          list(play.result.player), list(play.result.opponent), play.result.pips()] for play in plays],
    ]))
"""


def python(code: str, *args: str, pure: bool, stdin: str, tmp_path) -> subprocess.CompletedProcess:
    """``code`` in a fresh process that imports the installed bgcli (not this
    checkout), through its .py files alone when ``pure``."""
    prelude = SOURCE_ONLY if pure else ""
    return subprocess.run([sys.executable, "-c", prelude + code, *args], input=stdin, capture_output=True, text=True,
                          cwd=tmp_path, env={**os.environ, "PYTHONPATH": ""}, timeout=600)


COMPILED_BUILD = "compiled (mypyc) with the C accelerator"  # what a BGCLI_COMPILE=1 install says it is


@functools.lru_cache(maxsize=None)
def oracle_queries() -> str:
    """The oracle's queries, one ``ID DICE`` line each, as ``moves --batch`` reads them."""
    records = [json.loads(line) for line in committed(ORACLE / "legal_sample.jsonl").read_text().splitlines()]
    return "".join(f"{r['position_id']} {r['dice'][0]}{r['dice'][1]}\n" for r in records)


@pytest.fixture(scope="module")
def compiled_installed(tmp_path_factory):
    """Skip unless the installed bgcli has its core compiled."""
    where = tmp_path_factory.mktemp("compiled")
    found = python("import bgcli; print(bgcli.build)", pure=False, stdin="", tmp_path=where)
    if found.returncode != 0:
        pytest.skip(f"bgcli is not installed where {sys.executable} looks (pip install . first)")
    if found.stdout.strip() != COMPILED_BUILD:
        pytest.skip(f"the installed bgcli is {found.stdout.strip()}, not compiled: BGCLI_COMPILE=1 pip install . builds "
                    "the compiled core")
    return where


def described(pure: bool, where) -> list[str]:
    done = python(DESCRIBE, pure=pure, stdin=oracle_queries(), tmp_path=where)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.splitlines()


def test_compiled_and_pure_core_agree_on_the_oracle_queries(compiled_installed):
    compiled, pure = described(False, compiled_installed), described(True, compiled_installed)
    # each ran the core it was meant to: a compiled module, then the .py beside it
    assert json.loads(compiled[0])["build"] == COMPILED_BUILD and json.loads(compiled[0])["speedups"]
    assert json.loads(pure[0])["build"] == "pure Python" and json.loads(pure[0])["generator"].endswith(".py")
    assert not json.loads(pure[0])["speedups"]
    assert len(compiled) == len(pure) == oracle_queries().count("\n") + 1
    differ = [(query, mine, theirs) for query, mine, theirs in zip(oracle_queries().splitlines(), compiled[1:], pure[1:])
              if mine != theirs]
    assert not differ, f"{len(differ)} queries differ, the first: {differ[0]}"


def test_compiled_plays_are_the_oracles(compiled_installed):
    """The compiled generator's result IDs are gnubg's, query by query."""
    compiled = described(False, compiled_installed)[1:]
    records = [json.loads(line) for line in committed(ORACLE / "legal_sample.jsonl").read_text().splitlines()]
    for record, line in zip(records, compiled, strict=True):
        got = [play[3] for play in json.loads(line)[4]]
        assert sorted(got) == sorted(play["result_id"] for play in record["plays"]), record["position_id"]


def test_compiled_and_pure_batch_output_is_the_same(compiled_installed):
    """``bgcli moves --batch -`` over the oracle queries writes the same bytes either way."""
    run = "import runpy, sys; sys.argv[0] = 'bgcli'; runpy.run_module('bgcli', run_name='__main__')"
    compiled = python(run, "moves", "--batch", "-", pure=False, stdin=oracle_queries(), tmp_path=compiled_installed)
    pure = python(run, "moves", "--batch", "-", pure=True, stdin=oracle_queries(), tmp_path=compiled_installed)
    assert compiled.returncode == pure.returncode == 0, (compiled.stderr[-1000:], pure.stderr[-1000:])
    assert compiled.stdout.count("\n") == oracle_queries().count("\n")
    assert compiled.stdout == pure.stdout


def test_version_names_the_build(compiled_installed):
    done = python("import runpy, sys; sys.argv[0] = 'bgcli'; runpy.run_module('bgcli', run_name='__main__')",
                  "--version", pure=False, stdin="", tmp_path=compiled_installed)
    assert done.returncode == 0 and done.stdout.strip().endswith(COMPILED_BUILD)
    done = python("import runpy, sys; sys.argv[0] = 'bgcli'; runpy.run_module('bgcli', run_name='__main__')",
                  "--version", pure=True, stdin="", tmp_path=compiled_installed)
    assert done.returncode == 0 and done.stdout.strip().endswith("pure Python")


# --- the build's choice (setup.py), without building ------------------------------

def load_setup():
    """setup.py as a module (it builds nothing on import)."""
    pytest.importorskip("setuptools")
    spec = importlib.util.spec_from_file_location("bgcli_setup", committed(ROOT / "setup.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def setup_module(monkeypatch):
    """setup.py as a module, its ``setup`` replaced by a recorder (``.calls``)."""
    module = load_setup()
    module.calls = []
    monkeypatch.setattr(module, "setup", lambda **options: module.calls.append(options))
    # main() cleans build/ first (tested below on a folder of its own), not this checkout's
    module.cleaned = []
    monkeypatch.setattr(module, "remove_stale_extensions",
                        lambda root, compiling, accelerating=False: module.cleaned.append(compiling))
    monkeypatch.delenv("BGCLI_COMPILE", raising=False)
    return module


def test_a_default_build_adds_the_accelerator_as_an_optional_module(setup_module, monkeypatch):
    """pip install . builds the C accelerator without mypyc; a build that fails leaves pure Python."""
    monkeypatch.setattr(sys, "argv", ["setup.py", "bdist_wheel"])
    monkeypatch.setitem(sys.modules, "mypyc.build", None)  # not needed, not imported
    monkeypatch.delenv("BGCLI_PURE", raising=False)
    for value in (None, "", "0", "no"):
        if value is None:
            monkeypatch.delenv("BGCLI_COMPILE", raising=False)
        else:
            monkeypatch.setenv("BGCLI_COMPILE", value)
        setup_module.calls.clear()
        setup_module.main()
        [options] = setup_module.calls
        [accelerator] = options["ext_modules"]
        assert accelerator.name == "bgcli.core._speedups" and accelerator.optional
        assert options["cmdclass"]["build_ext"] is setup_module.BuildExt
        digest = dict(accelerator.define_macros)["BGCLI_SOURCE_DIGEST"]
        assert digest == '"%s"' % setup_module.source_digest(ROOT / "bgcli/core/_speedups.c")
        assert setup_module.cleaned[-1] is False


def test_bgcli_pure_builds_no_accelerator(setup_module, monkeypatch):
    monkeypatch.setattr(sys, "argv", ["setup.py", "bdist_wheel"])
    monkeypatch.setenv("BGCLI_PURE", "1")
    setup_module.main()
    assert setup_module.calls == [{}]
    monkeypatch.setenv("BGCLI_PURE", "maybe")
    with pytest.raises(SystemExit, match="BGCLI_PURE='maybe': expected 1"):
        setup_module.main()


def test_a_failed_optional_build_says_so_in_one_line_and_goes_on(monkeypatch, capsys):
    """No C compiler (or no Python headers): one line, and the install goes on in pure Python."""
    setup_module = load_setup()
    from setuptools.command.build_ext import build_ext
    from setuptools.errors import CompileError

    def fails(self, ext):
        raise CompileError("command 'cc' failed: No such file or directory")

    monkeypatch.setattr(build_ext, "build_extension", fails)
    command = setup_module.BuildExt.__new__(setup_module.BuildExt)
    optional = setup_module.Extension("bgcli.core._speedups", ["bgcli/core/_speedups.c"], optional=True)
    command.build_extension(optional)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "C accelerator bgcli.core._speedups was not built" in err and "pure Python" in err
    # the compiled build needs it: there the failure stops the build
    required = setup_module.Extension("bgcli.core._speedups", ["bgcli/core/_speedups.c"])
    with pytest.raises(CompileError):
        command.build_extension(required)


def test_a_compiled_build_asks_for_mypy_and_compiles_the_core(setup_module, monkeypatch):
    monkeypatch.setenv("BGCLI_COMPILE", "1")
    monkeypatch.setattr(sys, "argv", ["setup.py", "egg_info"])  # pip asking what the build needs
    setup_module.main()
    assert setup_module.calls == [{"setup_requires": ["mypy>=1.8"]}]
    compiled = []
    fake = types.ModuleType("mypyc.build")
    fake.mypycify = lambda paths, **options: compiled.extend(paths) or ["extensions"]
    monkeypatch.setitem(sys.modules, "mypyc.build", fake)
    monkeypatch.setattr(sys, "argv", ["setup.py", "bdist_wheel"])
    setup_module.calls.clear()
    setup_module.main()
    assert setup_module.cleaned[-1] is True and len(setup_module.calls) == 1
    mypyc_modules, accelerator = setup_module.calls[0]["ext_modules"]
    assert mypyc_modules == "extensions"
    assert "bgcli/core/generator.py" in compiled and all((ROOT / path).is_file() for path in compiled)
    # the C accelerator, built by the C compiler alone beside mypyc's modules
    assert accelerator.name == "bgcli.core._speedups" and accelerator.sources == ["bgcli/core/_speedups.c"]
    assert (ROOT / accelerator.sources[0]).is_file()


def test_a_compiled_build_without_mypy_says_so(setup_module, monkeypatch):
    monkeypatch.setenv("BGCLI_COMPILE", "1")
    monkeypatch.setattr(sys, "argv", ["setup.py", "bdist_wheel"])
    monkeypatch.setitem(sys.modules, "mypyc.build", None)  # import fails, as without mypy
    with pytest.raises(SystemExit, match="mypy is not installed"):
        setup_module.main()
    assert setup_module.calls == []


def test_a_compiled_editable_install_is_refused(setup_module, monkeypatch):
    monkeypatch.setenv("BGCLI_COMPILE", "1")
    monkeypatch.setattr(sys, "argv", ["setup.py", "editable_wheel"])
    with pytest.raises(SystemExit, match="editable install .* install without -e"):
        setup_module.main()
    assert setup_module.calls == []


def test_a_bad_choice_is_refused(setup_module, monkeypatch):
    monkeypatch.setenv("BGCLI_COMPILE", "fast")
    monkeypatch.setattr(sys, "argv", ["setup.py", "bdist_wheel"])
    with pytest.raises(SystemExit, match="BGCLI_COMPILE='fast': expected 1"):
        setup_module.main()
    assert setup_module.calls == []


def test_this_checkout_runs_python_with_or_without_the_accelerator():
    """Run from the source tree (no mypyc modules in it), bgcli says it is Python, and whether C speeds it up."""
    import bgcli

    if not bgcli.core.generator.__file__.endswith(".py"):
        pytest.skip("this checkout holds compiled modules (an in-place build)")
    assert bgcli.compiled is False
    assert bgcli.build == ("Python with the C accelerator" if bgcli.speedups else "pure Python") or "older than its source" in bgcli.build


def test_a_pure_build_drops_what_a_compiled_build_left(tmp_path):
    """setuptools reuses build/lib: the compiled modules of an earlier build must not reach a pure wheel."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    lib = tmp_path / "build" / "lib.test"
    (lib / "bgcli" / "core").mkdir(parents=True)
    leftovers = [lib / "bgcli" / "core" / f"generator{suffix}", lib / "bgcli" / "core" / f"judge{suffix}",
                 lib / f"0123abcd__mypyc{suffix}", lib / "bgcli" / "core" / f"_speedups{suffix}"]
    kept = [lib / "bgcli" / "core" / "generator.py"]
    for path in leftovers + kept:
        path.write_text("")
    setup_module = load_setup()
    # a compiled build keeps the modules it makes and mypyc's library, not a module it no longer compiles
    assert setup_module.remove_stale_extensions(tmp_path, compiling=True, accelerating=True) == [leftovers[1]]
    # a default build keeps the accelerator only; BGCLI_PURE=1 (accelerating False) keeps nothing
    assert sorted(setup_module.remove_stale_extensions(tmp_path, compiling=False, accelerating=True)) == \
        sorted([leftovers[0], leftovers[2]])
    assert setup_module.remove_stale_extensions(tmp_path, compiling=False) == [leftovers[3]]
    assert [path for path in lib.rglob("*") if path.is_file()] == kept
