"""The command line: a thin click layer over the library.

One module per group of commands: ``positions`` (moves, check, convert,
show), ``matches`` (replay, score, export, view, rules), ``audit``, ``rate``,
``hint``, ``analyze``, ``chouette``. ``common`` holds the group, the shared
options and the one place that maps errors to exit codes; a command's module
is imported only when the command runs (``common.COMMAND_MODULES``).

Exit status, for every command: 0 success; 1 the input was read but is bad
(an illegal play, a position that breaks the rules, problems found by an
audit, some lines of a batch that failed); 2 a usage error or a file that
cannot be read at all. Errors are one line on stderr, never a traceback.
"""
from typing import Any

from bgcli.cli.common import (
    EXIT_PROBLEMS, EXIT_UNREADABLE, Failure, Unreadable, cli, main, split_position_and_dice,
)

_FROM_POSITIONS = ("moves_json", "moves_json_line", "run_batch", "run_batch_parallel")

__all__ = ["EXIT_PROBLEMS", "EXIT_UNREADABLE", "Failure", "Unreadable", "cli", "main", "split_position_and_dice",
           *_FROM_POSITIONS]


def __getattr__(name: str) -> Any:
    # the batch functions live with the moves command, imported when first used
    if name in _FROM_POSITIONS:
        from bgcli.cli import positions

        return getattr(positions, name)
    raise AttributeError(f"module 'bgcli.cli' has no attribute {name!r}")
