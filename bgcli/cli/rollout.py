"""The rollout command: candidate plays or a cube decision rolled out (bgcli.judging.rollout).

A thin layer: the engine is opened as hint opens it, the trials are the
library's; this module reads the options, draws the progress on a terminal,
and writes the figures (text or JSON), marked partial after Ctrl-C.
"""
from __future__ import annotations

import sys

import click

from bgcli.cli.archives import check_scheduler
from bgcli.cli.common import engine_option, level_option, met_option, rollout_options, timeout_option
from bgcli.cli.common import (
    Failure, Unreadable, WordsCommand, cli, emit, end_interrupted, jobs_option, json_option, opened, progress_wanted,
    refuse_jobs_with_scheduler, result_output, say, style_option,
)
from bgcli.errors import BgcliError
from bgcli.scale.cluster import ClusterError
from bgcli.core.spelling import recorded_text


def _signed(value: float) -> str:
    return f"{value:+.3f}"


def _percents(p) -> str:
    return (f"{100 * p.win:5.1f}% {100 * p.win_gammon:4.1f}% {100 * p.win_backgammon:4.1f}%  -  "
            f"{100 * p.lose:5.1f}% {100 * p.lose_gammon:4.1f}% {100 * p.lose_backgammon:4.1f}%")


def _state_and_dice(words: list[str]):
    """The position and the dice written (None: the cube), as hint reads them: a typo in the dice
    is an error about the dice, never dropped (``4HPwATDgc/ABMA 71`` rolled out the cube)."""
    from bgcli.cli.batch import position_and_dice
    from bgcli.cli.common import read_position

    return position_and_dice(words, read_position, dice_needed=False)


def _figure(figure) -> str:
    return f"{_signed(figure.mean)} ±{figure.se:.3f}"


def rollout_text(found, style: str) -> list[str]:
    """The lines ``bgcli rollout`` prints for a person."""
    from bgcli.core.ids import gnubg_id
    from bgcli.core.notation import play_text

    match = found.state.match
    kind = f"{match.match_length}-point match, score {match.score[match.on_roll]}-{match.score[1 - match.on_roll]}" \
        if match.match_length else "money"
    what = f"{recorded_text(found.dice)}" if found.dice else "cube decision"
    s = found.settings
    how = [f"{found.trials} trials" + (f" of {s.trials}" if found.trials < s.trials else ""),
           "cubeful" if s.cubeful else "cubeless",
           f"truncated at {s.truncate} half-moves" if s.truncate else "played to the end",
           "variance reduction" if s.variance_reduction else "no variance reduction", f"seed {s.seed}"]
    engine = found.engine if found.engine == "exact" else f"{found.engine} {found.level}-ply"
    lines = [f"rollout by {found.method}, {engine}, {kind}, {gnubg_id(found.state)}, {what}", "  " + ", ".join(how)]
    if found.method_note:
        lines.append(f"  {found.method_note}")
    if found.partial:
        lines.append("  PARTIAL: interrupted; the figures are those of the trials finished")
    if found.refusal is not None:
        lines.append(f"  You cannot double: {found.refusal}.")
        return lines
    if not found.lines:
        lines.append("  no trial finished")
        return lines
    side = match.on_roll
    names = [play_text(line.play, style, side=side) if line.play is not None else str(line.kind.cube_line)
             for line in found.lines]
    width = max(len(name) for name in names)
    best = found.lines[0].equity.mean
    lines.append(f"  {'':<{width + 4}}{'equity':>7} {'s.e.':>6}  {'95% interval':<17}  win    gam  bg   -  lose   gam  bg")
    for number, (line, name) in enumerate(zip(found.lines, names), 1):
        e = line.equity
        low, high = e.interval
        chance = f"  {100 * line.mwc.mean:5.1f}%" if line.mwc is not None and line.play is not None else ""
        diff = f" ({_signed(e.mean - best)})" if number > 1 and line.play is not None else ""
        shown = f"{_signed(low)} {_signed(high)}" if e.se else "exact"
        probs = ""
        if line.probabilities:
            from bgcli.engines.protocol import Probabilities

            p = line.probabilities
            probs = _percents(Probabilities(p["win"].mean, p["win_gammon"].mean, p["win_backgammon"].mean,
                                            p["lose_gammon"].mean, p["lose_backgammon"].mean))
        lines.append(f"  {number}. {name:<{width}}  {_signed(e.mean)} {e.se:6.4f}  {shown:<17}  {probs}{chance}{diff}")
    if found.action is not None:
        lines.append(f"  Proper cube action: {found.action}")
    return lines


class Bar:
    """The progress on a terminal: trials done, and the running estimate of the first line."""

    def __init__(self) -> None:
        self.on = progress_wanted()
        self.drawn = False

    def __call__(self, done: int, most: int, lines) -> None:
        if not self.on:
            return
        width = 24
        filled = int(width * done / most) if most else 0
        estimate = ""
        if lines:
            first = lines[0]
            estimate = f"  {str(first.kind)}: {_figure(first.equity)}"
        try:
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{most} trials{estimate}\033[K")
            sys.stderr.flush()
            self.drawn = True
        except (OSError, ValueError):
            self.on = False

    def close(self) -> None:
        if self.drawn:
            sys.stderr.write("\n")
            self.drawn = False


def engine_options(function):
    """--engine, --level (0 unless given: the trials' plays and cube actions), --timeout and --met."""
    function = met_option(function)
    function = timeout_option("The time limit of one engine call.")(function)
    function = level_option(more="The trials play at this level.", default=0)(function)
    return engine_option("sage", "sage: the Open Sage engine (bgsage); gnubg: GNU Backgammon run as a program; "
                                 "exact: bgcli's exact bear-off figures (cubeless only).", name="engine_name")(function)


@cli.command(cls=WordsCommand)
@result_output
@click.argument("words", nargs=-1, metavar="POSITION [DICE]")
@engine_options
@rollout_options
@click.option("--cubeless", is_flag=True, help="Never turn the cube (cubeful unless given).")
@click.option("--no-vr", "no_vr", is_flag=True, help="No variance reduction (the luck of each roll is kept in).")
@click.option("--play", "named", multiple=True, metavar="PLAY",
              help="With DICE: roll out this play (repeatable) instead of the engine's best.")
@click.option("--bgcli-loop", is_flag=True,
              help="bgcli's own trial loop even where the engine rolls out itself (sage; gnubg).")
@jobs_option("Split the trials into blocks on N processes (the same figures as one process)")
@click.option("--scheduler", default=None, metavar="ADDRESS", callback=check_scheduler,
              help="Split the trials over a Dask cluster (tcp://host:8786, or local:N): the same figures as here.")
@json_option
@style_option
def rollout(words, engine_name, level, timeout, met, trials, until_se, seed, truncate, candidates, cubeless, no_vr,
            named, bgcli_loop, jobs, scheduler, as_json, style):
    """Roll out POSITION: with DICE the candidate plays (the engine's best
    three, or those named with --play), without them the cube decision of the
    player on roll (no double and double/take played on the same trials).

    With --engine gnubg the plays and the cube decisions (money or match) are
    rolled out by GNU Backgammon's own rollout (its dice, the same settings),
    unless --bgcli-loop, --jobs or --scheduler: it rolls out the no double
    and the doubled cube, and bgcli takes the first cube action from them
    (after a play, the opponent's).

    Each trial plays the game out (cubeful unless --cubeless) with the engine
    choosing every play, each checked against bgcli's legal plays, and every
    cube action decided by bgcli's cube rules from the engine's figures. Each
    figure has its standard error and 95% interval. Ctrl-C prints the figures
    of the trials finished, marked PARTIAL (exit 130; with -o FILE, to FILE).

    \b
    Examples:
        bgcli rollout --trials 36 --truncate 4 start 31
        bgcli rollout --trials 36 --truncate 4 --json 'XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10'
    """
    from bgcli.judging.rollout import RolloutSettings

    if not words:
        raise click.UsageError("missing POSITION (try: bgcli rollout start 31)")
    refuse_jobs_with_scheduler(jobs, scheduler)
    settings = RolloutSettings(trials=trials, seed=seed, cubeful=not cubeless, truncate=truncate,
                               variance_reduction=not no_vr, until_se=until_se)
    from bgcli.engines.kept import keeping

    with keeping():   # the engines the command opens are closed when it ends
        try:
            state, dice = _state_and_dice(list(words))
            if named and dice is None and not state.match.dice[0]:
                raise click.UsageError("--play needs DICE")
            engine = opened(engine_name, level, timeout, met)
            plays = _named_plays(state, dice, named)
        except BgcliError as exc:
            raise Failure.of(exc) from None
        found = run_rollout(state, engine, dice, plays, candidates, settings, jobs, scheduler, bgcli_loop)
    if as_json:
        emit(found.to_dict(style))
    else:
        for line in rollout_text(found, style):
            say(line)
    if found.partial:
        end_interrupted()


def run_rollout(state, engine, dice, plays, candidates: int, settings, jobs: int = 1, scheduler: str | None = None,
                bgcli_loop: bool = False):
    """The rollout a command asked for, with its progress on a terminal: the engine's own where it has
    one (gnubg's, unless ``bgcli_loop`` or the trials are spread), else bgcli's loop over ``jobs``
    processes or the Dask ``scheduler``. A cluster that cannot be reached is exit 2, any other
    refusal exit 1, each one line."""
    from bgcli.judging.rollout import engine_rollout, has_own_rollout, rollout as roll
    from bgcli.scale.rollout import spread

    bar = Bar()
    try:
        if has_own_rollout(engine, dice or (state.match.dice if state.match.dice[0] else None), state) \
                and not bgcli_loop and jobs == 1 and not scheduler:
            return engine_rollout(state, engine, dice, plays=plays, candidates=candidates, settings=settings)
        return roll(state, engine, dice, plays=plays, candidates=candidates, settings=settings,
                    blocks=spread(jobs, scheduler), progress=bar, own=not bgcli_loop)
    except ClusterError as exc:   # the scheduler cannot be reached: as audit's --scheduler, exit 2
        raise Unreadable(str(exc)) from None
    except BgcliError as exc:
        raise Failure.of(exc) from None
    finally:
        bar.close()


def _named_plays(state, dice, named) -> list:
    from bgcli.core.notation import parse_play

    if not named:
        return []
    roll = dice or state.match.dice
    return [parse_play(text, state, roll) for text in named]
