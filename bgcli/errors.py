"""The exception family of bgcli.

Every error is a ValueError subclass with a lowercase, one-line message that
carries the offending input, so a script can catch ``ValueError`` or one
precise kind, and the command line can print ``message`` as it is.
"""
from __future__ import annotations

import os
from enum import Enum

# The statuses of a batch, as the command line exits with them.
EXIT_PROBLEMS = 1     # some input was wrong; the rest was done
EXIT_UNREADABLE = 2   # the input could not be read (all of it, or from some line on)
EXIT_INTERNAL = 70      # a bug in bgcli (sysexits' EX_SOFTWARE): not the input's fault
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report a Ctrl-C
EXIT_CLOSED_PIPE = 141  # 128 + SIGPIPE: the reader of standard output went away
EXIT_TERMINATED = 143   # 128 + SIGTERM
# What a command says on standard error as it ends by a signal (docs/exit-status.md)
INTERRUPTED = "Error: interrupted"   # then EXIT_INTERRUPTED
TERMINATED = "Error: terminated"     # then EXIT_TERMINATED

class BgcliError(ValueError):
    """Base class of every error bgcli raises on bad input."""


class InvalidPositionError(BgcliError):
    """A position or identifier that cannot be read or breaks the rules."""


class InvalidDiceError(BgcliError):
    """Dice text that is not two numbers from 1 to 6."""


class MissingDiceError(InvalidDiceError):
    """No dice given for a position that carries none, where a play or its
    roll needs them: something the caller left out, not bad input (on the
    command line a usage error, status 2)."""


class InvalidPlayError(BgcliError):
    """Play text that is not well-formed move notation."""


class IllegalPlayError(BgcliError):
    """Well-formed play text that is not a legal play in the position."""


class CutShortPlayError(IllegalPlayError):
    """Steps that can each be made but use fewer dice than the roll's legal
    plays: a turn cut short (a site records the steps a player made before
    resigning in the middle of the turn)."""


class AmbiguousPlayError(BgcliError):
    """Shorthand that matches more than one legal play."""


class MatchFileError(BgcliError):
    """A match transcript that cannot be read, with file, line and column (line 0: the file as a whole,
    a binary file's header, say: no ``:0`` is written, which reads as a line that is not there)."""

    def __init__(self, message: str, path: str = "-", line: int = 0, column: int = 0):
        self.path, self.line, self.column = path, line, column
        where = path + (f":{line}" if line else "") + (f":{column}" if line and column else "")
        super().__init__(f"{where}: {message}")
        self.reason = message


class NotThisFormatError(MatchFileError):
    """A file that is not of the format it is read as at all: no mark of the format at its head (XG's RGMH,
    a Jellyfish version), or a text that holds no position. The wrong file given (exit 2, as a file that
    cannot be read and a match file of another kind), not a file of the format found damaged (a file cut
    short, a bad checksum, a field out of range: exit 1). docs/exit-status.md."""


class MatchEquityTableError(BgcliError):
    """A match equity table file that cannot be read, with file, line and column (0: not known)."""

    def __init__(self, message: str, path: str = "-", line: int = 0, column: int = 0):
        self.path, self.line, self.column = path, line, column
        where = path + (f":{line}" if line else "") + (f":{column}" if line and column else "")
        super().__init__(f"{where}: {message}")
        self.reason = message


class EngineError(BgcliError):
    """An engine that failed, timed out or gave an answer bgcli cannot trust."""


class EngineUnavailableError(EngineError):
    """An engine that is not installed; the message names what to install."""


class Extra(str, Enum):
    """An optional part of bgcli, as pyproject.toml's optional-dependencies name it."""

    ENGINE = "engine"   # bgsage: hint, rate, rollout, view --engine
    STATS = "stats"     # scipy: dice
    DASK = "dask"       # --scheduler


def install_command(extra: Extra) -> str:
    """The command that adds ``extra`` to the bgcli that runs: ``pip install 'bgcli[engine]'`` for one
    installed from a package index, the folder it was installed from for one installed from a clone
    (pip's direct_url.json; -e kept): a newcomer who followed the README (pip install -e .) and then the
    message would otherwise have asked the index for a bgcli that is not the one they run."""
    import json
    import shlex
    from importlib import metadata
    from urllib.parse import unquote, urlparse

    # every bgcli found, not the first: run from the clone (python -m bgcli), its bgcli.egg-info, which pip's
    # build leaves there without a direct_url.json, comes before the installed one
    try:
        written = [d.read_text("direct_url.json") for d in metadata.distributions(name="bgcli")]
        origin = json.loads(next((text for text in written if text), "null"))
    except (ValueError, OSError):
        origin = None
    url = urlparse(origin.get("url", "")) if isinstance(origin, dict) else None
    if url is not None and url.scheme == "file" and os.path.isfile(os.path.join(unquote(url.path), "pyproject.toml")):
        editable = "-e " if (origin.get("dir_info") or {}).get("editable") else ""
        return f"pip install {editable}{shlex.quote(f'{unquote(url.path)}[{extra.value}]')}"
    return f"pip install 'bgcli[{extra.value}]'"


def os_reason(error: OSError) -> str:
    """What is wrong, in the words every command uses: a directory where a
    file is expected is said so, the same way everywhere."""
    if isinstance(error, IsADirectoryError):
        return "it is a directory, not a file"
    return error.strerror or str(error)


class FileReadError(BgcliError, OSError):
    """A file that cannot be opened or read. Also an OSError, with the errno,
    strerror and filename of the one underneath, so ``except OSError`` and
    ``except BgcliError`` both catch it."""

    def __init__(self, path: str, error: OSError):
        OSError.__init__(self, error.errno, os_reason(error), str(path))
        self.path = str(path)

    def __str__(self) -> str:
        return f"cannot read {self.path}: {self.strerror}"


class Terminated(BaseException):
    """SIGTERM, raised where the main process is, so that what it was writing
    is cleaned up as on Ctrl-C (a half-written file's temporary is removed)."""


def raise_terminated(signum, frame) -> None:
    """The SIGTERM handler of the command line (worker processes set theirs back)."""
    raise Terminated()
