"""Commands on positions: moves, check, convert, show."""
from __future__ import annotations

import functools
import re
import sys
from typing import Iterable

import click

from bgcli.cli.common import progress, result_output
from bgcli.cli.common import (
    run_in_chunks,
    Failure, Unreadable, WordsCommand, cli, emit, home_option,
    is_board_of_numbers, positions_of, refuse_jobs_without_batch,
    jobs_option, json_option, output_option, read_position, say,
    style_option, write_output,
)
from bgcli.cli.common import batch_option, batch_source, read_position_words
from bgcli.cli.batch import (  # noqa: F401  (MAX_LINE, batch_lines and moves_json_line: part of this module's API)
    DEFAULT_SIDE, EMPTY_LINE, MAX_LINE, BadLine, batch_lines, dice_for, is_comment, moves_chunk, moves_json, moves_line, plays_json,
    not_text, position_and_dice, read_id_and_dice, run_moves,
)
from bgcli.core.spelling import dice_name, is_die, meant_as_dice, parse_dice, roll_of
from bgcli.errors import EXIT_PROBLEMS, EXIT_UNREADABLE, BgcliError, os_reason
from bgcli.render.convert import FORMATS, convert as convert_one

moves_json_line = moves_line


def open_binary(path: str):
    """A binary stream of a batch's file, or of standard input for ``-``
    (exit 2 when it cannot be opened, or holds binary data: batch.not_text)."""
    if path == "-":
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:
            raise Unreadable("cannot read standard input: it is closed")
    else:
        try:
            stream = open(path, "rb")
        except OSError as exc:
            raise Unreadable(f"cannot read {path}: {os_reason(exc)}") from None
    refusal = not_text(stream, "standard input" if path == "-" else path)
    if refusal is not None:
        if path != "-":
            stream.close()
        raise Unreadable(refusal)
    return stream




# --- moves ------------------------------------------------------------------

@cli.command(cls=WordsCommand)
@result_output
@click.argument("words", nargs=-1, metavar="POSITION [DICE]")
@batch_option("Read `POSITION DICE` lines from FILE; write one JSON object per line.")
@jobs_option("With --batch: work on N processes; the output keeps the input's order")
@json_option
@style_option
def moves(words, batch, jobs, as_json, style):
    """List the legal plays of POSITION with DICE, one per line.

    DICE may be written 31, 3-1, "3 1" or "(3,1)", or come from the position
    itself (an XGID or Match ID with dice); none at all is a usage error (exit 2). Plays that reach the same position are
    listed once, as gnubg does. A board of 26 numbers may start with a
    negative number (bgcli moves -1 -2 0 ... 31), also after --. With
    --style korean the points have the traditional Korean point names of
    the side on roll (X, at the bottom, unless a Match ID or XGID says O).

    With --batch, a bad line gets {"error": ...} and the rest go on (exit 1);
    a line longer than 1 MB ends the batch (exit 2).

    \b
    Examples:
        bgcli moves start 31
        bgcli moves 'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10'
        bgcli moves --json 4HPwATDgc/ABMA 6-6
        printf 'start 31\\nstart 66\\n' | bgcli moves --batch -
        bgcli moves --batch --jobs 2 samples/positions.txt
    """
    refuse_jobs_without_batch(batch)
    batch, words = batch_source(batch, words)
    if batch is not None:
        lines = progress(batch_lines(open_binary(batch)), label="moves", unit="lines")
        sys.exit(run_batch(lines, style) if jobs == 1 else run_batch_parallel(lines, style, jobs))
    if not words:
        raise click.UsageError("missing POSITION (try: bgcli moves start 31)")
    quick = read_id_and_dice(words)  # start or a Position ID: no grammar, no match state (start-up time)
    try:
        if quick is not None:
            data = plays_json(*quick, style, DEFAULT_SIDE)
        else:
            game, dice = position_and_dice(list(words), read_position)
            data = moves_json(game, dice, style)
    except BgcliError as exc:
        raise Failure.of(exc) from None
    dice = tuple(data["dice"])
    if as_json:
        emit(data)
    else:
        for play in data["plays"]:
            click.echo(play["play"])
        if not data["plays"]:   # a line on stderr: standard output stays a list of plays
            click.echo(f"no legal play for {data['position_id']} with {dice_name(dice)}", err=True)



def run_batch(lines: Iterable[str | BadLine], style: str, first: int = 1, out=None) -> int:
    """One JSON object per input line (bgcli.cli.batch.run_moves) on standard output."""
    return run_moves(lines, style, first, out or sys.stdout, read_position)


def run_batch_parallel(lines: Iterable[str | BadLine], style: str, jobs: int, chunk: int = 2000) -> int:
    """run_batch on up to ``jobs`` processes, the output in the input's order
    (see common.run_in_chunks)."""
    return run_in_chunks(lines, jobs, chunk, functools.partial(moves_chunk, style=style, read=read_position),
                         lambda block: run_batch(block, style))


# --- check ------------------------------------------------------------------



# where check's dice go, said when they are left out: "add them" does not say before the play or after it
CHECK_DICE = "write them between the position and the play, as in 'bgcli check start 31 8/5 6/5',"


def check_words(words: list[str]) -> tuple[str, str | None, str]:
    """(position, dice or None, play) of ``check``'s words: the position is
    one word or a board of 26 numbers; the dice, when given, one word
    (``31``, ``3-1``, ``"3 1"``) or two single dice (``3 1``)."""
    position_words = words[:26] if is_board_of_numbers(words[:26]) else words[:1]
    rest = list(words[len(position_words):])
    dice = None
    if len(rest) >= 3 and is_die(rest[0]) and is_die(rest[1]):
        dice = rest.pop(0) + rest.pop(0)
    # a roll spelt as a play step (6/5, 6-5) is the dice only when a play follows
    elif rest and (roll_of(rest[0]) is not None or meant_as_dice(rest[0], short=True)) and (
            len(rest) >= 2 or not re.search(r"[-/]", rest[0])):
        dice = rest.pop(0)
    if not rest:
        from bgcli.output import quote

        after = f" after the dice {quote(dice)}" if dice else ""   # quoted, cut short: the words are a stranger's
        raise click.UsageError(f"missing PLAY{after} (try: bgcli check start 31 8/5 6/5)")
    return " ".join(position_words), dice, " ".join(rest)


@cli.command(cls=WordsCommand)
@result_output
@click.argument("words", nargs=-1, required=True, metavar="POSITION [DICE] PLAY...")
@json_option
@style_option
def check(words, as_json, style):
    """Check that PLAY is legal in POSITION with DICE.

    DICE may be left out when the position carries them (an XGID or a GNUbg
    ID with a roll); left out where it carries none, a usage error (exit 2). Exit 0 and print the play's canonical text and the
    resulting Position ID (opponent on roll) when it is legal; exit 1 and
    say why when it is not. The traditional Korean point names are read
    (and written, with --style korean) as the side on roll names them: X,
    at the bottom, unless a Match ID or XGID says O.

    \b
    Examples:
        bgcli check start 31 8/5 6/5
        bgcli check start 64 24/14
        bgcli check 'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10' 13/11 13/8
    """
    from bgcli.core.notation import parse_play, play_text

    position, dice, text = check_words(list(words))
    try:
        game = read_position(position)
        rolled = parse_dice(dice) if dice is not None else dice_for(game, None, position, how=CHECK_DICE)
        side = game.match.on_roll   # Korean names depend on the side that moves
        legal = parse_play(text, game.position, rolled, side=side)
    except BgcliError as exc:
        if as_json:
            emit({"legal": False, "play": text, "error": str(exc), "kind": type(exc).__name__})
            sys.exit(Failure.of(exc).exit_code)
        raise Failure.of(exc) from None
    if as_json:
        emit({"legal": True, "play": play_text(legal, style, side=side), "position_id": legal.result_id()})
    else:
        click.echo(f"{play_text(legal, style, side=side)}\t{legal.result_id()}")


# --- convert ----------------------------------------------------------------

@cli.command(cls=WordsCommand)
@result_output
@click.option("--to", "to", type=click.Choice(FORMATS, case_sensitive=False), required=True, help="The format to write.")
@click.argument("positions", nargs=-1, required=True, metavar="POSITION...")
def convert(to, positions):
    """Convert positions between formats.

    A POSITION may also be a position file (.xgp, or a .txt of Snowie's or
    a program's text export), as show reads one. With `-`, read one position per line from standard input and write one
    line per input line (one board for `ascii`); a bad line gets its error on
    stderr, the rest still convert, and the exit status is 1 at the end (2
    when a line longer than 1 MB stopped the reading there).

    \b
    Examples:
        bgcli convert --to xgid start
        bgcli convert --to gnubg 'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10'
        bgcli convert --to json 4HPwATDgc/ABMA:cAkAAAAAAAAA
        printf 'start\\n4HPwATDgc/ABMA\\n' | bgcli convert --to fibs -
    """
    status = 0
    words = positions_of(positions)

    def inputs():
        """(where, text, whether it is a word of the command line) of each position: a line of standard
        input by its number, a position given on the command line by its place among them (nothing when
        it is the only one). A word may name a position file, as for every command that takes POSITION
        (read_position); a line is the position itself."""
        for place, item in enumerate(words, 1):
            if item == "-":
                yield from ((f"line {number}: ", line, False)
                            for number, line in enumerate(batch_lines(open_binary("-")), 1))
            else:
                yield (f"position {place}: " if len(words) > 1 else "", item, True)

    for where, text, word in inputs():
        try:
            if isinstance(text, BadLine):
                status = max(status, EXIT_UNREADABLE if text.last else EXIT_PROBLEMS)
                raise BgcliError(text.error)
            if is_comment(text):
                continue
            if not text.strip():
                raise BgcliError(EMPTY_LINE)
            click.echo(convert_one(read_position(text) if word else text, to))
            if to == "fibs":
                _say_what_is_lost(text, to, where)
        except BgcliError as exc:
            say(f"Error: {where}{exc}", err=True)
            if to != "ascii":
                click.echo("")  # keep one output line per input line
            status = max(status, Failure.of(exc).exit_code)   # a position file that cannot be read: 2, as show says
    sys.exit(status)


def _say_what_is_lost(text: str, to: str, where: str) -> None:   # to: fibs
    """A note on stderr for a money setting the target format has no place
    for (nothing the user gave is lost silently)."""
    rules = read_position(text).match.rules
    lost = []
    if rules.applies("jacoby") and not rules.jacoby:
        lost.append("Jacoby off (read back, it is on)")
    if rules.in_force("beavers"):
        lost.append("beavers")
    if lost:
        say(f"note: {where}a FIBS board cannot carry {' or '.join(lost)}", err=True)


# --- show -------------------------------------------------------------------

@cli.command(cls=WordsCommand)
@click.argument("words", nargs=-1, required=True, metavar="POSITION [DICE]")
@home_option
@click.option("--svg", is_flag=True, help="Draw an SVG picture instead of ASCII.")
@click.option("--counts", is_flag=True, help="Print the Keith and Thorp counts under the pip counts (ASCII only).")
@click.option("--style", type=click.Choice(("gnubg", "korean")), default="gnubg", show_default=True,
              help="How the points are labelled: gnubg's numbers, or korean for the traditional Korean point "
                   "names (상 the upper half, 하 the lower).")
@output_option
def show(words, home, svg, counts, style, output):
    """Draw POSITION as gnubg does, with pip counts and the IDs.

    With DICE (31, 3-1 or "3 1", as moves takes them) the player on roll has
    rolled them: the board says "Rolled 31" and the Match ID carries them.
    Without, the position's own dice, if it has any (an XGID's), are drawn.

    With --style korean the points are labelled with the traditional Korean
    point names, which belong to the board whoever is on roll: 상1 to 상12
    along the top, 하1 to 하12 along the bottom (the half's name stands over
    the bar), each counted from the end where X's home board is.

    \b
    Examples:
        bgcli show start
        bgcli show start 31
        bgcli show --home left 4HPwATDgc/ABMA:cAkAAAAAAAAA
        bgcli show --counts start
        bgcli show --style korean start
        bgcli show --svg -o board.svg start
    """
    from bgcli.render.board import ascii_board, count_lines, svg_board

    if counts and svg:
        raise click.UsageError("--counts goes with the ASCII board, not --svg")
    try:
        game, dice = read_position_words(words)
    except BgcliError as exc:
        raise Failure.of(exc) from None
    if dice is not None:
        game = game.rolled(dice)
    text = svg_board(game, home=home, style=style) if svg else ascii_board(game, home=home, style=style)
    if counts:
        text += count_lines(game)
    write_output(output, text.rstrip("\n") + "\n")

