"""Loading the Lark grammars and turning Lark's errors into ours.

The grammars live in the top-level ``grammars/`` folder of the source tree;
the build installs them as the ``bgcli.grammars`` package. Each parser is
built once (LALR) and cached for the life of the process.

Between processes a built parser is kept on disk, because building it costs
start-up time. The cache can never run code: it is JSON (Lark's own
serialised tables, with tuples and integer keys tagged), never a pickle, and
it is read back through :func:`read_cached`, which opens the user's own
cache folder (``$XDG_CACHE_HOME/bgcli``, by default ``~/.cache/bgcli``,
created private, 0700) and the file in it by descriptor, without following
links, and checks what it opened (``fstat``): a folder or file that another
user owns or can write to is ignored and the parser is built in memory
instead. Nothing is opened twice by its path, so a folder swapped between a
check and a read is never read from. Never the shared temporary folder.
``BGCLI_NO_CACHE=1`` turns the cache off.
"""
from __future__ import annotations

import functools
import os
import stat
from typing import TYPE_CHECKING, Any, Callable, Protocol

from bgcli.errors import BgcliError

if TYPE_CHECKING:  # lark and pathlib are imported when a parser is first needed: they cost start-up time
    from pathlib import Path

    from lark import Lark, Transformer
    from lark.exceptions import UnexpectedInput

CACHE_FORMAT = "1"  # of the parser cache files; a change makes new names, old files are never read
# bytes: a bigger file in the cache folder is not ours. The cubeful bear-off table of six checkers a side is
# 20.5 MB: under a limit of 16 MB it was never read back, and every process that met a bear-off rebuilt it (a minute)
CACHE_LIMIT = 64 << 20


def grammar_text(name: str) -> str:
    """The text of ``grammars/NAME.lark``: the source tree's beside this bgcli when there is one, else
    the installed package's. The tree comes first because an editable install maps ``bgcli.grammars``
    to the tree it was made from, which need not be the tree whose code runs (``python -m bgcli`` in
    another checkout or worktree would read the other tree's grammars with its own code)."""
    from pathlib import Path

    beside = Path(__file__).resolve().parent.parent / "grammars" / f"{name}.lark"
    if beside.is_file():
        return beside.read_text(encoding="utf-8")
    from importlib.resources import files

    return files("bgcli.grammars").joinpath(f"{name}.lark").read_text(encoding="utf-8")


@functools.lru_cache(maxsize=None)
def parser(name: str, start: str | None = None, strict: bool = False, cache: bool = False) -> Lark:
    """The LALR parser for ``grammars/NAME.lark``, built once per process.

    With ``cache`` the built tables are kept in the user's cache folder
    (see the module docstring), so that a new process loads them instead of
    building them (the start-up time of every command); such a parser has no
    ``.grammar`` for hypothesis.extra.lark, so the tests ask for one without.
    """
    from lark import Lark

    text = grammar_text(name)
    options: dict = dict(parser="lalr", propagate_positions=True, maybe_placeholders=False, strict=strict)
    if start:
        options["start"] = start
    if not cache:
        return Lark(text, **options)
    file_name = cache_name(name, start, strict)
    data = read_cached(file_name)
    if data is not None:
        import json   # here, not at the top: most commands never need the grammar (start-up)

        try:
            tables = json.loads(data, object_hook=_untag)
            return Lark._load_from_dict(tables["data"], tables["memo"], propagate_positions=True)
        except Exception:  # a damaged file (cut by a full disk): build it again
            pass
    built = Lark(text, **options)
    write_cached(file_name, _tables_json(built))
    return built


def _tables_json(built: Lark) -> bytes:
    """Lark's serialised tables (``memo_serialize``, as its standalone
    parsers hold them) as JSON: dicts tagged ``{"d": [[key, value], ...]}``
    since their keys may be integers, tuples tagged ``{"t": [...]}``."""
    from lark.grammar import Rule
    from lark.lexer import TerminalDef

    import json

    data, memo = built.memo_serialize([TerminalDef, Rule])
    # options Lark takes again at load time are not kept (as Lark's own cache does)
    data["options"] = {k: v for k, v in data["options"].items() if k not in ("propagate_positions", "transformer",
                                                                            "postlex", "lexer_callbacks", "tree_class",
                                                                            "_plugins", "debug", "use_bytes", "regex",
                                                                            "g_regex_flags")}
    return json.dumps(_tag({"data": data, "memo": memo}), separators=(",", ":")).encode("ascii")


def _tag(value):
    if isinstance(value, dict):
        return {"d": [[_tag(k), _tag(v)] for k, v in value.items()]}
    if isinstance(value, tuple):
        return {"t": [_tag(v) for v in value]}
    if isinstance(value, list):
        return [_tag(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    raise TypeError(f"cannot keep a {type(value).__name__} in the parser cache")


def _untag(obj: dict):
    if "d" in obj:
        return {k: v for k, v in obj["d"]}
    return tuple(obj["t"])


def cache_name(name: str, start: str | None = None, strict: bool = False) -> str:
    """The cache file name of a parser: the grammar, its options and Lark's version."""
    import hashlib

    from lark import __version__ as lark_version

    key = f"{CACHE_FORMAT}\0{lark_version}\0{start}\0{strict}\0{grammar_text(name)}"
    return f"parser-{name}-{hashlib.sha256(key.encode('utf-8')).hexdigest()[:32]}.json"


def cache_dir() -> Path | None:
    """The user's private cache folder for bgcli, created 0700 when missing;
    None when there is none that is safe to use (see the module docstring).
    For messages and tests: files in it are read and written only through
    :func:`read_cached` and :func:`write_cached`."""
    if os.environ.get("BGCLI_NO_CACHE") or not hasattr(os, "getuid") or not hasattr(os, "O_NOFOLLOW"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    if not os.path.isabs(base):
        return None
    from pathlib import Path

    folder = Path(base) / "bgcli"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return None
    return folder


def _open_dir() -> int | None:
    """A descriptor of :func:`cache_dir`, opened without following a link,
    when what was opened is a folder this user owns and nobody else can use."""
    folder = cache_dir()
    if folder is None:
        return None
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError:
        return None
    info = os.fstat(fd)
    if stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid() and not info.st_mode & 0o077:
        return fd
    os.close(fd)
    return None


def read_cached(name: str) -> bytes | None:
    """The content of the cache file ``name``, or None when it is missing or
    not safe to trust: not a regular file, a link, another user's, writable
    by others, or over CACHE_LIMIT. What is checked is what is read."""
    folder = _open_dir()
    if folder is None:
        return None
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_NONBLOCK", 0), dir_fd=folder)
    except OSError:
        return None
    finally:
        os.close(folder)
    try:
        info = os.fstat(fd)
        if (not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o022
                or info.st_size > CACHE_LIMIT):
            return None
        with os.fdopen(fd, "rb") as handle:
            fd = -1
            return handle.read(CACHE_LIMIT + 1)
    except OSError:
        return None
    finally:
        if fd >= 0:
            os.close(fd)


def write_cached(name: str, data: bytes) -> bool:
    """Keep ``data`` as the cache file ``name``: written private (0600) beside
    it and renamed over it inside the opened folder; False when it could not be."""
    folder = _open_dir()
    if folder is None:
        return False
    temporary = f".{name}.{os.urandom(4).hex()}.tmp"
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600, dir_fd=folder)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.rename(temporary, name, src_dir_fd=folder, dst_dir_fd=folder)
            return True
        except OSError:
            try:
                os.unlink(temporary, dir_fd=folder)
            except OSError:
                pass
            return False
    except OSError:
        return False
    finally:
        os.close(folder)


class TreeTransformer(Protocol):
    """What ``parse`` needs of a transformer: Lark's ``transform(tree)``
    (a Transformer, or a class of ours that walks the tree itself)."""

    def transform(self, tree: Any) -> Any: ...


def parse(
    name: str,
    text: str,
    error: Callable[[str, int, int], BgcliError],
    transformer: Transformer | TreeTransformer | None = None,
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
