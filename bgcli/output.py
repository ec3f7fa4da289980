"""Output that cannot lose or forge data, and input quoted for one-line messages.

- :func:`write_text` writes a whole text to a path: ``-`` is standard
  output, anything else goes through :func:`write_atomically`.
- :func:`write_atomically` writes beside the target and renames, so a file
  is written whole or not at all: a full disk, a missing folder or a kill in
  the middle leaves the old file as it was and no half-written one. A target
  that is not a regular file (``/dev/null``, ``/dev/full``, a fifo, a
  terminal) cannot be replaced and is written directly. A link is followed:
  its target is replaced, the link stays.
- :class:`AtomicOutput` is the same promise for a text written in pieces
  (an export of any length, in bounded memory): nothing is the output until
  its ``commit()``.
- :func:`make_folders` makes the folders of a file in an output folder
  (``-o FOLDER``); a single output file's missing folder is refused, never
  made.
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

import functools
import os
import re
import stat
import sys

STDOUT = "-"  # the path that means standard output
QUOTE_LIMIT = 60  # characters of the input shown in a message


# The files AtomicOutputs of this process are to replace (their real paths), until they commit or discard:
# a command's -o FILE, which must not be read back as one of its inputs.
_WRITING: set[str] = set()


def own_output(path: str, info: os.stat_result | None = None) -> str | None:
    """How a message names ``path`` when it is where this process writes its
    output: ``"standard output"`` when standard output is redirected to it,
    ``"the output file"`` when an :class:`AtomicOutput` is to replace it (``-o
    FILE``, its old version); else None. The same file under another name
    (a link, ``./x``) is the same file: compared by device and inode, and by
    real path for an output not written yet. ``info``: the path's status, when
    the caller has it. Costs nothing when standard output is not a file and
    no output is open."""
    try:
        out: os.stat_result | None = os.fstat(1)
    except OSError:
        out = None
    if out is not None and not stat.S_ISREG(out.st_mode):
        out = None
    if out is None and not _WRITING:
        return None
    if info is None:
        try:
            info = os.stat(path)
        except OSError:
            info = None
    if info is not None and out is not None and os.path.samestat(info, out):
        return "standard output"
    for target in _WRITING:
        try:
            same = info is not None and os.path.samestat(info, os.stat(target))
        except OSError:
            same = False
        if same or os.path.realpath(path) == target:
            return "the output file"
    return None


class StandardOutputError(Exception):
    """Standard output could not be written: its reader went away (``EPIPE``)
    or the disk is full. Not an OSError, so that no handler of a read error
    can take it for one (a closed pipe is not a file that cannot be read)."""

    def __init__(self, exc: OSError):
        reason = exc.strerror or str(exc)
        super().__init__(f"cannot write standard output: {reason[:1].lower() + reason[1:]}")
        self.errno = exc.errno
        self.closed = isinstance(exc, BrokenPipeError)


_PIECE = 1 << 16   # characters a write to standard output hands on at once


class _GuardedStream:
    """A text stream whose failed writes raise :class:`StandardOutputError`."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text):
        try:
            if len(text) <= _PIECE:
                return self._stream.write(text)
            # one write of a long text into a pipe whose reader leaves half-way ends short without
            # an error (the kernel counts what went in); in pieces, the next one meets the closed pipe
            for start in range(0, len(text), _PIECE):
                self._stream.write(text[start:start + _PIECE])
                self._stream.flush()
            return len(text)
        except OSError as exc:
            raise StandardOutputError(exc) from None

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def flush(self):
        try:
            self._stream.flush()
        except OSError as exc:
            raise StandardOutputError(exc) from None

    def __getattr__(self, name):
        return getattr(self._stream, name)


def guard_standard_output() -> None:
    """Make every failed write to ``sys.stdout`` a :class:`StandardOutputError` (the command line's main())."""
    if not isinstance(sys.stdout, _GuardedStream) and sys.stdout is not None:
        sys.stdout = _GuardedStream(sys.stdout)  # type: ignore[assignment]


class OutputError(Exception):
    """An output that could not be written; a file named by a path was left as it was."""

    def __init__(self, message: str, path: str = ""):
        super().__init__(message)
        self.path = path


# what a terminal may act on: C0 and C1 controls, DEL, the line and paragraph
# separators, the bidirectional overrides, and lone surrogates (a file name
# that is not UTF-8 holds its bytes as U+DC80..U+DCFF)
_UNPRINTABLE = "[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
_UNPRINTABLE_IN_BLOCK = "[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
# what JSON text must not carry raw: C1 controls and DEL (a terminal acts on
# them), separators and bidirectional overrides, lone surrogates (no UTF-8
# for them); JSON escapes keep them exact
_JSON_RAW = "[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]"


@functools.lru_cache(maxsize=None)
def _compiled(pattern: str) -> re.Pattern[str]:
    """One of the patterns above, compiled on first use: each takes a third of a millisecond (their ranges
    reach past Latin-1), and a command uses one or none of them (start-up)."""
    return re.compile(pattern)


def _escape(match: re.Match) -> str:
    char = match.group()
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:   # a byte of a file name that is not UTF-8: shown as that byte
        return f"\\x{code - 0xDC00:02x}"
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}"


def printable(text: str, block: bool = False) -> str:
    """``text`` fit for a terminal: every control character, lone surrogate,
    line separator and bidirectional override written as a visible escape
    (``\\x1b``, ``\\u202e``; a byte of a name that is not UTF-8 as ``\\xff``).
    A one-line record stays one line (a newline becomes ``\\x0a``); with
    ``block``, newlines are kept (a drawing of several lines). The one place
    that untrusted text (names, tags, file names, messages) passes through
    on its way to a terminal."""
    text = text if isinstance(text, str) else str(text)
    return _compiled(_UNPRINTABLE_IN_BLOCK if block else _UNPRINTABLE).sub(_escape, text)


def json_line(data) -> str:
    """``data`` as one line of JSON, exact and safe for a terminal: UTF-8
    text, but C1 controls, DEL, line separators and lone surrogates as
    ``\\u`` escapes (``json.loads`` gives back the same strings)."""
    return json_text(data)


def json_text(data, indent: int | None = None) -> str:
    """:func:`json_line`, laid out with ``indent`` as ``json.dumps`` does (a
    document written to a file or a terminal: either may be shown)."""
    import json

    return _compiled(_JSON_RAW).sub(lambda m: f"\\u{ord(m.group()):04x}", json.dumps(data, indent=indent, ensure_ascii=False))


def cut(text, limit: int = QUOTE_LIMIT) -> str:
    """``text`` cut to about ``limit`` characters (``...`` marks the cut), for a message that shows it
    unquoted."""
    text = text if type(text) is str else str(text)   # a Lark Token is a str whose repr is not its text
    return text if len(text) <= limit else text[: max(limit - 3, 1)] + "..."


def quote(text, limit: int = QUOTE_LIMIT) -> str:
    """``repr`` of ``text`` cut to about ``limit`` characters (``...`` marks the cut)."""
    return repr(cut(text, limit))


def quote_around(text: str, at: int, limit: int = QUOTE_LIMIT) -> str:
    """``repr`` of about ``limit`` characters of ``text`` around index ``at`` (where it is wrong, or where
    an edit changes it), ``...`` marking a cut on either side: a line of 300 kB quoted in a message is
    these characters, never the line (the caller names the column, ``at + 1``)."""
    text = text if type(text) is str else str(text)
    if len(text) <= limit:
        return repr(text)
    start = min(max(at - limit // 3, 0), len(text) - limit)
    shown = text[start:start + limit]
    return repr(("..." if start else "") + shown + ("..." if start + limit < len(text) else ""))


def first_difference(before: str, after: str) -> int:
    """The index of the first character where ``after`` differs from ``before`` (the shorter one's length
    when one begins the other), found by halving, each half compared as a slice (a C loop): a 300 kB
    line costs a few dozen comparisons, never a Python loop over its characters."""
    low, high = 0, min(len(before), len(after))   # before[:low] == after[:low]; the difference is at high or before
    while low < high:
        middle = (low + high + 1) // 2
        if before[low:middle] == after[low:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def check_path(path: str) -> str:
    """``path`` when it can name an output (``-`` or a file name); an empty name is refused."""
    if not isinstance(path, str) or not path:
        raise OutputError("the output file name is empty (use - for standard output)", "")
    if "\0" in path:
        raise OutputError(f"cannot write {quote(path)}: a file name cannot hold a NUL character", path)
    return path


def write_text(path: str, text: str | bytes, encoding: str = "utf-8") -> None:
    """Write ``text`` to ``path``: standard output for ``-``, else whole or not
    at all; bytes (a diff in a file's own encoding) as they are."""
    if check_path(path) == STDOUT:
        if isinstance(text, bytes):
            sys.stdout.flush()
            sys.stdout.buffer.write(text)
            sys.stdout.buffer.flush()
            return
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        write_atomically(path, text, encoding)


def make_folders(target: str) -> None:
    """The folders of ``target``, a file in an output folder (``-o FOLDER``:
    each input's output under its path as found), made when missing. The one
    place an output's folder is made: a command writing one file (``-o
    FILE``) never makes its folder, and refuses a missing one (the write's
    :class:`OutputError`, status 2), whatever the command."""
    folder = os.path.dirname(check_path(target))
    if not folder or target == STDOUT:
        return
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        if isinstance(exc, FileExistsError) or os.path.lexists(folder) and not os.path.isdir(folder):
            raise OutputError(f"cannot write {quote(target)}: {quote(folder)} is not a folder", target) from None
        raise OutputError(f"cannot write {quote(target)}: cannot make folder {quote(folder)}: {_reason(exc)}",
                          target) from None


def write_atomically(path: str, text: str | bytes, encoding: str = "utf-8") -> None:
    """Write ``text`` to the file ``path`` whole or not at all (see the module docstring)."""
    check_path(path)
    data = text if isinstance(text, bytes) else text.encode(encoding)  # before any file is touched
    with AtomicOutput(path, encoding) as out:
        out.write_bytes(data)
        out.commit()


class AtomicOutput:
    """A text written in pieces to ``path``, whole or not at all: the pieces
    go to a temporary file, and only :meth:`commit` makes them the output.
    Leaving the ``with`` block without a commit (an error, Ctrl-C, SIGTERM,
    or a caller that found the text incomplete) removes the temporary and
    leaves the old file as it was. A regular file's temporary is beside it
    and is renamed over it; standard output (``-``) and a target that is not
    a regular file (a device, a fifo) are held in an anonymous temporary
    file and copied out on commit. Memory stays bounded however long the text."""

    def __init__(self, path: str, encoding: str = "utf-8"):
        self.path = check_path(path)
        self.encoding = encoding
        self._temporary: str | None = None   # the name of the file beside the target
        self._info: os.stat_result | None = None
        self._target = path
        self._done = False
        if path == STDOUT:
            self._handle = self._anonymous()
            return
        try:
            self._info = os.stat(path)
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise _failure(path, path, exc) from None
        if self._info is not None and stat.S_ISDIR(self._info.st_mode):
            raise OutputError(f"cannot write {quote(path)}: it is a folder", path)
        if self._info is not None and not stat.S_ISREG(self._info.st_mode):
            self._handle = self._anonymous()   # a device, a fifo, a terminal, /dev/stdout: nothing to rename over
            return
        self._target = os.path.realpath(path)  # a link stays a link: its target is replaced
        _WRITING.add(self._target)
        try:
            descriptor, self._temporary = _create_beside(self._target)
            self._handle = os.fdopen(descriptor, "wb")
        except OSError as exc:
            self._remove()
            _WRITING.discard(self._target)
            raise _failure(path, self._target, exc) from None

    def _anonymous(self):
        import tempfile

        try:
            return tempfile.TemporaryFile()
        except OSError as exc:
            raise OutputError(f"cannot write {quote(self.path)}: no temporary file to hold it in "
                              f"({_reason(exc)})", self.path) from None

    def write(self, text: str) -> None:
        try:
            data = text.encode(self.encoding)
        except UnicodeEncodeError as exc:
            raise OutputError(f"cannot write {quote(self.path)}: {quote(exc.object[exc.start:exc.end])} has no "
                              f"{self.encoding} encoding", self.path) from None
        self.write_bytes(data)

    def write_bytes(self, data: bytes) -> None:
        try:
            self._handle.write(data)
        except OSError as exc:
            raise self._failed(exc) from None

    def commit(self) -> None:
        """Make what was written the output: rename the temporary over the
        file, or copy it to standard output or the device."""
        try:
            self._handle.flush()
            self._done = True   # from here on a failure is the output's, not the temporary's
            if self._temporary is None:
                self._copy_out()
            else:
                os.fsync(self._handle.fileno())
                self._handle.close()
                if self._info is not None:
                    os.chmod(self._temporary, stat.S_IMODE(self._info.st_mode))
                os.replace(self._temporary, self._target)
                _TEMPORARIES.discard(self._temporary)
                self._temporary = None
        except OSError as exc:
            raise self._failed(exc) from None
        finally:
            self._done = True
            self._handle.close()
            self._remove()
            _WRITING.discard(self._target)

    def _copy_out(self) -> None:
        import codecs

        self._handle.seek(0)
        if self.path == STDOUT:   # through sys.stdout, whose failed writes say "standard output"
            decoder = codecs.getincrementaldecoder(self.encoding)()
            # a file's text is its data, but a terminal would act on a control character in a name
            shown = (lambda text: printable(text, block=True)) if _isatty(sys.stdout) else (lambda text: text)
            while piece := self._handle.read(_PIECE):
                sys.stdout.write(shown(decoder.decode(piece)))
            sys.stdout.write(shown(decoder.decode(b"", final=True)))
            sys.stdout.flush()
            return
        with open(self.path, "wb") as device:
            while piece := self._handle.read(1 << 20):
                device.write(piece)

    def discard(self) -> None:
        """Drop what was written: the old file, if any, stays as it was."""
        if not self._done:
            self._done = True
            self._handle.close()
            self._remove()
            _WRITING.discard(self._target)

    def _remove(self) -> None:
        if self._temporary is not None:
            try:
                os.unlink(self._temporary)
            except OSError:
                pass
            _TEMPORARIES.discard(self._temporary)
            self._temporary = None

    def _failed(self, exc: OSError) -> OutputError:
        if self._temporary is None and not self._done:   # the anonymous file that holds the text
            return OutputError(f"cannot write {quote(self.path)}: the temporary file holding it: {_reason(exc)}",
                               self.path)
        return _failure(self.path, self._target, exc)

    def __enter__(self) -> "AtomicOutput":
        return self

    def __exit__(self, *exc_info) -> None:
        self.discard()   # after a commit, nothing; else (an error, a signal) the temporary goes


def _isatty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def _create_beside(target: str) -> tuple[int, str]:
    """A new, empty file in the target's folder (mode 0666 less the umask, as open() makes).
    Its name is in _TEMPORARIES before the file exists, so that a signal at any point of its
    making leaves nothing behind (remove_temporaries)."""
    folder, name = os.path.split(target)
    for _ in range(100):
        temporary = os.path.join(folder, f".{name[:100]}.{os.urandom(4).hex()}.tmp")
        _TEMPORARIES.add(temporary)
        try:
            return os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), temporary
        except FileExistsError:   # another's file: never ours to remove
            _TEMPORARIES.discard(temporary)
            continue
        except OSError:
            _TEMPORARIES.discard(temporary)
            raise
    raise FileExistsError(f"no free temporary name beside {target}")


# The temporaries made and not yet renamed or removed. A Ctrl-C or a SIGTERM raises wherever the
# program is, also between the making of a temporary and the assignment that names it to its
# AtomicOutput (where neither its with-block nor discard() can know of it): the one place that
# ends a command on a signal (bgcli.cli.common.main) removes what is left here.
_TEMPORARIES: set[str] = set()


def remove_temporaries() -> None:
    """Remove every temporary file still pending (the command was cut off)."""
    while _TEMPORARIES:
        try:
            os.unlink(_TEMPORARIES.pop())
        except OSError:
            pass


def _failure(path: str, target: str, exc: OSError) -> OutputError:
    folder = os.path.dirname(target)
    if isinstance(exc, FileNotFoundError) and not os.path.isdir(folder):
        reason = f"folder {quote(os.path.dirname(path) or folder)} does not exist"
    elif isinstance(exc, NotADirectoryError):
        reason = f"{quote(os.path.dirname(path) or folder)} is not a folder"
    else:
        reason = _reason(exc)
    return OutputError(f"cannot write {quote(path)}: {reason}", path)


def _reason(exc: OSError) -> str:
    reason = exc.strerror or str(exc)
    return reason[:1].lower() + reason[1:]
