"""The hint command: an engine's best plays, or its cube decision, for a position.

A thin layer over :func:`bgcli.engines.hint.hint`; the engine is opened when
the command runs, kept for the command (once per worker with --batch --jobs)
and closed when it ends (:mod:`bgcli.engines.kept`).
"""
from __future__ import annotations

import functools
import json
import sys
from typing import Iterable

import click

from bgcli.cli.common import opened, result_output
from bgcli.cli.common import (
    refuse_jobs_without_batch, EXIT_PROBLEMS, EXIT_UNREADABLE, Failure, WordsCommand, cli, emit, jobs_option, json_option, read_position,
    run_in_chunks, style_option,
)
from bgcli.cli.common import batch_option, batch_source, engine_option, level_option, met_option, timeout_option
from bgcli.cli.common import end_interrupted, rollout_options, setting_flags
from bgcli.cli.batch import EMPTY_LINE, is_comment
from bgcli.cli.batch import position_and_dice
from bgcli.cli.positions import BadLine, batch_lines, open_binary
from bgcli.core.spelling import recorded_text
from bgcli.errors import BgcliError, InvalidPositionError


def engine_options(function):
    """--engine, --level, --timeout and --met, shared by the commands that ask an engine."""
    function = met_option(function)
    function = timeout_option("The time limit of one engine call: gnubg is stopped at it; sage, in this process, "
                              "fails the call when it returns past it.")(function)
    function = level_option()(function)
    return engine_option("sage", "sage: the Open Sage engine (bgsage); gnubg: GNU Backgammon run as a program; "
                                 "exact: bgcli's exact bear-off figures.", name="engine_name")(function)


# the rule settings a position's judgement may be given on the command line: rules a Position ID cannot
# carry (an XGID carries the money ones); their options and help are core.rules.SETTINGS' (cli.common)
GIVEN_RULES = ("jacoby", "beavers", "crawford")


def _state_and_dice(words: list[str], rules_on: tuple[str, ...] = ()):
    """The position and dice of ``words``, each rule setting of ``rules_on`` given (its option's value,
    --jacoby on, --no-crawford off) where the rules say it applies: money play for Jacoby and beavers, a
    match for Crawford; elsewhere the position is judged as it is."""
    # a typo in the dice is an error about the dice, never dropped (``ID 71`` was judged as the cube)
    state, dice = position_and_dice(words, read_position, dice_needed=False)
    if rules_on:
        from dataclasses import replace

        from bgcli.core.rules import SETTING_OF_FIELD

        given = {field: SETTING_OF_FIELD[field].option_sets for field in rules_on if state.match.rules.applies(field)}
        if given.get("crawford") is False and state.match.crawford:
            raise InvalidPositionError("--no-crawford: the Match ID says this game is the Crawford game, which "
                                       "there is none of without the Crawford rule")
        if given:
            state = replace(state, match=replace(state.match, rules=replace(state.match.rules, **given)))
    return state, dice


def _signed(value: float) -> str:
    return f"{value:+.3f}"


def _percents(p) -> str:
    return (f"{100 * p.win:5.1f}% {100 * p.win_gammon:4.1f}% {100 * p.win_backgammon:4.1f}%  -  "
            f"{100 * p.lose:5.1f}% {100 * p.lose_gammon:4.1f}% {100 * p.lose_backgammon:4.1f}%")


def hint_text(found, style: str) -> list[str]:
    """The lines ``bgcli hint`` prints for a person."""
    from bgcli.core.ids import gnubg_id
    from bgcli.core.notation import play_text
    from bgcli.engines.protocol import Level

    level = Level(found.level)
    match = found.state.match
    kind = f"{match.match_length}-point match, score {match.score[match.on_roll]}-{match.score[1 - match.on_roll]}" \
        if match.match_length else "money"
    what = f"{recorded_text(found.dice)}" if found.dice else "cube decision"
    name = found.engine if found.engine == "exact" else f"{found.engine} {level.name()} (XG {level.xg_name()})"
    lines = [f"{name}, {kind}, {gnubg_id(found.state)}, {what}"]
    if found.refusal is not None:
        lines.append(f"  You cannot double: {found.refusal}.")
        return lines
    if found.cube is not None and found.action is not None:
        lines.extend(_cube_lines(found))
        return lines
    if not found.plays:
        lines.append("  no legal play")
        return lines
    best = found.plays[0].evaluation.equity
    side = match.on_roll
    width = max(len(play_text(p.play, style, side=side)) for p in found.plays)
    for number, p in enumerate(found.plays, 1):
        e = p.evaluation
        diff = f"({_signed(e.equity - best)})" if number > 1 else ""
        chance = f" {100 * e.mwc:5.1f}%" if e.mwc is not None else ""
        lines.append(f"{number:3}. {play_text(p.play, style, side=side):<{width}}  {_signed(e.equity)}{chance} {diff:>8}  "
                     f"{_percents(e.probabilities)}")
    return lines


def _cube_lines(found) -> list[str]:
    """The cube analysis as GNU Backgammon's hint prints it: its three lines in
    its order, each but the first with its difference to the first, and the
    proper action in its words with its percentage (bgcli adds the match winning chances)."""
    from bgcli.core.cube import Line, ranked

    c, action = found.cube, found.action
    values = {Line.NO_DOUBLE: (c.no_double, c.no_double_mwc), Line.DOUBLE_TAKE: (c.double_take, c.double_take_mwc),
              Line.DOUBLE_PASS: (c.double_pass, c.double_pass_mwc)}
    order = ranked(action, c.no_double, c.double_take, c.double_pass)
    first = values[order[0]][0]
    lines = [f"  cubeless: {_percents(c.probabilities)}"]
    for number, line in enumerate(order, 1):
        value, mwc = values[line]
        chance = f"  {100 * mwc:5.1f}%" if mwc is not None else ""
        diff = f"  ({_signed(value - first)})" if number > 1 else ""
        lines.append(f"  {number}. {str(line):<20}{_signed(value)}{chance}{diff}")
    share = found.percent
    lines.append(f"  Proper cube action: {action}" + (f" ({100 * share:.1f}%)" if share is not None else ""))
    return lines


def run_batch(lines: Iterable, engine_args: tuple, style: str, first: int = 1, out=None,
              rules_on: tuple[str, ...] = ()) -> int:
    """One JSON object a line; a bad line gets {"error": ...} (status 1), a line too long ends the batch (2).
    A position where the player may not double is an answer (its reason), not an error."""
    from bgcli.engines.hint import hint

    from bgcli.cli.batch import WORD as _WORD

    engine = opened(*engine_args)
    out = out or sys.stdout
    status = 0
    for number, line in enumerate(lines, first):
        try:
            if isinstance(line, BadLine):
                status = max(status, EXIT_UNREADABLE if line.last else EXIT_PROBLEMS)
                raise BgcliError(line.error)
            words = _WORD.findall(line)
            if not words:
                raise BgcliError(EMPTY_LINE)
            if is_comment(line):
                continue
            state, dice = _state_and_dice(words, rules_on)
            out.write(json.dumps(hint(state, dice, engine).to_dict(style), ensure_ascii=False) + "\n")
        except BgcliError as exc:
            out.write(json.dumps({"error": f"line {number}: {exc}"}, ensure_ascii=False) + "\n")
            status = max(status, EXIT_PROBLEMS)
    out.flush()
    return status


def _chunk(args, engine_args: tuple, style: str, rules_on: tuple[str, ...] = ()) -> tuple[int, str]:
    import io

    block, first = args
    out = io.StringIO()
    return run_batch(block, engine_args, style, first, out, rules_on), out.getvalue()


@cli.command(cls=WordsCommand)
@result_output
@click.argument("words", nargs=-1, metavar="POSITION [DICE]")
@engine_options
@batch_option("Read `POSITION [DICE]` lines from FILE; write one JSON object per line.")
@jobs_option("With --batch: work on N processes, each with its own engine; the output keeps the input's order")
@setting_flags(GIVEN_RULES, "{play} position is judged as it is.")
@click.option("--rollout", "rolled", is_flag=True,
              help="After the ranking, roll out the best plays (--candidates) or the cube decision, the trials "
                   "at 0-ply (bgcli rollout for more).")
@rollout_options
@json_option
@style_option
def hint(words, engine_name, level, timeout, met, batch, jobs, as_json, style, jacoby, beavers, crawford, rolled, trials,
         until_se, seed, truncate, candidates):
    """Judge POSITION: with DICE the legal plays ranked best first, without
    them the cube decision of the player on roll: the proper cube action in
    GNU Backgammon's own words (a redouble, too good, optional, a beaver...),
    or, where the player may not double (the opponent owns the cube, the
    Crawford game, a dead cube), why not (exit 0).

    With --rollout the best plays of the ranking (or the cube decision) are
    then rolled out as bgcli rollout does, each figure with its standard
    error and 95% interval (--trials, --seed, --truncate, --until-se).

    Each play shows its equity (cubeful, per unit of the cube; in a match
    normalised so that winning a single game is +1, with the match winning
    chance beside it), the difference to the best, and the chances for the
    player who moved: win, gammon, backgammon - lose, gammon, backgammon.
    bgcli lists the legal plays itself and the engine only evaluates them.

    The engines: sage (the default; pip install 'bgcli[engine]'), gnubg (GNU
    Backgammon as a separate program; apt-get install gnubg) and exact
    (bgcli's exact figures of bear-offs without contact or gammons). A
    missing engine is exit 2, with what to install.

    \b
    Examples:
        bgcli hint start 31
        bgcli hint --level 0 'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10'
        bgcli hint --json --engine gnubg 4HPwATDgc/ABMA 6-5
        bgcli hint 4HPwATDgc/ABMA:cAkAAAAAAAAA
        printf 'start 31\\nstart\\n' | bgcli hint --batch -
        bgcli hint --rollout --trials 36 --truncate 2 start 31
    """
    from bgcli.engines.kept import keeping
    from bgcli.judging.rollout import RolloutSettings

    settings = None
    if rolled:
        # the exact engine has cubeless figures only: its rollout is cubeless, as its ranking
        settings = RolloutSettings(trials=trials, seed=seed, cubeful=engine_name != "exact", truncate=truncate,
                                   until_se=until_se)
    with keeping():   # the engines the command opens are closed when it ends
        rules_on = tuple(field for field, given in zip(GIVEN_RULES, (jacoby, beavers, crawford)) if given)
        _hint(words, (engine_name, level, timeout, met), batch, jobs, as_json, style, rules_on, settings, candidates)


def _hint(words, engine_args: tuple, batch, jobs, as_json, style, rules_on: tuple[str, ...] = (), settings=None, candidates: int = 3) -> None:
    from bgcli.engines.hint import hint as judge

    if settings is not None and batch is not None:
        raise click.UsageError("--rollout rolls out one position: not with --batch")
    refuse_jobs_without_batch(batch)
    batch, words = batch_source(batch, words)
    if batch is not None:
        lines = batch_lines(open_binary(batch))
        opened(*engine_args)  # a missing engine: one line and exit 2 before any work
        if jobs == 1:
            sys.exit(run_batch(lines, engine_args, style, rules_on=rules_on))
        sys.exit(run_in_chunks(lines, jobs, 50, functools.partial(_chunk, engine_args=engine_args, style=style,
                                                                  rules_on=rules_on),
                               lambda block: run_batch(block, engine_args, style, rules_on=rules_on)))
    if not words:
        raise click.UsageError("missing POSITION (try: bgcli hint start 31)")
    try:
        state, dice = _state_and_dice(list(words), rules_on)
        found = judge(state, dice, opened(*engine_args))
    except BgcliError as exc:
        raise Failure.of(exc) from None
    rolled = _rolled_out(state, found, engine_args, settings, candidates) if settings is not None else None
    if as_json:
        out = found.to_dict(style)
        if settings is not None:
            out["rollout"] = rolled.to_dict(style) if rolled is not None else None
        emit(out)
    else:
        for line in hint_text(found, style):
            click.echo(line)
        if rolled is not None:
            from bgcli.cli.rollout import rollout_text

            for line in rollout_text(rolled, style):
                click.echo(line)
    if rolled is not None and rolled.partial:
        end_interrupted()


def _rolled_out(state, found, engine_args: tuple, settings, candidates: int):
    """The rollout after the ranking: its best ``candidates`` plays, or the cube decision, the trials
    played by the same engine at 0-ply; None where there is nothing to roll out (no legal play, or a
    player who may not double)."""
    from bgcli.cli.rollout import run_rollout

    if found.refusal is not None or (found.dice is not None and not found.plays):
        return None
    name, _level, timeout, table = engine_args
    engine = opened(name, 0, timeout, table)
    plays = [p.play for p in found.plays[:candidates]]
    return run_rollout(state, engine, found.dice, plays, candidates, settings)
