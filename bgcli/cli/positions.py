"""Commands on positions: moves, check, convert, show."""
from __future__ import annotations

import json
import sys
from typing import Iterable

import click

from bgcli.cli.common import (
    EXIT_PROBLEMS, Failure, cli, dice_for, emit, home_option, json_option, read_position,
    split_position_and_dice, style_option,
)
from bgcli.errors import BgcliError

# --- moves ------------------------------------------------------------------

def moves_json(game, dice, style: str) -> dict:
    from bgcli.model import legal_plays
    from bgcli.notation import play_text

    plays = sorted_plays(legal_plays(game.position, dice))
    return {
        "position_id": game.position.id(),
        "dice": list(dice),
        "plays": [{"play": play_text(p, style), "position_id": p.result_id()} for p in plays],
    }


def moves_json_line(game, dice, style: str) -> str:
    """``json.dumps(moves_json(...))`` plus a newline, written directly: play
    texts and IDs hold no character that JSON escapes, and --batch spends
    much of its time here."""
    from bgcli.model import legal_plays
    from bgcli.notation import play_text

    plays = legal_plays(game.position, dice)
    plays.sort(key=_play_order)
    plays = ", ".join(
        f'{{"play": "{play_text(p, style)}", "position_id": "{p.result_id()}"}}' for p in plays
    )
    return f'{{"position_id": "{game.position.id()}", "dice": [{dice[0]}, {dice[1]}], "plays": [{plays}]}}\n'


def sorted_plays(plays):
    """Plays in a stable order: those that move the checkers furthest back first
    (by the result's key, the mover's checkers with the highest points most
    significant), which is cheap to sort by."""
    return sorted(plays, key=_play_order)


def _play_order(play) -> int:
    return play.key if play.key is not None else 0


@cli.command()
@click.argument("words", nargs=-1, metavar="POSITION [DICE]")
@click.option("--batch", type=click.File("r", encoding="utf-8"), metavar="FILE",
              help="Read `POSITION DICE` lines from FILE (- for standard input); write one JSON object per line.")
@click.option("--jobs", "-j", type=click.IntRange(1), default=1, show_default=True,
              help="With --batch: work on N cores (the output keeps the input's order).")
@json_option
@style_option
def moves(words, batch, jobs, as_json, style):
    """List the legal plays of POSITION with DICE, one per line.

    DICE may be written 31, 3-1 or "3 1", or come from the position itself
    (an XGID or Match ID with dice). Plays that reach the same position are
    listed once, as gnubg does.

    \b
    Examples:
        bgcli moves start 31
        bgcli moves 'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10'
        bgcli moves --json 4HPwATDgc/ABMA 6-6
        printf 'start 31\\nstart 66\\n' | bgcli moves --batch -
    """
    if batch is not None:
        if words:
            raise click.UsageError("give either POSITION [DICE] or --batch FILE, not both")
        sys.exit(run_batch(batch, style) if jobs == 1 else run_batch_parallel(batch, style, jobs))
    if not words:
        raise click.UsageError("missing POSITION (try: bgcli moves start 31)")
    text, dice_text = split_position_and_dice(list(words))
    try:
        game = read_position(text)
        dice = dice_for(game, dice_text)
        data = moves_json(game, dice, style)
    except BgcliError as exc:
        raise Failure(str(exc)) from None
    if as_json:
        emit(data)
    else:
        for play in data["plays"]:
            click.echo(play["play"])


def run_batch(lines: Iterable[str], style: str, first: int = 1, out=None) -> int:
    """One JSON object per input line; a bad line gets {"error": ...}."""
    status = 0
    out = out or sys.stdout
    for number, line in enumerate(lines, first):
        line = line.strip()
        if not line:
            out.write(json.dumps({"error": f"line {number}: empty line"}) + "\n")
            status = EXIT_PROBLEMS
            continue
        try:
            text, dice_text = split_position_and_dice(line.split())
            game = read_position(text)
            out.write(moves_json_line(game, dice_for(game, dice_text), style))
        except BgcliError as exc:
            out.write(json.dumps({"error": f"line {number}: {exc}"}, ensure_ascii=False) + "\n")
            status = EXIT_PROBLEMS
    out.flush()
    return status


def _batch_chunk(args) -> tuple[int, str]:
    import io

    lines, style, first = args
    out = io.StringIO()
    return run_batch(lines, style, first, out), out.getvalue()


def run_batch_parallel(lines: Iterable[str], style: str, jobs: int, chunk: int = 2000) -> int:
    """run_batch on ``jobs`` processes: the input is cut into chunks, a few
    chunks ahead at most (standard input may be endless), and the output is
    written in the input's order."""
    from collections import deque
    from concurrent.futures import ProcessPoolExecutor
    from itertools import islice

    status = 0
    lines = iter(lines)
    first = 1
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        pending: deque = deque()
        while True:
            while len(pending) < 2 * jobs:
                block = list(islice(lines, chunk))
                if not block:
                    break
                pending.append(pool.submit(_batch_chunk, (block, style, first)))
                first += len(block)
            if not pending:
                break
            code, text = pending.popleft().result()
            sys.stdout.write(text)
            status = max(status, code)
    sys.stdout.flush()
    return status


# --- check ------------------------------------------------------------------

@cli.command()
@click.argument("position")
@click.argument("dice")
@click.argument("play", nargs=-1, required=True)
@json_option
@style_option
def check(position, dice, play, as_json, style):
    """Check that PLAY is legal in POSITION with DICE.

    Exit 0 and print the play's canonical text and the resulting Position ID
    (opponent on roll) when it is legal; exit 1 and say why when it is not.

    \b
    Examples:
        bgcli check start 31 8/5 6/5
        bgcli check start 64 24/14
    """
    from bgcli.model import parse_dice
    from bgcli.notation import parse_play, play_text

    text = " ".join(play)
    try:
        game = read_position(position)
        rolled = parse_dice(dice)
        legal = parse_play(text, game.position, rolled)
    except BgcliError as exc:
        if as_json:
            emit({"legal": False, "play": text, "error": str(exc), "kind": type(exc).__name__})
            sys.exit(EXIT_PROBLEMS)
        raise Failure(str(exc)) from None
    if as_json:
        emit({"legal": True, "play": play_text(legal, style), "position_id": legal.result_id()})
    else:
        click.echo(f"{play_text(legal, style)}\t{legal.result_id()}")


# --- convert ----------------------------------------------------------------

FORMATS = ("gnubg", "posid", "xgid", "fibs", "json", "ascii")


def convert_one(text: str, to: str, home: str = "right") -> str:
    from bgcli import ids

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
    from bgcli.render import ascii_board

    return ascii_board(game, home=home)


@cli.command()
@click.option("--to", "to", type=click.Choice(FORMATS), required=True, help="The format to write.")
@click.argument("positions", nargs=-1, required=True, metavar="POSITION...")
def convert(to, positions):
    """Convert positions between formats.

    With `-`, read one position per line from standard input and write one
    line per input line (one board for `ascii`); a bad line gets its error on
    stderr, the rest still convert, and the exit status is 1 at the end.

    \b
    Examples:
        bgcli convert --to xgid start
        bgcli convert --to gnubg 'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10'
        bgcli convert --to json 4HPwATDgc/ABMA:cAkAAAAAAAAA
        cat ids.txt | bgcli convert --to fibs -
    """
    status = 0

    def inputs():
        for item in positions:
            if item == "-":
                for line in sys.stdin:
                    yield line.rstrip("\r\n")
            else:
                yield item

    for number, text in enumerate(inputs(), 1):
        try:
            click.echo(convert_one(text, to))
        except BgcliError as exc:
            click.echo(f"Error: line {number}: {exc}", err=True)
            if to != "ascii":
                click.echo("")  # keep one output line per input line
            status = EXIT_PROBLEMS
    sys.exit(status)


# --- show -------------------------------------------------------------------

@cli.command()
@click.argument("position")
@home_option
@click.option("--svg", is_flag=True, help="Draw an SVG picture instead of ASCII.")
@click.option("--counts", is_flag=True, help="Print the Keith and Thorp counts under the pip counts (ASCII only).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), help="Write to this file.")
def show(position, home, svg, counts, output):
    """Draw POSITION as gnubg does, with pip counts and the IDs.

    \b
    Examples:
        bgcli show start
        bgcli show --home left 4HPwATDgc/ABMA:cAkAAAAAAAAA
        bgcli show --counts start
        bgcli show --svg -o board.svg start
    """
    from bgcli.render import ascii_board, count_lines, svg_board

    if counts and svg:
        raise click.UsageError("--counts goes with the ASCII board, not --svg")
    try:
        game = read_position(position)
    except BgcliError as exc:
        raise Failure(str(exc)) from None
    text = svg_board(game, home=home) if svg else ascii_board(game, home=home)
    if counts:
        text += count_lines(game)
    if output:
        with open(output, "w", encoding="utf-8") as handle:
            handle.write(text if text.endswith("\n") else text + "\n")
    else:
        click.echo(text.rstrip("\n"))

