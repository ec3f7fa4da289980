"""Output that cannot lose or forge data, and input quoted for one-line messages.

- :func:`write_text` writes a whole text to a path: ``-`` is standard
  output, anything else goes through :func:`write_atomically`.
- :func:`write_atomically` writes beside the target and renames, so a file
  is written whole or not at all: a full disk, a missing folder or a kill in
  the middle leaves the old file as it was and no half-written one. A target
  that is not a regular file (``/dev/null``, ``/dev/full``, a fifo, a
  terminal) cannot be replaced and is written directly. A link is followed:
  its target is replaced, the link stays.
- Failures raise :class:`OutputError`, with a one-line, lowercase message
  naming the path (``cannot write 'x/board.svg': folder 'x' does not
  exist``). It is not a :class:`bgcli.errors.BgcliError`: the input was not
  at fault.
- :func:`quote` cuts and quotes what the user gave for an error message, so
  a megabyte of input never makes a megabyte of message and a control
  character never reaches the terminal.

Importing this module costs nothing beyond the standard library's ``os``.
"""
from __future__ import annotations

import os
import stat
import sys

STDOUT = "-"  # the path that means standard output
QUOTE_LIMIT = 60  # characters of the input shown in a message


class OutputError(Exception):
    """An output that could not be written; a file named by a path was left as it was."""

    def __init__(self, message: str, path: str = ""):
        super().__init__(message)
        self.path = path


def quote(text, limit: int = QUOTE_LIMIT) -> str:
    """``repr`` of ``text`` cut to about ``limit`` characters (``...`` marks the cut)."""
    text = text if isinstance(text, str) else str(text)
    if len(text) > limit:
        text = text[: max(limit - 3, 1)] + "..."
    return repr(text)


def check_path(path: str) -> str:
    """``path`` when it can name an output (``-`` or a file name); an empty name is refused."""
    if not isinstance(path, str) or not path:
        raise OutputError("the output file name is empty (use - for standard output)", "")
    if "\0" in path:
        raise OutputError(f"cannot write {quote(path)}: a file name cannot hold a NUL character", path)
    return path


def write_text(path: str, text: str, encoding: str = "utf-8") -> None:
    """Write ``text`` to ``path``: standard output for ``-``, else whole or not at all."""
    if check_path(path) == STDOUT:
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        write_atomically(path, text, encoding)


def write_atomically(path: str, text: str | bytes, encoding: str = "utf-8") -> None:
    """Write ``text`` to the file ``path`` whole or not at all (see the module docstring)."""
    check_path(path)
    data = text if isinstance(text, bytes) else text.encode(encoding)  # before any file is touched
    try:
        info = os.stat(path)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise _failure(path, path, exc) from None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise OutputError(f"cannot write {quote(path)}: it is a folder", path)
    if info is not None and not stat.S_ISREG(info.st_mode):
        try:  # a device, a fifo, a terminal, /dev/stdout: nothing to rename over
            with open(path, "wb") as handle:
                handle.write(data)
        except OSError as exc:
            raise _failure(path, path, exc) from None
        return
    target = os.path.realpath(path)  # a link stays a link: its target is replaced
    temporary = None
    try:
        descriptor, temporary = _create_beside(target)
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if info is not None:
            os.chmod(temporary, stat.S_IMODE(info.st_mode))
        os.replace(temporary, target)
        temporary = None
    except OSError as exc:
        raise _failure(path, target, exc) from None
    finally:
        if temporary is not None:
            try:
                os.unlink(temporary)
            except OSError:
                pass


def _create_beside(target: str) -> tuple[int, str]:
    """A new, empty file in the target's folder (mode 0666 less the umask, as open() makes)."""
    folder, name = os.path.split(target)
    for _ in range(100):
        temporary = os.path.join(folder, f".{name[:100]}.{os.urandom(4).hex()}.tmp")
        try:
            return os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), temporary
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name beside {target}")


def _failure(path: str, target: str, exc: OSError) -> OutputError:
    folder = os.path.dirname(target)
    if isinstance(exc, FileNotFoundError) and not os.path.isdir(folder):
        reason = f"folder {quote(os.path.dirname(path) or folder)} does not exist"
    elif isinstance(exc, NotADirectoryError):
        reason = f"{quote(os.path.dirname(path) or folder)} is not a folder"
    else:
        reason = exc.strerror or str(exc)
        reason = reason[:1].lower() + reason[1:]
    return OutputError(f"cannot write {quote(path)}: {reason}", path)
