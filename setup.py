"""bgcli's build: pure Python unless asked, at build time, for the compiled core.

    pip install .                     # pure Python (the default; no compiler, no mypy)
    BGCLI_COMPILE=1 pip install .     # the core's hot modules compiled to C with mypyc,
                                      # and the C accelerator bgcli/core/_speedups.c

The accelerator is a hand-written extension module (the C compiler only, no
other dependency): the legal-play generator, the result Position IDs and a
whole ``moves --batch`` line, each mirroring the Python code that stays the
reference (tests/test_speedups.py compares them). ``BGCLI_PURE=1`` in the
environment, read once at import, makes an installed accelerator unused.

Everything else about the package is in pyproject.toml. With BGCLI_COMPILE
set, pip's isolated build asks for mypy (which holds mypyc) before it builds,
so only the compiled build needs it; building without isolation
(--no-build-isolation), mypy must be installed already.
"""
from __future__ import annotations

import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

from setuptools import Extension, setup

# The core's hot paths: the legal-play generator, the Position and its ID, the
# Match ID and position parsing, and the judge of a recorded play. Each keeps
# its .py beside it in the wheel; the compiled module is imported first.
COMPILED = [
    "bgcli/core/position.py",
    "bgcli/core/generator.py",
    "bgcli/core/notation.py",
]

# The hand-written C modules, built beside mypyc's: module path -> its source.
EXTENSIONS = {"bgcli/core/_speedups": "bgcli/core/_speedups.c"}

# the commands that only ask what the build needs or what the package is
METADATA_ONLY = {"egg_info", "dist_info"}


def wanted() -> bool:
    value = os.environ.get("BGCLI_COMPILE", "").strip().lower()
    if value in ("", "0", "no", "false"):
        return False
    if value in ("1", "yes", "true"):
        return True
    sys.exit(f"BGCLI_COMPILE={value!r}: expected 1 to compile the core with mypyc, or 0 (or unset) for pure Python")


def remove_stale_extensions(root: Path, compiling: bool) -> list[Path]:
    """Remove the compiled modules that an earlier build of this tree left in
    build/lib* and this build does not make: setuptools reuses that folder, so
    the wheel would ship them (a pure build after a compiled one would not be
    pure). The removed files, for the tests."""
    wanted = {module[:-3] for module in COMPILED} | set(EXTENSIONS) if compiling else set()
    removed = []
    for lib in root.glob("build/lib*"):
        for path in lib.rglob("*"):
            name = next((path.name[:-len(s)] for s in EXTENSION_SUFFIXES if path.name.endswith(s)), None)
            if name is None:
                continue
            module = path.parent.relative_to(lib) / name
            # mypyc's shared library (HASH__mypyc) sits at the top, beside the package
            if module.as_posix() not in wanted and not (compiling and name.endswith("__mypyc")):
                path.unlink()
                removed.append(path)
    return removed


def main() -> None:
    compiling = wanted()
    remove_stale_extensions(Path(__file__).resolve().parent, compiling)
    if not compiling:
        setup()
        return
    if METADATA_ONLY.intersection(sys.argv[1:]):
        # pip's isolated build asks here what it must install first; it then runs the build with mypy there
        setup(setup_requires=["mypy>=1.8"])
        return
    if "editable_wheel" in sys.argv[1:] or "develop" in sys.argv[1:]:
        sys.exit("BGCLI_COMPILE=1 with an editable install would put the compiled modules in the source tree, where "
                 "Python imports them before the .py files and edits to those would be ignored: install without -e")
    try:
        from mypyc.build import mypycify
    except ImportError:
        sys.exit("BGCLI_COMPILE=1 compiles bgcli's core with mypyc, which comes with mypy, and mypy is not installed "
                 "where the build runs: install mypy there first (pip install mypy), or let pip build in isolation")
    accelerators = [Extension(module.replace("/", "."), [source]) for module, source in EXTENSIONS.items()]
    setup(ext_modules=mypycify(COMPILED, opt_level="3") + accelerators)


if __name__ == "__main__":  # as pip's build runs it; tests/test_compiled.py imports it
    main()
