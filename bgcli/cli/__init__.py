"""The command line: a thin click layer over the library.

One module per group of commands: ``positions`` (moves, check, convert,
show), ``matches`` (replay, score, export, view), ``audit``, ``hint``. ``common`` holds the
group, the shared options and the one place that maps errors to exit codes.

Exit status, for every command: 0 success; 1 the input was read but is bad
(an illegal play, a position that breaks the rules, problems found by an
audit, some lines of a batch that failed); 2 a usage error or a file that
cannot be read at all. Errors are one line on stderr, never a traceback.
"""
from bgcli.cli import analyze, audit, chouette, hint, matches, positions, rate  # noqa: F401  (they register their commands)
from bgcli.cli.common import (
    EXIT_PROBLEMS, EXIT_UNREADABLE, Failure, Unreadable, cli, main, split_position_and_dice,
)
from bgcli.cli.positions import moves_json, moves_json_line, run_batch, run_batch_parallel

__all__ = ["EXIT_PROBLEMS", "EXIT_UNREADABLE", "Failure", "Unreadable", "cli", "main", "split_position_and_dice",
           "moves_json", "moves_json_line", "run_batch", "run_batch_parallel"]
