"""The rate command: the judgement of whole matches by an engine. The work is
in bgcli.judging.rating (one match) and bgcli.scale.rating (the rating job and
its database), run over files by bgcli.scale.runner (bgcli.cli.archives: what
audit and rate share); this module reads the options and writes the results."""
from __future__ import annotations

import click

from bgcli.cli.archives import ArchiveRun, cluster_and_database, with_database
from bgcli.cli.common import files_argument, result_output
from bgcli.cli.common import (
    EXIT_PROBLEMS, EXIT_UNREADABLE, Unreadable, check_archive_options, cli, emit, jobs_option, json_option, rule_options, rules_from,
)
from bgcli.cli.common import FloatRange, check_engine_met, engine_option, level_option, met_option, timeout_option
from bgcli.engines import ENGINE_NAMES  # the registry only: a backend loads when opened


@cli.command()
@result_output
@files_argument("paths", required=False)
@json_option
@engine_option("sage", "The engine that judges: sage (bgsage, pip install 'bgcli[engine]'), gnubg (GNU Backgammon "
                       "run as a separate program), exact (bear-offs only).")
@level_option(more="Luck is always measured at 0-ply, as gnubg does.")
@timeout_option("The time limit of one engine call; a file whose engine fails or runs past it gets its error.")
@met_option
@click.option("--second-opinion", type=click.Choice(ENGINE_NAMES, case_sensitive=False), default=None,
              metavar="ENGINE", help="Judge every decision with this engine too, and report each player's PR by both and "
                                     "the decisions they disagree on (a different best play or cube action, errors apart "
                                     "by more than --margin).")
@click.option("--margin", type=FloatRange(0.0, 2.0), default=0.02, show_default=True, metavar="E",
              help="With --second-opinion: how far apart (normalised equity) the two engines' errors of the action "
                   "played must be for a different best play or cube action to be reported.")
@click.option("--verdict-trials", type=click.IntRange(0, 100_000), default=36, show_default=True, metavar="N",
              help="With --second-opinion: the trials of the rollout that decides each disagreement (the first engine "
                   "at 0-ply, cubeful, to the end, luck adjusted; 36 = one for each first roll); 0: no rollout.")
@jobs_option("Rate the files in N worker processes")
@cluster_and_database("Rate", "Keep every file's rating in this SQLite database as the run goes; a file whose content, "
                              "engine, level and rules are unchanged is not rated again (a killed run resumes).")
@click.option("--report", type=click.Choice(("players",)), is_flag=False, flag_value="players", default=None,
              help="With --db and no FILE: each player's figures over the whole database (matches, decisions, PR, luck).")
@click.option("--thresholds", metavar="D,B,VB", callback=lambda ctx, param, value: _thresholds(value),
              help="The errors above which a decision is marked doubtful, bad and very bad (default gnubg's: "
                   "0.03,0.06,0.12), in the output (a database keeps gnubg's).")
@rule_options
def rate(paths, as_json, engine, level, timeout, met, second_opinion, margin, verdict_trials, jobs, scheduler, db_path, report, thresholds, **rule_args):
    """Judge every decision of every game of match files, and rate the players.

    For each checker play: the played and the best play and the error; for
    each cube turn: the missed double, the wrong double, the wrong take or
    pass and its error; the luck of every roll (GNU Backgammon's: the equity
    after the best play of this roll less the average over the 36 rolls).
    Errors are in normalised equity (EMG in a match, where the match winning
    chance is given too). Per player: decisions counted, total error, error
    rate (millipoints per decision), PR (eXtreme Gammon's: 500 x error /
    decisions), luck and the luck-adjusted result, and the decisions GNU
    Backgammon marks doubtful (error above 0.03), bad (0.06) and very bad
    (0.12).

    \b
    Decisions counted (as XG and gammonview count them): a checker play with
    two legal plays or more that are not all equal; a cube turn or double
    unless trivial (no double and double within 0.001, or one of them 0.2
    above the other, or both below -0.9) with an error under 0.001; a take
    or pass unless take and pass are within 0.001. Forced plays, dances and
    illegal plays are not decisions; an illegal play is shown, has no error,
    and the rating goes on from the recorded position.

    Exit status: 0 every file rated, 1 illegal plays found, 2 a file could
    not be read or rated, or the engine is missing.

    \b
    Examples:
        bgcli rate samples/sp05001_3pt.mat
        bgcli rate --json --engine gnubg --level 0 samples/sp05007_money.mat
        bgcli rate --db ratings.sqlite --level 0 --jobs 2 samples/
        bgcli rate --db ratings.sqlite --report players
    """
    from bgcli.scale.rating import EngineSpec, RatingsDB

    check_archive_options(paths, db_path, report, jobs, scheduler)
    rules = rules_from(**rule_args)
    check_engine_met(engine, met)
    spec = EngineSpec(engine.lower(), level, timeout, met)
    second = None
    if second_opinion:
        if db_path or report:
            raise click.UsageError("--second-opinion rates files as they are read: not with --db or --report")
        check_engine_met(second_opinion, met)
        second = EngineSpec(second_opinion.lower(), level, timeout, met)
    open_db = (lambda: RatingsDB(db_path, spec, rules, create=not report)) if db_path else None
    with_database(open_db, (lambda db: _report(db, as_json)) if report else
                  (lambda db: _rate(paths, spec, rules, as_json, jobs, scheduler, db, thresholds, second, margin, verdict_trials)))


def _thresholds(value):
    if value is None:
        return None
    from bgcli.judging.rating import Thresholds

    try:
        return Thresholds.parse(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


def _rate(paths, spec, rules, as_json, jobs, scheduler, db, thresholds=None, second=None, margin=0.02,
          verdict_trials=36) -> int:
    from bgcli.errors import EngineUnavailableError
    from bgcli.scale.rating import RateJob

    run = ArchiveRun(RateJob(spec, rules, second, margin, verdict_trials), paths, jobs, scheduler, db)
    counts = {"files": 0, "unread": 0, "illegal": 0}
    status = 0
    try:
        for result, _stored in run:
            status = max(status, _write(result, as_json, counts, thresholds))
    except EngineUnavailableError as exc:
        raise Unreadable(str(exc)) from None
    run.finish()
    if not as_json:
        from bgcli.engines import describe

        rated = counts["files"] - counts["unread"]
        summary = f"{rated} file{'s' if rated != 1 else ''} rated ({describe(spec.name, spec.level)})"
        if counts["illegal"]:
            summary += f", {counts['illegal']} illegal play{'s' if counts['illegal'] != 1 else ''}"
        if counts["unread"]:
            summary += f"; {counts['unread']} file{'s' if counts['unread'] != 1 else ''} could not be rated"
        click.echo(summary, err=True)
    return run.status(status)


def _write(result, as_json: bool, counts: dict, thresholds=None) -> int:
    counts["files"] += 1
    if result.error is not None:
        counts["unread"] += 1
        click.echo(f"Error: {result.error}", err=True)
        if as_json:
            emit(result.to_dict())
        return EXIT_UNREADABLE
    counts["illegal"] += result.illegal
    if thresholds is not None:
        from bgcli.judging.rating import remark

        remark(result.decisions, result.players, thresholds)
    if as_json:
        emit(result.to_dict())
    else:
        click.echo(text_of(result, thresholds))
    return EXIT_PROBLEMS if result.illegal else 0


def _number(value, digits: int = 3, sign: bool = False) -> str:
    if value is None:
        return "-"
    return f"{value:+.{digits}f}" if sign else f"{value:.{digits}f}"


def _result(player: dict, key: str) -> str:
    """A result in points (money) or as a match winning chance won (match play: the player has MWC figures)."""
    value = player[key]
    if value is None:
        return "-"
    return f"{100 * value:+.1f}%" if "luck_mwc" in player else f"{value:+.2f}"


def text_of(result, thresholds=None) -> str:
    """A file's rating for people: the marked and illegal decisions, then a table of the players."""
    from bgcli.judging.rating import DecisionKind, Mark, Thresholds
    from bgcli.output import cut

    mark = (thresholds or Thresholds()).mark

    lines = [f"{result.path}"]
    for d in result.decisions:
        error = d["error"]
        where = f"  game {d['game']} move {d['move']} line {d['line']} ({d['player']})"
        if d["kind"] == "illegal":
            lines.append(f"{where}: illegal play {cut(d['played']) if d['played'] else '(none)'}: not a legal choice, not judged")
            continue
        if error is None or mark(error) == Mark.NONE:
            continue
        if d["kind"] == "play":
            what = f"play {d['played']}, best {d['best']}"
        else:
            verdict = d.get("cube_error") or DecisionKind(d["kind"]).verdict
            what = f"{verdict} (best: {d['best']})"
        lines.append(f"{where}: {what}: error {error:.3f} ({mark(error).value})")
    for p in result.players:
        # gnubg's kinds of cube error, where the player made any
        kinds = [f"{kind} {v['count']} ({v['error']:.3f})" for kind, v in p.get("cube_errors", {}).items() if v["count"]]
        if kinds:
            lines.append(f"  cube errors of {p['name']}: {', '.join(kinds)}")
    width = max([len(p["name"]) for p in result.players] + [6])
    lines.append(f"  {'player':<{width}}  decisions  error   rate     PR    luck  result  luck-adj.  doubtful  bad  very bad")
    for p in result.players:
        lines.append(f"  {p['name']:<{width}}  {p['decisions']:>9}  {_number(p['error']):>5}  {_number(p['error_rate'], 1):>5}"
                     f"  {_number(p['pr'], 2):>5}  {_number(p['luck'], sign=True):>6}  {_result(p, 'result'):>6}  "
                     f"{_result(p, 'luck_adjusted'):>9}  {p['doubtful']:>8}  {p['bad']:>3}  {p['very_bad']:>8}")
    if getattr(result, "second", None):
        lines += second_opinion_lines(result.second)
    return "\n".join(lines)


def second_opinion_lines(second: dict) -> list[str]:
    """rate --second-opinion for people: each player's PR by both engines, then the decisions they disagree on."""
    first_name, second_name = second["first"], second["second"]
    width = max([len(p["name"]) for p in second["players"]] + [6])
    lines = [f"  second opinion: PR by {first_name} and by {second_name}"]
    for p in second["players"]:
        lines.append(f"  {p['name']:<{width}}  {_number(p['pr_first'], 2):>6}  {_number(p['pr_second'], 2):>6}")
    found = second["disagreements"]
    lines.append(f"  {len(found)} decision{'s' if len(found) != 1 else ''} the engines disagree on "
                 f"(errors apart by more than {second['margin']:g})"
                 + (f"; each rolled out by {second['rollout']['engine']}, {second['rollout']['trials']} trials"
                    if second.get("rollout") else "; no rollout verdict (--verdict-trials 0)"))
    for d in found:
        def said(judged: dict) -> str:
            best = judged.get("action") or judged["best"]
            return f"{best} (error {_number(judged['error'])})"
        lines.append(f"  game {d['game']} move {d['move']} line {d['line']} ({d['player']}): {d['kind']} {d['played']}: "
                     f"{first_name} {said(d['first'])}, {second_name} {said(d['second'])}")
        if d.get("verdict") is not None:
            figures = ", ".join(f"{a['answer']} {a['equity']:+.3f} ± {a['se']:.3f}" for a in d["rollout"]["answers"])
            lines.append(f"    rollout: {d['verdict']}" + ("" if d["settled"] else " (not separated at "
                         f"{d['rollout']['trials']} trials)") + f": {figures}")
    return lines


def _report(db, as_json: bool) -> int:
    players = db.players()
    if as_json:
        for row in players:
            emit(row)
        return 0
    width = max([len(p["name"]) for p in players] + [6])
    click.echo(f"{'player':<{width}}  matches  decisions  error     PR     luck  doubtful  bad  very bad")
    for p in players:
        click.echo(f"{p['name']:<{width}}  {p['matches']:>7}  {p['decisions']:>9}  {_number(p['error']):>7}  "
                   f"{_number(p['pr'], 2):>5}  {_number(p['luck'], sign=True):>7}  {p['doubtful']:>8}  {p['bad']:>3}  "
                   f"{p['very_bad']:>8}")
    return 0
