"""The analyze command: race counts, class, shots and bear-off odds of a position.

Only click and the common module are imported here: the analysis and its
bear-off table load when the command runs, so that other commands start fast.
"""
from __future__ import annotations

import json
import sys
from typing import Iterable

import click

from bgcli.cli.common import opened, read_position_words
from bgcli.cli.common import progress, result_output
from bgcli.cli.common import (
    EXIT_PROBLEMS, EXIT_UNREADABLE, Failure, WordsCommand, cli, emit, jobs_option, json_option,
    read_position, refuse_jobs_without_batch, run_in_chunks,
)
from bgcli.cli.batch import EMPTY_LINE, is_comment
from bgcli.cli.common import batch_option, batch_source, engine_option, level_option, met_option
# batch lines are read as `moves --batch` reads them
from bgcli.cli.positions import MAX_LINE, BadLine, batch_lines, open_binary  # noqa: F401  (MAX_LINE: part of this module's API)
from bgcli.cli.batch import WORD, moves_json, position_and_dice
from bgcli.errors import BgcliError
from bgcli.core.position import CHECKERS, OFF
from bgcli.core.spelling import recorded_text

_WIDE = 17  # the label column of the text output
_COLUMN = 10


def _row(label: str, *cells: str) -> str:
    return (label.ljust(_WIDE) + "".join(cell.rjust(_COLUMN) for cell in cells)).rstrip()


def _percent(value: float) -> str:
    return f"{100 * value:.3f}%"


def analysis_text(found) -> list[str]:
    """The lines ``bgcli analyze`` prints for a person."""
    from bgcli.analysis.counts import PositionClass

    kind = "bear-off" if found.position_class is PositionClass.BEAROFF else found.position_class.value
    if found.position_class is PositionClass.OVER:
        won = found.position.player[OFF] == CHECKERS
        kind += " (the player on roll has won)" if won else " (the opponent has won)"
    lines = [
        _row("position", found.position.id()),
        _row("", "on roll", "opponent"),
        _row("pips", *map(str, found.pips)),
        _row("Keith count", *map(str, found.keith)),
        _row("Thorp count", *map(str, found.thorp)),
        f"{'class'.ljust(_WIDE)}{kind}",
    ]
    if found.position_class is PositionClass.CONTACT:
        lines.append(_row("crashed", *("yes" if c else "no" for c in found.crashed)))
        rolls = " ".join(recorded_text(roll) for roll in found.hit_rolls)
        lines.append(f"{'hits'.ljust(_WIDE)}{found.hits} of 36" + (f": {rolls}" if rolls else ""))
    if found.race is not None and found.race.method != "over":
        how = "exact" if found.race.exact else "Kleinman's approximation"
        lines.append(_row("race: wins", *map(_percent, found.race.win)) + f"  ({how})")
    odds = found.bearoff or (None, None)
    if any(odds) and found.position_class is not PositionClass.OVER:
        longest = max(len(side.dist) for side in odds if side)
        lines.append("bear-off in")
        for n in range(1, longest + 1):
            chances = [side.dist[n - 1] if side and n <= len(side.dist) else 0.0 for side in odds]
            if max(chances) < 5e-6:
                continue  # rounds to 0.000% on both sides
            cells = [_percent(chance) if side else "" for side, chance in zip(odds, chances)]
            lines.append(_row(f"  {n} roll{'s' if n > 1 else ''}", *cells))
        lines.append(_row("  mean rolls", *(f"{side.mean:.3f}" if side else "-" for side in odds)))
    return lines


def plays_text(plays: dict) -> list[str]:
    """The lines under the counts for the dice given: the roll's legal plays, as ``bgcli moves`` lists them."""
    count = len(plays["plays"])
    lines = [f"{'plays of ' + recorded_text(plays['dice']):<{_WIDE}}{count} legal play{'s' if count != 1 else ''}"]
    return lines + [f"  {play['play']}" for play in plays["plays"]]


def analysis_data(found, plays: dict | None) -> dict:
    """``analyze --json``'s object: the analysis ``found``, and with the ``plays`` of dice given
    (``bgcli moves --json``'s object) their ``dice`` and ``plays``."""
    data = found.to_dict()
    if plays is not None:
        data["dice"], data["plays"] = plays["dice"], plays["plays"]
    return data


def roll_plays(game, dice) -> dict | None:
    """The legal plays of ``dice`` in ``game`` as ``bgcli moves --json`` writes them; None without dice."""
    return moves_json(game, dice, "gnubg") if dice is not None else None


def analyze_line(text: str) -> str:
    """One line of ``--batch`` output: the analysis of its POSITION [DICE] as JSON, newline ended."""
    from bgcli.analysis.counts import analyze

    game, dice = position_and_dice(WORD.findall(text), read_position, dice_needed=False)
    return json.dumps(analysis_data(analyze(game), roll_plays(game, dice)), ensure_ascii=False) + "\n"


def run_batch(lines: Iterable[str], first: int = 1, out=None) -> int:
    """One JSON object per input line, in order; a bad line gets {"error": ...}
    (exit status 1), and a line too long to read ends the batch (status 2)."""
    status = 0
    out = out or sys.stdout
    for number, line in enumerate(lines, first):
        try:
            if isinstance(line, BadLine):
                status = max(status, EXIT_UNREADABLE if line.last else EXIT_PROBLEMS)
                raise BgcliError(line.error)
            line = line.strip()
            if not line:
                raise BgcliError(EMPTY_LINE)
            if is_comment(line):
                continue
            out.write(analyze_line(line))
        except BgcliError as exc:
            out.write(json.dumps({"error": f"line {number}: {exc}"}, ensure_ascii=False) + "\n")
            status = max(status, EXIT_PROBLEMS)
    out.flush()
    return status


def _chunk(args) -> tuple[int, str]:
    import io

    lines, first = args  # a BadLine keeps its class and ``last`` through pickling
    out = io.StringIO()
    return run_batch(lines, first, out), out.getvalue()


def run_batch_parallel(lines: Iterable[str], jobs: int, chunk: int = 500) -> int:
    """run_batch on up to ``jobs`` processes, the output in the input's order
    (see common.run_in_chunks). The bear-off table is loaded first, so that
    the workers share it instead of each building it."""
    from bgcli.analysis.bearoff import table

    table()
    return run_in_chunks(lines, jobs, chunk, _chunk, run_batch)


@cli.command(cls=WordsCommand)
@result_output
@click.argument("words", nargs=-1, metavar="POSITION [DICE]")
@batch_option("Read one `POSITION [DICE]` per line from FILE; write one JSON object per line.")
@jobs_option("With --batch: work on N processes; the output keeps the input's order")
@engine_option(None, "Add this engine's evaluation of the position before the roll (see bgcli hint).",
               name="engine_name")
@level_option("With --engine")
@met_option
@json_option
def analyze(words, batch, jobs, engine_name, level, met, as_json):
    """Analyse POSITION: pip, Keith and Thorp counts, its class, the rolls
    that hit, exact bear-off odds and the race.

    Every pair is (player on roll, opponent). The bear-off odds are exact,
    from a table bgcli builds once (a few seconds) and keeps in your cache
    folder; the race is exact in the bear-off and Kleinman's approximation
    otherwise.

    With DICE (31, 3-1 or "3 1", as moves takes them), also the legal plays
    of that roll, as bgcli moves lists them (--json: its "dice" and "plays").
    An --engine evaluates the position before the roll; bgcli hint POSITION
    DICE ranks the plays.

    With --batch, a bad line gets {"error": ...} and the rest go on (exit 1);
    a line longer than 1 MB ends the batch (exit 2); lines that start with #
    are comments. A board of 26 numbers may start with a negative number
    (bgcli analyze -1 -1 0 ...), also after --.

    \b
    Examples:
        bgcli analyze start
        bgcli analyze --json 'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10'
        bgcli analyze 4wEAAAAAAAAAAA
        bgcli analyze tyYAAPx+AAAAAA 6-2
        bgcli analyze --engine sage start
        printf 'start\\n4wEAAAAAAAAAAA\\n' | bgcli analyze --batch -
    """
    refuse_jobs_without_batch(batch)
    batch, words = batch_source(batch, words)
    if batch is not None:
        if engine_name:
            raise click.UsageError("--engine goes with one POSITION, not --batch (bgcli hint --batch judges many)")
        lines = progress(batch_lines(open_binary(batch)), label="analysing", unit="lines")
        announce_bearoff_table()
        sys.exit(run_batch(lines) if jobs == 1 else run_batch_parallel(lines, jobs))
    if not words:
        raise click.UsageError("missing POSITION (try: bgcli analyze start)")
    from bgcli.analysis.counts import analyze as analyse

    try:
        game, dice = read_position_words(words)
        announce_bearoff_table()   # after the position is read: a typo costs no table's building
        found, plays = analyse(game), roll_plays(game, dice)
        judged = None
        if engine_name:
            from bgcli.engines.kept import keeping

            with keeping():   # the engine is closed when its one answer is given
                judged = opened(engine_name, level, 60.0, met).evaluate(game)
    except BgcliError as exc:
        raise Failure.of(exc) from None
    if as_json:
        data = analysis_data(found, plays)
        if judged is not None:
            data["engine"] = {"name": engine_name, "level": level, "equity": judged.equity, "mwc": judged.mwc,
                              "probabilities": judged.probabilities.to_dict()}
        emit(data)
    else:
        lines = analysis_text(found) + (plays_text(plays) if plays is not None else [])
        for line in lines:
            click.echo(line)
        if judged is not None:
            click.echo(evaluation_line(engine_name, level, judged))


def announce_bearoff_table() -> None:
    """Load the bear-off table; the one time it is built (not yet in the cache folder), say so first."""
    from bgcli.analysis.bearoff import table

    table(announce=lambda: click.echo("note: building the exact bear-off table (6 MB, a few seconds, once: "
                                      "it is kept in your cache folder)", err=True))


def evaluation_line(name: str, level: int, judged) -> str:
    """The engine's line under the counts: its level, the equity before the roll and the chances."""
    from bgcli.engines.protocol import Level

    p = judged.probabilities
    chance = f" ({100 * judged.mwc:.1f}% match winning chance)" if judged.mwc is not None else ""
    return (f"{f'{name} {Level(level).name()}'.ljust(_WIDE)}equity {judged.equity:+.3f}{chance}, win {100 * p.win:.1f}% "
            f"(gammon {100 * p.win_gammon:.1f}%, backgammon {100 * p.win_backgammon:.1f}%), "
            f"lose gammon {100 * p.lose_gammon:.1f}% (backgammon {100 * p.lose_backgammon:.1f}%)")
