"""The repair command: for each problem of a match file, the smallest edits of
its lines that fix it, ranked by how well the rest of the record fits them
(bgcli.judging.repair); the repaired record and a patch on request. Many files
(folders, globs, - for standard input) are the repair job of bgcli.scale.repair,
run by bgcli.scale.runner as the audit's is (bgcli.cli.archives)."""
from __future__ import annotations

import os

import click

from bgcli.cli.archives import ArchiveRun
from bgcli.cli.common import (
    EXIT_PROBLEMS, EXIT_UNREADABLE, cli, complete_file_names, emit, files_argument, jobs_option, json_option, rule_options, rules_from, say, write_output,
)

STDIN_NAME = "stdin.mat"   # standard input's repaired record in an output folder


@cli.command()
@files_argument("paths")
@json_option
@click.option("-o", "--output", "output", metavar="FILE", shell_complete=complete_file_names,
              help="Write the record with each problem's top repair applied to FILE (only the edited lines "
                   "change; never an input). With several files (or a folder or glob): a folder, where each "
                   "repaired file is written under its path as found.")
@click.option("--patch", "patch", metavar="FILE", shell_complete=complete_file_names,
              help="Write the repairs as a unified diff to FILE (- for standard output), for `patch -p1`; "
                   "one diff for all the files.")
@jobs_option("Repair the files in N worker processes")
@rule_options
def repair(paths, as_json, output, patch, jobs, **rule_args):
    """Suggest repairs for the problems of match files.

    For each error the audit finds in FILE, the candidate repairs: the
    rolls a play is legal for, the legal plays of the roll nearest the one
    written, the cube a double makes, the points the game is worth, the score
    the games before give, a row's two cells swapped, a line written twice
    taken out. Each is ranked by how well the whole rest of the game replays
    with it (problems left), then by the characters it changes, and shown as
    the line before and after. The repaired record is audited again and the
    summary says what is still wrong. Text match files only (.mat and the
    sites' .txt exports). FILE may be files, folders, globs and - for
    standard input, as for `bgcli audit`. Exit status: 0 no errors, 1 errors
    found (repaired or not), 2 a file could not be read or written.

    \b
    Examples:
        bgcli repair samples/flawed_5pt.mat
        bgcli repair samples/flawed_5pt.mat -o fixed.mat --patch fixes.diff
        bgcli repair --json samples/flawed_5pt.mat
        bgcli repair --jobs 2 samples/ --patch fixes.diff
    """
    from bgcli.cli.common import refuse_input_as_output
    from bgcli.scale.repair import RepairJob

    many = len(paths) > 1 or any(os.path.isdir(p) or _is_glob(p) for p in paths) \
        or (output is not None and os.path.isdir(output))
    if many and output is not None:
        check_output_folder(output, paths)
    else:
        refuse_input_as_output(output, paths)
    if patch not in (None, "-"):
        refuse_input_as_output(patch, paths, "--patch")
        if output is not None and patch == output:
            raise click.UsageError("--patch and -o name the same file: write them to two files")
    rules = rules_from(**rule_args)
    run = ArchiveRun(RepairJob(rules, texts=output is not None or patch is not None), paths, jobs, None, None)
    status = 0
    diffs: list[bytes] = []
    totals = {"files": 0, "unread": 0, "bad": 0, "errors": 0, "repaired": 0}
    for result, _ in run:
        wrote = None   # the file written in the output folder
        totals["files"] += 1
        if result.error is not None:
            totals["unread"] += 1
            say(f"Error: {result.error}", err=True)
            status = EXIT_UNREADABLE
            continue
        if output is not None and (result.changed or not many):   # a folder gets the repaired files only
            target = output_target(output, result.path) if many else output
            if not _write_fixed(target, result, many):
                status = EXIT_UNREADABLE
            elif many:
                wrote = target
        diffs.append(result.patch)
        if as_json:
            emit(result.to_dict())
        elif patch != "-":
            for line in report_lines(result.report):
                say(line)
        errors = result.errors
        if errors:
            totals["bad"] += 1
            totals["errors"] += errors
            totals["repaired"] += result.repaired
            status = max(status, EXIT_PROBLEMS)
        if not as_json:
            say(_summary(result), err=True)
        if wrote:   # where in the folder, as export -o FOLDER says it
            say(f"wrote {wrote}", err=True)
    run.finish()
    if patch is not None:
        write_output(patch, b"".join(diffs))   # each file's hunks in its own bytes: patch applies them
    if many and not as_json and totals["files"] > 1:
        click.echo(_totals(totals), err=True)
    raise SystemExit(run.status(status))


def _is_glob(path: str) -> bool:
    return any(c in path for c in "*?[") and not os.path.lexists(path)


def check_output_folder(output: str, paths) -> None:
    """-o for many files names a folder, never an input's nor one inside an input folder."""
    if os.path.lexists(output) and not os.path.isdir(output):
        raise click.UsageError(f"-o {output} is not a folder: with several files (or a folder or glob), -o names "
                               f"the folder the repaired files are written in")
    where = os.path.realpath(output)
    for path in paths:
        if path != "-" and os.path.isdir(path):
            folder = os.path.realpath(path)
            if where == folder or where.startswith(folder.rstrip(os.sep) + os.sep):
                raise click.UsageError(f"-o {output} is inside the input folder {path}: write somewhere else")


def output_target(folder: str, path: str) -> str:
    """Where a repaired file goes in the output folder: under its path as found
    (without its root and any '..'), standard input as stdin.mat."""
    if path == "-":
        return os.path.join(folder, STDIN_NAME)
    parts = [part for part in os.path.normpath(os.path.splitdrive(path)[1]).split(os.sep) if part not in ("", ".", "..")]
    return os.path.join(folder, *parts)


def _write_fixed(target: str, result, folder: bool) -> bool:
    """The repaired record written to ``target`` (a file in the output
    folder when ``folder``, its folders made as for every command's -o
    FOLDER; a single -o FILE's missing folder refused, as every command
    refuses it); False (and one line) when ``target`` is the input itself or
    cannot be written."""
    from bgcli.output import OutputError, make_folders, write_text

    try:
        same = result.path != "-" and os.path.samefile(target, result.path)
    except OSError:
        same = False
    if same:
        say(f"Error: cannot write {target}: it is the input {result.path}", err=True)
        return False
    try:
        if folder:
            make_folders(target)
        write_text(target, result.fixed)   # in the file's own encoding, bytes as they are
    except OutputError as exc:
        say(f"Error: {exc}", err=True)
        return False
    return True


def _summary(result) -> str:
    """A file's summary line (standard error): its errors, how many have a repair, what is still wrong."""
    path, errors, repaired, still = result.path, result.errors, result.repaired, result.still
    if not errors:
        return f"{path}: no errors, nothing to repair"
    unfixed = errors - repaired
    summary = (f"{path}: {errors} error{'s' if errors != 1 else ''}, {repaired} with a repair"
               + (f", {unfixed} without a convincing one" if unfixed else ""))
    return summary + ("; the repaired record has no errors" if not still else
                      f"; the repaired record still has {len(still)} error{'s' if len(still) != 1 else ''}: "
                      + ", ".join(f"line {p['line']} {p['kind']}" for p in still[:5]) + (" ..." if len(still) > 5 else ""))


def _totals(totals: dict) -> str:
    files, bad, errors, repaired, unread = (totals[k] for k in ("files", "bad", "errors", "repaired", "unread"))
    line = f"{files} files: {bad} with errors"
    if errors:
        line += f" ({errors} error{'s' if errors != 1 else ''}, {repaired} with a repair)"
    if unread:
        line += f"; {unread} could not be read"
    return line


def report_lines(report: dict) -> list[str]:
    """The text report of a file (``FileRepair.to_dict()``): each problem as the audit writes it, then its suggestions."""
    out = []
    for p in report["problems"]:
        where = " ".join(part for part in (f"game {p['game']}" if p["game"] else "",
                                           f"move {p['move']}" if p["move"] else "") if part)
        where += f" ({p['player']})" if p["player"] else ""
        mark = "warning: " if p["severity"] == "warning" else ""
        out.append(f"{report['file']}:{p['line']}: {where + ': ' if where else ''}{mark}{p['kind']}: {p['message']}")
        out.extend(suggestion_dict_lines(p))
    return out


def suggestion_dict_lines(problem: dict) -> list[str]:
    """A problem's suggestions (a problem's dict with ``suggestions``), indented
    under it; audit --suggest writes them the same way."""
    from bgcli.judging.repair import suggestion_text

    if problem.get("explained_by") is not None:
        return [f"    follows from the problem at line {problem['explained_by']}: its repair removes this one"]
    if problem.get("severity") != "error":
        return []
    if not problem.get("suggestions"):
        return ["    no convincing repair"]
    head = [] if problem.get("applied", True) else \
        [f"    no convincing repair: {problem['suggestions'][0]['ties'] + 1} repairs fit equally well, and the record "
         f"cannot tell which was meant; the first of them:"]
    return head + [f"    {rank}. {suggestion_text(s)}" for rank, s in enumerate(problem["suggestions"], 1)]
