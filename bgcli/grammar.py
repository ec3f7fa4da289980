"""Loading the Lark grammars and turning Lark's errors into ours.

The grammars live in the top-level ``grammars/`` folder of the source tree;
the build installs them as the ``bgcli.grammars`` package. Each parser is
built once (LALR) and cached for the life of the process.

Between processes a built parser is kept on disk, because building it costs
start-up time. Lark's cache is a pickle, and loading a pickle runs code, so
it is kept only in the user's own cache folder (``$XDG_CACHE_HOME/bgcli``,
by default ``~/.cache/bgcli``), created private (0700) and checked before
every use: a folder or file that another user owns or can write to, or a
link, is ignored and the parser is built in memory instead. Never the shared
temporary folder, where anyone could plant a file under a predictable name.
``BGCLI_NO_CACHE=1`` turns the cache off.
"""
from __future__ import annotations

import functools
import hashlib
import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from bgcli.errors import BgcliError

if TYPE_CHECKING:  # lark is imported when a parser is first needed: it costs start-up time
    from lark import Lark, Transformer
    from lark.exceptions import UnexpectedInput


def grammar_text(name: str) -> str:
    """The text of ``grammars/NAME.lark``, from the installed package or the source tree."""
    try:
        from importlib.resources import files

        resource = files("bgcli.grammars").joinpath(f"{name}.lark")
        if resource.is_file():
            return resource.read_text(encoding="utf-8")
    except ModuleNotFoundError:
        pass
    return (Path(__file__).resolve().parent.parent / "grammars" / f"{name}.lark").read_text(encoding="utf-8")


@functools.lru_cache(maxsize=None)
def parser(name: str, start: str | None = None, strict: bool = False, cache: bool = False) -> Lark:
    """The LALR parser for ``grammars/NAME.lark``, built once per process.

    With ``cache`` Lark keeps the built parser in a temporary file, so that a
    new process loads it instead of building it (the start-up time of every
    command); such a parser has no ``.grammar`` for hypothesis.extra.lark,
    so the tests ask for one without.
    """
    from lark import Lark

    text = grammar_text(name)
    options: dict = dict(parser="lalr", propagate_positions=True, maybe_placeholders=False, strict=strict)
    if start:
        options["start"] = start
    if cache:
        path = cache_file(cache_name(name, start, strict))
        if path is not None:
            options["cache"] = str(path)
    return Lark(text, **options)


def cache_name(name: str, start: str | None = None, strict: bool = False) -> str:
    """The cache file name of a parser: the grammar, its options and Lark's version."""
    from lark import __version__ as lark_version

    key = f"{lark_version}\0{start}\0{strict}\0{grammar_text(name)}"
    return f"parser-{name}-{hashlib.sha256(key.encode('utf-8')).hexdigest()[:32]}.pickle"


def cache_dir() -> Path | None:
    """The user's private cache folder for bgcli, created 0700 when missing;
    None when there is none that is safe to load code from (see the module
    docstring)."""
    if os.environ.get("BGCLI_NO_CACHE") or not hasattr(os, "getuid"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    if not os.path.isabs(base):
        return None
    folder = Path(base) / "bgcli"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        return folder if _private(folder, directory=True) else None
    except OSError:
        return None


def cache_file(name: str) -> Path | None:
    """A file in :func:`cache_dir` that is safe to read back: missing, or a
    regular file that only this user owns and can write."""
    folder = cache_dir()
    if folder is None:
        return None
    path = folder / name
    try:
        if not _private(path, directory=False):
            return None
    except FileNotFoundError:
        pass
    except OSError:
        return None
    return path


def _private(path: Path, directory: bool) -> bool:
    """Whether ``path`` (not followed if a link) is ours and nobody else's to write."""
    info = path.lstat()
    kind_ok = stat.S_ISDIR(info.st_mode) if directory else stat.S_ISREG(info.st_mode)
    others = 0o077 if directory else 0o022
    return kind_ok and info.st_uid == os.getuid() and not info.st_mode & others


def parse(
    name: str,
    text: str,
    error: Callable[[str, int, int], BgcliError],
    transformer: Transformer | None = None,
    start: str | None = None,
):
    """Parse ``text`` with grammar ``name``; the one place where Lark's
    exceptions become ours. ``error(message, line, column)`` builds the
    exception to raise; a Transformer's own BgcliError passes through."""
    from lark.exceptions import UnexpectedInput, VisitError

    try:
        tree = parser(name, start, cache=True).parse(text)
        return transformer.transform(tree) if transformer is not None else tree
    except VisitError as exc:
        if isinstance(exc.orig_exc, BgcliError):
            raise exc.orig_exc from None
        raise
    except UnexpectedInput as exc:
        raise error(describe(exc, text), getattr(exc, "line", 0) or 0, getattr(exc, "column", 0) or 0) from None


def describe(exc: UnexpectedInput, text: str) -> str:
    """A one-line, lowercase description of where and why parsing stopped."""
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    if isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken) and exc.token.type == "$END"):
        return "unexpected end of input"
    if isinstance(exc, UnexpectedToken):
        from bgcli.output import quote

        return f"unexpected {quote(exc.token.value, 30)} at column {exc.column}"
    if isinstance(exc, UnexpectedCharacters):
        return f"unexpected {text[exc.pos_in_stream or 0]!r} at column {exc.column}"
    return f"cannot read at column {getattr(exc, 'column', '?')}"
