"""What the readers of whole files share: reading a stream with a bound and
decoding its text."""
from __future__ import annotations

from typing import IO

from bgcli.errors import MatchFileError

WHOLE_LIMIT = 256 << 20   # a file read whole (SGF, JSON) is no bigger than this


def text_of(raw: bytes) -> str:
    """UTF-8 text, else Latin-1 (old exports often are): the one decoding of
    what bgcli reads, a whole file or one line of it."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def decode(raw: bytes) -> str:
    """A whole file's text (``text_of``) without its byte order mark."""
    return text_of(raw).lstrip("\ufeff")


def read_whole(handle: IO[bytes], path: str, what: str, limit: int = WHOLE_LIMIT) -> bytes:
    """All of ``handle``, refused past ``limit`` bytes."""
    raw = handle.read(limit + 1)
    if len(raw) > limit:
        raise MatchFileError(f"the file is larger than {limit >> 20} MB, more than bgcli reads as {what}", path, 1, 1)
    return raw
