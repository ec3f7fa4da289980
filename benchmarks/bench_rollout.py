"""Rollout speed, side by side in one run: trials per second per core at 0-ply, cubeful, played to
the end, with variance reduction, of the same play (the opening 31 played 8/5 6/5, rolled out from
the opponent on roll), by

- sage's own rollout (``bgcli rollout``'s path with the default engine: bgbot_cpp's C++ trial loop,
  round by round of 36 trials, one thread);
- bgcli's own trial loop over the engine protocol with the default engine (sage 0-ply, what
  ``--bgcli-loop``, cubeless match play and deeper levels run), with and without variance reduction (the
  luck of every roll costs the evaluation of the 21 rolls' plays);
- GNU Backgammon's own rollout (``--engine gnubg``: gnubg's ``rollout``, one thread; its CPU time
  includes starting gnubg, about a third of a second);
- with ``--jobs``: bgcli's loop on ``--jobs 2`` against one process (wall clock; the same figures).

Each row is measured ``--rounds`` times, interleaved (row A, B, C, D, then A, B, ... again), so the
machine's other load falls on all of them alike; round ``r`` rolls out with the seed ``--seed + r``
(other dice each round), and the table gives each row's median speed and its standard error pooled
over the rounds (the root of the mean of the squares); the ratios are of those.

Speed alone flatters a rollout whose figures are noisier, so the last column puts each row at gnubg's
precision: its trials per second per core times (gnubg's s.e. / its s.e.) squared, the rate at which
it would reach gnubg's standard error (the trials a standard error asks for grow as its square). The
"spread" column is the standard deviation of the rounds' means (each round other dice): the error
the rounds really have, beside the one each reports. Both engines' dice are stratified (within 36
trials every half-move's roll is each of the 36 once), which makes their means steadier than the
standard error they report (the trials' spread over the root of their number) says; with a few
rounds the spread is itself rough: ask ``--rounds 12`` for a figure worth quoting.

    python benchmarks/bench_rollout.py                        # 144 trials a row, 3 rounds
    python benchmarks/bench_rollout.py --trials 144 --rounds 12 --loop-trials 36

The issue's target: bgcli's rollout (sage's own, the default) at least as many trials per second
per core as gnubg's own, at a comparable standard error; bgcli's loop: its ratio, reported as
measured.
"""
from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bgcli.core.generator import legal_plays  # noqa: E402
from bgcli.core.ids import parse_gnubg_id  # noqa: E402
from bgcli.engines import open_engine  # noqa: E402
from bgcli.engines.gnubg import find_gnubg  # noqa: E402
from bgcli.judging.rollout import RolloutSettings, engine_rollout, rollout  # noqa: E402
from bgcli.scale.rollout import spread  # noqa: E402

START = "4HPwATDgc/ABMA:cAkAAAAAAAAA"


def cpu_and_wall(work) -> tuple[float, float, object]:
    import resource

    def cpu() -> float:
        own = resource.getrusage(resource.RUSAGE_SELF)
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime

    began, began_cpu = time.perf_counter(), cpu()
    found = work()
    return time.perf_counter() - began, cpu() - began_cpu, found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=144, help="trials of each fast row (sage's, gnubg's, no VR)")
    parser.add_argument("--loop-trials", type=int, default=36, help="trials of bgcli's loop with VR (slow)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", action="store_true",
                        help="add the --jobs 2 run of bgcli's loop (at least 144 loop trials: trials go out in blocks of 36)")
    args = parser.parse_args()
    if args.jobs and args.loop_trials < 144:
        # blocks of 36 by trial index: 36 trials are one block, which a second process cannot share
        print(f"--jobs: bgcli's loop rolls out 144 trials, not {args.loop_trials} (four blocks of 36 for two processes)")
        args.loop_trials = 144
    state = parse_gnubg_id(START)
    play = next(p for p in legal_plays(state.position, (3, 1)) if str(p) == "8/5 6/5")
    engine = open_engine("sage", 0)
    gnubg = open_engine("gnubg", 0) if find_gnubg() else None

    def ours(own: bool, trials: int, vr: bool = True, blocks=None):
        def work(seed: int):
            settings = RolloutSettings(trials=trials, seed=seed, variance_reduction=vr)
            return rollout(state, engine, (3, 1), plays=[play], settings=settings, blocks=blocks, own=own, threads=1)
        return work

    def theirs(seed: int):
        settings = RolloutSettings(trials=args.trials, seed=seed)
        return engine_rollout(state, gnubg, (3, 1), plays=[play], settings=settings, threads=1)

    rows: dict[str, object] = {
        "sage's own rollout (bgcli rollout), 1 thread": ours(True, args.trials),
        "bgcli's loop over sage, VR": ours(False, args.loop_trials),
        "bgcli's loop over sage, no VR": ours(False, args.trials, vr=False),
    }
    if gnubg is not None:
        rows["gnubg's own rollout, 1 thread"] = theirs
    if args.jobs:
        rows["bgcli's loop over sage, VR, --jobs 2"] = ours(False, args.loop_trials, blocks=spread(2))
    # a first rollout in a process builds what later ones reuse (networks, bear-off tables): not timed
    ours(True, 2)(args.seed)
    ours(False, 2)(args.seed)
    measured: dict[str, list[tuple[float, float, int, float, float]]] = {label: [] for label in rows}
    for index in range(args.rounds):
        for label, work in rows.items():
            wall, cpu, found = cpu_and_wall(lambda: work(args.seed + index))   # type: ignore[operator]
            line = found.lines[0]   # type: ignore[attr-defined]
            measured[label].append((wall, cpu, found.trials, line.equity.mean, line.equity.se))   # type: ignore[attr-defined]
    print(f"rollout of 8/5 6/5 after the opening 31, 0-ply cubeful to the end, {args.rounds} rounds (seeds "
          f"{args.seed}..{args.seed + args.rounds - 1}), medians; s.e. pooled over the rounds")
    print(f"{'':<46} {'trials':>6} {'wall s':>7} {'cpu s':>7} {'trials/s/core':>13} {'equity':>7} {'s.e.':>6} "
          f"{'spread':>6} {'at gnubg s.e.':>13}")
    rate: dict[str, float] = {}
    error: dict[str, float] = {}
    gnubg_label = "gnubg's own rollout, 1 thread"
    for label, runs in measured.items():
        # per core: trials over the CPU time of every process that worked (this one and gnubg's)
        rate[label] = statistics.median(r[2] / max(r[1], 1e-9) for r in runs)
        error[label] = math.sqrt(statistics.fmean(r[4] ** 2 for r in runs))
    for label, runs in measured.items():
        wall = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[1] for r in runs)
        mean = statistics.fmean(r[3] for r in runs)
        spread_of_means = statistics.stdev(r[3] for r in runs) if len(runs) > 1 else float("nan")
        # the rate at which this row would reach gnubg's standard error (trials grow as its square)
        at_gnubg = rate[label] * (error[gnubg_label] / error[label]) ** 2 if gnubg_label in error else float("nan")
        print(f"{label:<46} {runs[-1][2]:>6} {wall:>7.2f} {cpu:>7.2f} {rate[label]:>13.2f} {mean:>+7.3f} "
              f"{error[label]:>6.3f} {spread_of_means:>6.3f} {at_gnubg:>13.2f}")
    labels = list(rate)
    if gnubg is not None:
        theirs = rate[gnubg_label]
        for label in labels[:3]:
            same = (rate[label] / theirs) * (error[gnubg_label] / error[label]) ** 2
            print(f"{label} / gnubg's own, trials per second per core: {rate[label] / theirs:.2f}; "
                  f"for the same standard error: {same:.2f}")
        gnubg.close()
    if args.jobs:
        one = statistics.median(r[0] for r in measured["bgcli's loop over sage, VR"])
        two = statistics.median(r[0] for r in measured["bgcli's loop over sage, VR, --jobs 2"])
        print(f"--jobs 2 / --jobs 1, wall-clock speed-up: {one / two:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
