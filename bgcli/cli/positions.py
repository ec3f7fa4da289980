"""Commands on positions: moves, check, convert, show."""
from __future__ import annotations

import functools
import json
import re
import sys
from operator import attrgetter
from typing import Any, Callable, Iterable, NamedTuple

import click

from bgcli.cli.common import (
    run_in_chunks,
    EMPTY_LINE, EXIT_PROBLEMS, EXIT_UNREADABLE, Failure, Unreadable, WordsCommand, cli, dice_for, emit, home_option,
    is_board_of_numbers, is_comment, positions_of, refuse_jobs_without_batch,
    jobs_option, json_option, output_option, read_position, say, split_position_and_dice,
    style_option, write_output,
)
from bgcli.errors import BgcliError, InvalidDiceError, InvalidPositionError, os_reason
from bgcli.output import quote

MAX_LINE = 1 << 20  # bytes in one line of a batch
_WORD = re.compile(r"[^ \t\f\r\n]+")  # words are split on the white space the grammars ignore, no other
_DICE_LIKE = re.compile(r"(?=.*\d)[^A-Za-wyz]{1,12}")  # a word meant as dice: a digit, no letter but x


class BadLine(NamedTuple):
    """A line of a batch that is not text: its error, and whether reading stopped there."""

    error: str
    last: bool = False


def batch_lines(stream) -> Iterable[str | BadLine]:
    """The lines of a binary stream, split on ``\\n`` only (a ``\\r`` before it
    dropped), read as UTF-8. A line that is not UTF-8 is a BadLine in its
    place; a line longer than MAX_LINE bytes is a BadLine too, and the last:
    the rest of the input is not read (it may be endless, as /dev/zero)."""
    while True:
        line = stream.readline(MAX_LINE + 1)
        if not line:
            return
        if len(line) > MAX_LINE and not (len(line) == MAX_LINE + 1 and line.endswith(b"\n")):
            yield BadLine(f"longer than {MAX_LINE:,} bytes; the rest of the input is not read", last=True)
            return
        line = line[:-1] if line.endswith(b"\n") else line
        line = line[:-1] if line.endswith(b"\r") else line
        try:
            yield line.decode("utf-8")
        except UnicodeDecodeError as exc:
            yield BadLine(f"not UTF-8 text (byte {exc.start + 1} of the line)")


def open_binary(path: str):
    """A binary stream of a file, or of standard input for ``-`` (exit 2 when it cannot be opened)."""
    if path == "-":
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:
            raise Unreadable("cannot read standard input: it is closed")
        return stream
    try:
        return open(path, "rb")
    except OSError as exc:
        raise Unreadable(f"cannot read {quote(path)}: {os_reason(exc)}") from None


def read_dice(text: str):
    """parse_dice with the input cut short in its message."""
    from bgcli.core.position import parse_dice

    if len(text) > 20:
        raise InvalidDiceError(f"invalid dice {quote(text)}: expected two numbers from 1 to 6, such as 31 or 3-1")
    return parse_dice(text)


def position_and_dice(words: list[str]):
    """(game, dice) of command-line words or a batch line's words. When they
    give no dice, or do not read as a position, but the words before
    dice-like last words do (``start 3``, ``start 7 1``), those words are
    the dice, and an error says what is wrong with them."""
    text, dice_text = split_position_and_dice(words)
    try:
        game = read_position(text)
        if dice_text is not None or game.match.dice[0]:
            return game, dice_for(game, dice_text)
        problem = None
    except InvalidPositionError as exc:
        problem = exc
    for n in (2, 1):  # two single dice before one word
        if dice_text is None and len(words) > n and all(_DICE_LIKE.fullmatch(w) or _MEANT_AS_DICE.fullmatch(w)
                                                        for w in words[-n:]):
            try:
                before = read_position(" ".join(words[:-n]))
            except InvalidPositionError:
                continue
            return before, read_dice(" ".join(words[-n:]))
    if problem is not None:
        raise problem
    return game, dice_for(game, dice_text)


# --- moves ------------------------------------------------------------------

def moves_json(game, dice, style: str) -> dict:
    from bgcli.core.generator import legal_plays
    from bgcli.core.notation import play_text

    plays = sorted_plays(legal_plays(game.position, dice))
    side = game.match.on_roll   # Korean names depend on the side that moves
    return {
        "position_id": game.position.id(),
        "dice": list(dice),
        "plays": [{"play": play_text(p, style, side=side), "position_id": p.result_id()} for p in plays],
    }


def moves_json_line(game, dice, style: str) -> str:
    """``json.dumps(moves_json(...), ensure_ascii=False)`` plus a newline,
    written directly: play texts and IDs hold no character that JSON
    escapes, and --batch spends much of its time here."""
    return _line_writer(style, game.match.on_roll)(game.position, dice)


def _line_writer(style: str, side: int):
    """The function (position, dice) -> moves_json_line for one style and
    side on roll, made once: --batch calls it for every line."""
    writer = _WRITERS.get((style, side))
    if writer is None:
        writer = _WRITERS[style, side] = _make_line_writer(style, side)
    return writer


def _make_line_writer(style: str, side: int):
    from bgcli.core.generator import legal_plays, play_changes, query_ids, sorted_keys
    from bgcli.core.notation import play_text

    by_change = style in _BY_CHANGE
    tables = _FRAGMENTS.setdefault((style, side), {})  # by dice (None: by steps)

    def fragment(table: dict, name, play) -> str:
        if _FRAGMENT_COUNT[0] >= _MAX_FRAGMENTS:
            for by_dice in _FRAGMENTS.values():
                for old in by_dice.values():
                    old.clear()
            _FRAGMENT_COUNT[0] = 0
        _FRAGMENT_COUNT[0] += 1
        text = table[name] = f'"}}, {{"play": "{play_text(play, style, side=side)}", "position_id": "'
        return text

    def line(position, dice) -> str:
        plays = legal_plays(position, dice)
        keys = sorted_keys(plays)  # the order of sorted_plays
        own, ids = query_ids(position, keys)
        if not plays:
            return f'{{"position_id": "{own}", "dice": [{dice[0]}, {dice[1]}], "plays": []}}\n'
        if by_change:
            high, low = dice
            roll = (high, low) if high >= low else (low, high)
            table = tables.get(roll)
            if table is None:
                table = tables[roll] = {}
            get = table.get
            changes = play_changes(position, keys)
            parts: list[Any] = [get(change) for change in changes]
            if None in parts:
                by_key = {play.key: play for play in plays}
                parts = [part or fragment(table, change, by_key[key]) for part, change, key in zip(parts, changes, keys)]
        else:
            table = tables.get(None)
            if table is None:
                table = tables[None] = {}
            plays.sort(key=_KEY)
            parts = [table.get(play.steps_key()) or fragment(table, play.steps_key(), play) for play in plays]
        # each part opens with the end of the play before it: the first one's is cut
        n = 2 * len(parts)
        out: list = [None] * (n + 1)
        out[0:n:2] = parts
        out[1:n:2] = ids
        out[0] = f'{{"position_id": "{own}", "dice": [{dice[0]}, {dice[1]}], "plays": [{parts[0][4:]}'
        out[n] = '"}]}\n'
        return "".join(out)

    return line


_KEY = attrgetter("key")
_WRITERS: dict[tuple[str, int], Callable[[Any, Any], str]] = {}

# A play's JSON up to its ID, after the end of the play before it,
# '"}, {"play": "8/5 6/5", "position_id": "', by
# style and side, keyed by what names the text: the play's steps
# (Play.steps_key), or in gnubg's layout (the styles of _BY_CHANGE) the dice
# and the change the play makes to the mover's checkers with its hits
# (Play.change), which is cheaper to look up. In
# that layout the text depends on nothing else: the change fixes the
# multiset of steps (a double's starts are found from the top point down; a
# non-double has one way to pair starts and ends with the two dice), up to
# the middle point of one checker's move, which the layout does not show
# unless it hits. The same texts come back in thousands of positions.
_BY_CHANGE = frozenset({"gnubg", "korean"})
_FRAGMENTS: dict[tuple[str, int], dict] = {}
_MAX_FRAGMENTS = 200_000  # in all: long batches meet many plays
_FRAGMENT_COUNT = [0]


def sorted_plays(plays):
    """Plays in a stable order: those that move the checkers furthest back first
    (by the result's key, the mover's checkers with the highest points most
    significant), which is cheap to sort by."""
    return sorted(plays, key=_play_order)


def _play_order(play) -> int:
    return play.key if play.key is not None else 0


@cli.command(cls=WordsCommand)
@click.argument("words", nargs=-1, metavar="POSITION [DICE]")
@click.option("--batch", is_flag=False, flag_value="", default=None, metavar="[FILE]",
              help="Read `POSITION DICE` lines from FILE (- for standard input; the FILE may also follow the "
                   "options); write one JSON object per line.")
@jobs_option("With --batch: work on N processes; the output keeps the input's order")
@json_option
@style_option
def moves(words, batch, jobs, as_json, style):
    """List the legal plays of POSITION with DICE, one per line.

    DICE may be written 31, 3-1 or "3 1", or come from the position itself
    (an XGID or Match ID with dice). Plays that reach the same position are
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
        bgcli moves --batch --jobs 2 positions.txt
    """
    refuse_jobs_without_batch(batch)
    if batch is not None:
        if batch == "":  # --batch without a value: the FILE is the one word
            if len(words) != 1:
                raise click.UsageError("--batch needs one FILE (- for standard input)")
            batch, words = words[0], ()
        if words:
            raise click.UsageError("give either POSITION [DICE] or --batch FILE, not both")
        lines = batch_lines(open_binary(batch))
        sys.exit(run_batch(lines, style) if jobs == 1 else run_batch_parallel(lines, style, jobs))
    if not words:
        raise click.UsageError("missing POSITION (try: bgcli moves start 31)")
    try:
        game, dice = position_and_dice(list(words))
        data = moves_json(game, dice, style)
    except BgcliError as exc:
        raise Failure(str(exc)) from None
    if as_json:
        emit(data)
    else:
        for play in data["plays"]:
            click.echo(play["play"])
        if not data["plays"]:   # a line on stderr: standard output stays a list of plays
            click.echo(f"no legal play for {data['position_id']} with {dice[0]}{dice[1]}", err=True)


def run_batch(lines: Iterable[str | BadLine], style: str, first: int = 1, out=None) -> int:
    """One JSON object per input line; a bad line gets {"error": ...}. The
    status is 0, 1 when a line failed, 2 when reading stopped at a BadLine."""
    from bgcli.core.position import parse_position_id
    from bgcli.core.state import MatchState

    json_line = _line_writer(style, MatchState().on_roll)  # a Position ID alone: the default match
    status = 0
    out = out or sys.stdout
    write = out.write
    fast = re.compile(_FAST_LINE).fullmatch
    last_id, position = "", None  # the last line's: one position is often asked with many rolls
    for number, line in enumerate(lines, first):
        found = fast(line) if line.__class__ is str else None
        if found is not None:  # the common line, a Position ID and dice: read here, as the words would be
            if found[1] != last_id:
                try:
                    position = parse_position_id(found[1])
                except InvalidPositionError:
                    position = None  # the general path words the error
                last_id = found[1]
            if position is not None:
                write(json_line(position, _ROLLS[found.group(2, 3)]))
                continue
        if isinstance(line, BadLine):
            out.write(json.dumps({"error": f"line {number}: {line.error}"}) + "\n")
            status = max(status, EXIT_UNREADABLE if line.last else EXIT_PROBLEMS)
            continue
        words = _WORD.findall(line)
        if not words:
            out.write(json.dumps({"error": f"line {number}: {EMPTY_LINE}"}) + "\n")
            status = max(status, EXIT_PROBLEMS)
            continue
        if words[0].startswith("#"):
            continue
        try:
            game, dice = position_and_dice(words)
            out.write(moves_json_line(game, dice, style))
        except BgcliError as exc:
            out.write(json.dumps({"error": f"line {number}: {exc}"}, ensure_ascii=False) + "\n")
            status = max(status, EXIT_PROBLEMS)
    out.flush()
    return status


# A batch line of a Position ID and dice (31, 3-1, "3 1"...): what
# position_and_dice reads as that ID and roll, for a shortcut past the words
# (compiled when a batch starts, not at every start-up).
_FAST_LINE = r"[ \t\f\r\n]*([A-Za-z0-9+/]{14})[ \t\f\r\n]+([1-6])(?:[-,/x]?|[ \t\f\r\n]+)([1-6])[ \t\f\r\n]*"
_ROLLS: dict[Any, tuple[int, int]] = {(str(a), str(b)): (max(a, b), min(a, b)) for a in range(1, 7) for b in range(1, 7)}


def _batch_chunk(args) -> tuple[int, str]:
    import io

    lines, first, style = args
    out = io.StringIO()
    return run_batch(lines, style, first, out), out.getvalue()


def run_batch_parallel(lines: Iterable[str | BadLine], style: str, jobs: int, chunk: int = 2000) -> int:
    """run_batch on up to ``jobs`` processes, the output in the input's order
    (see common.run_in_chunks)."""
    return run_in_chunks(lines, jobs, chunk, functools.partial(_style_chunk, style=style),
                         lambda block: run_batch(block, style))


def _style_chunk(args, style: str) -> tuple[int, str]:
    block, first = args
    return _batch_chunk((block, first, style))


# --- check ------------------------------------------------------------------

_CHECK_DICE = re.compile(r"[1-6][-, ]?[1-6]")   # not "6/5": that is a play
_SINGLE_DIE = re.compile(r"[1-6]")
_MEANT_AS_DICE = re.compile(r"(?=.*[0-9])[^/*()]{1,3}")   # short, a digit, nothing of a play: 3x, 77, 61a


def check_words(words: list[str]) -> tuple[str, str | None, str]:
    """(position, dice or None, play) of ``check``'s words: the position is
    one word or a board of 26 numbers; the dice, when given, one word
    (``31``, ``3-1``, ``"3 1"``) or two single dice (``3 1``)."""
    position_words = words[:26] if is_board_of_numbers(words[:26]) else words[:1]
    rest = list(words[len(position_words):])
    dice = None
    if len(rest) >= 3 and _SINGLE_DIE.fullmatch(rest[0]) and _SINGLE_DIE.fullmatch(rest[1]):
        dice = rest.pop(0) + rest.pop(0)
    elif rest and (_CHECK_DICE.fullmatch(rest[0]) or _MEANT_AS_DICE.fullmatch(rest[0])) and (
            len(rest) >= 2 or not re.search(r"[-/]", rest[0])):
        dice = rest.pop(0)
    if not rest:
        after = f" after the dice {dice}" if dice else ""
        raise click.UsageError(f"missing PLAY{after} (try: bgcli check start 31 8/5 6/5)")
    return " ".join(position_words), dice, " ".join(rest)


@cli.command(cls=WordsCommand)
@click.argument("words", nargs=-1, required=True, metavar="POSITION [DICE] PLAY...")
@json_option
@style_option
def check(words, as_json, style):
    """Check that PLAY is legal in POSITION with DICE.

    DICE may be left out when the position carries them (an XGID or a GNUbg
    ID with a roll). Exit 0 and print the play's canonical text and the
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
        rolled = read_dice(dice.replace(" ", "")) if dice is not None else dice_for(game, None)
        side = game.match.on_roll   # Korean names depend on the side that moves
        legal = parse_play(text, game.position, rolled, side=side)
    except BgcliError as exc:
        if as_json:
            emit({"legal": False, "play": text, "error": str(exc), "kind": type(exc).__name__})
            sys.exit(EXIT_PROBLEMS)
        raise Failure(str(exc)) from None
    if as_json:
        emit({"legal": True, "play": play_text(legal, style, side=side), "position_id": legal.result_id()})
    else:
        click.echo(f"{play_text(legal, style, side=side)}\t{legal.result_id()}")


# --- convert ----------------------------------------------------------------

FORMATS = ("gnubg", "posid", "xgid", "fibs", "json", "ascii")


def convert_one(text: str, to: str, home: str = "right") -> str:
    from bgcli.core import ids

    game = ids.parse_position(text)
    if to == "gnubg":
        return ids.gnubg_id(game)
    if to == "posid":
        return game.position.id()
    if to == "xgid":
        return ids.xgid(game)
    if to == "fibs":
        return ids.fibs(game)
    if to == "json":
        return json.dumps(ids.describe(game), ensure_ascii=False)
    from bgcli.render.board import ascii_board

    return ascii_board(game, home=home)


@cli.command(cls=WordsCommand)
@click.option("--to", "to", type=click.Choice(FORMATS, case_sensitive=False), required=True, help="The format to write.")
@click.argument("positions", nargs=-1, required=True, metavar="POSITION...")
def convert(to, positions):
    """Convert positions between formats.

    With `-`, read one position per line from standard input and write one
    line per input line (one board for `ascii`); a bad line gets its error on
    stderr, the rest still convert, and the exit status is 1 at the end (2
    when a line longer than 1 MB stopped the reading there).

    \b
    Examples:
        bgcli convert --to xgid start
        bgcli convert --to gnubg 'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10'
        bgcli convert --to json 4HPwATDgc/ABMA:cAkAAAAAAAAA
        cat ids.txt | bgcli convert --to fibs -
    """
    status = 0

    def inputs():
        for item in positions_of(positions):
            yield from batch_lines(open_binary("-")) if item == "-" else [item]

    for number, text in enumerate(inputs(), 1):
        try:
            if isinstance(text, BadLine):
                status = max(status, EXIT_UNREADABLE if text.last else EXIT_PROBLEMS)
                raise BgcliError(text.error)
            if is_comment(text):
                continue
            if not text.strip():
                raise BgcliError(EMPTY_LINE)
            click.echo(convert_one(text, to))
        except BgcliError as exc:
            say(f"Error: line {number}: {exc}", err=True)
            if to != "ascii":
                click.echo("")  # keep one output line per input line
            status = max(status, EXIT_PROBLEMS)
    sys.exit(status)


# --- show -------------------------------------------------------------------

@cli.command(cls=WordsCommand)
@click.argument("words", nargs=-1, required=True, metavar="POSITION")
@home_option
@click.option("--svg", is_flag=True, help="Draw an SVG picture instead of ASCII.")
@click.option("--counts", is_flag=True, help="Print the Keith and Thorp counts under the pip counts (ASCII only).")
@click.option("--style", type=click.Choice(("gnubg", "korean")), default="gnubg", show_default=True,
              help="How the points are labelled: gnubg's numbers, or korean for the traditional Korean point "
                   "names (상 the upper half, 하 the lower).")
@output_option
def show(words, home, svg, counts, style, output):
    """Draw POSITION as gnubg does, with pip counts and the IDs.

    With --style korean the points are labelled with the traditional Korean
    point names, which belong to the board whoever is on roll: 상1 to 상12
    along the top, 하1 to 하12 along the bottom (the half's name stands over
    the bar), each counted from the end where X's home board is.

    \b
    Examples:
        bgcli show start
        bgcli show --home left 4HPwATDgc/ABMA:cAkAAAAAAAAA
        bgcli show --counts start
        bgcli show --style korean start
        bgcli show --svg -o board.svg start
    """
    from bgcli.render.board import ascii_board, count_lines, svg_board

    if counts and svg:
        raise click.UsageError("--counts goes with the ASCII board, not --svg")
    try:
        game = read_position(" ".join(words))
    except BgcliError as exc:
        raise Failure(str(exc)) from None
    text = svg_board(game, home=home, style=style) if svg else ascii_board(game, home=home, style=style)
    if counts:
        text += count_lines(game)
    write_output(output, text.rstrip("\n") + "\n")

