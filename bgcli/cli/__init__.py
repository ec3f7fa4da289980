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
import sys
from typing import Any

_FROM_COMMON = ("EXIT_PROBLEMS", "EXIT_UNREADABLE", "Failure", "Unreadable", "cli")
_FROM_BATCH = ("split_position_and_dice",)
_FROM_POSITIONS = ("moves_json", "moves_json_line", "run_batch", "run_batch_parallel")

__all__ = ["main", *_FROM_COMMON, *_FROM_BATCH, *_FROM_POSITIONS]


def main() -> None:
    """Run bgcli (``common.main``). ``bgcli moves start 31``, or a Position
    ID and dice, with no option, is answered before click is imported:
    click's import is most of a command's start-up. What it writes is what
    the moves command writes (tests/test_startup.py compares them)."""
    if sys.argv[1:2] == ["moves"]:
        if sys.argv[2:] == ["--batch", "-"] and _quiet_batch():
            sys.exit(_batch_before_click())
        from bgcli.cli.batch import read_id_and_dice

        query = read_id_and_dice(sys.argv[2:])
        if query is not None:
            sys.exit(_moves_before_click(*query))
    from bgcli.cli.common import main as run

    run()


# Fenced mirror of the moves command (bgcli.cli.positions) for start-up time:
# tests/test_startup.py::test_the_quick_command_writes_what_the_general_reading_writes
def _moves_before_click(position, dice) -> int:
    """The moves command's text output for ``position`` and ``dice``, and its exit status."""
    from bgcli.cli.batch import DEFAULT_SIDE, plays_json
    from bgcli.core.spelling import dice_name
    from bgcli.errors import EXIT_CLOSED_PIPE, EXIT_INTERRUPTED, EXIT_UNREADABLE, INTERRUPTED
    from bgcli.output import StandardOutputError, guard_standard_output

    guard_standard_output()
    try:
        data = plays_json(position, dice, "gnubg", DEFAULT_SIDE)
        sys.stdout.write("".join(f"{play['play']}\n" for play in data["plays"]))
        sys.stdout.flush()
    except KeyboardInterrupt:
        sys.stderr.write(("\n" if sys.stderr.isatty() else "") + INTERRUPTED + "\n")
        return EXIT_INTERRUPTED
    except StandardOutputError as exc:
        from bgcli.cli.common import drop_standard_output

        drop_standard_output()
        if exc.closed:   # the reader went away (| head): nothing to say, to nobody
            return EXIT_CLOSED_PIPE
        sys.stderr.write(f"Error: {exc}\n")
        return EXIT_UNREADABLE
    if not data["plays"]:   # a line on stderr: standard output stays a list of plays
        sys.stderr.write(f"no legal play for {data['position_id']} with {dice_name(dice)}\n")
    return 0


def _quiet_batch() -> bool:
    """Whether ``moves --batch -`` can run before click: standard input is
    there and standard error is no terminal (where the command draws its
    progress, which is click's)."""
    try:
        return getattr(sys.stdin, "buffer", None) is not None and not sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


def _read_position(text: str):
    """The moves command's reader of a batch line's position (with .xgp files),
    for the lines the batch does not read itself: click is imported then."""
    from bgcli.cli.common import read_position

    return read_position(text)


# Fenced mirror of moves --batch through click: tests/test_startup.py::test_the_batch_before_click_writes_what_the_command_writes
def _batch_before_click() -> int:
    """``bgcli moves --batch -``: standard input's queries answered on
    standard output as the moves command answers them (bgcli.cli.batch.run_moves
    with the command's reader), and its exit statuses, before click is imported:
    click's import is a fifth of a batch of 10,000 new queries."""
    import signal

    from bgcli.cli.batch import not_text, run_moves_stream
    from bgcli.errors import EXIT_CLOSED_PIPE, EXIT_INTERRUPTED, EXIT_TERMINATED, EXIT_UNREADABLE, Terminated
    from bgcli.errors import INTERRUPTED, TERMINATED, raise_terminated
    from bgcli.output import StandardOutputError, guard_standard_output

    guard_standard_output()
    signal.signal(signal.SIGTERM, raise_terminated)
    try:
        refusal = not_text(sys.stdin.buffer, "standard input")
        if refusal is not None:   # as the command's open_binary says it
            sys.stderr.write(f"Error: {refusal}\n")
            return EXIT_UNREADABLE
        status = run_moves_stream(sys.stdin.buffer, "gnubg", sys.stdout, _read_position)
        sys.stdout.flush()
        return status
    except Terminated:
        sys.stderr.write(TERMINATED + "\n")
        return EXIT_TERMINATED
    except KeyboardInterrupt:
        sys.stderr.write(INTERRUPTED + "\n")
        return EXIT_INTERRUPTED
    except (BrokenPipeError, StandardOutputError) as exc:
        from bgcli.cli.common import drop_standard_output

        drop_standard_output()
        if isinstance(exc, StandardOutputError) and not exc.closed:   # a full disk: say so
            sys.stderr.write(f"Error: {exc}\n")
            return EXIT_UNREADABLE
        return EXIT_CLOSED_PIPE   # the reader went away (| head): nothing to say, to nobody


def __getattr__(name: str) -> Any:
    # imported when first used: click for the group, the moves command's module for the batch functions
    if name in _FROM_COMMON:
        from bgcli.cli import common

        return getattr(common, name)
    if name in _FROM_BATCH:
        from bgcli.cli import batch

        return getattr(batch, name)
    if name in _FROM_POSITIONS:
        from bgcli.cli import positions

        return getattr(positions, name)
    raise AttributeError(f"module 'bgcli.cli' has no attribute {name!r}")
