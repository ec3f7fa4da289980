"""The repair command: for each problem of a match file, the smallest edits of
its lines that fix it, ranked by how well the rest of the record fits them
(bgcli.judging.repair); the repaired record and a patch on request."""
from __future__ import annotations

import click

from bgcli.cli.common import EXIT_PROBLEMS, Unreadable, cli, emit, json_option, rule_options, rules_from, say, write_output
from bgcli.errors import BgcliError, os_reason


@cli.command()
@click.argument("path", metavar="FILE")
@json_option
@click.option("-o", "--output", "output", metavar="FILE",
              help="Write the record with each problem's top repair applied to FILE (only the edited lines "
                   "change; never the input itself).")
@click.option("--patch", "patch", metavar="FILE",
              help="Write the repairs as a unified diff to FILE (- for standard output), for `patch -p1`.")
@rule_options
def repair(path, as_json, output, patch, **rule_args):
    """Suggest repairs for the problems of a match file.

    For each error the audit finds in FILE, the candidate repairs: the
    rolls a play is legal for, the legal plays of the roll nearest the one
    written, the cube a double makes, the points the game is worth, the score
    the games before give, a row's two cells swapped, a line written twice
    taken out. Each is ranked by how well the whole rest of the game replays
    with it (problems left), then by the characters it changes, and shown as
    the line before and after. The repaired record is audited again and the
    summary says what is still wrong. Text match files only (.mat and the
    sites' .txt exports). Exit status: 0 no errors, 1 errors found (repaired
    or not), 2 the file could not be read or written.

    \b
    Examples:
        bgcli repair samples/flawed_5pt.mat
        bgcli repair samples/flawed_5pt.mat -o fixed.mat --patch fixes.diff
        bgcli repair --json samples/flawed_5pt.mat
    """
    from bgcli.cli.matches import refuse_input_as_output
    from bgcli.judging.repair import repair_file

    refuse_input_as_output(output, [path])
    if patch not in (None, "-"):
        refuse_input_as_output(patch, [path])
        if output is not None and patch == output:
            raise click.UsageError("--patch and -o name the same file: write them to two files")
    rules = rules_from(**rule_args)
    try:
        found = repair_file(path, rules)
    except OSError as exc:
        raise Unreadable(f"cannot read {path}: {os_reason(exc)}") from None
    except BgcliError as exc:
        raise Unreadable(str(exc)) from None
    if output is not None:
        write_output(output, found.fixed)
    if patch is not None:
        write_output(patch, found.patch())
    if as_json:
        emit(found.to_dict())
    elif patch != "-":
        for line in report_lines(found):
            say(line)
    errors = [r for r in found.repairs if r.problem.severity.value == "error"]
    fixed = [r for r in errors if r.applied or r.explained_by is not None]
    still = [p for p in found.still if p.severity.value == "error"]
    if not errors:
        if not as_json:
            click.echo(f"{path}: no errors, nothing to repair", err=True)
        return
    unfixed = len(errors) - len(fixed)
    summary = (f"{path}: {len(errors)} error{'s' if len(errors) != 1 else ''}, {len(fixed)} with a repair"
               + (f", {unfixed} without a convincing one" if unfixed else ""))
    summary += ("; the repaired record has no errors" if not still else
                f"; the repaired record still has {len(still)} error{'s' if len(still) != 1 else ''}: "
                + ", ".join(f"line {p.line} {p.kind}" for p in still[:5]) + (" ..." if len(still) > 5 else ""))
    if not as_json:   # the JSON holds it: 'still'
        click.echo(summary, err=True)
    raise SystemExit(EXIT_PROBLEMS)


def report_lines(found) -> list[str]:
    """The text report: each problem as the audit writes it, then its suggestions."""
    out = []
    for repair in found.repairs:
        p = repair.to_dict()
        where = " ".join(part for part in (f"game {p['game']}" if p["game"] else "",
                                           f"move {p['move']}" if p["move"] else "") if part)
        where += f" ({p['player']})" if p["player"] else ""
        mark = "warning: " if p["severity"] == "warning" else ""
        out.append(f"{found.path}:{p['line']}: {where + ': ' if where else ''}{mark}{p['kind']}: {p['message']}")
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
