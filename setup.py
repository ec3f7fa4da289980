"""bgcli's build: the C accelerator when a C compiler is there, the mypyc core when asked.

    pip install .                     # Python, with the C accelerator bgcli/core/_speedups.c
                                      # built when a C compiler works (else pure Python, and
                                      # one line saying so); no mypy needed
    BGCLI_PURE=1 pip install .        # pure Python: the accelerator is not built
    BGCLI_COMPILE=1 pip install .     # besides, the core's hot modules compiled with mypyc

The accelerator is a hand-written extension module (the C compiler only, no
other dependency): the legal-play generator, the result Position IDs and a
whole ``moves --batch`` line, each mirroring the Python code that stays the
reference (tests/test_speedups.py compares them). ``BGCLI_PURE=1`` in the
environment, read once at import, also makes an installed accelerator unused.
The build writes the digest of the C source into the module, so that a module
built in place (an editable install) and left behind by a later edit of the
source is noticed and not used (bgcli.core.position._load_speedups).

Everything else about the package is in pyproject.toml. With BGCLI_COMPILE
set, pip's isolated build asks for mypy (which holds mypyc) before it builds,
so only the compiled build needs it; building without isolation
(--no-build-isolation), mypy must be installed already.
"""
from __future__ import annotations

import binascii
import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError, CompileError, ExecError, LinkError, PlatformError

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


def switch(name: str, meaning: str) -> bool:
    """Whether the environment variable ``name`` is set to 1 (yes, true)."""
    value = os.environ.get(name, "").strip().lower()
    if value in ("", "0", "no", "false"):
        return False
    if value in ("1", "yes", "true"):
        return True
    sys.exit(f"{name}={value!r}: expected 1 {meaning}, or 0 (or unset)")


def wanted() -> bool:
    """Whether the core is compiled with mypyc (BGCLI_COMPILE=1)."""
    return switch("BGCLI_COMPILE", "to compile the core with mypyc")


def accelerated() -> bool:
    """Whether the C accelerator is built: unless BGCLI_PURE=1 asks for pure Python."""
    return not switch("BGCLI_PURE", "for pure Python (no C accelerator)")


def source_digest(source: Path) -> str:
    """What the built module carries of its C source, to tell a stale build: its CRC-32 in hex (a
    check against edits, not an attack; binascii, which bgcli imports at start anyway, computes it)."""
    return format(binascii.crc32(source.read_bytes()), "08x")


def accelerators(root: Path, optional: bool) -> list[Extension]:
    """The hand-written C modules; an optional one that fails to build leaves pure Python."""
    return [Extension(module.replace("/", "."), [source], optional=optional,
                      define_macros=[("BGCLI_SOURCE_DIGEST", f'"{source_digest(root / source)}"')])
            for module, source in EXTENSIONS.items()]


class BuildExt(build_ext):
    """build_ext, which says in one line why an optional module was not built
    (setuptools' own warning is buried in its log) and goes on without it."""

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except (CCompilerError, CompileError, ExecError, LinkError, PlatformError, OSError) as exc:
            if not getattr(ext, "optional", False):
                raise
            reason = " ".join(str(exc).split())[:120] or type(exc).__name__
            print(f"bgcli: the C accelerator {ext.name} was not built ({reason}): bgcli runs as pure Python",
                  file=sys.stderr)


def remove_stale_extensions(root: Path, compiling: bool, accelerating: bool = False) -> list[Path]:
    """Remove the compiled modules that an earlier build of this tree left in
    build/lib* and this build does not make: setuptools reuses that folder, so
    the wheel would ship them (a pure build after a compiled one would not be
    pure). The removed files, for the tests."""
    wanted = ({module[:-3] for module in COMPILED} if compiling else set()) | (set(EXTENSIONS) if accelerating else set())
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
    compiling, accelerating = wanted(), accelerated()
    root = Path(__file__).resolve().parent
    remove_stale_extensions(root, compiling, accelerating or compiling)
    if not compiling:
        if accelerating:
            setup(ext_modules=accelerators(root, optional=True), cmdclass={"build_ext": BuildExt})
        else:
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
    setup(ext_modules=mypycify(COMPILED, opt_level="3") + accelerators(root, optional=False))


if __name__ == "__main__":  # as pip's build runs it; tests/test_compiled.py imports it
    main()
