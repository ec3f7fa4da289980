"""The dice command: are the dice of an archive consistent with fair dice?
Each file's rolls are counted in their positions by the dice job of
bgcli.scale.dice, run by bgcli.scale.runner (bgcli.cli.archives: what audit,
rate and dice share); the statistics are bgcli.judging.dicereport's, the
pictures bgcli.render.dice's. This module reads the options and writes the report."""
from __future__ import annotations

import click

from bgcli.cli.archives import ArchiveRun, cluster_and_database, with_database
from bgcli.cli.common import (
    EXIT_PROBLEMS, EXIT_UNREADABLE, Unreadable, check_archive_options, cli, emit, engine_option, files_argument, formats_doc,
    jobs_option,
    json_option, result_output, rule_options, rules_from, say, timeout_option,
)

BY_CHOICES = ("all", "player", "file", "site", "month", "match")


@cli.command()
@result_output
@files_argument("paths", required=False)
@json_option
@click.option("--html", "as_html", is_flag=True,
              help="Write the report as one self-contained HTML page with its pictures (with -o FILE, to FILE).")
@click.option("--by", type=click.Choice(BY_CHOICES), default="all", show_default=True,
              help="Test each player, file, site, month (from the site and date tags where recorded) or match apart.")
@jobs_option("Read the files in N worker processes")
@cluster_and_database("Read the files", "Keep every file's counts in this SQLite database as the run goes; a file whose "
                                         "content and rules are unchanged is not read again (a killed run resumes).")
@engine_option(None, "Also sum the luck of every roll as rate measures it (the equity after the roll's best play less "
                     "the mean over all rolls), by this engine at 0-ply, and test the sum against zero.")
@timeout_option("With --engine: the time limit of one engine call; a file whose engine fails or runs past it gets its "
                "error.")
@rule_options
@formats_doc
def dice(paths, as_json, as_html, by, jobs, scheduler, db_path, engine, timeout, **rule_args):
    """Test whether the dice of match files are consistent with fair dice.

    FILE may be files, folders (searched for files ending in {suffixes}),
    globs, and - for standard input, as for audit. Every roll is replayed in
    its position, and each group of rolls (--by) is put to these tests, each
    against its exact expectation: the 21 kinds of roll (1/36 a double, 2/36
    the others), doubles, each die's face, the 36 rolls in the order the dice
    were written (where a file records it), the opening rolls apart (most rules
    roll the opening again on a double), consecutive rolls, a double right
    after a double, and four chances that depend on the position: entering
    from the bar (from the open points), a roll that hits a blot (bgcli's
    shot counter), one that bears off the last checkers, and one that saves
    the gammon at the last chance (the opponent off next turn whatever the
    roll: often only a double saves it). With --by player, each player's
    rolls against the opponents' too. With --engine, the luck of every roll
    (as rate measures it) summed with its standard error.

    \b
    For each test: the counts, an effect size with its 95% interval, the
    p-value (scipy's distributions: pip install 'bgcli[stats]'), the p-values
    corrected for the whole family of tests (Holm, and the Benjamini-Hochberg
    false discovery rate), and a power statement. A group too small for a test
    says so instead of giving a p-value. The wording says what the data are
    consistent with; by chance alone about 1 test in 20 has p < 0.05.

    Exit status: 0 the rolls are consistent with fair dice after correction,
    1 some test is not (Holm's correction at 0.05), 2 a file could not be
    read, or scipy is missing.

    \b
    Examples:
        bgcli dice samples/
        bgcli dice --by player --json samples/
        bgcli dice --html -o dice.html --by month samples/
    """
    from bgcli.judging.dicestats import StatsMissing, require_stats
    from bgcli.scale.dice import DiceDB

    check_archive_options(paths, db_path, False, jobs, scheduler)
    if as_json and as_html:
        raise click.UsageError("--json and --html cannot be used together")
    try:
        require_stats()   # scipy is imported for the report, once the files are read
    except StatsMissing as exc:
        raise Unreadable(str(exc)) from None
    rules = rules_from(**rule_args)
    engine = engine.lower() if engine else None
    open_db = (lambda: DiceDB(db_path, rules, engine=engine)) if db_path else None
    with_database(open_db, lambda db: _dice(paths, rules, by, as_json, as_html, jobs, scheduler, db, engine, timeout))


def _dice(paths, rules, by, as_json, as_html, jobs, scheduler, db, engine=None, timeout=60.0) -> int:
    from bgcli.errors import EngineUnavailableError
    from bgcli.judging.dicereport import build
    from bgcli.judging.dicestats import StatsMissing
    from bgcli.scale.dice import DiceJob

    run = ArchiveRun(DiceJob(rules, engine, timeout), paths, jobs, scheduler, db)
    units = []
    status = 0
    stored = 0
    try:
        for result, was_stored in run:
            stored += was_stored
            if result.error is not None:
                say(f"Error: {result.error}", err=True)
                status = EXIT_UNREADABLE
            units.extend(result.units)
    except EngineUnavailableError as exc:
        raise Unreadable(str(exc)) from None
    run.finish()
    try:
        report = build(units, by)
    except StatsMissing as exc:   # found, but its import failed
        raise Unreadable(str(exc)) from None
    if as_json:
        emit(report.to_dict())
    elif as_html:
        from bgcli.render.dice import html

        click.echo(html(report))
    else:
        from bgcli.render.dice import text

        click.echo(text(report))
    if stored and not as_json:
        click.echo(f"{stored} file{'s' if stored != 1 else ''} unchanged since the last run: their counts come from "
                   f"the database {db.path}", err=True)
    if report.flagged():
        status = max(status, EXIT_PROBLEMS)
    return run.status(status)
