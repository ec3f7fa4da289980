"""The command line: a thin click layer over the library.

Exit status, for every command: 0 success; 1 the input was read but is bad
(an illegal play, a position that breaks the rules, problems found by an
audit, some lines of a batch that failed); 2 a usage error or a file that
cannot be read at all. Errors are one line on stderr, never a traceback.
"""
from __future__ import annotations

import json
import re
import sys
from typing import Iterable

import click

from bgcli import __version__
from bgcli.errors import BgcliError

STYLES = ("gnubg", "mat", "fibs", "korean")
EXIT_PROBLEMS = 1
EXIT_UNREADABLE = 2

_DICE = re.compile(r"^[1-6](?:[-,/x]?[1-6])$")
_DIGIT = re.compile(r"^[1-6]$")


def json_option(function):
    """The shared ``--json`` option: machine-readable output."""
    return click.option("--json", "as_json", is_flag=True, help="Write JSON instead of text.")(function)


def style_option(function):
    return click.option(
        "--style", type=click.Choice(STYLES), default="gnubg", show_default=True,
        help="How plays are written: gnubg's canonical text, .mat numbers, FIBS dashes or Korean point names.",
    )(function)


def home_option(function):
    return click.option(
        "--home", type=click.Choice(("right", "left")), default="right", show_default=True,
        help="Side of the board where the home board of the player on roll is drawn.",
    )(function)


def emit(data) -> None:
    click.echo(json.dumps(data, ensure_ascii=False))


class Failure(click.ClickException):
    """A bad-input error: one line on stderr and exit status 1."""

    exit_code = EXIT_PROBLEMS

    def show(self, file=None) -> None:
        click.echo(f"Error: {self.message}", err=True)


def split_position_and_dice(words: list[str]):
    """Split command-line words or a batch line into (position text, dice text or None).

    Dice are the last word when it reads as a roll (``31``, ``3-1``) or the
    last two words when both are single dice (``3 1``); 26 words are a
    board of 26 numbers on its own.
    """
    if len(words) == 26:
        return " ".join(words), None  # a board of 26 numbers without dice
    if len(words) >= 3 and _DIGIT.match(words[-1]) and _DIGIT.match(words[-2]):
        return " ".join(words[:-2]), f"{words[-2]}{words[-1]}"
    if len(words) >= 2 and _DICE.match(words[-1]):
        return " ".join(words[:-1]), words[-1]
    return " ".join(words), None


def read_position(text: str):
    from bgcli.ids import parse_position

    return parse_position(text)


def dice_for(game, dice_text: str | None):
    from bgcli.model import parse_dice

    if dice_text:
        return parse_dice(dice_text)
    if game.match.dice[0]:
        return parse_dice(list(game.match.dice))
    raise BgcliError(f"no dice given for {game.position.id()}: add them (e.g. 31) or use an ID that carries them")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="bgcli")
def cli():
    """bgcli: backgammon positions, move notation, legal plays and match transcripts.

    Positions are written as a GNU Backgammon Position ID, a GNUbg ID
    (PositionID:MatchID, also pasted from gnubg's board printout), an XGID,
    a FIBS board string, `start`, or 26 numbers.

    \b
    Example:
        bgcli moves start 31
    """


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
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), help="Write to this file.")
def show(position, home, svg, output):
    """Draw POSITION as gnubg does, with pip counts and the IDs.

    \b
    Examples:
        bgcli show start
        bgcli show --home left 4HPwATDgc/ABMA:cAkAAAAAAAAA
        bgcli show --svg -o board.svg start
    """
    from bgcli.render import ascii_board, svg_board

    try:
        game = read_position(position)
    except BgcliError as exc:
        raise Failure(str(exc)) from None
    text = svg_board(game, home=home) if svg else ascii_board(game, home=home)
    if output:
        with open(output, "w", encoding="utf-8") as handle:
            handle.write(text if text.endswith("\n") else text + "\n")
    else:
        click.echo(text.rstrip("\n"))


# --- transcripts: shared rule options ------------------------------------------

def rule_options(function):
    """The rule options shared by replay, audit and score."""
    options = [
        click.option("--jacoby", is_flag=True, help="Money play: gammons and backgammons count single while the cube is centred."),
        click.option("--no-crawford", is_flag=True, help="Matches: no Crawford game."),
        click.option("--beavers", is_flag=True, help="Money play: a doubled player may beaver (redouble at once)."),
        click.option("--auto-doubles", type=click.IntRange(0, 10), default=0, metavar="N",
                     help="Money play: up to N automatic doubles on equal opening rolls."),
        click.option("--backgammon-counts", type=click.IntRange(1, 3), default=3, metavar="N",
                     help="What a backgammon is worth, times the cube (2 where it counts as a gammon)."),
        click.option("--cube-limit", type=click.IntRange(0), default=0, metavar="N",
                     help="The highest cube value allowed (0: no limit)."),
    ]
    for option in reversed(options):
        function = option(function)
    return function


def rules_from(jacoby, no_crawford, beavers, auto_doubles, backgammon_counts, cube_limit):
    from bgcli.scoring import Rules

    return Rules(crawford=not no_crawford, jacoby=jacoby, beavers=beavers, auto_doubles=auto_doubles,
                 backgammon_counts=backgammon_counts, cube_limit=cube_limit)


def replays_of(path: str, rules):
    """The replays of every match in ``path``; exit 2 when it cannot be read."""
    from bgcli.transcript import replay_file

    try:
        return list(replay_file(path, rules))
    except OSError as exc:
        raise Unreadable(f"cannot read {path}: {exc.strerror or exc}") from None
    except BgcliError as exc:
        raise Unreadable(str(exc)) from None


class Unreadable(Failure):
    exit_code = EXIT_UNREADABLE


# --- replay -----------------------------------------------------------------

@cli.command()
@click.argument("file", type=click.Path(dir_okay=False))
@json_option
@click.option("--boards", is_flag=True, help="Draw the position before every move.")
@home_option
@rule_options
def replay(file, as_json, boards, home, **rule_args):
    """List every action of a match file in order, with the position before it.

    `--json` writes one object per action: match, game, line, player, action
    (move, double, take, drop, beaver, resign, win), dice, play, and the
    Position ID and Match ID of the state before it (player on roll first).

    \b
    Examples:
        bgcli replay samples/sp05001_3pt.mat
        bgcli replay --json samples/sp05001_3pt.mat | head -3
        bgcli replay --boards samples/sp05001_3pt.mat | less
    """
    rules = rules_from(**rule_args)
    for match in replays_of(file, rules):
        for event in match.events:
            if as_json:
                emit(event.as_dict())
                continue
            click.echo(event_text(event))
            if boards and event.action == "move":
                from bgcli.render import ascii_board

                click.echo(ascii_board(event.before, home=home))


def event_text(event) -> str:
    where = f"{event.line:>5}  game {event.game:<2} "
    if event.action == "move":
        dice = f"{event.dice[0]}{event.dice[1]}" if event.dice else "??"
        what = f"{dice}: {event.play}" if event.play else f"{dice}: (no legal play)"
    elif event.action in ("win", "resign"):
        what = f"wins {event.points} point{'s' if event.points != 1 else ''}" + (" (resigned)" if event.action == "resign" else "")
    elif event.action in ("double", "beaver"):
        what = f"{event.action}s => {event.cube}" if event.cube else f"{event.action}s"
    else:
        what = f"{event.action}s"
    ids = event.before.position.id() + (f":{event.match_id()}" if event.match_id() else "")
    return f"{where}{event.player:<16} {what:<32} {ids}"


# --- audit ------------------------------------------------------------------

def expand_paths(paths) -> list[str]:
    import glob
    import os

    found: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            for root, _dirs, files in os.walk(path):
                found += sorted(os.path.join(root, f) for f in files
                                if f.lower().endswith((".mat", ".txt", ".gam", ".sgf")))
        elif any(c in path for c in "*?[") and not os.path.exists(path):
            found += sorted(glob.glob(path, recursive=True))
        else:
            found.append(path)
    return found


def audit_one(path: str, rules) -> dict:
    """Audit one file: {"file", "problems", "error"?}; never raises on bad input."""
    from bgcli.transcript import replay_file

    try:
        problems = [p.as_dict() for match in replay_file(path, rules, keep_events=False) for p in match.problems]
        return {"file": path, "problems": problems}
    except OSError as exc:
        return {"file": path, "problems": [], "error": f"cannot read {path}: {exc.strerror or exc}"}
    except BgcliError as exc:
        return {"file": path, "problems": [], "error": str(exc)}


def _audit_job(args):
    return audit_one(*args)


@cli.command()
@click.argument("paths", nargs=-1, required=True, metavar="FILE...")
@json_option
@click.option("--jobs", "-j", type=click.IntRange(1), default=1, show_default=True, help="Audit files on N cores.")
@rule_options
def audit(paths, as_json, jobs, **rule_args):
    """Check match files: every roll and play, the cube and the results.

    FILE may be files, directories (searched for .mat, .txt, .gam and .sgf
    files) and globs. Every problem is reported with file, line, game, move,
    player, kind and a message; the audit goes on past every problem.
    Exit status: 0 all files clean, 1 problems found, 2 a file could not be
    read.

    \b
    Examples:
        bgcli audit samples/sp05001_3pt.mat
        bgcli audit --json --jobs 2 samples/
    """
    rules = rules_from(**rule_args)
    files = expand_paths(paths)
    if not files:
        raise Unreadable(f"no match files found in {' '.join(paths)}")
    tasks = [(f, rules) for f in files]
    if jobs > 1 and len(files) > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=jobs) as pool:
            results = pool.map(_audit_job, tasks, chunksize=max(1, len(tasks) // (jobs * 8)))
            reports = list(progress(results, len(tasks)))
    else:
        reports = list(progress(map(_audit_job, tasks), len(tasks)))
    status = 0
    for report in reports:
        if "error" in report:
            status = EXIT_UNREADABLE
            click.echo(f"Error: {report['error']}", err=True)
        elif report["problems"] and status == 0:
            status = EXIT_PROBLEMS
        if as_json:
            emit(report)
        else:
            for p in report["problems"]:
                who = f" ({p['player']})" if p["player"] else ""
                move = f" move {p['move']}" if p["move"] else ""
                click.echo(f"{report['file']}:{p['line']}: game {p['game']}{move}{who}: {p['kind']}: {p['message']}")
    if not as_json:
        bad = sum(1 for r in reports if r["problems"])
        total = sum(len(r["problems"]) for r in reports)
        unread = sum(1 for r in reports if "error" in r)
        summary = (f"{len(reports) - unread} file{'s' if len(reports) - unread != 1 else ''} checked, "
                   f"{total} problem{'s' if total != 1 else ''} in {bad} file{'s' if bad != 1 else ''}")
        if unread:
            summary += f"; {unread} file{'s' if unread != 1 else ''} could not be read"
        click.echo(summary, err=True)
    sys.exit(status)


def progress(items, total: int):
    """A progress bar on stderr for many files, when stderr is a terminal."""
    if total < 5 or not sys.stderr.isatty():
        yield from items
        return
    with click.progressbar(items, length=total, file=sys.stderr, label="auditing") as bar:
        yield from bar


# --- score ------------------------------------------------------------------

@cli.command()
@click.argument("file", type=click.Path(dir_okay=False))
@json_option
@rule_options
def score(file, as_json, **rule_args):
    """Show a match's games and score: winner, how, cube, points, Crawford.

    Scores are points won, not capped at the match length; money sessions
    show the totals.

    \b
    Examples:
        bgcli score samples/sp05001_3pt.mat
        bgcli score --json --jacoby samples/sp05007_money.mat
    """
    rules = rules_from(**rule_args)
    matches = replays_of(file, rules)
    for match in matches:
        if as_json:
            emit(match.score_dict())
            continue
        left, right = match.players
        title = f"{match.length} point match" if match.length else "money session"
        click.echo(f"{title}: {left} - {right}")
        for r in match.results:
            flag = "  (Crawford)" if r.crawford else ""
            click.echo(f"  game {r.game:<3} {r.winner:<16} {r.result:<12} cube {r.cube:<3} +{r.points:<3} "
                       f"{r.score[0]:>3}-{r.score[1]:<3}{flag}".rstrip())
        winner = match.winner
        a, b = match.score
        click.echo(f"  result: {left} {a} - {b} {right}" + (f", {winner} wins" if winner else ""))


# --- export -----------------------------------------------------------------

@cli.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--to", "to", type=click.Choice(("mat", "sgf", "json")), required=True, help="The format to write.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), help="Write to this file (default: stdout).")
@click.option("--notation", type=click.Choice(STYLES), default=None,
              help="How plays are written where the format allows it (mat and json).")
def export(file, to, output, notation):
    """Convert a match file (.mat, .txt, .gam, .sgf or bgcli JSON) to another format.

    `mat` is exactly the layout GNU Backgammon writes, whatever dialect was
    read; `sgf` is gnubg's SGF (GM[6]); `json` is one document per match with
    every action, its position and Match ID before it, and the results.

    \b
    Examples:
        bgcli export samples/galaxy_match3029786.txt --to mat
        bgcli export samples/sp05001_3pt.mat --to sgf -o match.sgf
        bgcli export samples/sp05001_3pt.mat --to json --notation fibs
    """
    from bgcli.export import export_text, read_any

    try:
        records = read_any(file)
    except OSError as exc:
        raise Unreadable(f"cannot read {file}: {exc.strerror or exc}") from None
    except BgcliError as exc:
        raise Unreadable(str(exc)) from None
    # the records keep the plays as written, so a file comes back in its own order
    text = export_text(records, to, notation)
    if output:
        with open(output, "w", encoding="utf-8") as handle:
            handle.write(text)
    else:
        click.echo(text, nl=not text.endswith("\n"))


# --- view -------------------------------------------------------------------

@cli.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), required=True,
              help="The HTML file to write.")
@home_option
@rule_options
def view(file, output, home, **rule_args):
    """Write one self-contained HTML page for a match file.

    The page has the move list, a board that follows the selected move
    (arrow keys step, n/p jump between problems), the score and the audit's
    problems marked where they happen. It needs no network.

    \b
    Example:
        bgcli view samples/flawed_5pt.mat -o match.html
    """
    from bgcli.view import match_html

    import os

    matches = replays_of(file, rules_from(**rule_args))
    page = match_html(matches, os.path.basename(file), home=home)
    with open(output, "w", encoding="utf-8") as handle:
        handle.write(page)
    problems = sum(len(m.problems) for m in matches)
    click.echo(f"wrote {output}: {sum(len(m.events) for m in matches)} actions, {problems} problem{'s' if problems != 1 else ''}", err=True)


def main() -> None:
    cli(prog_name="bgcli")


if __name__ == "__main__":  # pragma: no cover
    main()
