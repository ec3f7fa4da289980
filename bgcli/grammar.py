"""Loading the Lark grammars and turning Lark's errors into ours.

The grammars live in the top-level ``grammars/`` folder of the source tree;
the build installs them as the ``bgcli.grammars`` package. Each parser is
built once (LALR) and cached for the life of the process.
"""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Callable

from typing import TYPE_CHECKING

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

    options = dict(parser="lalr", propagate_positions=True, maybe_placeholders=False, strict=strict, cache=cache)
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
        return f"unexpected {exc.token.value!r} at column {exc.column}"
    if isinstance(exc, UnexpectedCharacters):
        return f"unexpected {text[exc.pos_in_stream]!r} at column {exc.column}"
    return f"cannot read at column {getattr(exc, 'column', '?')}"
