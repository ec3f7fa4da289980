"""Commands on match files: replay, score, export, view."""
from __future__ import annotations

import os
import sys

import click

from dataclasses import dataclass, field
from typing import ClassVar

from bgcli.cli.archives import ArchiveRun
from bgcli.cli.common import Counter, files_argument, input_paths, jobs_option, refuse_input_as_output, result_output
from bgcli.cli.common import (
    EXIT_PROBLEMS, EXIT_UNREADABLE, STYLES, Failure, Unreadable, cli, emit, formats_doc, home_option, json_option,
    output_option, rule_options, rules_from, say, say_block, Unwritable,
)
from bgcli.core.rules import PROFILES, Rules   # the registry of named rules (the rule options read it too)
from bgcli.cli.common import check_engine_met, engine_option, level_option, met_option
from bgcli.formats import registry
from bgcli.errors import BgcliError, os_reason
from bgcli.output import cut, quote
from bgcli.scale.jobs import failure_text
from bgcli.core.spelling import recorded_text
from bgcli.core.cube import points_word

# --- reading many files -----------------------------------------------------

def counted_parts(path: str, counter: Counter):
    """The parts of a match file as it is read (bgcli.formats.files.iter_parts),
    each game counted on ``counter`` once it has been worked on."""
    from bgcli.formats.files import iter_parts
    from bgcli.match.records import GameRecord

    for part in iter_parts(path):
        yield part
        if isinstance(part, GameRecord):
            counter.tick()


@dataclass(frozen=True)
class FileText:
    """What replay or score wrote for one file: its standard output, its lines for standard error, its
    status (1: lines left out of a score), and why it could not be read to the end (what was read is kept)."""

    path: str
    text: str = ""
    notes: str = ""
    status: int = 0
    error: str | None = None


class _Sink:
    """Where a file's lines go: straight to the terminal as the file is read (``here``: one process, a long
    session starts printing at once), or kept for its FileText (a worker process: written in the files' order)."""

    def __init__(self, here: bool) -> None:
        self.here = here
        self.out: list[str] = []
        self.err: list[str] = []

    def say(self, line: str, err: bool = False) -> None:
        if self.here:
            say(line, err=err)
        else:
            from bgcli.output import printable

            (self.err if err else self.out).append(printable(line) + "\n")

    def say_block(self, text: str) -> None:
        if self.here:
            say_block(text)
        else:
            from bgcli.output import printable

            self.out.append(printable(text, block=True) + "\n")

    def emit(self, data) -> None:
        if self.here:
            emit(data)
        else:
            from bgcli.output import json_line

            self.out.append(json_line(data) + "\n")


@dataclass(frozen=True)
class MatchTextJob:
    """``replay``'s or ``score``'s text of one match file, a per-file job (bgcli.scale.jobs) run by the archive
    runner (bgcli.cli.archives.ArchiveRun): files, folders, globs and ``-``, on ``--jobs`` processes, one block a
    file in the files' order. ``here``: written as the file is read (one process), else kept and returned."""

    command: str          # "replay" or "score"
    rules: Rules
    as_json: bool = False
    boards: bool = False
    home: str = "right"
    here: bool = True
    counter: Counter | None = field(default=None, compare=False)   # here: the games read, on a terminal
    verb: ClassVar[str] = "read"
    doing: ClassVar[str] = "reading"

    def run(self, path: str, where: str, digest: str | None) -> FileText:
        from bgcli.formats.files import iter_parts, replay_parts

        sink = _Sink(self.here)
        visitor = _printer(sink, self.as_json, self.boards, self.home) if self.command == "replay" else None
        left_out: list = []
        visitor_for = (lambda number: visitor) if visitor is not None else \
            (lambda number: _scorer(sink, path, self.as_json, left_out))
        error = None
        try:
            parts = counted_parts(where, self.counter) if self.counter is not None else iter_parts(where)
            for _ in replay_parts(parts, visitor_for, self.rules):
                pass
        except (OSError, BgcliError) as exc:   # what was written of the file stays; the error is said after it
            error = self.failure(exc, path, where)
        return FileText(path, "".join(sink.out), "".join(sink.err), EXIT_PROBLEMS if left_out else 0, error)

    def failed(self, path: str, error: str, digest: str | None = None) -> FileText:
        return FileText(path, error=error)

    def failure(self, exc: Exception, path: str, where: str) -> str:
        from bgcli.output import OutputError, StandardOutputError

        if isinstance(exc, (BrokenPipeError, StandardOutputError, OutputError)):
            raise exc   # the output failed, not the file (written as it is read): main says so, once
        return failure_text(exc, path, where, self.verb)


def run_match_texts(job: MatchTextJob, paths, jobs: int) -> int:
    """``job`` over the files of ``paths`` (bgcli.cli.archives.ArchiveRun), each file's block written in order;
    the exit status: 2 when a file could not be read (or a path named none), else the files' worst."""
    from dataclasses import replace

    here = jobs <= 1
    # in one process the games are counted as they are read (a long session); in workers, the files
    counter = Counter({"replay": "replaying", "score": "scoring"}[job.command], "games") if here else None
    run = ArchiveRun(replace(job, here=here, counter=counter), paths, jobs, None, None)
    status = 0
    try:
        for result, _ in run:
            if result.text:
                click.echo(result.text, nl=False)
            if result.notes:
                click.echo(result.notes, nl=False, err=True)
            if result.error is not None:
                say(f"Error: {result.error}", err=True)
                status = EXIT_UNREADABLE
            status = max(status, result.status)
    finally:
        if counter is not None:
            counter.close()
    run.finish()
    return run.status(status)


# --- replay -----------------------------------------------------------------

@cli.command()
@result_output
@files_argument("files")
@json_option
@click.option("--boards", is_flag=True, help="Draw the position before every move.")
@home_option
@jobs_option("Read the files in N worker processes (each file's actions still in one block, in order)")
@rule_options
@formats_doc
def replay(files, as_json, boards, home, jobs, **rule_args):
    """List every action of match files in order, with the position before it.

    `--json` writes one object per action: match, game, line, player, action
    (move, roll, double, take, drop, beaver, raccoon, resign, win, draw), dice, play, and
    the Position ID and Match ID of the state before it (player on roll
    first). FILE may be files, folders (searched for files ending in
    {suffixes}), globs, and - for standard input, as for audit; each file's
    actions are one block, in the files' order. With one process the actions
    are written as the file is read; with --jobs N each file is read in a
    worker and its block written when it and those before it are done.
    Exit status 2 when a file cannot be read (what was read of it is
    written, the others go on) or a path names no match file.

    \b
    Examples:
        bgcli replay samples/sp05001_3pt.mat
        bgcli replay --json samples/sp05001_3pt.mat | head -3
        bgcli replay --boards samples/sp05001_3pt.mat | head -40
        bgcli replay --json --jobs 2 samples/ > actions.jsonl
    """
    job = MatchTextJob("replay", rules_from(**rule_args), as_json, boards, home)
    sys.exit(run_match_texts(job, files, jobs))


def _printer(sink: _Sink, as_json: bool, boards: bool, home: str):
    """replay's visitor: each action's line (or JSON object) to ``sink``, with its board under it if asked."""
    from bgcli.match.replay import EventKind, MatchVisitor

    class Printer(MatchVisitor):
        def event(self, event) -> None:
            if as_json:
                sink.emit(event.to_dict())
                return
            sink.say(event_text(event))
            if boards and event.kind == EventKind.MOVE:
                from bgcli.render.board import ascii_board, drawable

                state, why = drawable(event.before)
                sink.say_block(ascii_board(state, home=home))
                if why:
                    sink.say(f"(drawn without its match state: {why})")

    return Printer()


def nothing_played(event) -> str:
    """What a roll with no play written says: a dance where the roll has no
    legal play, else only that no play was recorded (a lost play, a record
    cut off after the roll: the audit says which). A roll right before a
    resignation is not a move but a roll (EventKind.ROLL)."""
    from bgcli.core.generator import legal_keys

    if event.dice and legal_keys(event.before.position, event.dice):
        return "(no play recorded)"
    return "(no legal play)"


def event_text(event) -> str:
    from bgcli.core.notation import MAX_PLAY_TEXT
    from bgcli.match.events import ROLLED_THEN_RESIGNED
    from bgcli.match.records import ActionKind
    from bgcli.match.replay import EventKind

    where = f"{event.line:>5}  game {event.game:<2} "
    kind = event.kind
    if kind in (EventKind.MOVE, EventKind.ROLL):
        dice = f"{recorded_text(event.dice)}" if event.dice else "??"
        if kind == EventKind.ROLL and event.record is not None and event.record.kind is ActionKind.ILLEGAL:
            what = f"{dice}: (an illegal play, not recorded)"
        elif kind == EventKind.ROLL:
            what = f"{dice}: {ROLLED_THEN_RESIGNED}"
        else:
            # a play longer than any play needs (junk pasted after it) is cut: the listing is read by people
            what = f"{dice}: {cut(event.play, MAX_PLAY_TEXT)}" if event.play else f"{dice}: {nothing_played(event)}"
    elif kind in (EventKind.WIN, EventKind.RESIGN):
        what = f"wins {points_word(event.points)}" + (" (resigned)" if kind == EventKind.RESIGN else "")
    elif kind in (EventKind.DOUBLE, EventKind.BEAVER, EventKind.RACCOON):
        what = f"{kind.value}s => {event.cube}" if event.cube else f"{kind.value}s"
    elif kind == EventKind.DRAW:
        what = "agreed draw"
    else:
        what = f"{kind.value}s"
    ids = event.before.position.id() + (f":{event.match_id()}" if event.match_id() else "")
    return f"{where}{event.player:<16} {what:<32} {ids}"


# --- score ------------------------------------------------------------------

@cli.command()
@result_output
@files_argument("files")
@json_option
@jobs_option("Read the files in N worker processes (the matches still in the files' order)")
@rule_options
@formats_doc
def score(files, as_json, jobs, **rule_args):
    """Show matches' games and score: winner, how, cube, points, Crawford.

    Scores are points won, not capped at the match length; money sessions
    show the totals. A game the record stops in is listed as unfinished.
    A line that cannot be read is named on stderr, left out of the score,
    and the exit status is 1 (2 when a file cannot be read at all); so is a
    record that breaks a rule (an illegal play, a wrong cube, a result the
    game is not worth): the totals are what was read and judged, and stderr
    says how many errors there are and to see `bgcli audit` for them.
    FILE may be files, folders (searched for files ending in {suffixes}),
    globs, and - for standard input, as for audit; each file's matches are
    written in the files' order, with --jobs N read in N worker processes.

    \b
    Examples:
        bgcli score samples/sp05001_3pt.mat
        bgcli score --json --jacoby samples/sp05007_money.mat
        bgcli score --jobs 2 samples/
    """
    sys.exit(run_match_texts(MatchTextJob("score", rules_from(**rule_args), as_json), files, jobs))


def _scorer(sink: _Sink, path: str, as_json: bool, left_out: list):
    """score's visitor of one match: its games and score to ``sink`` when it ends; the lines that could not be
    read, and the errors of the record, named on standard error and added to ``left_out``."""
    from bgcli.match.events import Severity
    from bgcli.match.replay import ProblemKind, ReplayBuilder, Unfinished

    class Scorer(ReplayBuilder):
        def end_match(self):
            match = super().end_match()
            show_score(match, as_json, Unfinished, sink)
            broken = []
            for problem in match.problems:
                if problem.kind == ProblemKind.SYNTAX:
                    sink.say(f"Error: {path}:{problem.line}: {problem.message} (left out of the score)", err=True)
                    left_out.append(problem)
                elif problem.severity == Severity.ERROR:
                    broken.append(problem)
            if broken:
                first = broken[0]
                count = f"{len(broken)} error{'s' if len(broken) != 1 else ''}"
                sink.say(f"Error: {path}:{first.line}: {first.message} ({count} in this match, the totals are what "
                         f"was read and judged: see `bgcli audit`)", err=True)
                left_out.extend(broken)
            return match

    return Scorer(keep_events=False)   # a score needs only the results


def show_score(match, as_json: bool, unfinished_type, sink=None) -> None:
    from bgcli.core.kinds import UNFINISHED

    sink = sink or _Sink(here=True)
    if as_json:
        sink.emit(match.to_dict())
        return
    say = sink.say
    left, right = match.players
    title = f"{match.length} point match" if match.length else "money session"
    say(f"{title}: {left} - {right}")
    for r in match.games():
        flag = "  (Crawford)" if r.crawford else ""
        if isinstance(r, unfinished_type):
            say(f"  game {r.game:<3} {'-':<16} {UNFINISHED:<12} cube {r.cube:<3} {'':<4} "
                       f"{r.score[0]:>3}-{r.score[1]:<3}{flag}".rstrip())
            continue
        say(f"  game {r.game:<3} {r.winner or '-':<16} {r.result.value:<12} cube {r.cube:<3} +{r.points:<3} "
                   f"{r.score[0]:>3}-{r.score[1]:<3}{flag}".rstrip())
    winner = match.winner
    a, b = match.score
    say(f"  result: {left} {a} - {b} {right}" + (f", {winner} wins" if winner else ""))


# --- export -----------------------------------------------------------------

@cli.command()
@files_argument("files")
@click.option("--to", "to", type=click.Choice(registry.WRITTEN, case_sensitive=False), default=None,
              help="The format to write; left out, the suffix of -o's file says it.")
@output_option
@click.option("--style", "--notation", "notation", type=click.Choice(STYLES), default=None,
              help="How plays are written where the format allows it (mat and json).")
@click.option("--force", is_flag=True, help="Write what can be written even when part of the file cannot be, "
                                            "saying on stderr what was left out.")
@jobs_option("With -o FOLDER: export the files in N worker processes")
@rule_options
@formats_doc
def export(files, to, output, notation, force, jobs, **rule_args):
    """Convert match files to another format: it reads {read}; it writes {written}.

    The matches of several FILEs are written one after another in one
    output, as one file of several matches would be. With -o FOLDER (a
    folder, or a name ending in /) each input gets its own output there,
    under its path as found with the format's suffix (standard input as
    stdin.SUFFIX), never over an input: FILE may then be files, folders
    (searched for files ending in {suffixes}), globs and -, as for audit,
    and --jobs N exports them in N worker processes. Exit 1 when a file had
    something that cannot be written (that file is not written without
    --force), 2 when one cannot be read or written.

    `mat` is exactly the layout GNU Backgammon writes, whatever dialect was
    read; `sgf` is gnubg's SGF (GM[6]); `json` is one document per match with
    every action, its position and Match ID before it, and the results.
    Nothing is dropped without a word: when part of the file cannot be
    written (an unreadable line, a game that cannot be replayed, what the
    format has no place for) the export writes nothing and exits 1, unless
    `--force`. `-` reads standard input; `-o -` writes standard output.

    \b
    Examples:
        bgcli export samples/galaxy_match3029786.txt --to mat
        bgcli export samples/sp05001_3pt.mat --to sgf -o match.sgf
        bgcli export samples/sp05001_3pt.mat --to json --notation fibs
        bgcli export --to sgf -o sgf/ --jobs 2 samples/
    """
    from bgcli.formats.files import export_to
    from bgcli.output import AtomicOutput, OutputError

    if output not in (None, "-") and (os.path.isdir(output) or output.endswith(("/", os.sep))):
        if to is None:
            raise click.UsageError(f"-o {output} is a folder: give --to ({', '.join(registry.WRITTEN)})")
        sys.exit(_export_to_folder(files, to.lower(), output, notation, force, rules_from(**rule_args), jobs))
    if jobs != 1:
        raise click.UsageError("--jobs goes with -o FOLDER (one output a file; into one output the files are "
                               "written in one process)")
    if to is None:   # the suffix of the output file names the format
        suffix = os.path.splitext(output or "")[1].lower()
        to = next((name for name in registry.WRITTEN if suffix in registry.by_name(name).suffixes), None) if suffix else None
        if to is None:   # say which suffix is not known, and what export writes (the registry's written formats)
            written = ", ".join(f"{name} ({', '.join(registry.by_name(name).suffixes)})" for name in registry.WRITTEN)
            if not output or output == "-":
                raise click.UsageError(f"give --to, one of {written}, or -o FILE with one of their suffixes")
            what = f"export writes no {quote(suffix)} files" if suffix else "it has no suffix to name a format"
            raise click.UsageError(f"-o {quote(output)}: {what}; give --to, one of {written}, or -o FILE with one "
                                   f"of their suffixes")
    to = to.lower()
    refuse_input_as_output(output, files)
    folder = next((path for path in files if path != "-" and os.path.isdir(path)), None)
    if folder is not None:   # one output holds files one after another; a folder's files go to a folder
        raise click.UsageError(f"{folder} is a folder: export its files with -o FOLDER (one output per input file)")
    file = files[0] if len(files) == 1 else f"{len(files)} files"   # the input, as errors name it
    counter = Counter("exporting", "games")
    try:
        # written as it is read, into a temporary that becomes the output only when all is well
        with AtomicOutput(output or "-") as out:
            try:
                # a game at a time, as the files are read; the plays as written, so a file comes back in its own order
                parts = (part for path in files for part in counted_parts(path, counter))
                left_out = export_to(out.write, parts, to, notation, rules_from(**rule_args))
            except OSError as exc:
                raise Unreadable(f"cannot read {exc.filename or file}: {os_reason(exc)}") from None
            except BgcliError as exc:
                raise Unreadable(str(exc)) from None
            if left_out:
                shown = left_out[:5] + ([f"... and {len(left_out) - 5} more"] if len(left_out) > 5 else [])
                if not force:
                    for line in shown:
                        say(f"Error: {file}: {line}", err=True)
                    raise Failure(f"{file}: {len(left_out)} thing{'s' if len(left_out) != 1 else ''} above cannot be "
                                  f"written as {to}; nothing was written (--force writes the rest)")
                for line in shown:
                    say(f"left out: {file}: {line}", err=True)
            out.commit()
    except OutputError as exc:
        raise Unwritable(str(exc)) from None
    finally:
        counter.close()


@dataclass(frozen=True)
class Exported:
    """One input's export into a folder: where it went, what it leaves out, or why it failed (``error``:
    exit 2; ``refused``: something cannot be written and --force was not given, exit 1)."""

    path: str
    target: str = ""
    left_out: tuple[str, ...] = ()
    error: str | None = None
    refused: bool = False


@dataclass(frozen=True)
class ExportJob:
    """``export -o FOLDER``'s work on one input, a per-file job (bgcli.scale.jobs) run by the archive runner:
    its matches written, whole or not at all (bgcli.output.AtomicOutput), to its own file in the folder."""

    to: str
    folder: str
    notation: str | None
    force: bool
    rules: Rules
    verb: ClassVar[str] = "export"
    doing: ClassVar[str] = "exporting"

    def target(self, path: str) -> str:
        """Where the export of ``path`` goes: under its path as found (bgcli.cli.repair.output_target), the
        format's suffix in place of its own."""
        from bgcli.cli.repair import output_target

        suffix = registry.by_name(self.to).suffixes[0]
        base = output_target(self.folder, "stdin" if path == "-" else path)
        return os.path.splitext(base)[0] + suffix

    def run(self, path: str, where: str, digest: str | None) -> Exported:
        from bgcli.formats.files import export_to, iter_parts
        from bgcli.output import AtomicOutput, OutputError, make_folders

        target = self.target(path)
        try:
            same = path != "-" and os.path.samefile(target, where)
        except OSError:
            same = False
        if same:
            return Exported(path, target, error=f"cannot write {target}: it is the input {path}")
        try:
            make_folders(target)   # the output folder and the input's path as found under it
            with AtomicOutput(target) as out:
                left_out = export_to(out.write, iter_parts(where), self.to, self.notation, self.rules)
                if left_out and not self.force:
                    return Exported(path, target, tuple(left_out), refused=True)
                out.commit()
        except OutputError as exc:
            return Exported(path, target, error=str(exc))
        except OSError as exc:
            if exc.filename is not None and os.path.abspath(exc.filename) == os.path.abspath(where):
                raise
            return Exported(path, target, error=f"cannot write {target}: {os_reason(exc)}")
        return Exported(path, target, tuple(left_out))

    def failed(self, path: str, error: str, digest: str | None = None) -> Exported:
        return Exported(path, error=error)

    def failure(self, exc: Exception, path: str, where: str) -> str:
        return failure_text(exc, path, where, self.verb)


def _export_to_folder(files, to: str, folder: str, notation, force: bool, rules, jobs: int) -> int:
    """``export -o FOLDER``: each input's own output in ``folder`` (ExportJob over ArchiveRun); the exit status."""
    from bgcli.cli.repair import check_output_folder

    check_output_folder(folder, files)
    job = ExportJob(to, folder, notation, force, rules)
    named = [path for path in files if path != "-" and os.path.isfile(path)]
    for path in named:   # an input's output may not be another input named (a.mat's a.sgf beside a.sgf)
        refuse_input_as_output(job.target(path), [other for other in named if other != path])
    run = ArchiveRun(job, files, jobs, None, None)
    status = 0
    for result, _ in run:
        if result.error is not None:
            say(f"Error: {result.error}", err=True)
            status = EXIT_UNREADABLE
            continue
        shown = list(result.left_out[:5]) + ([f"... and {len(result.left_out) - 5} more"] if len(result.left_out) > 5 else [])
        for line in shown:
            say(f"{'Error' if result.refused else 'left out'}: {result.path}: {line}", err=True)
        if result.refused:
            say(f"Error: {result.path}: {len(result.left_out)} thing{'s' if len(result.left_out) != 1 else ''} above "
                f"cannot be written as {to}; {result.target} was not written (--force writes the rest)", err=True)
            status = max(status, EXIT_PROBLEMS)
        else:
            say(f"wrote {result.target}", err=True)
    run.finish()
    return run.status(status)


# --- view -------------------------------------------------------------------

@cli.command()
@files_argument("files")
@output_option
@home_option
@engine_option(None, "Rate the match with this engine (as bgcli rate does) and mark each decision's error and the "
                     "equity after every action on its row.")
@level_option("With --engine")
@met_option
@rule_options
@formats_doc
def view(files, output, home, engine, level, met, **rule_args):
    """Write one self-contained HTML page for match files.

    The page goes to standard output, or to the file -o names (written
    whole or not at all). The matches of several FILEs are on one page;
    FILE may be files, folders (searched for files ending in {suffixes}),
    globs and -, found as audit finds them (exit 2 at the end when a path
    names no match file).

    The page has the move list, a board that follows the selected move
    (arrow keys step, n/p jump between problems), the score and the audit's
    problems marked where they happen. It needs no network. Exit status 1
    when the audit found an error (the page is written all the same), as
    bgcli audit; 2 when the file cannot be read. With --engine
    each row also shows its decisions' errors (marked doubtful, bad or very
    bad as bgcli rate marks them) and the equity after the action.

    \b
    Examples:
        bgcli view samples/flawed_5pt.mat -o match.html
        bgcli view samples/sp05001_3pt.mat > match.html
        bgcli view --engine sage samples/flawed_5pt.mat -o match.html
    """
    import os

    from bgcli.output import AtomicOutput, OutputError
    from bgcli.render.view import Page, collector_paused, judged_index

    refuse_input_as_output(output, [*files, *input_paths([met])])   # a --met table's file is an input too
    files, unfound = _found_files(files)
    refuse_input_as_output(output, files)
    rules = rules_from(**rule_args)
    if engine and "-" in files:
        raise click.UsageError("view --engine reads its match from a file, not standard input")
    if engine and len(files) > 1:   # a rating knows its match by its number in its file
        raise click.UsageError("view --engine rates the matches of one FILE")
    if engine:
        check_engine_met(engine, met)
    title = ", ".join(os.path.basename(file) for file in files)
    # the engine's rating first (with the cycle collector on, as before), then the page as the files
    # are replayed: it holds a few games' actions at a time, its rows wait in a temporary file
    judged = judged_index(_ratings_of(files[0], rules, engine.lower(), level, met)) if engine else None
    page = Page(title, home=home, judged=judged)
    # the collector paused over the replay and the page: it would walk every kept state again
    # and again; what they made is frozen (the command ends soon after)
    with collector_paused(frozen_after=True):
        for file in files:
            _replays_counted(file, rules, page.visitor)
    matches = page.replays
    try:
        with AtomicOutput(output or "-") as out:   # the page whole or not at all
            page.write(out.write)
            out.commit()
    except OutputError as exc:
        raise Unwritable(str(exc)) from None
    problems = sum(len(m.problems) for m in matches)
    if output not in (None, "-"):   # on standard output the page is the output: no line about a file
        say(f"wrote {output}: {page.actions} actions, {problems} problem{'s' if problems != 1 else ''}", err=True)
    if unfound:   # a glob that matched nothing, a folder with no match file: said above, the page written
        sys.exit(EXIT_UNREADABLE)
    # as audit does: exit 1 when the audit found an error (the page is written all the same)
    from bgcli.match.events import Severity

    if any(p.severity is Severity.ERROR for m in matches for p in m.problems):
        sys.exit(EXIT_PROBLEMS)


def _found_files(paths) -> tuple[list[str], int]:
    """The match files of ``paths`` (files, folders, globs, -) as the archive runner finds them
    (bgcli.scale.archive.find_files), with its notes on stderr; how many paths named none (exit 2 at the
    end); none at all is exit 2 at once."""
    from bgcli.scale.archive import find_files

    unfound = []
    notes = []

    def note(message: str, error: bool) -> None:
        if error:
            say(f"Error: {message}", err=True)
            unfound.append(message)
        else:
            notes.append(message)

    found = list(find_files(paths, note))
    for message in notes:
        say(f"note: {message}", err=True)
    if not found:
        if unfound:   # each path that named no file was said above, one line each, as audit says them
            sys.exit(EXIT_UNREADABLE)
        raise Unreadable(f"no match files found in {' '.join(paths)}")
    return found, len(unfound)


def _replays_counted(file: str, rules, visitor_for=None):
    """The replays of every match of ``file`` (to ``visitor_for(number)``, by default a
    ReplayBuilder's), its games counted on a terminal; exit 2 when it cannot be read."""
    from bgcli.match.replay import replay_parts
    from bgcli.match.visitor import ReplayBuilder

    counter = Counter("reading", "games")
    try:
        return list(replay_parts(counted_parts(file, counter), visitor_for or (lambda number: ReplayBuilder()), rules))
    except OSError as exc:
        raise Unreadable(f"cannot read {file}: {os_reason(exc)}") from None
    except BgcliError as exc:
        raise Unreadable(str(exc)) from None
    finally:
        counter.close()


def _ratings_of(file: str, rules, engine: str, level: int, met=None):
    """The ratings of every match of ``file`` (exit 2 with one line when the engine is missing or fails)."""
    from bgcli.errors import EngineError
    from bgcli.judging.rating import rate_replay
    from bgcli.match.replay import replay_parts
    from bgcli.scale.rating import EngineSpec, engines_for

    counter = Counter("rating", "games")
    try:
        judge, luck = engines_for(EngineSpec(engine, level, met=met))
        # rate_replay hands over a visitor for each match (a function of its number), as replay_parts takes it
        return rate_replay(judge, lambda visitor_for: replay_parts(counted_parts(file, counter), visitor_for, rules),
                           luck_engine=luck)
    except EngineError as exc:
        raise Unreadable(str(exc)) from None
    finally:
        counter.close()


# --- rules ------------------------------------------------------------------

@cli.command("rules")
@result_output
@click.argument("name", required=False, type=click.Choice(tuple(PROFILES), case_sensitive=False), metavar="[NAME]")
@json_option
def rules_command(name, as_json):
    """Say what each named set of rules means (or the one NAME).

    Choose one with `--rules NAME` on every command that reads match files
    (audit, replay, score, export, view, rate, dice, repair), or with a
    `[Rules "NAME"]` tag in a file.

    \b
    Examples:
        bgcli rules
        bgcli rules korean
    """
    from bgcli.core.rules import Rules

    names = [name.lower()] if name else list(PROFILES)
    if as_json:
        emit([{"name": profile, "summary": PROFILES[profile].summary,
               "rules": list(Rules().with_profile(profile).describe())} for profile in names])
        return
    for index, profile in enumerate(names):
        if index:
            click.echo("")
        click.echo(f"{profile}: {PROFILES[profile].summary}")
        for line in Rules().with_profile(profile).describe():
            click.echo(f"  - {line}")
