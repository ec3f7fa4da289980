"""Loading the Lark grammars and turning Lark's errors into ours.

The grammars live in the top-level ``grammars/`` folder of the source tree;
the build installs them as the ``bgcli.grammars`` package. Each parser is
built once (LALR) and cached for the life of the process.
"""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Callable

from lark import Lark, Transformer, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from bgcli.errors import BgcliError


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
def parser(name: str, start: str | None = None, strict: bool = False) -> Lark:
    """The LALR parser for ``grammars/NAME.lark``, built once."""
    options = dict(parser="lalr", propagate_positions=True, maybe_placeholders=False, strict=strict)
    if start:
        options["start"] = start
    return Lark(grammar_text(name), **options)


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
    try:
        tree: Tree = parser(name, start).parse(text)
        return transformer.transform(tree) if transformer is not None else tree
    except VisitError as exc:
        if isinstance(exc.orig_exc, BgcliError):
            raise exc.orig_exc from None
        raise
    except UnexpectedInput as exc:
        raise error(describe(exc, text), getattr(exc, "line", 0) or 0, getattr(exc, "column", 0) or 0) from None


def describe(exc: UnexpectedInput, text: str) -> str:
    """A one-line, lowercase description of where and why parsing stopped."""
    if isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken) and exc.token.type == "$END"):
        return "unexpected end of input"
    if isinstance(exc, UnexpectedToken):
        return f"unexpected {exc.token.value!r} at column {exc.column}"
    if isinstance(exc, UnexpectedCharacters):
        return f"unexpected {text[exc.pos_in_stream]!r} at column {exc.column}"
    return f"cannot read at column {getattr(exc, 'column', '?')}"
