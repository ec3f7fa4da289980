"""The audit command: many match files, checked against every rule, on this
machine's cores or a Dask cluster, with an optional results database.
The work is the audit job of bgcli.scale.archive, run by bgcli.scale.runner
(bgcli.cli.archives: what audit and rate share); this module reads the
options and writes the results."""
from __future__ import annotations

import click

from bgcli.cli.archives import ArchiveRun, cluster_and_database, with_database
from bgcli.cli.common import files_argument, leave_for_exit, result_output
from bgcli.cli.common import (
    EXIT_PROBLEMS, EXIT_UNREADABLE, check_archive_options, cli, emit, formats_doc, jobs_option, json_option, rule_options,
    rules_from, say,
)


@cli.command()
@result_output
@files_argument("paths", required=False)
@json_option
@jobs_option("Audit the files in N worker processes")
@cluster_and_database("Audit", "Keep every file's result in this SQLite database as the audit goes; a file whose content "
                                "and rules are unchanged since is not audited again (its stored result is written).",
                      workers_read=True)
@click.option("--report", is_flag=True, help="With --db and no FILE: the totals stored in the database, by kind.")
@click.option("--strict", is_flag=True, help="Warnings count as errors: exit status 1 when there is any problem.")
@click.option("--suggest", is_flag=True, help="Add to each error its repairs, best first, as `bgcli repair` ranks them "
                                               "(text match files; not with --db).")
@rule_options
@formats_doc
def audit(paths, as_json, jobs, scheduler, db_path, report, strict, suggest=False, **rule_args):
    """Check match files: every roll and play, the cube and the results.

    FILE may be files, folders (searched for regular files ending in
    {suffixes}; a fifo, socket or device is skipped with a note), globs, and - for
    standard input. Every problem is reported with file, line, game, move,
    player, kind, severity and a message; the audit goes on past every
    problem and every bad file. A problem is an error (the record breaks a
    rule or contradicts itself) or a warning (the record is only incomplete,
    or uses a habit that cannot be checked); text output marks warnings.
    Results are written in the order of the files, each as soon as it and
    those before it are done. Exit status: 0 no errors (warnings alone
    exit 0, unless --strict), 1 errors found, 2 a file could not be read or
    a glob matched nothing, 130 interrupted.

    \b
    Examples:
        bgcli audit samples/sp05001_3pt.mat
        bgcli audit --json --jobs 2 samples/
        bgcli audit --strict samples/                  # an unfinished record fails too
        bgcli audit --db results.sqlite samples/       # again later: only new or changed files
        bgcli audit --db results.sqlite --report
        bgcli audit --scheduler local:2 samples/
        bgcli audit --suggest samples/flawed_5pt.mat   # each error with its repairs (bgcli repair)
    """
    from bgcli.scale.archive import AuditDB

    check_archive_options(paths, db_path, report, jobs, scheduler)
    if suggest and (db_path or report):
        raise click.UsageError("--suggest cannot be used with --db: the database keeps problems, not repairs")
    rules = rules_from(**rule_args)
    open_db = (lambda: AuditDB(db_path, rules, create=not report)) if db_path else None
    with_database(open_db, (lambda db: _report(db, as_json, strict)) if report else
                  (lambda db: _audit(paths, rules, as_json, jobs, scheduler, db, strict, suggest)))


def _audit(paths, rules, as_json, jobs, scheduler, db, strict: bool = False, suggest: bool = False) -> int:
    from bgcli.scale.archive import AuditJob

    run = ArchiveRun(AuditJob(rules, suggest), paths, jobs, scheduler, db)
    counts = {"files": 0, "unread": 0, "errors": 0, "warnings": 0, "bad": 0, "stored": 0}
    status = 0
    for result, stored in run:
        counts["stored"] += stored
        status = max(status, _write(result, as_json, counts, strict, stored))
    if not scheduler:   # a Dask client may still tidy up at exit; otherwise the caches are not worth freeing
        leave_for_exit()
    run.finish()
    if not as_json:
        checked = counts["files"] - counts["unread"]
        if counts["errors"] or counts["warnings"]:
            summary = (f"{_plural(checked, 'file')} checked, {_plural(counts['errors'], 'error')}, "
                       f"{_plural(counts['warnings'], 'warning')} in {_plural(counts['bad'], 'file')}")
        else:
            summary = f"{_plural(checked, 'file')} checked, no problems"
        if counts["stored"]:
            summary += (f"; {counts['stored']} of them unchanged since the last run: "
                        f"their results come from the database {db.path}")
        if counts["unread"]:
            summary += f"; {counts['unread']} file{'s' if counts['unread'] != 1 else ''} could not be read"
        click.echo(summary, err=True)
    return run.status(status)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'s' if count != 1 else ''}"


def _write(result, as_json: bool, counts: dict, strict: bool = False, stored: bool = False) -> int:
    """Write one file's result; its exit status (1 for an error, or with
    ``strict`` for any problem)."""
    counts["files"] += 1
    status = 0
    if result.error is not None:
        counts["unread"] += 1
        status = EXIT_UNREADABLE
        say(f"Error: {result.error}", err=True)
    if result.problems:
        errors = result.errors
        counts["errors"] += errors
        counts["warnings"] += len(result.problems) - errors
        counts["bad"] += 1
        if errors or strict:
            status = max(status, EXIT_PROBLEMS)
    if as_json:
        emit(result.to_dict())   # the same whether stored or not: the summary line says which
    else:
        for p in result.problems:
            # a problem before any game (a bad match header) has no game 0 to name
            where = " ".join(part for part in (f"game {p['game']}" if p["game"] else "",
                                               f"move {p['move']}" if p["move"] else "") if part)
            where += f" ({p['player']})" if p["player"] else ""
            mark = "warning: " if p.get("severity") == "warning" else ""
            say(f"{result.path}:{p['line']}: {where + ': ' if where else ''}{mark}{p['kind']}: {p['message']}")
            if "suggestions" in p:   # audit --suggest (bgcli.cli.repair writes them)
                from bgcli.cli.repair import suggestion_dict_lines

                for line in suggestion_dict_lines(p):
                    say(line)
    return status


def _report(db, as_json: bool, strict: bool = False) -> int:
    totals = db.totals()
    if as_json:
        emit(totals)
    else:
        click.echo(f"{_plural(totals['files'], 'file')}: {totals['clean']} clean, {totals['with_problems']} with problems "
                   f"({totals['with_errors']} with errors), {totals['unreadable']} unreadable")
        click.echo(f"{_plural(totals['games'], 'game')}, {_plural(totals['errors'], 'error')}, "
                   f"{_plural(totals['warnings'], 'warning')}")
        for kind, count in totals["by_kind"].items():
            say(f"  {kind:<11} {count}")
    if totals["unreadable"]:
        return EXIT_UNREADABLE
    return EXIT_PROBLEMS if totals["errors"] or (strict and totals["problems"]) else 0
