"""The audit command: many match files, checked against every rule."""
from __future__ import annotations

import sys

import click

from bgcli.cli.common import (
    EXIT_PROBLEMS, EXIT_UNREADABLE, Unreadable, cli, emit, json_option, rule_options, rules_from,
)
from bgcli.errors import BgcliError

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
    from bgcli.match.files import replay_file

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
